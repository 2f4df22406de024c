package assets

import "math"

// maxClipWork bounds the steps spent ear clipping concave faces in one file (about a second):
// a hostile file of huge concave faces is refused rather than allowed to take minutes.
const maxClipWork = 400_000_000

// triangulate appends the triangles of the face p.corners: a fan when the face is convex (as
// most are), ear clipping on the face's plane when it is not, so that concave polygons cover
// exactly their area. Triangles keep the face's winding.
func (p *objParser) triangulate(lineNo, col int) {
	c := p.corners
	n := len(c)
	if n == 3 {
		p.idx = append(p.idx, c[0], c[1], c[2])
		return
	}
	xy := p.project()
	if convex(xy) {
		for k := 1; k+1 < n; k++ {
			p.idx = append(p.idx, c[0], c[k], c[k+1])
		}
		return
	}
	if p.clipWork += n * n; p.clipWork > maxClipWork {
		p.failLimit(lineNo, col, "steps triangulating concave faces", maxClipWork)
		return
	}
	p.idx = earClip(xy, c, p.idx)
}

// project returns the corners of the current face in 2D, on the plane of its (Newell) normal,
// oriented so that the face winds counter-clockwise.
func (p *objParser) project() [][2]float64 {
	c := p.corners
	pos := func(k uint32) (float64, float64, float64) {
		v := p.verts[int(k)*FloatsPerVertex:]
		return float64(v[0]), float64(v[1]), float64(v[2])
	}
	var nx, ny, nz float64
	for i := range c {
		x0, y0, z0 := pos(c[i])
		x1, y1, z1 := pos(c[(i+1)%len(c)])
		nx += (y0 - y1) * (z0 + z1)
		ny += (z0 - z1) * (x0 + x1)
		nz += (x0 - x1) * (y0 + y1)
	}
	// Drop the axis the normal points along most; keep the other two in right-handed order.
	ax, ay, az := math.Abs(nx), math.Abs(ny), math.Abs(nz)
	xy := p.xy[:0]
	for _, k := range c {
		x, y, z := pos(k)
		var u, v float64
		switch {
		case az >= ax && az >= ay:
			u, v = x, y
			if nz < 0 {
				u = -u
			}
		case ax >= ay:
			u, v = y, z
			if nx < 0 {
				u = -u
			}
		default:
			u, v = z, x
			if ny < 0 {
				u = -u
			}
		}
		xy = append(xy, [2]float64{u, v})
	}
	p.xy = xy
	return xy
}

func cross(o, a, b [2]float64) float64 {
	return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0])
}

// convex reports whether the counter-clockwise polygon turns left (or goes straight) at every
// corner.
func convex(xy [][2]float64) bool {
	n := len(xy)
	for i := range xy {
		if cross(xy[(i+n-1)%n], xy[i], xy[(i+1)%n]) < 0 {
			return false
		}
	}
	return true
}

// earClip triangulates the counter-clockwise polygon xy (corner output vertices c) by cutting off
// ears — convex corners whose triangle holds no other corner — one at a time, and appends the
// triangles to idx. If no ear is left (a self-intersecting or degenerate face) it cuts the
// corner it stands on, so it always ends with len(c)-2 triangles.
func earClip(xy [][2]float64, c []uint32, idx []uint32) []uint32 {
	n := len(c)
	prev := make([]int, n)
	next := make([]int, n)
	for i := range n {
		prev[i], next[i] = (i+n-1)%n, (i+1)%n
	}
	// Tolerance for "on a line": positions are float32, so a corner meant to lie on an edge is
	// off by rounding; only corners clearly inside a candidate ear stop it.
	var lo, hi [2]float64 = xy[0], xy[0]
	for _, q := range xy {
		lo[0], lo[1], hi[0], hi[1] = min(lo[0], q[0]), min(lo[1], q[1]), max(hi[0], q[0]), max(hi[1], q[1])
	}
	size := max(hi[0]-lo[0], hi[1]-lo[1])
	eps := size * size * 1e-9
	inside := func(a, b, c, q [2]float64) bool {
		return cross(a, b, q) > eps && cross(b, c, q) > eps && cross(c, a, q) > eps
	}
	isEar := func(i int) bool {
		a, b, cc := xy[prev[i]], xy[i], xy[next[i]]
		if cross(a, b, cc) <= eps {
			return false // reflex or flat
		}
		for j := next[next[i]]; j != prev[i]; j = next[j] {
			// Only corners that are not the triangle's own (duplicates count as outside).
			q := xy[j]
			if q != a && q != b && q != cc && inside(a, b, cc, q) {
				return false
			}
		}
		return true
	}
	i, left, stuck := 0, n, 0
	for left > 3 {
		if stuck >= left {
			// No ear: the face folds over itself, or corners are flat. Cut the corner that turns
			// left the most (a flat one gives an empty triangle), never a reflex one if avoidable.
			best, bestCross := i, math.Inf(-1)
			for j, k := i, 0; k < left; j, k = next[j], k+1 {
				if cr := cross(xy[prev[j]], xy[j], xy[next[j]]); cr > bestCross {
					best, bestCross = j, cr
				}
			}
			i = best
		}
		if stuck >= left || isEar(i) {
			idx = append(idx, c[prev[i]], c[i], c[next[i]])
			p, nx := prev[i], next[i]
			next[p], prev[nx] = nx, p
			left--
			stuck = 0
			i = p
			continue
		}
		i = next[i]
		stuck++
	}
	return append(idx, c[prev[i]], c[i], c[next[i]])
}
