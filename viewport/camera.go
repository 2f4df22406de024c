package viewport

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// Camera limits and tuning. Angles are in degrees.
const (
	// MaxPitch is how far the camera may look up or down: short of ±90° so
	// the view never flips over the pole (as in the Carnot devlog's
	// first-person clamp).
	MaxPitch = 89
	// MinDistance and MaxDistance bound the orbit distance.
	MinDistance = 0.01
	MaxDistance = 1e6
	// OrbitDegreesPerPixel is the orbit (and fly mouse-look) sensitivity.
	OrbitDegreesPerPixel = 0.3
	// ZoomStep is the distance factor for one wheel notch towards the scene.
	ZoomStep = 0.85
	// FrameMargin is the extra room [Camera.Frame] leaves around the bounds.
	FrameMargin = 1.1
	// DefaultFlySpeed is the fly speed in world units per second.
	DefaultFlySpeed = 10
	// FastFactor multiplies the fly speed while Shift is held.
	FastFactor = 4
)

var worldUp = mgl32.Vec3{0, 1, 0}

// Camera is the editor camera: it orbits around Pivot at Distance, turned by
// Yaw and Pitch (degrees). At yaw 0 and pitch 0 it looks down -Z; positive yaw
// turns left (counter-clockwise seen from +Y), negative pitch looks down.
// FovY (vertical, degrees), Near and Far define the perspective projection.
//
// The first four fields are what scene files store:
//
//	"camera": {"pivot":[0,0,0],"yaw":30,"pitch":-25,"distance":40}
//
// Camera is a comparable value: two equal cameras render the same image, so
// [RedrawPolicy] compares cameras directly instead of tracking versions.
type Camera struct {
	Pivot    mgl32.Vec3
	Yaw      float32
	Pitch    float32
	Distance float32
	FovY     float32
	Near     float32
	Far      float32
	// Ortho is half the height an orthographic projection sees; 0 is the perspective one of FovY. A scene camera's
	// preview may be orthographic (SceneCameraView).
	Ortho float32
	// Orthographic makes the projection orthographic with the plane through the pivot as big on the screen as
	// in perspective (so toggling it keeps what is at the pivot where it is, and zooming scales it): the
	// editor camera's axis views. Ortho, when set, takes precedence.
	Orthographic bool
	// EyeFrame is, when not zero, the world matrix the camera stands and turns as (roll included, scale ignored):
	// a scene camera's own (SceneCameraView). The orbiting editor camera has none; Pivot, Yaw and Pitch then
	// place only the grid's fade.
	EyeFrame mgl32.Mat4
}

// DefaultCamera returns the camera a new scene starts with: yaw 30°, pitch
// -25°, distance 40 around the origin, 60° vertical field of view, near 0.1,
// far 5000.
func DefaultCamera() Camera {
	return Camera{Yaw: 30, Pitch: -25, Distance: 40, FovY: 60, Near: 0.1, Far: 5000}
}

func finite(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }

// Normalized returns c made safe to use: non-finite values replaced by the
// defaults, pitch clamped to ±[MaxPitch], yaw wrapped into (-180, 180],
// distance clamped to [MinDistance, MaxDistance], and a usable lens
// (0 < FovY < 180, 0 < Near < Far).
func (c Camera) Normalized() Camera {
	d := DefaultCamera()
	for i := range 3 {
		if !finite(c.Pivot[i]) {
			c.Pivot[i] = 0
		}
	}
	if !finite(c.Yaw) {
		c.Yaw = d.Yaw
	}
	if !finite(c.Pitch) {
		c.Pitch = d.Pitch
	}
	if !finite(c.Distance) || c.Distance <= 0 {
		c.Distance = d.Distance
	}
	if !finite(c.FovY) || c.FovY <= 1 || c.FovY >= 179 {
		c.FovY = d.FovY
	}
	if !finite(c.Near) || c.Near <= 0 {
		c.Near = d.Near
	}
	if !finite(c.Ortho) || c.Ortho < 0 {
		c.Ortho = 0
	}
	if !finite(c.Far) || c.Far <= c.Near {
		c.Far = max(d.Far, c.Near*1000)
	}
	c.Yaw = wrapDegrees(c.Yaw)
	c.Pitch = mgl32.Clamp(c.Pitch, -MaxPitch, MaxPitch)
	c.Distance = mgl32.Clamp(c.Distance, MinDistance, MaxDistance)
	return c
}

// WithSaved returns c placed and turned as a scene file stored it (pivot, yaw, pitch and distance;
// the lens stays c's), made safe by [Camera.Normalized]. It is the inverse of [Camera.Saved].
func (c Camera) WithSaved(s scene.EditorCamera) Camera {
	c.Pivot, c.Yaw, c.Pitch, c.Distance = s.Pivot, s.Yaw, s.Pitch, s.Distance
	return c.Normalized()
}

// Saved returns what a scene file stores of c.
func (c Camera) Saved() scene.EditorCamera {
	return scene.EditorCamera{Pivot: c.Pivot, Yaw: c.Yaw, Pitch: c.Pitch, Distance: c.Distance}
}

// wrapDegrees maps a into (-180, 180].
func wrapDegrees(a float32) float32 {
	a = float32(math.Mod(float64(a), 360))
	if a > 180 {
		a -= 360
	} else if a <= -180 {
		a += 360
	}
	return a
}

// Orientation returns the camera's rotation: yaw about world Y, then pitch
// about the camera's own X axis.
func (c Camera) Orientation() mgl32.Quat {
	if _, q, ok := c.frame(); ok {
		return q
	}
	return mgl32.QuatRotate(mgl32.DegToRad(c.Yaw), worldUp).
		Mul(mgl32.QuatRotate(mgl32.DegToRad(c.Pitch), mgl32.Vec3{1, 0, 0}))
}

// Forward returns the unit direction the camera looks in.
func (c Camera) Forward() mgl32.Vec3 { return c.Orientation().Rotate(mgl32.Vec3{0, 0, -1}) }

// Right returns the camera's unit right vector (horizontal unless EyeFrame rolls the camera).
func (c Camera) Right() mgl32.Vec3 { return c.Orientation().Rotate(mgl32.Vec3{1, 0, 0}) }

// Up returns the camera's unit up vector.
func (c Camera) Up() mgl32.Vec3 { return c.Orientation().Rotate(worldUp) }

// Eye returns the camera position: EyeFrame's, or Distance behind Pivot along Forward (in orthographic, where the
// distance only sets the scale, half of Far behind it at least, so that zooming in does not cut off what lies in
// front).
func (c Camera) Eye() mgl32.Vec3 {
	if eye, _, ok := c.frame(); ok {
		return eye
	}
	return c.Pivot.Sub(c.Forward().Mul(c.eyeDistance()))
}

func (c Camera) eyeDistance() float32 {
	if c.Orthographic {
		return max(c.Distance, c.Far/2)
	}
	return c.Distance
}

// frame returns EyeFrame's position and rotation (its axes made orthonormal), or ok false when it is zero or
// has no usable axes.
func (c Camera) frame() (eye mgl32.Vec3, q mgl32.Quat, ok bool) {
	if c.EyeFrame == (mgl32.Mat4{}) {
		return eye, q, false
	}
	eye, _, y, z := frameAxes(c.EyeFrame)
	x := y.Cross(z)
	if x.Len() < 1e-6 || !finite(eye[0]) || !finite(eye[1]) || !finite(eye[2]) {
		return eye, q, false
	}
	x = x.Normalize()
	y = z.Cross(x)
	return eye, mgl32.Mat4ToQuat(mgl32.Mat3FromCols(x, y, z).Mat4()), true
}

// View returns the world → camera matrix.
func (c Camera) View() mgl32.Mat4 {
	q := c.Orientation()
	fwd := q.Rotate(mgl32.Vec3{0, 0, -1})
	eye := c.Eye()
	if c.Orthographic { // the eye is far: eye+fwd would lose the direction's precision
		return q.Conjugate().Mat4().Mul4(mgl32.Translate3D(-eye[0], -eye[1], -eye[2]))
	}
	return mgl32.LookAtV(eye, eye.Add(fwd), q.Rotate(worldUp))
}

// Proj returns the projection for a viewport of the given aspect ratio
// (width / height): perspective, or orthographic with Ortho or Orthographic.
func (c Camera) Proj(aspect float32) mgl32.Mat4 {
	if !(aspect > 0) {
		aspect = 1
	}
	if c.Ortho > 0 {
		return mgl32.Ortho(-c.Ortho*aspect, c.Ortho*aspect, -c.Ortho, c.Ortho, c.Near, c.Far)
	}
	if c.Orthographic {
		hh := c.Distance * float32(math.Tan(float64(mgl32.DegToRad(c.FovY))/2))
		hw := hh * aspect
		return mgl32.Ortho(-hw, hw, -hh, hh, c.Near, c.Far)
	}
	return mgl32.Perspective(mgl32.DegToRad(c.FovY), aspect, c.Near, c.Far)
}

// AxisView is a view along a world axis (Blender's numpad views).
type AxisView int

// The axis views. Front looks down -Z (X to the right, Y up), Right down -X,
// Top down -Y (X to the right, -Z up); the others look the opposite way.
const (
	ViewFront AxisView = iota
	ViewBack
	ViewRight
	ViewLeft
	ViewTop
	ViewBottom
)

// axisAngles are each AxisView's yaw and pitch.
var axisAngles = [...][2]float32{
	ViewFront: {0, 0}, ViewBack: {180, 0}, ViewRight: {90, 0}, ViewLeft: {-90, 0}, ViewTop: {0, -90}, ViewBottom: {0, 90},
}

// String names the view ("Top").
func (v AxisView) String() string {
	return [...]string{"Front", "Back", "Right", "Left", "Top", "Bottom"}[v]
}

// SetAxisView turns the camera about its pivot to look along v, exactly
// (top and bottom beyond [MaxPitch]), and makes it orthographic.
func (c *Camera) SetAxisView(v AxisView) {
	c.Yaw, c.Pitch = axisAngles[v][0], axisAngles[v][1]
	c.Orthographic = true
}

// NearestAxisView returns the axis view c looks along, within tol degrees,
// and whether there is one.
func (c Camera) NearestAxisView(tol float32) (AxisView, bool) {
	fwd := c.Forward()
	cos := float32(math.Cos(float64(mgl32.DegToRad(tol))))
	for v := range axisAngles {
		a := Camera{Yaw: axisAngles[v][0], Pitch: axisAngles[v][1]}
		if a.Forward().Dot(fwd) >= cos {
			return AxisView(v), true
		}
	}
	return 0, false
}

// ViewProj returns Proj·View for a w×h pixel viewport.
func (c Camera) ViewProj(w, h int) mgl32.Mat4 {
	return c.Proj(aspectOf(w, h)).Mul4(c.View())
}

func aspectOf(w, h int) float32 {
	if w <= 0 || h <= 0 {
		return 1
	}
	return float32(w) / float32(h)
}

// Ray returns the world-space ray through pixel (x, y) of a w×h viewport
// (top-left origin, see the package doc). The origin lies on the near plane
// and Dir is a unit vector.
func (c Camera) Ray(x, y float32, w, h int) Ray {
	w, h = max(w, 1), max(h, 1)
	view, proj := c.View(), c.Proj(aspectOf(w, h))
	winY := float32(h) - y
	near, err1 := mgl32.UnProject(mgl32.Vec3{x, winY, 0}, view, proj, 0, 0, w, h)
	far, err2 := mgl32.UnProject(mgl32.Vec3{x, winY, 1}, view, proj, 0, 0, w, h)
	dir := far.Sub(near)
	if err1 != nil || err2 != nil || dir.LenSqr() == 0 {
		return Ray{Origin: c.Eye(), Dir: c.Forward()}
	}
	return Ray{Origin: near, Dir: dir.Normalize()}
}

// WorldToPixel projects p into a w×h viewport and returns its pixel
// coordinates (top-left origin). ok is false when p is behind the camera.
func (c Camera) WorldToPixel(p mgl32.Vec3, w, h int) (x, y float32, ok bool) {
	view, proj := c.View(), c.Proj(aspectOf(w, h))
	clip := proj.Mul4(view).Mul4x1(p.Vec4(1))
	win := mgl32.Project(p, view, proj, 0, 0, w, h)
	return win[0], float32(h) - win[1], clip[3] > 0
}

// unitsPerPixel is the world size of one pixel on the plane through the pivot.
func (c Camera) unitsPerPixel(h int) float32 {
	half := mgl32.DegToRad(c.FovY) / 2
	return 2 * c.Distance * float32(math.Tan(float64(half))) / float32(max(h, 1))
}

// Orbit turns the camera around the pivot by a mouse drag of (dx, dy) pixels:
// dragging right turns the scene to the right, dragging down tilts the camera
// up over the scene. Pitch stays within ±[MaxPitch]. An orthographic axis
// view turned away from its axis becomes perspective (Blender's auto
// perspective); an orthographic view off the axes stays orthographic.
func (c *Camera) Orbit(dx, dy float32) {
	if dx == 0 && dy == 0 {
		return // an axis view keeps its exact ±90° pitch
	}
	if _, ok := c.NearestAxisView(0.5); ok && c.Orthographic {
		c.Orthographic = false
	}
	c.Yaw = wrapDegrees(c.Yaw - dx*OrbitDegreesPerPixel)
	c.Pitch = mgl32.Clamp(c.Pitch-dy*OrbitDegreesPerPixel, -MaxPitch, MaxPitch)
}

// Pan moves the pivot in the view plane so that the point on the pivot's
// plane under the cursor follows a drag of (dx, dy) pixels in a viewport
// h pixels high.
func (c *Camera) Pan(dx, dy float32, h int) {
	k := c.unitsPerPixel(h)
	c.Pivot = c.Pivot.Sub(c.Right().Mul(dx * k)).Add(c.Up().Mul(dy * k))
}

// Zoom moves the camera towards (steps > 0) or away from (steps < 0) the
// point under the cursor (x, y) of a w×h viewport, by [ZoomStep] per step.
// The point on the pivot's plane under the cursor stays under the cursor.
// The distance stays within [MinDistance, MaxDistance].
func (c *Camera) Zoom(steps, x, y float32, w, h int) {
	d := c.Distance
	nd := mgl32.Clamp(d*float32(math.Pow(ZoomStep, float64(steps))), MinDistance, MaxDistance)
	f := nd / d
	fwd := c.Forward()
	r := c.Ray(x, y, w, h)
	if denom := r.Dir.Dot(fwd); denom > 1e-6 {
		p := r.At(c.Pivot.Sub(r.Origin).Dot(fwd) / denom)
		c.Pivot = p.Add(c.Pivot.Sub(p).Mul(f))
	}
	c.Distance = nd
}

// FlyInput is one frame of fly-mode input: mouse-look deltas in pixels, the
// movement keys held (W/S forward/back, A/D left/right, E/Q up/down) and the
// frame time.
type FlyInput struct {
	LookDX, LookDY                       float32
	Forward, Back, Left, Right, Up, Down bool
	Fast                                 bool    // Shift: [FastFactor] times faster
	Dt                                   float32 // seconds since the last frame
	Speed                                float32 // world units per second; 0 means DefaultFlySpeed
}

// Fly applies one frame of fly mode: mouse look turns the camera about its
// eye (yaw about world Y, pitch clamped short of ±90°), and the keys move
// the eye along the view direction, the right vector and world up. The pivot
// travels with the eye, so orbiting afterwards turns around the point ahead.
func (c *Camera) Fly(in FlyInput) {
	eye := c.Pivot.Sub(c.Forward().Mul(c.Distance))
	c.Yaw = wrapDegrees(c.Yaw - in.LookDX*OrbitDegreesPerPixel)
	c.Pitch = mgl32.Clamp(c.Pitch-in.LookDY*OrbitDegreesPerPixel, -MaxPitch, MaxPitch)
	fwd := c.Forward()
	var dir mgl32.Vec3
	axis := func(pos, neg bool, v mgl32.Vec3) {
		if pos {
			dir = dir.Add(v)
		}
		if neg {
			dir = dir.Sub(v)
		}
	}
	axis(in.Forward, in.Back, fwd)
	axis(in.Right, in.Left, c.Right())
	axis(in.Up, in.Down, worldUp)
	if l := dir.Len(); l > 1e-6 && in.Dt > 0 {
		speed := in.Speed
		if speed <= 0 {
			speed = DefaultFlySpeed
		}
		if in.Fast {
			speed *= FastFactor
		}
		eye = eye.Add(dir.Mul(speed * in.Dt / l))
	}
	c.Pivot = eye.Add(fwd.Mul(c.Distance))
}

// Frame points the camera at the centre of b and sets the distance so that
// all eight corners of b fit the view of the given aspect ratio with
// [FrameMargin] to spare, keeping yaw and pitch. Far grows if b would not
// fit in depth. It reports false (and changes nothing) for an empty box.
func (c *Camera) Frame(b AABB, aspect float32) bool {
	if b.IsEmpty() {
		return false
	}
	if !(aspect > 0) {
		aspect = 1
	}
	// A point (or a tiny box) is framed as a unit box around it.
	ctr := b.Center()
	half := b.Size().Mul(0.5)
	for i := range 3 {
		half[i] = max(half[i], 0.5)
	}
	tanV := math.Tan(float64(mgl32.DegToRad(c.FovY))/2) / FrameMargin
	tanH := tanV * float64(aspect)
	fwd, right, up := c.Forward(), c.Right(), c.Up()
	// Corner o (relative to the centre) at view depth d + o·fwd must have
	// |o·right| ≤ depth·tanH and |o·up| ≤ depth·tanV.
	var d, behind float64
	for i := range 8 {
		o := mgl32.Vec3{half[0], half[1], half[2]}
		for a := range 3 {
			if i&(1<<a) != 0 {
				o[a] = -o[a]
			}
		}
		z := float64(o.Dot(fwd))
		d = max(d, math.Abs(float64(o.Dot(right)))/tanH-z, math.Abs(float64(o.Dot(up)))/tanV-z)
		behind = max(behind, -z)
	}
	d = max(d, behind+float64(c.Near)*2)
	c.Pivot = ctr
	c.Distance = mgl32.Clamp(float32(d), MinDistance, MaxDistance)
	if need := (c.Distance + half.Len()) * 2; c.Far < need {
		c.Far = need
	}
	return true
}

// WithView returns c turned to look the way view (a world → camera matrix, e.g. changed by a view cube) looks
// from where it looks: c keeps its distance, and its pivot moves to that distance in front of view's eye. Roll in
// view is dropped (the editor camera has none). view's eye is taken at the distance (as a perspective c's View
// puts it).
func (c Camera) WithView(view mgl32.Mat4) Camera {
	inv := view.Inv()
	eye := inv.Col(3).Vec3()
	fwd := inv.Col(2).Vec3().Mul(-1)
	if l := fwd.Len(); l > 0 {
		fwd = fwd.Mul(1 / l)
	} else {
		return c
	}
	pitch := math.Asin(math.Max(-1, math.Min(1, float64(fwd[1]))))
	yaw := math.Atan2(-float64(fwd[0]), -float64(fwd[2]))
	c.Yaw = float32(yaw * 180 / math.Pi)
	c.Pitch = float32(pitch * 180 / math.Pi)
	c.Pivot = eye.Add(fwd.Mul(c.Distance))
	return c.Normalized()
}
