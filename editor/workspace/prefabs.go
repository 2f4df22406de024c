package workspace

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
	_ "github.com/voltex-editor/voltex/serialize/gltfprefab" // glTF models placed as prefabs
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/snap"
)

// Prefabs are the workspace's prefab workflow (a Workspace has one: Workspace.Prefabs): place an instance of a
// scene file or a model, save the selection as a prefab, revert, apply and unpack instances, follow prefab files
// changed on disk, list the prefab files the Assets panel offers. (The hierarchy marks instances, the inspector
// shows their overrides, the Assets panel lists prefab files: package editor's prefab.go.) It reaches the
// document, the window and the console through its workspace.
type Prefabs struct {
	w     *Workspace
	files prefabFiles // the scene files listed as prefabs
}

// CmdInstantiate asks for a prefab file (a scene, or a glTF model, in the scene's folder) and places an
// instance of it beside what the scene holds (Place).
func (pf *Prefabs) CmdInstantiate() {
	pf.w.ui.ChooseFile(FileRequest{Title: "Instantiate Prefab", Dir: pf.w.dialogDir(), OKLabel: "Instantiate",
		Exts: []string{".json", ".gltf", ".glb"}, OnChoose: pf.Place})
}

// isModel reports whether the file or reference p is a glTF model as a whole (not a part of one): placed as a prefab.
func isModel(p string) bool {
	if _, _, part := assets.SplitRef(p); part {
		return false
	}
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".gltf" || ext == ".glb"
}

// Place places an instance of the prefab at path as a root beside what the scene holds, on its floor and
// never between the camera and it (BesideScene, as a new grid goes): placing again puts the next one beside that.
// With surface snapping on it stands on the surface in the middle of the view instead, when there is one, turned
// to its normal.
func (pf *Prefabs) Place(path string) {
	box, ok := pf.box(path)
	if !ok {
		return
	}
	if pf.w.settings.SurfaceSnap {
		if h, ok := pf.w.ui.SurfaceAhead(); ok {
			pf.instantiate(path, ecs.Entity{}, standing(box, h))
			return
		}
	}
	pf.Instantiate(path, ecs.Entity{}, BesideScene(pf.w.ui.SceneBounds(), box, pf.w.doc.Camera().Eye()))
}

// Drop places an instance of the prefab at path, dragged from the Assets panel into the viewport, as a root
// standing on the surface at (standing).
func (pf *Prefabs) Drop(path string, at snap.SurfaceHit) {
	if box, ok := pf.box(path); ok {
		pf.instantiate(path, ecs.Entity{}, standing(box, at))
	}
}

// box is the bounds of what the prefab at path draws, relative to its root (its origin when it draws
// nothing); ok is false, and the user told why, when it cannot be placed.
func (pf *Prefabs) box(path string) (viewport.AABB, bool) {
	shape, err := pf.w.doc.Shape(context.Background(), doc.CopySource{Prefab: path})
	if err != nil {
		pf.placeFailed(path, err)
		return viewport.AABB{}, false
	}
	box := viewport.EmptyAABB()
	for _, it := range shape {
		if m, err := pf.w.assets.Mesh(it.Mesh); err == nil && m != nil {
			box = box.Union(viewport.MeshBounds(m).Transform(it.Matrix))
		}
	}
	if box.IsEmpty() { // nothing drawn: its origin is what is placed
		box = viewport.AABB{}
	}
	return box, true
}

// standing is the Transform that stands a thing whose bounds are box (relative to its origin) on the surface at:
// its up axis along the surface's normal, the middle of its bottom on the point — what a move with surface
// snapping does to a moved entity (snap.OnSurface). On level ground it is not turned at all.
func standing(box viewport.AABB, at snap.SurfaceHit) ecs.Transform {
	t := ecs.Transform{}.Default()
	m := snap.OnSurface(mgl32.Ident4(), box, at.Point, at.Normal)
	if turned, ok := ecs.TransformFromMatrix(m, mgl32.Vec3{}); ok {
		t.Position, t.Rotation = turned.Position, turned.Rotation // the scale stays exactly 1: the turn is a rotation
	} else {
		t.Position = at.Point
	}
	return t
}

// Instantiate places an instance of the prefab at path under parent at pos (parent's space).
func (pf *Prefabs) Instantiate(path string, parent ecs.Entity, pos mgl32.Vec3) {
	t := ecs.Transform{}.Default()
	t.Position = pos
	pf.instantiate(path, parent, t)
}

// instantiate places an instance of the prefab at path under parent with Transform t (parent's space).
func (pf *Prefabs) instantiate(path string, parent ecs.Entity, t ecs.Transform) {
	e, err := pf.w.doc.Prefabs().InstantiateAt(context.Background(), path, parent, t)
	if err != nil {
		pf.placeFailed(path, err)
		return
	}
	pf.w.log.Infof("placed %s (an instance of %s)", pf.w.doc.Name(e), filepath.Base(path))
	pf.w.ui.Show(e) // under a collapsed parent (a drop on its row) too, as Create shows what it made
	pf.w.watcher.sync()
}

// PlaceMesh makes an entity with the mesh ref (a mesh dragged from the Assets panel) standing on the surface at
// (standing: on the ground, upright, or on a mesh's surface turned to its normal), named after the mesh, and
// selects it: one undoable step. A glTF model is placed as an instance of it (a prefab of its nodes, with their
// materials, lights and cameras); an OBJ file gets the Material its .mtl gives its faces.
func (pf *Prefabs) PlaceMesh(ref string, at snap.SurfaceHit) {
	box := viewport.AABB{} // its origin on the surface when it has no bounds
	if m, err := pf.w.assets.Mesh(ref); err == nil && m != nil {
		if b := viewport.MeshBounds(m); !b.IsEmpty() {
			box = b
		}
	}
	t := standing(box, at)
	if isModel(ref) {
		pf.instantiate(filepath.Join(pf.w.assets.Root(), filepath.FromSlash(ref)), ecs.Entity{}, t)
		return
	}
	comps := []any{scene.Mesh{Asset: ref}, scene.Color{}.Default()}
	if strings.EqualFold(filepath.Ext(ref), ".obj") {
		switch m, ok, err := assets.ReadOBJMaterial(pf.w.assets.Root(), ref, assets.Limits{}); {
		case err != nil:
			pf.w.log.Warnf("%s: its material is not used: %v", ref, err)
		case ok:
			comps = append(comps, objMaterial(m))
		}
	}
	name := strings.TrimPrefix(ref, "builtin:")
	name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	if name != "" {
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	e, err := pf.w.doc.Spawn("Create "+name, ecs.Entity{}, name, append([]any{t}, comps...)...)
	if err != nil {
		pf.w.Report("create "+name, err)
		return
	}
	pf.w.log.Infof("created %s (mesh %s)", name, ref)
	pf.w.ui.Show(e)
}

// objMaterial is the Material an OBJ's .mtl material makes: its diffuse colour and map as the base colour, not
// metallic, fully rough (what a diffuse-only material looks like), blended when it is not opaque.
func objMaterial(m assets.OBJMaterial) scene.Material {
	mat := scene.Material{}.Default()
	mat.BaseColor = [4]float32{m.Diffuse[0], m.Diffuse[1], m.Diffuse[2], m.Alpha}
	mat.BaseColorTexture.Image = m.DiffuseMap
	mat.Metallic = 0
	if m.Alpha < 1 {
		mat.AlphaMode = scene.AlphaBlend
	}
	return mat
}

// placeFailed says once, in the console and in a message the user sees, why the prefab at path cannot be placed.
func (pf *Prefabs) placeFailed(path string, err error) {
	if errors.Is(err, doc.ErrPlaying) {
		pf.w.Report("place", err)
		return
	}
	name := filepath.Base(path)
	probs := serialize.ProblemsOf(err)
	for _, p := range probs {
		pf.w.log.Errorf("cannot place %s: %s", name, p)
	}
	pf.w.ui.Alert("Cannot place prefab", "Cannot place "+name+":\n\n"+problemLines(probs, func(p serialize.Problem) string {
		return problemText(path, p)
	}))
}

// CmdSaveAs asks for a file name and saves the selected entities there as a prefab, replacing them by an
// instance of it.
func (pf *Prefabs) CmdSaveAs() {
	sel := pf.w.doc.Selection().Entities()
	if len(sel) == 0 {
		return
	}
	name := pf.w.doc.Name(sel[0])
	if name == "" {
		name = "prefab"
	}
	pf.w.ui.ChooseFile(FileRequest{Save: true, Title: "Save Selection as Prefab", Dir: pf.w.dialogDir(), Name: fileNameFor(name),
		OKLabel: "Save", Exts: []string{".json"}, OnChoose: func(p string) {
			inst, err := pf.w.doc.Prefabs().SaveAs(context.Background(), p, sel...)
			if err != nil {
				pf.w.Report("save as prefab", err)
				return
			}
			pf.w.log.Infof("saved %s; the selection is now an instance of it (%s)", shortPath(p), pf.w.doc.Name(inst))
			pf.files.forget() // list it in the Assets panel
			pf.w.watcher.sync()
		}})
}

// CmdUnpack makes the selected prefab instances plain entities of the scene.
func (pf *Prefabs) CmdUnpack() {
	if err := pf.w.doc.Prefabs().Unpack(pf.w.doc.Selection().Entities()...); err != nil {
		pf.w.Report("unpack", err)
		return
	}
	pf.w.log.Infof("unpacked: the entities are plain entities of the scene now")
}

// CmdRevert reverts the selected prefab instances to their prefab.
func (pf *Prefabs) CmdRevert() {
	if err := pf.w.doc.Prefabs().RevertInstances(pf.w.doc.Selection().Entities()...); err != nil {
		pf.w.Report("revert", err)
		return
	}
	pf.w.log.Infof("reverted to the prefab")
}

// CmdApply writes the active instance's overrides into its prefab file.
func (pf *Prefabs) CmdApply() {
	e, ok := pf.w.doc.Selection().Active()
	if !ok {
		return
	}
	if err := pf.w.doc.Prefabs().ApplyInstance(context.Background(), e); err != nil {
		pf.w.Report("apply", err)
		return
	}
	pf.w.log.Infof("applied the instance's overrides to its prefab")
}

// RevertOverride reverts one override of the entities (the inspector's Revert).
func (pf *Prefabs) RevertOverride(es []ecs.Entity, comp, path string) error {
	return pf.w.doc.Prefabs().RevertOverride(es, comp, path)
}

// ApplyOverride writes one override of e into its prefab file (the inspector's Apply).
func (pf *Prefabs) ApplyOverride(e ecs.Entity, comp, path string) error {
	if err := pf.w.doc.Prefabs().Apply(context.Background(), e, comp, path); err != nil {
		return err
	}
	pf.w.log.Infof("applied %s to its prefab", strings.Trim(comp+"."+path, "."))
	return nil
}

// onFileEvent follows a prefab file changed on disk (another editor window saved it, or another program):
// the instances take its new values, keeping their overrides.
func (pf *Prefabs) onFileEvent(path string) {
	if ref, ok := pf.w.assets.RefForPath(path); ok { // a model: its meshes come from the same file
		if _, err := pf.w.assets.Reload(ref); err != nil {
			pf.w.log.Errorf("reloading %s: %v (keeping the previous mesh)", ref, err)
		} else {
			pf.w.ui.ReloadMeshes()
		}
	}
	rep := pf.w.doc.Prefabs().Changed(context.Background(), path)
	if rep.Instances > 0 {
		pf.w.log.Infof("%s changed: %s updated", filepath.Base(path), words.Count(rep.Instances, "instance", "instances"))
	}
	for _, p := range rep.Warnings {
		pf.w.log.Warnf("%s", p)
	}
	pf.w.watcher.sync()
}

// isFile reports whether path (absolute) is a prefab file the scene's instances read.
func (pf *Prefabs) isFile(path string) bool { return slices.Contains(pf.w.doc.Prefabs().Files(), path) }

// List lists the scene files that can be placed as prefabs (the Assets panel).
func (pf *Prefabs) List() []string { return pf.files.list(pf.w.assets.Root(), pf.w.doc.Path()) }

// prefabFiles lists the scene files in the scene's folder and below, rescanned every few seconds (at most 200, 4
// folders deep), the scene itself left out.
type prefabFiles struct {
	files []string // absolute
	dir   string
	at    time.Time
}

// forget makes the next list scan again.
func (p *prefabFiles) forget() { p.at = time.Time{} }

// list returns the scene files below root, self (the open scene's path) left out.
func (p *prefabFiles) list(root, self string) []string {
	if root == p.dir && time.Since(p.at) < 3*time.Second {
		return p.files
	}
	p.dir, p.at = root, time.Now()
	p.files = p.files[:0]
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil
	}
	if self != "" {
		self, _ = filepath.Abs(self)
	}
	_ = filepath.WalkDir(abs, func(path string, d fs.DirEntry, err error) error {
		if err != nil || len(p.files) >= 200 {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if rel, _ := filepath.Rel(abs, path); strings.Count(rel, string(filepath.Separator)) >= 3 || (path != abs && strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(strings.ToLower(d.Name()), ".json") || path == self || strings.HasSuffix(d.Name(), ".export.json") ||
			d.Name() == "voltex.project.json" {
			return nil
		}
		if isRegular(path, d) && isSceneFile(path) {
			p.files = append(p.files, path)
		}
		return nil
	})
	sort.Strings(p.files)
	return p.files
}

// isRegular reports whether the entry d at path is a regular file, or a symlink to one: a named
// pipe would block the loop thread that opens it, and a device is no scene.
func isRegular(path string, d fs.DirEntry) bool {
	if d.Type().IsRegular() {
		return true
	}
	if d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// isSceneFile reports whether the file at path is a scene (by its first bytes).
func isSceneFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }() // read only
	return serialize.IsScene(f)
}

// shortPath names a file relative to the working folder when it is below it.
func shortPath(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}
