package viewport

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestRedrawPolicy(t *testing.T) {
	base := FrameState{SceneTick: 5, Selection: 1, Camera: DefaultCamera(), Width: 800, Height: 600, Assets: 1}
	moved := base.Camera
	moved.Orbit(1, 0)
	with := func(f func(*FrameState)) FrameState { s := base; f(&s); return s }
	steps := []struct {
		name string
		s    FrameState
		want Reason
	}{
		{"first frame renders", base, ReasonFirst},
		{"idle frame reuses", base, 0},
		{"idle again", base, 0},
		{"scene edit", with(func(s *FrameState) { s.SceneTick = 6 }), ReasonScene},
		{"then idle", with(func(s *FrameState) { s.SceneTick = 6 }), 0},
		{"selection", with(func(s *FrameState) { s.SceneTick, s.Selection = 6, 2 }), ReasonSelection},
		{"camera", with(func(s *FrameState) { s.SceneTick, s.Selection, s.Camera = 6, 2, moved }), ReasonCamera},
		{"resize", with(func(s *FrameState) { s.SceneTick, s.Selection, s.Camera, s.Width = 6, 2, moved, 801 }), ReasonSize},
		{"hidden panel never renders", with(func(s *FrameState) { s.Width = 0 }), 0},
		{"asset reload and selection at once", with(func(s *FrameState) { s.SceneTick, s.Selection, s.Camera, s.Width, s.Assets = 6, 3, moved, 801, 2 }), ReasonAssets | ReasonSelection},
		{"playing renders every frame", with(func(s *FrameState) {
			s.SceneTick, s.Selection, s.Camera, s.Width, s.Assets, s.Playing = 6, 3, moved, 801, 2, true
		}), ReasonPlaying},
		{"still playing", with(func(s *FrameState) {
			s.SceneTick, s.Selection, s.Camera, s.Width, s.Assets, s.Playing = 6, 3, moved, 801, 2, true
		}), ReasonPlaying},
		{"stopped", with(func(s *FrameState) { s.SceneTick, s.Selection, s.Camera, s.Width, s.Assets = 6, 3, moved, 801, 2 }), 0},
	}
	var p RedrawPolicy
	renders, skips := 0, 0
	for _, st := range steps {
		got := p.Decide(st.s)
		if got != st.want {
			t.Errorf("%s: %v, want %v", st.name, got, st.want)
		}
		if got != 0 {
			renders++
		} else if st.s.Width > 0 {
			skips++
		}
	}
	if p.Renders() != uint64(renders) || p.Skips() != uint64(skips) {
		t.Errorf("counted %d renders %d skips, want %d %d", p.Renders(), p.Skips(), renders, skips)
	}
	last := steps[len(steps)-1].s
	p.Invalidate()
	if got := p.Decide(last); got != ReasonForced {
		t.Errorf("after Invalidate: %v", got)
	}
	if got := p.Decide(last); got != 0 {
		t.Errorf("Invalidate is one-shot, got %v", got)
	}
}

// TestIdleRendersNothing checks the idle rule at the policy
// level: 2 s of idle frames at 60 Hz render 0 times, one field edit renders
// exactly once.
func TestIdleRendersNothing(t *testing.T) {
	var p RedrawPolicy
	s := FrameState{SceneTick: 1, Camera: DefaultCamera(), Width: 640, Height: 480}
	p.Decide(s)
	start := p.Renders()
	for range 120 {
		p.Decide(s)
	}
	if n := p.Renders() - start; n != 0 {
		t.Fatalf("idle: %d renders in 2 s", n)
	}
	s.SceneTick++ // one edit
	for range 120 {
		p.Decide(s)
	}
	if n := p.Renders() - start; n != 1 {
		t.Fatalf("one edit: %d renders, want 1", n)
	}
}

func TestReasonString(t *testing.T) {
	for r, want := range map[Reason]string{0: "none", ReasonCamera: "camera", ReasonScene | ReasonSize: "scene|size", ReasonForced: "forced"} {
		if got := r.String(); got != want {
			t.Errorf("%d: %q, want %q", r, got, want)
		}
	}
}

func TestController(t *testing.T) {
	const w, h = 800, 600
	type frame struct {
		in       Input
		wantMode Mode
		changed  bool
	}
	tests := []struct {
		name   string
		frames []frame
		check  func(t *testing.T, before, after Camera)
	}{
		{"hover alone does nothing", []frame{{Input{Hovered: true, MouseX: 10, MouseY: 10}, ModeNone, false}}, nil},
		{"middle drag orbits, release ends", []frame{
			{Input{Hovered: true, Middle: true, MouseDX: 500}, ModeOrbit, false}, // moved before the press: ignored
			{Input{Hovered: true, Middle: true, MouseDX: 10}, ModeOrbit, true},
			{Input{Hovered: false, Middle: true, MouseDX: 10}, ModeOrbit, true}, // continues outside
			{Input{Hovered: true, MouseDX: 10}, ModeNone, false},
		}, func(t *testing.T, b, a Camera) {
			if !near(a.Yaw, b.Yaw-20*OrbitDegreesPerPixel, 1e-4) { // the 500 pixels before the press count for nothing
				t.Errorf("yaw %v", a.Yaw)
			}
		}},
		{"alt+left orbits", []frame{
			{Input{Hovered: true, Left: true, Alt: true, MouseDY: 300}, ModeOrbit, false},
			{Input{Hovered: true, Left: true, Alt: true, MouseDY: 10}, ModeOrbit, true},
		}, nil},
		{"a press without motion after it does not orbit", []frame{ // the move came before the press
			{Input{Hovered: true, Middle: true, MouseDX: 700, MouseDY: -200}, ModeOrbit, false},
			{Input{Hovered: true, Middle: true}, ModeOrbit, false},
			{Input{Hovered: true}, ModeNone, false},
		}, nil},
		{"plain left does not move the camera", []frame{{Input{Hovered: true, Left: true, MouseDX: 10}, ModeNone, false}}, nil},
		{"drag starting outside is ignored", []frame{{Input{Middle: true, MouseDX: 10}, ModeNone, false}}, nil},
		{"shift+middle pans", []frame{
			{Input{Hovered: true, Middle: true, Shift: true, MouseDX: 400}, ModePan, false},
			{Input{Hovered: true, Middle: true, Shift: true, MouseDX: 10}, ModePan, true},
		}, func(t *testing.T, b, a Camera) {
			if a.Yaw != b.Yaw || a.Pivot == b.Pivot {
				t.Errorf("pan changed yaw or kept the pivot: %+v", a)
			}
		}},
		{"right held flies with WASD", []frame{
			{Input{Hovered: true, Right: true, W: true, Dt: 1}, ModeFly, true},
			{Input{Hovered: false, Right: true, W: true, Dt: 1}, ModeFly, true},
			{Input{Hovered: true, W: true, Dt: 1}, ModeNone, false}, // WASD without right button: nothing
		}, func(t *testing.T, b, a Camera) {
			if d := a.Eye().Sub(b.Eye()).Len(); !near(d, 2*DefaultFlySpeed, 1e-3) {
				t.Errorf("flew %v, want %v", d, 2*DefaultFlySpeed)
			}
		}},
		{"wheel zooms when hovered", []frame{
			{Input{Hovered: true, Wheel: 1, MouseX: 400, MouseY: 300}, ModeNone, true},
			{Input{Hovered: false, Wheel: 1, MouseX: 400, MouseY: 300}, ModeNone, false},
		}, func(t *testing.T, b, a Camera) {
			if !near(a.Distance, b.Distance*ZoomStep, 1e-3) {
				t.Errorf("distance %v", a.Distance)
			}
		}},
		{"wheel while flying changes speed, not distance", []frame{
			{Input{Hovered: true, Right: true, Wheel: 2}, ModeFly, false},
			{Input{Hovered: true, Right: true, W: true, Dt: 1}, ModeFly, true},
		}, func(t *testing.T, b, a Camera) {
			if d := a.Eye().Sub(b.Eye()).Len(); !near(d, DefaultFlySpeed*1.44, 1e-3) {
				t.Errorf("flew %v, want %v", d, DefaultFlySpeed*1.44)
			}
		}},
	}
	for _, tt := range tests {
		var c Controller
		cam := DefaultCamera()
		before := cam
		for i, f := range tt.frames {
			changed := c.Update(&cam, f.in, w, h)
			if c.Mode() != f.wantMode || changed != f.changed {
				t.Errorf("%s frame %d: mode %v changed %v, want %v %v", tt.name, i, c.Mode(), changed, f.wantMode, f.changed)
			}
		}
		if tt.check != nil {
			tt.check(t, before, cam)
		}
	}
	if ModeFly.String() != "fly" || Mode(9).String() != "mode?" {
		t.Error("Mode.String")
	}
}

// FuzzCamera drives the camera with arbitrary numbers: whatever comes in
// (after Normalized, as a loaded scene would be), nothing goes NaN or Inf
// and the pitch stays clamped.
func FuzzCamera(f *testing.F) {
	f.Add(float32(30), float32(-25), float32(40), float32(10), float32(-5), float32(1))
	f.Add(float32(1e30), float32(-1e30), float32(0), float32(1e6), float32(-1e6), float32(-200))
	f.Add(float32(0), float32(89), float32(1e-9), float32(0), float32(0), float32(1e6))
	f.Fuzz(func(t *testing.T, yaw, pitch, dist, dx, dy, steps float32) {
		c := Camera{Pivot: mgl32.Vec3{dx, dy, steps}, Yaw: yaw, Pitch: pitch, Distance: dist, FovY: 60, Near: 0.1, Far: 1000}.Normalized()
		c.Orbit(dx, dy)
		c.Zoom(steps, dx, dy, 640, 480)
		c.Pan(dx, dy, 480)
		c.Fly(FlyInput{LookDX: dx, LookDY: dy, Forward: true, Up: true, Dt: 0.016})
		c.Frame(AABB{Min: mgl32.Vec3{-dx, -1, -1}, Max: mgl32.Vec3{dx, 1, dy}}, 1.5)
		for _, v := range []float32{c.Yaw, c.Pitch, c.Distance} {
			if !finite(v) {
				t.Fatalf("camera went non-finite: %+v", c)
			}
		}
		if c.Pitch < -MaxPitch || c.Pitch > MaxPitch {
			t.Fatalf("pitch %v escaped the clamp", c.Pitch)
		}
		if c.Distance < MinDistance || c.Distance > MaxDistance {
			t.Fatalf("distance %v escaped the clamp", c.Distance)
		}
	})
}
