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
