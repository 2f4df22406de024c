package editor

import (
	"math"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/viewport"
)

// gridForm is the values the user sets in the grid dialog: what is repeated and the per-copy steps (src), the
// counts, spacing and centre, and for cubes the mesh, colours, parent group and Spin.
type gridForm struct {
	count    [3]int32
	spacing  [3]float32
	centre   [3]float32
	mesh     string
	gradient bool
	from, to [4]float32
	group    bool
	name     string
	spin     bool
	speed    float32
	src      gridSource // what is repeated (cubes, the selected entity, a prefab) and the per-copy steps (gridsource.go)
}

// newGridForm returns the form with the remembered values v.
func newGridForm(v settings.Grid) gridForm {
	f := gridForm{mesh: v.Mesh, gradient: v.Gradient, from: v.From, to: v.To, group: v.Group, name: v.GroupName,
		spin: v.Spin, speed: v.Speed, spacing: v.Spacing, src: newGridSource()}
	for i, n := range v.Count {
		f.count[i] = int32(n)
	}
	if f.mesh == "" {
		f.mesh = scene.MeshCube
	}
	return f
}

// counts returns the counts per axis.
func (f *gridForm) counts() [3]int {
	return [3]int{int(f.count[0]), int(f.count[1]), int(f.count[2])}
}

// values returns what the dialog remembers.
func (f *gridForm) values() settings.Grid {
	return settings.Grid{Count: f.counts(), Spacing: f.spacing,
		Mesh: f.mesh, Gradient: f.gradient, From: f.from, To: f.to, Group: f.group, GroupName: f.name,
		Spin: f.spin, Speed: f.speed}
}

// params returns the grid the form describes.
func (f *gridForm) params() scene.GridParams {
	p := scene.GridParams{
		Count:   f.counts(),
		Spacing: mgl32.Vec3(f.spacing), Origin: mgl32.Vec3(f.centre), Mesh: f.mesh,
		ColorFrom: f.from, ColorTo: f.to,
	}
	if !f.gradient {
		p.ColorTo = p.ColorFrom
	}
	if f.group {
		p.Group = f.name
		if p.Group == "" {
			p.Group = "Grid"
		}
	}
	if f.spin && f.src.kind == srcCubes {
		p.Spin = &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: f.speed}
	}
	p.RotationStep, p.ScaleStep = f.src.steps()
	return p
}

// check returns what is wrong with the grid p (the form's params) and the copies' source, "" if nothing.
func (f *gridForm) check(p scene.GridParams, h gridCopies) string {
	if err := p.Validate(); err != nil {
		return err.Error()
	}
	if _, ok := f.src.source(h); !ok && f.src.kind != srcCubes {
		return "choose what to copy"
	}
	return ""
}

// gridFieldWidth is the width of the dialog's vector fields.
const gridFieldWidth = 240

// buildShape draws the counts and the spacing; field records each one's rectangle for the probe.
func (f *gridForm) buildShape(field func(string)) {
	imgui.SetNextItemWidth(gridFieldWidth)
	imgui.DragInt3V("Count X/Y/Z", &f.count, 0.2, 1, settings.MaxGridCount, "%d", imgui.SliderFlagsAlwaysClamp)
	field("count")
	imgui.SetNextItemWidth(gridFieldWidth)
	imgui.DragFloat3V("Spacing", &f.spacing, 0.05, settings.MinGridSpacing, settings.MaxGridSpacing, "%.2f", imgui.SliderFlagsAlwaysClamp)
	field("spacing")
}

// buildLook draws the mesh (one of ms), the colours, the parent group and Spin.
func (f *gridForm) buildLook(ms meshes) {
	imgui.SetNextItemWidth(gridFieldWidth)
	if imgui.BeginCombo("Mesh", f.mesh) {
		for _, m := range ms.List() {
			if imgui.SelectableBoolV(m, m == f.mesh, 0, imgui.Vec2{}) {
				f.mesh = m
			}
		}
		imgui.EndCombo()
	}
	imgui.Checkbox("Gradient", &f.gradient)
	imgui.ColorEdit4V("Colour", &f.from, imgui.ColorEditFlagsNoInputs)
	if f.gradient {
		imgui.SameLine()
		imgui.ColorEdit4V("to", &f.to, imgui.ColorEditFlagsNoInputs)
	}
	f.buildGroup()
	imgui.Checkbox("Spin", &f.spin)
	if f.spin {
		imgui.SameLine()
		imgui.SetNextItemWidth(120)
		imgui.DragFloatV("deg/s", &f.speed, 1, -settings.MaxGridSpeed, settings.MaxGridSpeed, "%.0f", imgui.SliderFlagsAlwaysClamp)
	}
}

// buildGroup draws the parent group's checkbox and name.
func (f *gridForm) buildGroup() {
	imgui.Checkbox("Parent group", &f.group)
	if f.group {
		imgui.SameLine()
		imgui.SetNextItemWidth(150)
		imgui.InputTextWithHint("##groupname", "group name", &f.name, 0, nil)
	}
}

// gridBounds is the box the grid's cubes fill (unit cubes: half a unit around each centre).
func gridBounds(p scene.GridParams) viewport.AABB {
	var half mgl32.Vec3
	for i := range 3 {
		half[i] = float32(p.Count[i]-1)*abs32(p.Spacing[i])/2 + 0.5
	}
	return viewport.AABB{Min: p.Origin.Sub(half), Max: p.Origin.Add(half)}
}

func abs32(f float32) float32 { return float32(math.Abs(float64(f))) }

// gridPlacement is where the grid goes: beside the scene's content, on the side the camera looked from, until the
// user sets the centre.
type gridPlacement struct {
	autoPlace bool          // the centre stays beside the scene's content until the user sets it
	placedFor [3]mgl32.Vec3 // the size and scene bounds the centre was placed for
	eye       mgl32.Vec3    // the camera's eye when the grid was first placed (the side it goes on)
}

// besideScene places the grid beside the scene's content again, on the side the camera looks from then.
func (pl *gridPlacement) besideScene() { pl.autoPlace, pl.placedFor = true, [3]mgl32.Vec3{} }

// place puts f's centre beside the content of v's scene while autoPlace holds: always when again is set (the
// frame the dialog opens or is opened again), otherwise whenever the grid's size or the content's extent changed.
func (pl *gridPlacement) place(f *gridForm, v gridView, again bool) {
	sl := v.sceneList()
	if !pl.autoPlace || sl == nil {
		return
	}
	p := f.params()
	b := sl.Bounds()
	key := [3]mgl32.Vec3{gridBounds(p).Size(), b.Min, b.Max}
	if !again && key == pl.placedFor {
		return
	}
	if pl.placedFor == ([3]mgl32.Vec3{}) && !b.IsEmpty() {
		pl.eye = v.camera().Eye() // the side is chosen once; orbiting does not move the grid
	}
	pl.placedFor = key
	if p.Validate() == nil {
		o := p
		o.Origin = mgl32.Vec3{}
		f.centre = workspace.BesideScene(b, gridBounds(o), pl.eye)
	}
}
