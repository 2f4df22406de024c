package workspace

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/viewport"
)

// placeGap is the distance between what the scene holds and something placed beside it.
const placeGap = 2

// BesideScene is where something new goes by default (a grid, a placed prefab): next to what the scene already
// holds (content), with a gap of two units, its bottom level with the content's bottom and centred on the content
// along the other horizontal axis — so it never lands on what is there and sits on the same floor — and never
// between the camera (eye) and the content: of ±X and ±Z it takes the side on the view's right, else its left,
// else the far side, the first whose box leaves the view of the content clear. box is the thing's bounds relative
// to the position returned. Unity and Blender put new objects at the view's pivot or the 3D cursor, which after
// framing a scene is its middle: exactly on the existing objects, hence "At pivot" is offered but not the default.
// In an empty scene it goes to the origin. The placed coordinate is rounded outwards to a half unit so that a
// field shows it plainly.
func BesideScene(content, box viewport.AABB, eye mgl32.Vec3) mgl32.Vec3 {
	if content.IsEmpty() {
		return mgl32.Vec3{}
	}
	c := content.Center()
	toward := eye.Sub(c)
	dominant, across := 0, 2
	if abs32(toward[2]) > abs32(toward[0]) {
		dominant, across = 2, 0
	}
	right := mgl32.Vec3{toward[2], 0, -toward[0]} // forward × up, forward being -toward
	rightSign := float32(1)
	if right[across] < 0 {
		rightSign = -1
	}
	farSign := float32(-1)
	if toward[dominant] < 0 {
		farSign = 1
	}
	sides := [...]struct {
		axis int
		sign float32
	}{{across, rightSign}, {across, -rightSign}, {dominant, farSign}}
	var pos mgl32.Vec3
	for _, s := range sides {
		pos = placedBeside(content, box, s.axis, s.sign)
		if !blocksView(eye, content, viewport.AABB{Min: box.Min.Add(pos), Max: box.Max.Add(pos)}) {
			break
		}
	}
	return pos // the far side when no side is clear: it is beyond the content, so never in front of it
}

// placedBeside returns the position that puts box beside content on the sign side of axis (0: X, 2: Z).
func placedBeside(content, box viewport.AABB, axis int, sign float32) mgl32.Vec3 {
	c := content.Center()
	pos := c.Sub(box.Center())
	pos[1] = content.Min[1] - box.Min[1]
	if sign > 0 {
		pos[axis] = float32(math.Ceil(float64(content.Max[axis]+placeGap-box.Min[axis])*2) / 2)
	} else {
		pos[axis] = float32(math.Floor(float64(content.Min[axis]-placeGap-box.Max[axis])*2) / 2)
	}
	return pos
}

// blocksView reports whether b, seen from above, overlaps the region between eye and content (the convex hull of
// the eye and the content's box): whether it may hide part of the content from the camera. Seen from above is
// the cautious test: a box clear of that region is clear of it at any height.
func blocksView(eye mgl32.Vec3, content, b viewport.AABB) bool {
	hull := [5]mgl32.Vec2{{eye[0], eye[2]}, {content.Min[0], content.Min[2]}, {content.Max[0], content.Min[2]},
		{content.Max[0], content.Max[2]}, {content.Min[0], content.Max[2]}}
	rect := [4]mgl32.Vec2{{b.Min[0], b.Min[2]}, {b.Max[0], b.Min[2]}, {b.Max[0], b.Max[2]}, {b.Min[0], b.Max[2]}}
	// Two convex shapes are apart if their projections on some axis are: the axes, and the normals of the lines
	// between any two hull points (which include the hull's edges), are enough.
	axes := []mgl32.Vec2{{1, 0}, {0, 1}}
	for i := range hull {
		for j := i + 1; j < len(hull); j++ {
			if d := hull[j].Sub(hull[i]); d.Len() > 1e-6 {
				axes = append(axes, mgl32.Vec2{-d[1], d[0]})
			}
		}
	}
	for _, a := range axes {
		hlo, hhi := span(a, hull[:])
		rlo, rhi := span(a, rect[:])
		if hhi <= rlo || rhi <= hlo {
			return false
		}
	}
	return true
}

// span returns the least and greatest projection of ps on a.
func span(a mgl32.Vec2, ps []mgl32.Vec2) (lo, hi float32) {
	lo, hi = float32(math.Inf(1)), float32(math.Inf(-1))
	for _, p := range ps {
		d := a.Dot(p)
		lo, hi = min(lo, d), max(hi, d)
	}
	return lo, hi
}

func abs32(f float32) float32 { return float32(math.Abs(float64(f))) }
