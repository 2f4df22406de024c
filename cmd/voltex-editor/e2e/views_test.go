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
	p = e.WaitProbe(10*time.Second, "the top view", func(p *guitest.Probe) bool {
		return p.Camera.Ortho && p.Camera.Pitch == -90 && p.Camera.Yaw == 0
	})
	e.Key("f")
	p = e.WaitProbe(10*time.Second, "the cube framed", func(p *guitest.Probe) bool { return p.Camera.Distance < 10 })
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
	p = e.WaitProbe(10*time.Second, "the framed cube picked", func(p *guitest.Probe) bool { return p.SelectedCount == 1 && p.Selected[0] == a })

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
