package editor

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/filedialog"
	"github.com/voltex-editor/voltex/serialize"
)

// prefabPayload is the drag-and-drop payload of a prefab dragged from the Assets panel (its path is
// kept in prefabState.dragging).
const prefabPayload = "VOLTEX_PREFAB"

// prefabState is the editor's prefab state: the prefab files listed in the Assets panel, the one
// being dragged, and the overrides of the inspected entity (cached by document version).
type prefabState struct {
	files     []string // scene files in the scene's folder and below (absolute), for the Assets panel
	filesDir  string
	filesAt   time.Time
	dragging  string // the prefab being dragged from the Assets panel ("" when none)
	delivered bool   // the drag was dropped (ImGui may report the delivery in more than one frame)
	ovEntity  ecs.Entity
	ovVersion uint64
	ov        []serialize.Override
	widgets   map[string]rectWidget // the prefab section's buttons, for the probe
}

type rectWidget struct{ min, max imgui.Vec2 }

// overrides returns the overrides of e (cached until the document changes).
func (a *App) overrides(e ecs.Entity) []serialize.Override {
	ps := &a.prefab
	if ps.ovEntity != e || ps.ovVersion != a.doc.Version() {
		ps.ovEntity, ps.ovVersion = e, a.doc.Version()
		ps.ov = nil
		if a.doc.IsPart(e) {
			ps.ov = a.doc.Overrides(e)
		}
	}
	return ps.ov
}

// prefabOverrides is the inspector's view of overrides (inspector.Overrides).
type prefabOverrides struct{ a *App }

func (o prefabOverrides) OverridePaths(e ecs.Entity, comp string) []string {
	if o.a.doc.Playing() {
		return nil
	}
	var out []string
	for _, ov := range o.a.overrides(e) {
		if ov.Component != comp || ov.Removed {
			continue
		}
		out = append(out, ov.Path) // "" for an added component
	}
	return out
}

func (o prefabOverrides) RevertOverride(es []ecs.Entity, comp, path string) error {
	return o.a.doc.RevertOverride(es, comp, path)
}

func (o prefabOverrides) ApplyOverride(e ecs.Entity, comp, path string) error {
	return o.a.applyOverride(e, comp, path)
}

func (a *App) applyOverride(e ecs.Entity, comp, path string) error {
	if err := a.doc.ApplyToPrefab(context.Background(), e, comp, path); err != nil {
		return err
	}
	a.console.Infof("applied %s to its prefab", strings.Trim(comp+"."+path, "."))
	return nil
}

// reportBroken lists the problems of instances left as placeholders when the scene was opened.
func (a *App) reportBroken() {
	for _, p := range a.doc.Broken() {
		a.console.Errorf("%s", p.String())
	}
}

// inInstance reports whether the selection's active entity belongs to a prefab instance (menus).
func (a *App) inInstance() bool {
	e, ok := a.doc.Active()
	if !ok || a.doc.Playing() {
		return false
	}
	_, in := a.doc.PrefabOf(e)
	return in
}

// cmdInstantiatePrefab asks for a prefab file (a scene in the scene's folder) and places an instance
// of it at the centre of the view.
func (a *App) cmdInstantiatePrefab() {
	d := newFileDialog(filedialog.Open, "Instantiate Prefab", a.dialogDir(), a.settings.Places, func(p string) {
		a.instantiate(p, ecs.Entity{}, a.doc.Camera().Pivot)
	}, ".json")
	d.okLabel = "Instantiate"
	a.files = d
}

// instantiate places an instance of the prefab at path under parent at pos (parent's space).
func (a *App) instantiate(path string, parent ecs.Entity, pos mgl32.Vec3) {
	e, err := a.doc.Instantiate(context.Background(), path, parent, pos)
	if err != nil {
		a.report("instantiate", err)
		return
	}
	a.console.Infof("placed %s (an instance of %s)", a.doc.Name(e), filepath.Base(path))
	a.syncWatched()
}

// cmdSaveAsPrefab asks for a file name and saves the selected entities there as a prefab, replacing
// them by an instance of it.
func (a *App) cmdSaveAsPrefab() {
	sel := a.doc.SelectedEntities()
	if len(sel) == 0 {
		return
	}
	d := newFileDialog(filedialog.Save, "Save Selection as Prefab", a.dialogDir(), a.settings.Places, func(p string) {
		inst, err := a.doc.SaveAsPrefab(context.Background(), p, sel...)
		if err != nil {
			a.report("save as prefab", err)
			return
		}
		a.console.Infof("saved %s; the selection is now an instance of it (%s)", shortPath(p), a.doc.Name(inst))
		a.prefab.filesAt = time.Time{} // list it in the Assets panel
		a.syncWatched()
	}, ".json")
	name := a.doc.Name(sel[0])
	if name == "" {
		name = "prefab"
	}
	d.d.Name = fileNameFor(name)
	d.okLabel = "Save"
	a.files = d
}

func (a *App) cmdUnpackPrefab() {
	if err := a.doc.Unpack(a.doc.SelectedEntities()...); err != nil {
		a.report("unpack", err)
		return
	}
	a.console.Infof("unpacked: the entities are plain entities of the scene now")
}

func (a *App) cmdRevertInstance() {
	if err := a.doc.RevertInstances(a.doc.SelectedEntities()...); err != nil {
		a.report("revert", err)
		return
	}
	a.console.Infof("reverted to the prefab")
}

func (a *App) cmdApplyInstance() {
	e, ok := a.doc.Active()
	if !ok {
		return
	}
	if err := a.doc.ApplyInstanceToPrefab(context.Background(), e); err != nil {
		a.report("apply", err)
		return
	}
	a.console.Infof("applied the instance's overrides to its prefab")
}

// onPrefabFileEvent follows a prefab file changed on disk (another editor window saved it, or
// another program): the instances take its new values, keeping their overrides.
func (a *App) onPrefabFileEvent(path string) {
	rep := a.doc.PrefabsChanged(context.Background(), path)
	if rep.Instances > 0 {
		a.console.Infof("%s changed: %s updated", filepath.Base(path), plural2(rep.Instances, "instance", "instances"))
	}
	for _, w := range rep.Warnings {
		a.console.Warnf("%s", w)
	}
	a.syncWatched()
}

func plural2(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// isPrefabPath reports whether p (absolute) is a prefab file the scene's instances read.
func (a *App) isPrefabPath(p string) bool { return slices.Contains(a.doc.PrefabFiles(), p) }

// prefabRowStyle says how the hierarchy marks a row: instances (and their entities) in the
// override blue, instances whose prefab cannot be used in red, placeholders grey.
func (a *App) prefabRowStyle(e ecs.Entity) (kind string, col imgui.Vec4, ok bool) {
	w := a.doc.World()
	if pf, isRoot := ecs.NewMap[scene.Prefab](w).TryGet(e); isRoot && !a.doc.IsPart(e) {
		if pf.Problem != "" {
			return "broken", errorColor, true
		}
		return "instance", prefabBlue, true
	}
	if k, kept := ecs.NewMap[scene.PrefabKept](w).TryGet(e); kept && k.Orphan {
		return "placeholder", imgui.Vec4{X: 0.55, Y: 0.55, Z: 0.55, W: 1}, true
	}
	if a.doc.IsPart(e) {
		return "part", prefabPartBlue, true
	}
	return "", imgui.Vec4{}, false
}

var (
	prefabBlue     = imgui.Vec4{X: 0.45, Y: 0.75, Z: 1, W: 1}
	prefabPartBlue = imgui.Vec4{X: 0.5, Y: 0.72, Z: 0.95, W: 1}
)

// buildPrefabSection shows, above the inspector, the prefab instance the active entity belongs
// to, with Select, Revert All, Apply All and Unpack, and the active entity's overrides, each with
// Revert and Apply.
func (a *App) buildPrefabSection() {
	ps := &a.prefab
	clear(ps.widgets)
	e, ok := a.doc.Active()
	if !ok || a.doc.SelectionLen() != 1 {
		return
	}
	root, in := a.doc.PrefabOf(e)
	if !in {
		return
	}
	w := a.doc.World()
	pf := ecs.NewMap[scene.Prefab](w).Get(root)
	label := "Prefab instance: " + pf.Path
	if root != e {
		label = "In prefab instance " + a.doc.Name(root) + " (" + pf.Path + ")"
	}
	textColored(prefabBlue, registerText(label))
	if pf.Problem != "" {
		textWrapped(errorColor, "Cannot be used: "+pf.Problem+". Its overrides are kept and saved as they are.")
	}
	editable := !a.doc.Playing()
	if editable {
		if root != e && imgui.SmallButton("Select Instance") {
			a.doc.Select(root)
		}
		if root != e {
			imgui.SameLine()
		}
		a.prefabButton("Revert All", a.cmdRevertInstance)
		imgui.SameLine()
		a.prefabButton("Apply All", a.cmdApplyInstance)
		imgui.SameLine()
		a.prefabButton("Unpack", a.cmdUnpackPrefab)
	}
	if k, kept := ecs.NewMap[scene.PrefabKept](w).TryGet(e); kept && k.Orphan {
		textWrapped(errorColor, "The prefab has no such entity (any more). What the scene file says about it is kept and written back.")
	}
	ovs := a.overrides(e)
	if len(ovs) == 0 {
		if a.doc.IsPart(e) {
			textDisabled("No overrides: this entity is as its prefab has it.")
		}
		imgui.Separator()
		return
	}
	textDisabled(fmt.Sprintf("Overrides of this entity (%d):", len(ovs)))
	for i, ov := range ovs {
		imgui.PushIDInt(int32(i))
		what := ov.Component
		switch {
		case ov.Path == "name":
			what = "name"
		case ov.Removed:
			what = ov.Component + " (removed)"
		case ov.Added:
			what = ov.Component + " (added)"
		case ov.Path != "":
			what = ov.Component + "." + ov.Path
		}
		path := ov.Path
		if ov.Removed || ov.Added {
			path = ""
		}
		textColored(prefabBlue, registerText(what))
		a.recordPrefabWidget("override:" + what)
		if editable {
			imgui.SameLine()
			if imgui.SmallButton("Revert") {
				if err := a.doc.RevertOverride([]ecs.Entity{e}, ov.Component, path); err != nil {
					a.report("revert", err)
				}
			}
			a.recordPrefabWidget("revert:" + what)
			imgui.SameLine()
			if imgui.SmallButton("Apply") {
				if err := a.applyOverride(e, ov.Component, path); err != nil {
					a.report("apply", err)
				}
			}
			a.recordPrefabWidget("apply:" + what)
		}
		imgui.PopID()
	}
	imgui.Separator()
}

func (a *App) prefabButton(label string, run func()) {
	if imgui.SmallButton(label) {
		run()
	}
	a.recordPrefabWidget("prefab:" + label)
}

// recordPrefabWidget notes the last item for the probe (under Inspector).
func (a *App) recordPrefabWidget(name string) {
	if a.probe == nil {
		return
	}
	if a.prefab.widgets == nil {
		a.prefab.widgets = map[string]rectWidget{}
	}
	a.prefab.widgets[name] = rectWidget{imgui.ItemRectMin(), imgui.ItemRectMax()}
}

// prefabFiles lists the scene files in the scene's folder and below (rescanned every few seconds
// while the Assets panel shows; at most 200, 4 folders deep), the scene itself left out.
func (a *App) prefabFiles() []string {
	ps := &a.prefab
	root := a.assets.Root()
	if root == ps.filesDir && time.Since(ps.filesAt) < 3*time.Second {
		return ps.files
	}
	ps.filesDir, ps.filesAt = root, time.Now()
	ps.files = ps.files[:0]
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil
	}
	self := ""
	if p := a.doc.Path(); p != "" {
		self, _ = filepath.Abs(p)
	}
	_ = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(ps.files) >= 200 {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if rel, _ := filepath.Rel(abs, p); strings.Count(rel, string(filepath.Separator)) >= 3 || (p != abs && strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(strings.ToLower(d.Name()), ".json") || p == self || strings.HasSuffix(d.Name(), ".export.json") ||
			d.Name() == "voltex.project.json" {
			return nil
		}
		if isSceneFile(p) {
			ps.files = append(ps.files, p)
		}
		return nil
	})
	sort.Strings(ps.files)
	return ps.files
}

// prefabAssetsHeight is the height the prefab list of the Assets panel takes (up to 8 rows; more
// scroll).
func (a *App) prefabAssetsHeight() float32 {
	n := min(max(len(a.prefabFiles()), 1), 8)
	return float32(n+1)*imgui.FrameHeightWithSpacing() + imgui.CurrentStyle().ItemSpacing().Y*2
}

// buildPrefabAssets lists the scene files that can be placed as prefabs: drag one into the
// viewport or onto the hierarchy, or press Place (at the centre of the view).
func (a *App) buildPrefabAssets() {
	if p := imgui.DragDropPayload(); p == nil || p.CData == nil { // no drag in progress: the next one starts afresh
		a.prefab.dragging, a.prefab.delivered = "", false
	}
	files := a.prefabFiles()
	imgui.Spacing()
	textDisabled("Prefabs (scene files): drag into the viewport or the hierarchy, or Place")
	if len(files) == 0 {
		textDisabled("  none in this folder")
		return
	}
	root, _ := filepath.Abs(a.assets.Root())
	if !imgui.BeginChildStrV("##prefabs", imgui.Vec2{}, 0, 0) {
		imgui.EndChild()
		return
	}
	defer imgui.EndChild()
	for i, p := range files {
		imgui.PushIDInt(int32(i))
		rel, err := filepath.Rel(root, p)
		if err != nil {
			rel = p
		}
		rel = filepath.ToSlash(rel)
		if imgui.SmallButton("Place") && a.editable() {
			a.instantiate(p, ecs.Entity{}, a.doc.Camera().Pivot)
		}
		a.recordPrefabWidget("place:" + rel)
		imgui.SameLine()
		imgui.SelectableBool(registerText(rel))
		a.recordPrefabWidget("asset:" + rel)
		if a.editable() && imgui.BeginDragDropSource() {
			if a.prefab.dragging == "" {
				a.prefab.dragging = p
			}
			imgui.SetDragDropPayload(prefabPayload, uintptr(unsafe.Pointer(nil)), 0)
			text(registerText(rel))
			imgui.EndDragDropSource()
		}
		imgui.PopID()
	}
}

// takeDrop reports whether a dropped prefab is still to be placed (once per drag).
func (a *App) takeDrop() bool {
	if a.prefab.dragging == "" || a.prefab.delivered {
		return false
	}
	a.prefab.delivered = true
	return true
}

// acceptPrefabDrop takes a prefab dropped on the last item: onto a hierarchy row (target) it is
// placed as a child of that entity, onto the hierarchy's empty space as a root.
func (a *App) acceptPrefabDrop(target ecs.Entity) {
	if !imgui.BeginDragDropTarget() {
		return
	}
	if p := imgui.AcceptDragDropPayload(prefabPayload); p != nil && p.CData != nil && p.IsDelivery() && a.takeDrop() {
		a.instantiate(a.prefab.dragging, target, mgl32.Vec3{})
	}
	imgui.EndDragDropTarget()
}

// prefabDrop takes a prefab dropped on the viewport image: it is placed where the mouse
// points on the ground plane (y = 0), or at the view's centre when it points at the sky.
func (a *App) prefabDrop(local imgui.Vec2, w, h int) {
	if !imgui.BeginDragDropTarget() {
		return
	}
	if p := imgui.AcceptDragDropPayload(prefabPayload); p != nil && p.CData != nil && p.IsDelivery() && a.takeDrop() {
		pos := a.doc.Camera().Pivot
		r := a.doc.Camera().Ray(local.X, local.Y, w, h)
		if t, ok := r.IntersectPlane(mgl32.Vec3{0, 1, 0}, 0); ok && t > 0 {
			pos = r.At(t)
		}
		a.instantiate(a.prefab.dragging, ecs.Entity{}, pos)
	}
	imgui.EndDragDropTarget()
}

// isSceneFile reports whether the file at path is a scene (by its first bytes).
func isSceneFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
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
