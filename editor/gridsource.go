package editor

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/viewport"
)

// What Spawn Grid repeats.
const (
	srcCubes  = iota // new cubes (mesh, colours, spin from the dialog)
	srcEntity        // the entity that was selected, with its children and all its components
	srcPrefab        // instances of a prefab file
)

// gridCopies is what the grid dialog needs of the editor to repeat an entity or a prefab instead of cubes (the
// workspace implements it).
type gridCopies interface {
	ActiveID() uint64                              // the scene id of the active entity (0: none)
	DescribeEntity(id uint64) (string, bool)       // "Enemy, with 2 child entities"
	EntityName(id uint64) (string, bool)           // "Enemy"
	PrefabChoices() (files []string, root string)  // the scene files that can be repeated, and their folder
	EntitySource(id uint64) (doc.CopySource, bool) // the entity with scene id id, if it exists
	CopyShape(src doc.CopySource) ([]doc.ShapeItem, error)
	SpawnCopies(p scene.GridParams, src doc.CopySource)
}

// gridSource is the grid dialog's "Copies of" choice and the per-copy rotation and scale steps
// (grids of anything: cubes, an entity, a prefab), and the drawn shape of what it copies, for the preview.
type gridSource struct {
	kind      int32
	entity    uint64 // scene id of the entity copied (the active entity when the dialog opened or the choice was made)
	prefab    string // absolute path of the prefab file
	rotStep   [3]float32
	scaleStep [3]float32

	shape    []shapeMesh
	shapeKey string // what shape was computed for
	shapeErr string

	titleFor titleKey // what title was made for
	titleStr string
}

// titleKey is what the dialog's title depends on.
type titleKey struct {
	kind         int32
	name, prefab string // the entity's name (srcEntity), the prefab's path (srcPrefab)
	found        bool   // the entity exists
}

// shapeMesh is one drawn part of the copied thing with its mesh resolved.
type shapeMesh struct {
	ref  string
	mesh *assets.Mesh
	m    mgl32.Mat4
	rgba [4]float32
}

func newGridSource() gridSource { return gridSource{scaleStep: [3]float32{1, 1, 1}} }

// key names what the source copies (part of the preview's key).
func (s *gridSource) key() string {
	switch s.kind {
	case srcEntity:
		return fmt.Sprintf("entity:%d", s.entity)
	case srcPrefab:
		return "prefab:" + s.prefab
	}
	return ""
}

// gridWindowID keeps the dialog the same ImGui window whatever its title says.
const gridWindowID = "###griddialog"

// title returns the dialog's window name, its title naming what it spawns — "Spawn Cube Grid",
// "Spawn Grid of Enemy", "Spawn Grid of prefab props/tree.json" — and then gridWindowID. It is
// made again only when the choice or the entity's name changed (no allocation in other frames).
func (s *gridSource) title(h gridCopies) string {
	k := titleKey{kind: s.kind}
	switch s.kind {
	case srcEntity:
		k.name, k.found = h.EntityName(s.entity)
	case srcPrefab:
		k.prefab = s.prefab
	}
	if k == s.titleFor && s.titleStr != "" {
		return s.titleStr
	}
	t := "Spawn Cube Grid"
	switch {
	case s.kind == srcEntity && k.found && k.name != "":
		t = "Spawn Grid of " + k.name
	case s.kind == srcEntity:
		t = "Spawn Grid of Selected Entity"
	case s.kind == srcPrefab && s.prefab != "":
		_, root := h.PrefabChoices()
		t = "Spawn Grid of prefab " + relSlash(root, s.prefab)
	case s.kind == srcPrefab:
		t = "Spawn Grid of Prefab"
	}
	s.titleFor, s.titleStr = k, registerText(t)+gridWindowID
	return s.titleStr
}

// relSlash returns path p relative to root with slashes (p itself if it is not below root).
func relSlash(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return p
}

// steps returns the per-copy rotation and scale steps for scene.GridParams.
func (s *gridSource) steps() (rot, scale mgl32.Vec3) {
	return mgl32.Vec3(s.rotStep), mgl32.Vec3(s.scaleStep)
}

// build draws the "Copies of" choice.
func (s *gridSource) build(h gridCopies, w float32, field func(string)) {
	text("Copies of")
	imgui.SameLine()
	if imgui.RadioButtonIntPtr("Cubes", &s.kind, srcCubes) {
		s.shape = nil
	}
	field("source:cubes")
	imgui.SameLine()
	if imgui.RadioButtonIntPtr("Selected entity", &s.kind, srcEntity) {
		if id := h.ActiveID(); id != 0 {
			s.entity = id
		}
	}
	field("source:entity")
	imgui.SameLine()
	imgui.RadioButtonIntPtr("Prefab", &s.kind, srcPrefab)
	field("source:prefab")
	switch s.kind {
	case srcEntity:
		desc, ok := h.DescribeEntity(s.entity)
		if !ok {
			textColored(errorColor, "select an entity first (it is copied with its children)")
			break
		}
		textDisabled(registerText(desc))
	case srcPrefab:
		files, root := h.PrefabChoices()
		if s.prefab == "" && len(files) > 0 {
			s.prefab = files[0]
		}
		label := func(p string) string { return relSlash(root, p) }
		imgui.SetNextItemWidth(w)
		combo := imgui.BeginCombo("Prefab##gridprefab", registerText(label(s.prefab)))
		field("prefab")
		if combo {
			for _, p := range files {
				if imgui.SelectableBoolV(registerText(label(p)), p == s.prefab, 0, imgui.Vec2{}) {
					s.prefab = p
				}
			}
			imgui.EndCombo()
		}
		if len(files) == 0 {
			textColored(errorColor, "no prefab (scene file) in the scene's folder")
		}
	}
	if s.shapeErr != "" && s.kind != srcCubes {
		textColored(errorColor, registerText(s.shapeErr))
	}
}

// buildSteps draws the per-copy rotation and scale steps.
func (s *gridSource) buildSteps(w float32, field func(string)) {
	imgui.SetNextItemWidth(w)
	imgui.DragFloat3V("Rotate each", &s.rotStep, 0.5, -360, 360, "%.1f°", imgui.SliderFlagsAlwaysClamp)
	field("rotate")
	if imgui.IsItemHovered() {
		tooltip("Each copy is turned this much more than the one before (degrees about X, Y, Z)")
	}
	imgui.SetNextItemWidth(w)
	imgui.DragFloat3V("Scale each", &s.scaleStep, 0.005, 0.01, 10, "%.3f", imgui.SliderFlagsAlwaysClamp)
	field("scale")
	if imgui.IsItemHovered() {
		tooltip("Each copy is scaled by this much relative to the one before (1: all the same)")
	}
}

// copyWord names what the dialog makes, n of them ("12 cubes", "12 copies").
func (s *gridSource) copyWord(n int) string {
	if s.kind == srcCubes {
		return words.Count(n, "cube", "cubes")
	}
	return words.Count(n, "copy", "copies")
}

// source returns what SpawnCopies copies, and whether it is set.
func (s *gridSource) source(h gridCopies) (doc.CopySource, bool) {
	switch s.kind {
	case srcEntity:
		return h.EntitySource(s.entity)
	case srcPrefab:
		return doc.CopySource{Prefab: s.prefab}, s.prefab != ""
	}
	return doc.CopySource{}, false
}

// shapeFor returns the drawn parts of what the source copies (nil for cubes), computed again when
// the source or the scene changed.
func (s *gridSource) shapeFor(h gridCopies, ms meshes, sceneVer uint64) []shapeMesh {
	if s.kind == srcCubes {
		return nil
	}
	key := fmt.Sprintf("%s@%d", s.key(), sceneVer)
	if key == s.shapeKey {
		return s.shape
	}
	s.shapeKey, s.shape, s.shapeErr = key, nil, ""
	src, ok := s.source(h)
	if !ok {
		return nil
	}
	items, err := h.CopyShape(src)
	if err != nil {
		s.shapeErr = err.Error()
		return nil
	}
	for _, it := range items {
		m, _ := ms.Mesh(it.Mesh)
		if m == nil {
			continue
		}
		s.shape = append(s.shape, shapeMesh{ref: it.Mesh, mesh: m, m: it.Matrix, rgba: it.Color})
	}
	return s.shape
}

// previewShapes appends to dl the copies of shape laid out by p (at most limit instances), drawn
// selected, with ids from previewIDBase. It returns the copies drawn, or -1 when ctx was
// cancelled.
func previewShapes(ctx context.Context, dl *viewport.DrawList, p scene.GridParams, shape []shapeMesh, limit int) int {
	if len(shape) == 0 {
		return 0
	}
	var base mgl32.Mat4 = mgl32.Ident4()
	if p.Group != "" {
		base = mgl32.Translate3D(p.Origin[0], p.Origin[1], p.Origin[2])
	}
	for _, s := range shape {
		dl.SetMesh(s.ref, s.mesh)
	}
	n := min(p.Len(), limit/len(shape))
	id := uint32(previewIDBase)
	for i := range n {
		if i%1024 == 0 && ctx.Err() != nil {
			return -1
		}
		t := p.Transform(i)
		m := base.Mul4(t.Matrix())
		for _, s := range shape {
			id++
			dl.Set(s.ref, viewport.Instance{World: m.Mul4(s.m), Color: s.rgba, ID: id, Flags: viewport.FlagSelected})
		}
	}
	return n
}
