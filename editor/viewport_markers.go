package editor

import (
	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// sceneMarkers are the queries that find the lights and cameras the viewport marks, for one world, and the
// selected camera's preview.
type sceneMarkers struct {
	w       *ecs.World
	lights  *ecs.Query2[ecs.GlobalTransform, scene.Light]
	cameras *ecs.Query2[ecs.GlobalTransform, scene.Camera]
	lines   []viewport.Segment
	preview cameraPreview // what the selected camera sees
}

// markerSize is how big a marker is, as a share of its distance from the eye (about the same size on screen
// wherever it is).
const markerSize = 0.08

// drawMarkers draws the scene's lights and cameras over the viewport image (ImGui lines, no render): the
// selected ones brighter, a selected spot with its cones, a selected point light with its range and a selected
// camera with its frustum (and, in buildCameraPreview, what it sees).
func (v *viewportPanel) drawMarkers() {
	w := v.doc.World()
	m := &v.markers
	if m.w != w {
		if _, ok := ecs.ComponentIDOf[scene.Light](w); !ok {
			return // a world without the scene components
		}
		m.w = w
		m.lights = ecs.NewQuery2[ecs.GlobalTransform, scene.Light](w, ecs.Read[ecs.GlobalTransform](), ecs.Read[scene.Light]())
		m.cameras = ecs.NewQuery2[ecs.GlobalTransform, scene.Camera](w, ecs.Read[ecs.GlobalTransform](), ecs.Read[scene.Camera]())
	}
	if m.lights.Count() == 0 && m.cameras.Count() == 0 {
		return
	}
	cam := v.doc.Camera()
	eye := cam.Eye()
	sel := v.doc.Selection()
	dl := imgui.WindowDrawList()
	lo := v.area.origin
	dl.PushClipRect(lo, imgui.Vec2{X: lo.X + float32(v.area.w), Y: lo.Y + float32(v.area.h)})
	defer dl.PopClipRect()
	draw := func(lines []viewport.Segment, selected bool) {
		col := uint32(0xffb0d0e0) // ABGR: a pale warm line
		if selected {
			col = 0xff40c8ff
		}
		for _, s := range lines {
			ax, ay, aok := cam.WorldToPixel(s.A, v.area.w, v.area.h)
			bx, by, bok := cam.WorldToPixel(s.B, v.area.w, v.area.h)
			if aok && bok {
				a, b := imgui.Vec2{X: lo.X + ax, Y: lo.Y + ay}, imgui.Vec2{X: lo.X + bx, Y: lo.Y + by}
				dl.AddLineV(a, b, 0xa0000000, 3)
				dl.AddLineV(a, b, col, 1.5)
			}
		}
	}
	for it := m.lights.Iter(); it.Next(); {
		g, l := it.Get()
		e := it.Entity()
		placed := viewport.PlaceLight(l, g.Matrix, viewport.EntityID(e))
		size := markerSize * max(placed.Position.Sub(eye).Len(), 0.1)
		selected := sel.IsSelected(e)
		m.lines = viewport.LightMarker(m.lines[:0], placed, size, selected)
		draw(m.lines, selected)
	}
	for it := m.cameras.Iter(); it.Next(); {
		g, c := it.Get()
		e := it.Entity()
		pos := mgl32.Vec3{g.Matrix[12], g.Matrix[13], g.Matrix[14]}
		size := markerSize * max(pos.Sub(eye).Len(), 0.1)
		m.lines = viewport.CameraMarker(m.lines[:0], *c, g.Matrix, size)
		selected := sel.IsSelected(e)
		if selected {
			m.lines = viewport.CameraFrustum(m.lines, *c, g.Matrix, v.aspect())
			m.preview.see(*c, g.Matrix)
		}
		draw(m.lines, selected)
	}
}
