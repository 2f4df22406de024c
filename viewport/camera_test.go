package viewport

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs/scene"
)

func near(a, b, eps float32) bool { return float32(math.Abs(float64(a-b))) <= eps }

func nearVec(a, b mgl32.Vec3, eps float32) bool {
	return near(a[0], b[0], eps) && near(a[1], b[1], eps) && near(a[2], b[2], eps)
}

func TestForward(t *testing.T) {
	s := float32(math.Sqrt2 / 2)
	tests := []struct {
		yaw, pitch float32
		want       mgl32.Vec3
	}{
		{0, 0, mgl32.Vec3{0, 0, -1}},
		{90, 0, mgl32.Vec3{-1, 0, 0}},
		{-90, 0, mgl32.Vec3{1, 0, 0}},
		{180, 0, mgl32.Vec3{0, 0, 1}},
		{0, 45, mgl32.Vec3{0, s, -s}},
		{0, -45, mgl32.Vec3{0, -s, -s}},
		{90, -45, mgl32.Vec3{-s, -s, 0}},
	}
	for _, tt := range tests {
		c := Camera{Yaw: tt.yaw, Pitch: tt.pitch, Distance: 1}
		if got := c.Forward(); !nearVec(got, tt.want, 1e-5) {
			t.Errorf("yaw %v pitch %v: Forward = %v, want %v", tt.yaw, tt.pitch, got, tt.want)
		}
		if r := c.Right(); !near(r[1], 0, 1e-6) || !near(r.Dot(c.Forward()), 0, 1e-6) {
			t.Errorf("yaw %v pitch %v: Right %v not horizontal and orthogonal", tt.yaw, tt.pitch, r)
		}
	}
}

func TestSceneFileCamera(t *testing.T) {
	// "camera": {"pivot":[0,0,0],"yaw":30,"pitch":-25,"distance":40}
	c := DefaultCamera()
	eye := c.Eye()
	if !near(eye.Len(), 40, 1e-3) {
		t.Errorf("eye %v is %v from the pivot, want 40", eye, eye.Len())
	}
	if wantY := float32(40 * math.Sin(25*math.Pi/180)); !near(eye[1], wantY, 1e-3) {
		t.Errorf("eye height %v, want %v (looking down 25°)", eye[1], wantY)
	}
	if eye[0] <= 0 || eye[2] <= 0 {
		t.Errorf("eye %v: yaw 30 should put the camera at +X +Z of the pivot", eye)
	}
	// The view matrix puts the pivot straight ahead at the distance.
	p := c.View().Mul4x1(c.Pivot.Vec4(1)).Vec3()
	if !nearVec(p, mgl32.Vec3{0, 0, -40}, 1e-3) {
		t.Errorf("pivot in view space = %v, want (0,0,-40)", p)
	}
	// World up stays up on screen.
	x0, y0, _ := c.WorldToPixel(c.Pivot, 800, 600)
	x1, y1, _ := c.WorldToPixel(c.Pivot.Add(mgl32.Vec3{0, 1, 0}), 800, 600)
	if !near(x0, 400, 1e-2) || !near(y0, 300, 1e-2) || !(y1 < y0) || !near(x1, x0, 1e-2) {
		t.Errorf("pivot at (%v,%v), pivot+Y at (%v,%v): want centre, and +Y straight up", x0, y0, x1, y1)
	}
}

func TestRayRoundTrip(t *testing.T) {
	cams := []Camera{DefaultCamera(), {Pivot: mgl32.Vec3{3, -2, 7}, Yaw: -120, Pitch: 60, Distance: 5, FovY: 45, Near: 0.5, Far: 100}}
	pixels := [][2]float32{{400, 300}, {0.5, 0.5}, {799.5, 599.5}, {10, 590}, {650, 42}}
	for ci, c := range cams {
		for _, px := range pixels {
			r := c.Ray(px[0], px[1], 800, 600)
			if !near(r.Dir.Len(), 1, 1e-5) {
				t.Errorf("cam %d pixel %v: |Dir| = %v", ci, px, r.Dir.Len())
			}
			for _, dist := range []float32{1, 10, 50} {
				x, y, ok := c.WorldToPixel(r.At(dist), 800, 600)
				if !ok || !near(x, px[0], 0.05) || !near(y, px[1], 0.05) {
					t.Errorf("cam %d pixel %v: point %v along the ray projects to (%v,%v) ok=%v", ci, px, dist, x, y, ok)
				}
			}
		}
		// The centre ray is the view direction through the pivot.
		r := c.Ray(400, 300, 800, 600)
		if !nearVec(r.Dir, c.Forward(), 1e-4) {
			t.Errorf("cam %d: centre ray dir %v, want forward %v", ci, r.Dir, c.Forward())
		}
		if d := r.Origin.Sub(c.Eye()).Len(); !near(d, c.Near, 1e-3) {
			t.Errorf("cam %d: centre ray origin %v from the eye, want near plane %v", ci, d, c.Near)
		}
	}
	// The top-left pixel's ray goes up and left of the view direction.
	c := cams[0]
	r := c.Ray(0, 0, 800, 600)
	if r.Dir.Dot(c.Up()) <= 0 || r.Dir.Dot(c.Right()) >= 0 {
		t.Errorf("top-left ray %v should point up and left", r.Dir)
	}
}

func TestOrbit(t *testing.T) {
	tests := []struct {
		name         string
		yaw, pitch   float32
		dx, dy       float32
		wantY, wantP float32
	}{
		{"right drag turns yaw down", 30, -25, 10, 0, 27, -25},
		{"down drag looks further down", 30, -25, 0, 10, 30, -28},
		{"pitch clamps short of straight down", 0, -80, 0, 1000, 0, -MaxPitch},
		{"pitch clamps short of straight up", 0, 80, 0, -1000, 0, MaxPitch},
		{"yaw wraps", 179, 0, -10, 0, -178, 0},
	}
	for _, tt := range tests {
		c := Camera{Yaw: tt.yaw, Pitch: tt.pitch, Distance: 10, FovY: 60, Near: 0.1, Far: 100}
		pivot := c.Pivot
		c.Orbit(tt.dx, tt.dy)
		if !near(c.Yaw, tt.wantY, 1e-4) || !near(c.Pitch, tt.wantP, 1e-4) {
			t.Errorf("%s: yaw,pitch = %v,%v want %v,%v", tt.name, c.Yaw, c.Pitch, tt.wantY, tt.wantP)
		}
		if c.Pivot != pivot || c.Distance != 10 {
			t.Errorf("%s: orbit moved the pivot or distance", tt.name)
		}
	}
	// Dragging right moves a point between the pivot and the camera to the
	// right on screen (the scene follows the mouse).
	c := DefaultCamera()
	p := c.Pivot.Sub(c.Forward().Mul(5)).Add(c.Right())
	x0, _, _ := c.WorldToPixel(p, 800, 600)
	c.Orbit(20, 0)
	x1, _, _ := c.WorldToPixel(p, 800, 600)
	if !(x1 > x0) {
		t.Errorf("after a right drag a point in front moved from x=%v to %v, want right", x0, x1)
	}
}

// pivotPlanePoint returns the point on the plane through the pivot facing
// the camera that is under pixel (x, y).
func pivotPlanePoint(c Camera, x, y float32, w, h int) mgl32.Vec3 {
	r := c.Ray(x, y, w, h)
	f := c.Forward()
	t, _ := r.IntersectPlane(f, f.Dot(c.Pivot))
	return r.At(t)
}

func TestPanFollowsCursor(t *testing.T) {
	tests := []struct{ x, y, dx, dy float32 }{
		{400, 300, 50, 0}, {400, 300, 0, -40}, {100, 500, -30, 25}, {700, 80, 12.5, 7},
	}
	for _, tt := range tests {
		c := DefaultCamera()
		p := pivotPlanePoint(c, tt.x, tt.y, 800, 600)
		c.Pan(tt.dx, tt.dy, 600)
		x, y, _ := c.WorldToPixel(p, 800, 600)
		if !near(x, tt.x+tt.dx, 0.05) || !near(y, tt.y+tt.dy, 0.05) {
			t.Errorf("pan %v,%v from (%v,%v): point now at (%v,%v), want (%v,%v)", tt.dx, tt.dy, tt.x, tt.y, x, y, tt.x+tt.dx, tt.y+tt.dy)
		}
	}
}

func TestZoomToCursor(t *testing.T) {
	tests := []struct {
		name     string
		dist     float32
		steps    float32
		x, y     float32
		wantDist float32
	}{
		{"one notch in at the centre", 40, 1, 400, 300, 40 * ZoomStep},
		{"two notches out at a corner", 40, -2, 20, 30, 40 / (ZoomStep * ZoomStep)},
		{"in at the left", 10, 3, 100, 300, 10 * ZoomStep * ZoomStep * ZoomStep},
		{"clamped at MinDistance", 0.02, 20, 600, 100, MinDistance},
	}
	for _, tt := range tests {
		c := DefaultCamera()
		c.Distance = tt.dist
		p := pivotPlanePoint(c, tt.x, tt.y, 800, 600)
		c.Zoom(tt.steps, tt.x, tt.y, 800, 600)
		if !near(c.Distance, tt.wantDist, tt.wantDist*1e-4) {
			t.Errorf("%s: distance %v, want %v", tt.name, c.Distance, tt.wantDist)
		}
		x, y, ok := c.WorldToPixel(p, 800, 600)
		if !ok || !near(x, tt.x, 0.1) || !near(y, tt.y, 0.1) {
			t.Errorf("%s: point under the cursor moved from (%v,%v) to (%v,%v)", tt.name, tt.x, tt.y, x, y)
		}
	}
}

func TestFly(t *testing.T) {
	base := Camera{Yaw: 0, Pitch: 0, Distance: 10, FovY: 60, Near: 0.1, Far: 100}
	tests := []struct {
		name      string
		in        FlyInput
		wantMove  mgl32.Vec3 // eye displacement
		wantYaw   float32
		wantPitch float32
	}{
		{"W moves forward", FlyInput{Forward: true, Dt: 0.5}, mgl32.Vec3{0, 0, -5}, 0, 0},
		{"S moves back", FlyInput{Back: true, Dt: 0.1}, mgl32.Vec3{0, 0, 1}, 0, 0},
		{"D moves right", FlyInput{Right: true, Dt: 1, Speed: 2}, mgl32.Vec3{2, 0, 0}, 0, 0},
		{"A moves left", FlyInput{Left: true, Dt: 1, Speed: 2}, mgl32.Vec3{-2, 0, 0}, 0, 0},
		{"E rises, Q sinks", FlyInput{Up: true, Dt: 1, Speed: 3}, mgl32.Vec3{0, 3, 0}, 0, 0},
		{"Q sinks", FlyInput{Down: true, Dt: 1, Speed: 3}, mgl32.Vec3{0, -3, 0}, 0, 0},
		{"Shift is faster", FlyInput{Forward: true, Fast: true, Dt: 1, Speed: 1}, mgl32.Vec3{0, 0, -FastFactor}, 0, 0},
		{"diagonal keeps speed", FlyInput{Forward: true, Right: true, Dt: 1, Speed: 1}, mgl32.Vec3{float32(math.Sqrt2 / 2), 0, -float32(math.Sqrt2 / 2)}, 0, 0},
		{"opposite keys cancel", FlyInput{Forward: true, Back: true, Dt: 1}, mgl32.Vec3{}, 0, 0},
		{"mouse look turns in place", FlyInput{LookDX: 100, LookDY: -50}, mgl32.Vec3{}, -30, 15},
		{"pitch clamps short of straight up", FlyInput{LookDY: -10000}, mgl32.Vec3{}, 0, MaxPitch},
		{"pitch clamps short of straight down", FlyInput{LookDY: 10000}, mgl32.Vec3{}, 0, -MaxPitch},
	}
	for _, tt := range tests {
		c := base
		eye := c.Eye()
		c.Fly(tt.in)
		if got := c.Eye().Sub(eye); !nearVec(got, tt.wantMove, 1e-4) {
			t.Errorf("%s: eye moved %v, want %v", tt.name, got, tt.wantMove)
		}
		if !near(c.Yaw, tt.wantYaw, 1e-4) || !near(c.Pitch, tt.wantPitch, 1e-4) {
			t.Errorf("%s: yaw,pitch = %v,%v want %v,%v", tt.name, c.Yaw, c.Pitch, tt.wantYaw, tt.wantPitch)
		}
		if c.Distance != base.Distance {
			t.Errorf("%s: distance changed to %v", tt.name, c.Distance)
		}
	}
	// Looking around never flips the camera: up keeps a positive Y.
	c := base
	for range 100 {
		c.Fly(FlyInput{LookDX: 37, LookDY: -90})
		if c.Up()[1] <= 0 {
			t.Fatalf("camera flipped: up %v at pitch %v", c.Up(), c.Pitch)
		}
	}
}

func corners(b AABB) [8]mgl32.Vec3 {
	var out [8]mgl32.Vec3
	for i := range out {
		out[i] = b.Min
		for a := range 3 {
			if i&(1<<a) != 0 {
				out[i][a] = b.Max[a]
			}
		}
	}
	return out
}

func TestFrame(t *testing.T) {
	boxes := []AABB{
		{Min: mgl32.Vec3{-1, -1, -1}, Max: mgl32.Vec3{1, 1, 1}},
		{Min: mgl32.Vec3{-15, 0, -15}, Max: mgl32.Vec3{15, 1, 15}},
		{Min: mgl32.Vec3{100, 5, 100}, Max: mgl32.Vec3{101, 50, 101}},
		{Min: mgl32.Vec3{2, 2, 2}, Max: mgl32.Vec3{2, 2, 2}}, // a point
	}
	sizes := [][2]int{{800, 600}, {300, 900}, {1920, 200}}
	for bi, b := range boxes {
		for _, sz := range sizes {
			c := DefaultCamera()
			if !c.Frame(b, aspectOf(sz[0], sz[1])) {
				t.Fatalf("box %d: Frame returned false", bi)
			}
			if !nearVec(c.Pivot, b.Center(), 1e-4) {
				t.Errorf("box %d: pivot %v, want centre %v", bi, c.Pivot, b.Center())
			}
			vp := c.ViewProj(sz[0], sz[1])
			f := NewFrustum(vp)
			var most float32 // outermost corner in normalised device coordinates
			for _, corner := range corners(b) {
				if !f.ContainsPoint(corner) {
					t.Errorf("box %d at %v: corner %v outside the view", bi, sz, corner)
				}
				clip := vp.Mul4x1(corner.Vec4(1))
				most = max(most, float32(math.Abs(float64(clip[0]/clip[3]))), float32(math.Abs(float64(clip[1]/clip[3]))))
			}
			// Tight: the outermost corner sits at 1/FrameMargin of the half-view.
			if b.Size().Len() > 0 && !near(most, 1/FrameMargin, 0.01) {
				t.Errorf("box %d at %v: outermost corner at %v of the half-view, want %v", bi, sz, most, 1/FrameMargin)
			}
		}
	}
	c := DefaultCamera()
	if c.Frame(EmptyAABB(), 1) || c != DefaultCamera() {
		t.Error("Frame(empty) changed the camera or reported true")
	}
}

func TestNormalized(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	tests := []struct {
		name string
		in   Camera
		want Camera
	}{
		{"zero value gets defaults", Camera{}, Camera{Yaw: 0, Pitch: 0, Distance: 40, FovY: 60, Near: 0.1, Far: 5000}},
		{"NaNs replaced", Camera{Pivot: mgl32.Vec3{nan, 1, inf}, Yaw: nan, Pitch: nan, Distance: nan, FovY: nan, Near: nan, Far: nan},
			Camera{Pivot: mgl32.Vec3{0, 1, 0}, Yaw: 30, Pitch: -25, Distance: 40, FovY: 60, Near: 0.1, Far: 5000}},
		{"pitch clamped, yaw wrapped", Camera{Yaw: 540, Pitch: -120, Distance: 5, FovY: 70, Near: 1, Far: 10},
			Camera{Yaw: 180, Pitch: -MaxPitch, Distance: 5, FovY: 70, Near: 1, Far: 10}},
		{"far before near", Camera{Distance: 5, FovY: 70, Near: 10, Far: 1},
			Camera{Distance: 5, FovY: 70, Near: 10, Far: 10000}},
		{"distance clamped", Camera{Distance: 1e9, FovY: 60, Near: 0.1, Far: 5000},
			Camera{Distance: MaxDistance, FovY: 60, Near: 0.1, Far: 5000}},
	}
	for _, tt := range tests {
		if got := tt.in.Normalized(); got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// Saved and WithSaved are the one conversion between the camera and what scene files store.
func TestCameraSavedRoundTrip(t *testing.T) {
	c := DefaultCamera()
	c.Pivot, c.Yaw, c.Pitch, c.Distance, c.FovY = mgl32.Vec3{1, 2, 3}, -40, 20, 12, 45
	s := c.Saved()
	if s != (scene.EditorCamera{Pivot: mgl32.Vec3{1, 2, 3}, Yaw: -40, Pitch: 20, Distance: 12}) {
		t.Fatalf("Saved() = %+v", s)
	}
	if got := DefaultCamera().WithSaved(s); got.Pivot != c.Pivot || got.Yaw != c.Yaw || got.Pitch != c.Pitch ||
		got.Distance != c.Distance || got.FovY != DefaultCamera().FovY {
		t.Fatalf("WithSaved(%+v) = %+v", s, got)
	}
	// A stored camera is made safe: yaw wrapped, pitch clamped, a broken distance replaced.
	got := DefaultCamera().WithSaved(scene.EditorCamera{Yaw: 370, Pitch: 95, Distance: float32(math.NaN())})
	if got.Yaw != 10 || got.Pitch != MaxPitch || got.Distance != DefaultCamera().Distance {
		t.Fatalf("normalized: %+v", got)
	}
}
