package e2e

import (
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestAxisViewsPickAndFrame: the numpad keys (and the number row's) turn the camera to exact orthographic axis
// views, 5 toggles perspective; in the top view F frames the selection (its gizmo at the view's centre) and a click
// picks the cube under the mouse.
func TestAxisViewsPickAndFrame(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p := e.WaitProbe(20*time.Second, "the scene drawn", func(p *guitest.Probe) bool {
		return p.Entities > 0 && len(p.Hierarchy) > 12 && p.Picture.Drawn > 0
	})
	ax, ay := p.Hierarchy[2].Center()
	e.Click(ax, ay, 1)
	p = e.WaitProbe(10*time.Second, "a cube selected", func(p *guitest.Probe) bool { return p.SelectedCount == 1 })
	a := p.Selected[0]
	cx, cy := p.Viewport.Center()
	e.Move(cx, cy)
	e.Key("KP_7")
	e.WaitProbe(10*time.Second, "the top view", func(p *guitest.Probe) bool {
		return p.Camera.Ortho && p.Camera.Pitch == -90 && p.Camera.Yaw == 0
	})
	e.Key("f")
	e.WaitProbe(10*time.Second, "the cube framed", func(p *guitest.Probe) bool { return p.Camera.Distance < 10 })
	p = e.Settle()
	lookShot(t, e, "views-top-framed.png")
	if !p.Camera.Ortho || p.Camera.Pitch != -90 {
		t.Errorf("framing left the top view: %+v", p.Camera)
	}
	if dx, dy := p.Gizmo[0]-cx, p.Gizmo[1]-cy; dx*dx+dy*dy > 6*6 {
		t.Errorf("the framed cube's gizmo is at %v, want the viewport's centre (%d,%d)", p.Gizmo, cx, cy)
	}

	bx, by := p.Hierarchy[12].Center()
	e.Click(bx, by, 1)
	e.WaitProbe(10*time.Second, "another cube selected", func(p *guitest.Probe) bool { return p.SelectedCount == 1 && p.Selected[0] != a })
	e.Click(cx+20, cy+20, 1) // on the framed cube, off its gizmo's centre
	e.WaitProbe(10*time.Second, "the framed cube picked", func(p *guitest.Probe) bool { return p.SelectedCount == 1 && p.Selected[0] == a })

	e.Key("1") // the number row, for keyboards without a numpad
	e.WaitProbe(10*time.Second, "the front view", func(p *guitest.Probe) bool {
		return p.Camera.Ortho && p.Camera.Pitch == 0 && p.Camera.Yaw == 0
	})
	e.Key("ctrl+KP_3")
	e.WaitProbe(10*time.Second, "the left view", func(p *guitest.Probe) bool {
		return p.Camera.Ortho && p.Camera.Pitch == 0 && p.Camera.Yaw == -90
	})
	e.Key("5")
	p = e.WaitProbe(10*time.Second, "perspective", func(p *guitest.Probe) bool { return !p.Camera.Ortho })
	if p.Camera.Yaw != -90 {
		t.Errorf("5 turned the camera: %+v", p.Camera)
	}
}

// TestViewCubeFaceGivesAxisView: a click on a face of the view cube ends on that axis view, exactly, orthographic.
func TestViewCubeFaceGivesAxisView(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p := e.WaitProbe(20*time.Second, "the view cube", func(p *guitest.Probe) bool { return p.ViewCube.W > 0 && p.Picture.Drawn > 0 })
	vx, vy := p.Viewport.Center()
	e.Click(vx, vy, 1) // the window's first click; the cube's turn begins with the next
	p = e.Settle()
	cam := p.Camera
	// The default camera looks down from above: the middle of the cube's top face is a fifth of its square above
	// the square's centre.
	cx, cy := p.ViewCube.Center()
	x, y := cx-p.ViewCube.W/24, cy-p.ViewCube.H/5
	e.Move(x, y) // the cube takes the click where the mouse was over it in the frame before
	e.WaitFrames(2)
	e.Click(x, y, 1)
	e.WaitProbe(15*time.Second, "the camera to turn", func(p *guitest.Probe) bool { return p.Camera != cam })
	p = e.Settle()
	lookShot(t, e, "views-cube-click.png")
	if !p.Camera.Ortho || p.Camera.Pitch != -90 {
		t.Errorf("after a click on the view cube's top face the camera is %+v, want the top view (pitch -90, orthographic)", p.Camera)
	}
}

// TestFourViews: View → Four Views (run from the palette) splits the viewport into top, perspective, front and
// right views; a click on a cube in each orthographic view picks it, and F over a view frames the selection in that
// view alone.
func TestFourViews(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	e.WaitProbe(20*time.Second, "the scene drawn", func(p *guitest.Probe) bool { return p.Picture.Total == 400 && p.MenuBar })
	e.Key("ctrl+shift+p")
	e.WaitProbe(10*time.Second, "the palette", func(p *guitest.Probe) bool { return p.Panels["Command Palette"].H > 0 && p.TextInput })
	e.Type("four views")
	e.Settle()
	e.Key("Return")
	e.WaitProbe(10*time.Second, "four views", func(p *guitest.Probe) bool { return len(p.Views) == 4 })
	p := e.Settle()
	lookShot(t, e, "four-views.png")
	docShot(t, e, "four-views.png")
	want := map[string]float32{"Top": -90, "Front": 0, "Right": 0}
	for _, v := range p.Views {
		if pitch, ok := want[v.Name]; ok && (!v.Camera.Ortho || v.Camera.Pitch != pitch) {
			t.Errorf("the %s view's camera is %+v", v.Name, v.Camera)
		}
	}
	view := func(p *guitest.Probe, name string) guitest.View {
		for _, v := range p.Views {
			if v.Name == name {
				return v
			}
		}
		t.Fatalf("no %s view among %+v", name, p.Views)
		return guitest.View{}
	}
	img := e.ScreenshotOf(p)
	for _, name := range []string{"Top", "Front", "Right"} {
		r := view(p, name).Rect
		x, y, ok := cubeIn(img, r)
		if !ok {
			t.Fatalf("no cube drawn in the %s view %+v", name, r)
		}
		e.Key("ctrl+shift+a") // nothing selected: no gizmo where the click goes
		e.WaitProbe(10*time.Second, "nothing selected", func(q *guitest.Probe) bool { return q.SelectedCount == 0 })
		e.Click(x, y, 1)
		e.WaitProbe(10*time.Second, "a cube picked in the "+name+" view", func(q *guitest.Probe) bool { return q.SelectedCount == 1 })
	}
	p = e.Settle()
	before := view(p, "Front").Camera
	top := view(p, "Top").Camera
	fx, fy := view(p, "Front").Center()
	e.Move(fx, fy)
	e.Key("f")
	e.WaitProbe(10*time.Second, "the front view framed", func(p *guitest.Probe) bool { return view(p, "Front").Camera != before })
	p = e.Settle()
	lookShot(t, e, "four-views-framed.png")
	if got := view(p, "Front").Camera; got.Distance >= before.Distance || !got.Ortho || got.Pitch != 0 {
		t.Errorf("F over the front view: %+v → %+v, want it closer, still the front view", before, got)
	}
	if view(p, "Top").Camera != top {
		t.Error("F over the front view moved the top view")
	}
}
