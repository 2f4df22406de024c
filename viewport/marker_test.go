package viewport

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// TestLightMarkerShowsConeAndRange: a selected spot's cone reaches its range, its rim at the outer angle from its
// axis; unselected it is a small cone; a selected point light's circles lie on the sphere of its range.
func TestLightMarkerShowsConeAndRange(t *testing.T) {
	spot := PlaceLight(&scene.Light{Kind: scene.LightSpot, Color: [3]float32{1, 1, 1}, Intensity: 1, Range: 5, InnerCone: 10, OuterCone: 30},
		mgl32.Translate3D(1, 4, 0).Mul4(mgl32.HomogRotate3DX(-math.Pi/2)), 7)
	for _, sel := range []bool{false, true} {
		far := float32(0)
		for _, s := range LightMarker(nil, spot, 0.5, sel) {
			for _, p := range []mgl32.Vec3{s.A, s.B} {
				rel := p.Sub(spot.Position)
				if rel.Len() < 1e-4 {
					continue
				}
				far = max(far, rel.Len())
				if ang := mgl32.RadToDeg(float32(math.Acos(float64(rel.Normalize().Dot(spot.Direction))))); ang > 30.01 {
					t.Errorf("selected %v: a point %v at %.2f° from the axis, outside the 30° cone", sel, p, ang)
				}
			}
		}
		if want := map[bool]float32{false: 0.5, true: 5}[sel]; math.Abs(float64(far-want)) > 1e-3 {
			t.Errorf("selected %v: the cone reaches %v, want %v", sel, far, want)
		}
	}
	point := Light{Kind: scene.LightPoint, Position: mgl32.Vec3{0, 2, 0}, Range: 3}
	lines := LightMarker(nil, point, 0.5, true)
	if len(lines) != 3+3*markerCircle {
		t.Fatalf("%d lines, want the star's 3 and 3 circles", len(lines))
	}
	for _, s := range lines[3:] {
		if d := s.A.Sub(point.Position).Len(); math.Abs(float64(d-3)) > 1e-4 {
			t.Fatalf("a range circle's point at %v from the light, want 3", d)
		}
	}
	if n := len(LightMarker(nil, point, 0.5, false)); n != 3 {
		t.Errorf("unselected point light: %d lines, want the star's 3", n)
	}
}

// TestCameraMarkerLooksDownMinusZ: the pyramid's base is size in front of the camera along its -Z axis.
func TestCameraMarkerLooksDownMinusZ(t *testing.T) {
	m := mgl32.Translate3D(0, 1, 5)
	lines := CameraMarker(nil, scene.Camera{}.Default(), m, 2)
	if len(lines) != 11 {
		t.Fatalf("%d lines, want 8 for the pyramid and 3 for the up triangle", len(lines))
	}
	if z := lines[0].B[2]; math.Abs(float64(z-3)) > 1e-5 {
		t.Errorf("the pyramid's base at z = %v, want 3 (2 in front of z = 5)", z)
	}
}

// TestCameraFrustumReachesNearAndFar: a camera's frustum is its near rectangle, its far rectangle and the four
// edges between them, each as wide and high as its field of view and aspect make it (an orthographic one's are
// XMag and YMag to either side at both distances).
func TestCameraFrustumReachesNearAndFar(t *testing.T) {
	m := mgl32.Translate3D(0, 1, 5)
	persp := scene.Camera{FOV: 90, Aspect: 2, Near: 1, Far: 10}
	ortho := scene.Camera{Projection: scene.Orthographic, XMag: 3, YMag: 2, Near: 1, Far: 10}
	for _, tc := range []struct {
		name          string
		c             scene.Camera
		near, far     [2]float32 // half width, half height
		nearZ, farZ   float32
		wantSegments  int
		viewAspectArg float32
	}{
		{"perspective", persp, [2]float32{2, 1}, [2]float32{20, 10}, 4, -5, 12, 1.5},
		{"orthographic", ortho, [2]float32{3, 2}, [2]float32{3, 2}, 4, -5, 12, 1.5},
		{"perspective with the view's aspect", scene.Camera{FOV: 90, Near: 1, Far: 10}, [2]float32{1.5, 1}, [2]float32{15, 10}, 4, -5, 12, 1.5},
	} {
		lines := CameraFrustum(nil, tc.c, m, tc.viewAspectArg)
		if len(lines) != tc.wantSegments {
			t.Fatalf("%s: %d lines, want %d", tc.name, len(lines), tc.wantSegments)
		}
		for _, s := range lines {
			for _, p := range []mgl32.Vec3{s.A, s.B} {
				half := tc.near
				if math.Abs(float64(p[2]-tc.farZ)) < 1e-3 {
					half = tc.far
				} else if math.Abs(float64(p[2]-tc.nearZ)) > 1e-3 {
					t.Fatalf("%s: a corner %v on neither plane (z %v or %v)", tc.name, p, tc.nearZ, tc.farZ)
				}
				if math.Abs(math.Abs(float64(p[0]))-float64(half[0])) > 1e-3 || math.Abs(math.Abs(float64(p[1]-1))-float64(half[1])) > 1e-3 {
					t.Errorf("%s: corner %v, want ±%v, 1±%v", tc.name, p, half[0], half[1])
				}
			}
		}
	}
}

// TestSceneCameraViewSeesWhatTheCameraSees: the preview's editor camera stands where the scene camera stands,
// looks down its -Z axis, and projects the corners of its far plane onto the corners of its picture.
func TestSceneCameraViewSeesWhatTheCameraSees(t *testing.T) {
	m := mgl32.Translate3D(3, 2, 1).Mul4(mgl32.HomogRotate3DY(math.Pi / 2)) // looks down -X
	for _, c := range []scene.Camera{
		{FOV: 50, Aspect: 1.5, Near: 0.5, Far: 40},
		{Projection: scene.Orthographic, XMag: 6, YMag: 4, Near: 0.5, Far: 40},
	} {
		cam, aspect := SceneCameraView(c, m, 1)
		if d := cam.Eye().Sub(mgl32.Vec3{3, 2, 1}).Len(); d > 1e-4 {
			t.Errorf("%v: eye at %v, want the camera's position", c.Projection, cam.Eye())
		}
		if f := cam.Forward(); f.Sub(mgl32.Vec3{-1, 0, 0}).Len() > 1e-4 {
			t.Errorf("%v: looks along %v, want -X", c.Projection, f)
		}
		if aspect != 1.5 {
			t.Errorf("%v: aspect %v, want 1.5", c.Projection, aspect)
		}
		w, h := 300, 200
		corner := CameraFrustum(nil, c, m, 1)[1].A // the far rectangle's first corner: left, bottom
		x, y, ok := cam.WorldToPixel(corner, w, h)
		if !ok || math.Abs(float64(x)) > 0.5 || math.Abs(float64(y)-float64(h)) > 0.5 {
			t.Errorf("%v: the far plane's bottom-left corner at pixel (%v, %v), want (0, %d)", c.Projection, x, y, h)
		}
	}
}

// TestSceneCameraViewKeepsRoll: a rolled camera's preview looks through the camera itself — its view matrix is
// the inverse of the camera's world transform, roll included, even looking straight down.
func TestSceneCameraViewKeepsRoll(t *testing.T) {
	for _, m := range []mgl32.Mat4{
		mgl32.Translate3D(1, 2, 3).Mul4(mgl32.HomogRotate3DY(0.5)).Mul4(mgl32.HomogRotate3DZ(math.Pi / 2)),
		mgl32.Translate3D(-4, 5, 0).Mul4(mgl32.HomogRotate3DX(-math.Pi / 2)).Mul4(mgl32.HomogRotate3DZ(0.7)),
	} {
		cam, _ := SceneCameraView(scene.Camera{FOV: 50, Aspect: 1, Near: 0.5, Far: 40}, m, 1)
		want := m.Inv()
		if got := cam.View(); !matNear(got, want, 1e-4) {
			t.Errorf("view matrix\n%v\nwant the inverse of the camera's world transform\n%v", got, want)
		}
		if up, wantUp := cam.Up(), m.Col(1).Vec3(); up.Sub(wantUp).Len() > 1e-4 {
			t.Errorf("up %v, want the camera's own %v", up, wantUp)
		}
	}
}

// matNear reports whether every element of a and b differs by less than eps.
func matNear(a, b mgl32.Mat4, eps float32) bool {
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) >= float64(eps) {
			return false
		}
	}
	return true
}
