package editor

import (
	"math"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
	g "github.com/AllenDang/giu"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/viewport"
)

// fourViewsLabel is the View menu's item that splits the viewport.
const fourViewsLabel = "Four Views"

// splitAxes are the three orthographic views of the split, in the order they are laid out (with the main view,
// perspective, top right).
var splitAxes = [3]viewport.AxisView{viewport.ViewTop, viewport.ViewFront, viewport.ViewRight}

// currentDoc returns the open document (the workspace's).
type currentDoc func() *doc.Document

// camDoc is the open document as a viewport of the split sees it: everything the document's, but a camera of its
// own (not saved with the scene).
type camDoc struct {
	doc currentDoc
	cam *viewport.Camera
}

var _ viewportDoc = camDoc{}

func (c camDoc) World() *ecs.World                { return c.doc().World() }
func (c camDoc) Camera() *viewport.Camera         { return c.cam }
func (c camDoc) PlayMode() *doc.Play              { return c.doc().PlayMode() }
func (c camDoc) Selection() *doc.Selection        { return c.doc().Selection() }
func (c camDoc) DragWorld(delta mgl32.Mat4) error { return c.doc().DragWorld(delta) }
func (c camDoc) EndEdit()                         { c.doc().EndEdit() }
func (c camDoc) Editing() bool                    { return c.doc().Editing() }
func (c camDoc) BeginTransformDrag(label string, kind doc.DragKind, es []ecs.Entity) {
	c.doc().BeginTransformDrag(label, kind, es)
}

// splitView is View → Four Views: the viewport panel split into top, front and right orthographic views and the
// main (perspective) one. Each of the three has its own camera, renderer and draw list, made when the split is
// turned on and freed when it is turned off; picking, the gizmo and F work in each.
type splitView struct {
	on    bool
	main  *viewportPanel
	views [3]*viewportPanel
	cams  [3]viewport.Camera
	make  func(d viewportDoc) *viewportPanel
	doc   currentDoc
	probe *probe.State
}

var _ g.Widget = (*splitView)(nil)

// toggle turns the split on (the three views look along their axes at what the main view looks at) or off.
func (s *splitView) toggle() {
	s.on = !s.on
	if !s.on {
		s.deleteViews()
		return
	}
	main := *s.doc().Camera()
	for i := range s.views {
		s.cams[i] = main
		s.cams[i].SetAxisView(splitAxes[i])
		s.views[i] = s.make(camDoc{doc: s.doc, cam: &s.cams[i]})
		s.views[i].frameAll = false
	}
}

// deleteViews frees the split's three views (their renderers); call on the loop thread.
func (s *splitView) deleteViews() {
	for i, v := range s.views {
		if v != nil {
			v.delete()
			s.views[i] = nil
		}
	}
}

// each calls f with every viewport shown: the main one, and the split's.
func (s *splitView) each(f func(v *viewportPanel)) {
	f(s.main)
	if s.on {
		for _, v := range s.views {
			f(v)
		}
	}
}

// under returns the viewport the mouse is over (the main one when none is).
func (s *splitView) under() *viewportPanel {
	if s.on {
		for _, v := range s.views {
			if v.area.overImage {
				return v
			}
		}
	}
	return s.main
}

// overImage reports whether the mouse is over any viewport's image.
func (s *splitView) overImage() bool {
	over := false
	s.each(func(v *viewportPanel) { over = over || v.area.overImage })
	return over
}

// busy reports whether any viewport needs frames without input.
func (s *splitView) busy() bool {
	busy := false
	s.each(func(v *viewportPanel) { busy = busy || v.busy() })
	return busy
}

// renders counts the renders of every viewport (a frame that rendered is not idle).
func (s *splitView) renders() uint64 {
	var n uint64
	s.each(func(v *viewportPanel) { n += v.renders() })
	return n
}

// splitNames name the quarters in layout order (the probe's Views).
var splitNames = [4]string{"Top", "Perspective", "Front", "Right"}

// Build draws the main viewport alone, or the four views in a 2×2 grid: top and perspective above, front and
// right below.
func (s *splitView) Build() {
	if !s.on {
		s.main.Build()
		if s.probe != nil {
			s.probe.Views = s.probe.Views[:0]
		}
		return
	}
	for _, v := range s.views {
		v.area.hovered, v.area.overImage = false, false
	}
	avail := imgui.ContentRegionAvail()
	gap := imgui.CurrentStyle().ItemSpacing() // between the quarters, as between any two items: no scrollbar
	w, h := float32(math.Floor(float64(avail.X-gap.X)/2)), float32(math.Floor(float64(avail.Y-gap.Y)/2))
	quarters := [4]*viewportPanel{s.views[0], s.main, s.views[1], s.views[2]}
	if s.probe != nil {
		s.probe.Views = s.probe.Views[:0]
	}
	for i, v := range quarters {
		if i%2 == 1 {
			imgui.SameLineV(0, gap.X)
		}
		imguizmo.PushIDInt(int32(i)) // each view's gizmo and view cube are their own
		if imgui.BeginChildStrV("##quarter"+splitNames[i], imgui.Vec2{X: w, Y: h}, 0, imgui.WindowFlagsNoScrollbar|imgui.WindowFlagsNoScrollWithMouse) {
			v.Build()
			if s.probe != nil {
				cam := v.doc.Camera()
				s.probe.Views = append(s.probe.Views, probe.View{Name: splitNames[i], Rect: rectOf(imgui.WindowPos(), imgui.WindowSize()),
					Camera: probe.Camera{Yaw: cam.Yaw, Pitch: cam.Pitch, Distance: cam.Distance, Ortho: cam.Orthographic || cam.Ortho > 0, Pivot: cam.Pivot}})
			}
		}
		imgui.EndChild()
		imguizmo.PopID()
	}
}
