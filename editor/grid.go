package editor

import (
	"context"
	"fmt"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// previewIDBase offsets preview instances' ids so they never collide with real entities' ids.
const previewIDBase = 0x40000000

// gridDialog is Entity → Spawn Cube Grid…: counts, spacing per axis, origin, mesh, a solid or gradient colour,
// an optional parent group and Spin. While it is open the viewport shows the grid it would make (highlighted);
// Spawn makes it as ONE undoable command (with a progress bar from 10,000 cubes), Cancel leaves the scene as it was.
type gridDialog struct {
	count    [3]int32
	spacing  [3]float32
	origin   [3]float32
	mesh     string
	gradient bool
	from, to [4]float32
	group    bool
	name     string
	spin     bool
	speed    float32

	opened  bool
	focus   bool
	err     string
	preview *viewport.DrawList // world + preview instances, rebuilt when the parameters or the scene change
	prevKey gridKey
}

type gridKey struct {
	p        scene.GridParams
	sceneVer uint64
	world    any
}

func newGridDialog() *gridDialog {
	return &gridDialog{
		count: [3]int32{10, 1, 10}, spacing: [3]float32{1.5, 1.5, 1.5},
		mesh: scene.MeshCube, from: [4]float32{1, 0.55, 0.2, 1}, to: [4]float32{0.2, 0.5, 1, 1},
		gradient: true, name: "Grid", speed: 45, focus: true,
	}
}

// params returns the grid the dialog describes.
func (d *gridDialog) params() scene.GridParams {
	p := scene.GridParams{
		Count:   [3]int{int(d.count[0]), int(d.count[1]), int(d.count[2])},
		Spacing: mgl32.Vec3(d.spacing), Origin: mgl32.Vec3(d.origin), Mesh: d.mesh,
		ColorFrom: d.from, ColorTo: d.to,
	}
	if !d.gradient {
		p.ColorTo = p.ColorFrom
	}
	if d.group {
		p.Group = d.name
		if p.Group == "" {
			p.Group = "Grid"
		}
	}
	if d.spin {
		p.Spin = &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: d.speed}
	}
	return p
}

// maxPreview bounds the cubes drawn in the live preview (a bigger grid previews its first cubes).
const maxPreview = 200_000

// build draws the dialog; false when it is closed.
func (d *gridDialog) build(a *App) bool {
	const name = "Spawn Cube Grid###griddialog"
	if !d.opened {
		imgui.OpenPopupStr(name)
		d.opened = true
	}
	imgui.SetNextWindowPosV(imgui.Vec2{X: a.vp.origin.X + 16, Y: a.vp.origin.Y + 16}, imgui.CondAppearing, imgui.Vec2{})
	open := true
	if !imgui.BeginPopupModalV(name, &open, imgui.WindowFlagsAlwaysAutoResize) {
		a.vp.preview = nil
		return false
	}
	if d.focus {
		imgui.SetKeyboardFocusHere()
		d.focus = false
	}
	imgui.SetNextItemWidth(240)
	imgui.DragInt3V("Count X/Y/Z", &d.count, 0.2, 1, 1000, "%d", imgui.SliderFlagsAlwaysClamp)
	imgui.SetNextItemWidth(240)
	imgui.DragFloat3V("Spacing", &d.spacing, 0.05, 0.01, 1000, "%.2f", imgui.SliderFlagsAlwaysClamp)
	imgui.SetNextItemWidth(240)
	imgui.DragFloat3V("Origin", &d.origin, 0.1, -1e5, 1e5, "%.2f", imgui.SliderFlagsAlwaysClamp)
	imgui.SetNextItemWidth(240)
	if imgui.BeginCombo("Mesh", d.mesh) {
		for _, m := range a.assets.List() {
			if imgui.SelectableBoolV(m, m == d.mesh, 0, imgui.Vec2{}) {
				d.mesh = m
			}
		}
		imgui.EndCombo()
	}
	imgui.Checkbox("Gradient", &d.gradient)
	imgui.ColorEdit4V("Colour", &d.from, imgui.ColorEditFlagsNoInputs)
	if d.gradient {
		imgui.SameLine()
		imgui.ColorEdit4V("to", &d.to, imgui.ColorEditFlagsNoInputs)
	}
	imgui.Checkbox("Parent group", &d.group)
	if d.group {
		imgui.SameLine()
		imgui.SetNextItemWidth(150)
		imgui.InputTextWithHint("##groupname", "group name", &d.name, 0, nil)
	}
	imgui.Checkbox("Spin", &d.spin)
	if d.spin {
		imgui.SameLine()
		imgui.SetNextItemWidth(120)
		imgui.DragFloatV("deg/s", &d.speed, 1, -3600, 3600, "%.0f", imgui.SliderFlagsAlwaysClamp)
	}
	p := d.params()
	total := p.Count[0] * p.Count[1] * p.Count[2]
	if err := p.Validate(); err != nil {
		d.err = err.Error()
	} else {
		d.err = ""
	}
	imgui.Separator()
	imgui.Text(fmt.Sprintf("%d cubes", total))
	if d.err != "" {
		imgui.TextColored(imgui.Vec4{X: 1, Y: 0.45, Z: 0.4, W: 1}, d.err)
	} else {
		d.updatePreview(a, p)
	}
	spawn := false
	imgui.BeginDisabledV(d.err != "")
	if imgui.ButtonV("Spawn", imgui.Vec2{X: 110}) || (imgui.IsKeyPressedBool(imgui.KeyEnter) && !imgui.IsAnyItemActive()) {
		spawn = d.err == ""
	}
	imgui.EndDisabled()
	imgui.SameLine()
	cancel := imgui.ButtonV("Cancel", imgui.Vec2{X: 110}) || imgui.IsKeyPressedBool(imgui.KeyEscape) || !open
	if spawn || cancel {
		imgui.CloseCurrentPopup()
		imgui.EndPopup()
		a.vp.preview = nil
		if spawn {
			a.spawnGrid(p)
		}
		return false
	}
	imgui.EndPopup()
	return true
}

// updatePreview rebuilds the viewport's preview list when the parameters or the scene changed: the scene's
// instances plus the grid's, made by the same generator in a scratch world and drawn selected.
func (d *gridDialog) updatePreview(a *App, p scene.GridParams) {
	b := a.vp.builder
	if b == nil {
		return
	}
	key := gridKey{p: p, sceneVer: b.DrawList().Version(), world: a.vp.world}
	if p.Spin != nil {
		key.p.Spin = &scene.Spin{} // the pointer differs every frame; spin doesn't change the picture
	}
	if d.preview != nil && key == d.prevKey {
		a.vp.preview = d.preview
		return
	}
	d.prevKey = key
	total := p.Count[0] * p.Count[1] * p.Count[2]
	if total > maxPreview {
		// Preview only the first layers.
		p.Count[1] = max(1, maxPreview/(p.Count[0]*p.Count[2]))
		if p.Count[0]*p.Count[1]*p.Count[2] > maxPreview {
			p.Count = [3]int{min(p.Count[0], 447), 1, min(p.Count[2], 447)}
		}
	}
	scratch := scene.NewWorld()
	scene.SpawnGrid(scratch, p)
	sb := viewport.NewBuilder(scratch, a.assets)
	sb.Update()
	dl := viewport.NewDrawList()
	for _, bt := range b.DrawList().Batches() {
		dl.SetMesh(bt.Ref, bt.Mesh)
		for _, in := range bt.Instances {
			dl.Set(bt.Ref, in)
		}
	}
	for _, bt := range sb.DrawList().Batches() {
		dl.SetMesh(bt.Ref, bt.Mesh)
		for _, in := range bt.Instances {
			in.ID += previewIDBase
			in.Flags |= viewport.FlagSelected
			dl.Set(bt.Ref, in)
		}
	}
	d.preview = dl
	a.vp.preview = dl
}

// spawnGrid makes the grid as one undoable command and selects it (its group, or its cubes).
func (a *App) spawnGrid(p scene.GridParams) {
	n := p.Count[0] * p.Count[1] * p.Count[2]
	finish := func(group ecs.Entity, cubes []ecs.Entity, err error) {
		if err != nil {
			a.report("spawn grid", err)
			return
		}
		if !group.IsZero() {
			a.doc.Select(group)
		} else {
			a.doc.Select(cubes...)
		}
		a.console.Infof("spawned %d cubes", len(cubes))
	}
	if n < jobThreshold {
		g, cubes, err := a.doc.SpawnGrid(context.Background(), p, nil)
		finish(g, cubes, err)
		return
	}
	var group ecs.Entity
	var cubes []ecs.Entity
	a.startJob(fmt.Sprintf("Spawning %d cubes", n), true, func(ctx context.Context, progress func(done, total int64)) error {
		var err error
		group, cubes, err = a.doc.SpawnGrid(ctx, p, progress)
		return err
	}, func(err error) { finish(group, cubes, err) })
}
