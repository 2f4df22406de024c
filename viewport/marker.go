package viewport

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// Segment is a line from A to B in world space.
type Segment struct{ A, B mgl32.Vec3 }

// markerCircle is how many segments draw a marker's circle.
const markerCircle = 24

// LightMarker appends to dst the lines that show light l in the viewport, size units across (the caller scales
// it with the distance so that it keeps its size on screen): a point light a star of six rays, a directional
// light a disc with rays along its direction, a spot a small cone. Selected, a point light with a range shows
// the sphere it reaches (three circles), a spot its cones out to its range (or four sizes without one).
func LightMarker(dst []Segment, l Light, size float32, selected bool) []Segment {
	p, d := l.Position, l.Direction
	u, v := basis(d)
	switch l.Kind {
	case scene.LightPoint:
		for _, a := range []mgl32.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} {
			dst = append(dst, Segment{p.Sub(a.Mul(size / 2)), p.Add(a.Mul(size / 2))})
		}
		if selected && l.Range > 0 {
			for _, ax := range [][2]mgl32.Vec3{{{1, 0, 0}, {0, 1, 0}}, {{1, 0, 0}, {0, 0, 1}}, {{0, 1, 0}, {0, 0, 1}}} {
				dst = circle(dst, p, ax[0], ax[1], l.Range)
			}
		}
	case scene.LightDirectional:
		dst = circle(dst, p, u, v, size/3)
		for _, o := range []mgl32.Vec3{u, u.Mul(-1), v, v.Mul(-1)} {
			a := p.Add(o.Mul(size / 3))
			dst = append(dst, Segment{a, a.Add(d.Mul(size))})
		}
	case scene.LightSpot:
		length := size
		if selected {
			length = 4 * size
			if l.Range > 0 {
				length = l.Range
			}
		}
		cones := []float32{l.CosOuter}
		if selected && l.CosInner > l.CosOuter {
			cones = append(cones, l.CosInner)
		}
		for _, c := range cones {
			c = min(max(c, 1e-3), 1)
			s := float32(math.Sqrt(float64(1 - c*c)))
			centre, r := p.Add(d.Mul(length*c)), length*s // the cone's rim: on the sphere of radius length
			dst = circle(dst, centre, u, v, r)
			for _, o := range []mgl32.Vec3{u, u.Mul(-1), v, v.Mul(-1)} {
				dst = append(dst, Segment{p, centre.Add(o.Mul(r))})
			}
		}
	}
	return dst
}

// CameraMarker appends to dst the lines that show a camera with world matrix m in the viewport: a pyramid from
// its position along its -Z axis, size deep, as wide as its field of view and aspect (4:3 when it takes the
// view's), and a triangle over it pointing up.
func CameraMarker(dst []Segment, c scene.Camera, m mgl32.Mat4, size float32) []Segment {
	pos, x, y, z := frameAxes(m)
	aspect := c.Aspect
	if aspect <= 0 {
		aspect = 4.0 / 3
	}
	h := size * float32(math.Tan(float64(mgl32.DegToRad(min(max(c.FOV, 1), 120))/2)))
	if c.Projection == scene.Orthographic {
		h = size / 2
	}
	w := h * aspect
	centre := pos.Sub(z.Mul(size))
	corners := rect(centre, x, y, w, h)
	for i := range 4 {
		dst = append(dst, Segment{pos, corners[i]}, Segment{corners[i], corners[(i+1)%4]})
	}
	top := centre.Add(y.Mul(h * 1.15))
	peak := centre.Add(y.Mul(h * 1.6))
	return append(dst, Segment{top.Sub(x.Mul(w / 2)), top.Add(x.Mul(w / 2))},
		Segment{top.Sub(x.Mul(w / 2)), peak}, Segment{peak, top.Add(x.Mul(w / 2))})
}

// CameraFrustum appends to dst the lines of what a camera with world matrix m sees: the rectangles of its near
// and far planes and the four edges between them, from its field of view (or orthographic size), aspect and near
// and far distances, as SceneCameraView reads them (viewAspect for a camera that takes the view's shape).
func CameraFrustum(dst []Segment, c scene.Camera, m mgl32.Mat4, viewAspect float32) []Segment {
	pos, x, y, z := frameAxes(m)
	cam, aspect := SceneCameraView(c, m, viewAspect)
	at := func(d float32) [4]mgl32.Vec3 {
		h := cam.Ortho
		if h == 0 {
			h = d * float32(math.Tan(float64(mgl32.DegToRad(cam.FovY)/2)))
		}
		return rect(pos.Sub(z.Mul(d)), x, y, h*aspect, h)
	}
	near, far := at(cam.Near), at(cam.Far)
	for i := range 4 {
		j := (i + 1) % 4
		dst = append(dst, Segment{near[i], near[j]}, Segment{far[i], far[j]}, Segment{near[i], far[i]})
	}
	return dst
}

// SceneCameraView returns the editor camera that sees what scene camera c with world matrix m sees — standing
// and turned as m, roll included (its EyeFrame), with c's lens made usable — and the aspect (width / height) of
// its picture: c's own, or viewAspect for a camera that takes the view's shape.
func SceneCameraView(c scene.Camera, m mgl32.Mat4, viewAspect float32) (Camera, float32) {
	if !(viewAspect > 0) || !finite(viewAspect) {
		viewAspect = 1
	}
	cam := Camera{Distance: 1, FovY: c.FOV, Near: c.Near, Far: c.Far}
	aspect := c.Aspect
	if c.Projection == scene.Orthographic {
		h := c.YMag
		if !(h > 0) || !finite(h) {
			h = 1
		}
		cam.Ortho, aspect = h, viewAspect
		if c.XMag > 0 && finite(c.XMag) {
			aspect = c.XMag / h
		}
	}
	if !(aspect > 0) || !finite(aspect) {
		aspect = viewAspect
	}
	cam = cam.Normalized()
	cam.EyeFrame = m
	// The pivot, at the camera's distance in front of the eye, places the grid's fade.
	cam.Pivot = cam.Eye().Add(cam.Forward().Mul(cam.Distance))
	return cam, aspect
}

// frameAxes returns the position and unit axes of world matrix m (zero for an axis m collapses).
func frameAxes(m mgl32.Mat4) (pos, x, y, z mgl32.Vec3) {
	axis := func(i int) mgl32.Vec3 {
		a := m.Col(i).Vec3()
		if n := a.Len(); n > 0 {
			return a.Mul(1 / n)
		}
		return mgl32.Vec3{}
	}
	return m.Col(3).Vec3(), axis(0), axis(1), axis(2)
}

// rect returns the corners of the rectangle about centre, w to either side along x and h along y.
func rect(centre, x, y mgl32.Vec3, w, h float32) [4]mgl32.Vec3 {
	var corners [4]mgl32.Vec3
	for i, s := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		corners[i] = centre.Add(x.Mul(s[0] * w)).Add(y.Mul(s[1] * h))
	}
	return corners
}

// circle appends a circle of radius r about centre in the plane of unit vectors u, v.
func circle(dst []Segment, centre, u, v mgl32.Vec3, r float32) []Segment {
	at := func(i int) mgl32.Vec3 {
		s, c := math.Sincos(2 * math.Pi * float64(i) / markerCircle)
		return centre.Add(u.Mul(r * float32(c))).Add(v.Mul(r * float32(s)))
	}
	for i := range markerCircle {
		dst = append(dst, Segment{at(i), at(i + 1)})
	}
	return dst
}

// basis returns two unit vectors perpendicular to d and to each other.
func basis(d mgl32.Vec3) (u, v mgl32.Vec3) {
	ref := mgl32.Vec3{0, 1, 0}
	if math.Abs(float64(d[1])) > 0.9 {
		ref = mgl32.Vec3{1, 0, 0}
	}
	u = d.Cross(ref)
	if u.Len() == 0 {
		return mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}
	}
	u = u.Normalize()
	return u, d.Cross(u).Normalize()
}
