package snap

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// Leaf sizes of the hierarchies: few enough items that testing them all beats descending further.
const (
	triLeaf  = 4
	vertLeaf = 8
)

// node is one box of a hierarchy: an inner node's children are left and left+1 in the node array; a leaf holds
// items[start:start+count].
type node struct {
	box          viewport.AABB
	left         int32 // first child (inner nodes)
	start, count int32 // items (leaves; count 0 for inner nodes)
}

// tree is a bounding-volume hierarchy over items given by their boxes; items is the order the leaves refer to.
type tree struct {
	nodes []node
	items []int32
}

// buildTree splits the items at the median of their centres along the widest axis of the centres' box.
func buildTree(boxes []viewport.AABB, leaf int) tree {
	t := tree{items: make([]int32, len(boxes))}
	for i := range t.items {
		t.items[i] = int32(i)
	}
	if len(boxes) == 0 {
		return t
	}
	centres := make([]mgl32.Vec3, len(boxes))
	for i, b := range boxes {
		centres[i] = b.Center()
	}
	t.nodes = make([]node, 1, 2*len(boxes)/leaf+2)
	type job struct{ at, start, end int32 }
	stack := []job{{0, 0, int32(len(boxes))}}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		items := t.items[j.start:j.end]
		box, cbox := viewport.EmptyAABB(), viewport.EmptyAABB()
		for _, it := range items {
			box = box.Union(boxes[it])
			cbox = cbox.Extend(centres[it])
		}
		t.nodes[j.at].box = box
		size := cbox.Size()
		if len(items) <= leaf || size == (mgl32.Vec3{}) {
			t.nodes[j.at].start, t.nodes[j.at].count = j.start, int32(len(items))
			continue
		}
		axis := 0
		if size[1] > size[axis] {
			axis = 1
		}
		if size[2] > size[axis] {
			axis = 2
		}
		slices.SortFunc(items, func(a, b int32) int {
			ca, cb := centres[a][axis], centres[b][axis]
			switch {
			case ca < cb:
				return -1
			case ca > cb:
				return 1
			}
			return int(a - b)
		})
		mid := j.start + int32(len(items)/2)
		left := int32(len(t.nodes))
		t.nodes = append(t.nodes, node{}, node{})
		t.nodes[j.at].left = left
		stack = append(stack, job{left, j.start, mid}, job{left + 1, mid, j.end})
	}
	return t
}

// Index is one mesh's triangles and distinct vertex positions in bounding-volume hierarchies, in the mesh's local
// space. It is read-only once built, so instances and goroutines share it.
type Index struct {
	tris   [][3]mgl32.Vec3
	verts  []mgl32.Vec3
	triBVH tree
	vtxBVH tree
}

// NewIndex indexes m's triangles (those whose indices are in range) and its distinct vertex positions. A nil m is
// the unit cube a batch without a mesh is drawn as.
func NewIndex(m *assets.Mesh) *Index {
	if m == nil {
		m, _ = assets.Builtin("builtin:cube")
	}
	x := &Index{}
	n := uint32(m.VertexCount())
	seen := make(map[mgl32.Vec3]struct{}, n)
	for i := range int(n) {
		p := m.Position(i)
		if _, ok := seen[p]; !ok {
			seen[p] = struct{}{}
			x.verts = append(x.verts, p)
		}
	}
	ix := m.Indices
	for i := 0; i+2 < len(ix); i += 3 {
		a, b, c := ix[i], ix[i+1], ix[i+2]
		if a >= n || b >= n || c >= n {
			continue
		}
		x.tris = append(x.tris, [3]mgl32.Vec3{m.Position(int(a)), m.Position(int(b)), m.Position(int(c))})
	}
	boxes := make([]viewport.AABB, len(x.tris))
	for i, t := range x.tris {
		boxes[i] = viewport.EmptyAABB().Extend(t[0]).Extend(t[1]).Extend(t[2])
	}
	x.triBVH = buildTree(boxes, triLeaf)
	boxes = make([]viewport.AABB, len(x.verts))
	for i, p := range x.verts {
		boxes[i] = viewport.AABB{Min: p, Max: p}
	}
	x.vtxBVH = buildTree(boxes, vertLeaf)
	return x
}

// Triangles returns the number of triangles indexed.
func (x *Index) Triangles() int { return len(x.tris) }

// Vertices returns the distinct vertex positions indexed (read-only).
func (x *Index) Vertices() []mgl32.Vec3 { return x.verts }

// Ray returns the nearest t ≥ 0 (in units of r.Dir) where r, in the mesh's local space, crosses a triangle, and
// that triangle's unit normal (by its winding; zero for a degenerate one); ok is false on a miss or when the
// nearest hit is farther than limit.
func (x *Index) Ray(r viewport.Ray, limit float32) (t float32, normal mgl32.Vec3, ok bool) {
	t, tri := x.walk(r, limit, false)
	if tri < 0 {
		return 0, mgl32.Vec3{}, false
	}
	tr := &x.tris[tri]
	n := tr[1].Sub(tr[0]).Cross(tr[2].Sub(tr[0]))
	if l := n.Len(); l > 0 && !math.IsInf(float64(l), 0) {
		n = n.Mul(1 / l)
	}
	return t, n, true
}

// Blocked reports whether r, in the mesh's local space, crosses a triangle nearer than limit (t < limit): whether
// the mesh hides what is at limit along r. It stops at the first such triangle.
func (x *Index) Blocked(r viewport.Ray, limit float32) bool {
	_, tri := x.walk(r, limit, true)
	return tri >= 0
}

// walk finds the nearest triangle r crosses at t ≤ limit (any one at t < limit when first is set), nearer
// boxes first; tri is -1 when there is none.
func (x *Index) walk(r viewport.Ray, limit float32, first bool) (t float32, tri int) {
	if len(x.triBVH.nodes) == 0 {
		return 0, -1
	}
	best, bestTri := limit, -1
	var stack [64]int32
	sp := 0
	if _, hit := r.IntersectAABB(x.triBVH.nodes[0].box); hit {
		stack[0], sp = 0, 1
	}
	for sp > 0 {
		sp--
		nd := &x.triBVH.nodes[stack[sp]]
		if nd.count > 0 {
			for _, it := range x.triBVH.items[nd.start : nd.start+nd.count] {
				tr := &x.tris[it]
				ti, hit := r.IntersectTriangle(tr[0], tr[1], tr[2])
				if !hit {
					continue
				}
				if first && ti < limit {
					return ti, int(it)
				}
				if !first && (ti < best || ti == best && bestTri < 0) {
					best, bestTri = ti, int(it)
				}
			}
			continue
		}
		ta, hitA := r.IntersectAABB(x.triBVH.nodes[nd.left].box)
		tb, hitB := r.IntersectAABB(x.triBVH.nodes[nd.left+1].box)
		hitA, hitB = hitA && ta <= best, hitB && tb <= best
		// the nearer child is popped first, so its hits prune the farther one
		switch {
		case hitA && hitB && ta <= tb:
			stack[sp], stack[sp+1], sp = nd.left+1, nd.left, sp+2
		case hitA && hitB:
			stack[sp], stack[sp+1], sp = nd.left, nd.left+1, sp+2
		case hitA:
			stack[sp], sp = nd.left, sp+1
		case hitB:
			stack[sp], sp = nd.left+1, sp+1
		}
	}
	return best, bestTri
}

// visitVertices calls f with the vertices in the leaves whose boxes keep says may hold one of interest.
func (x *Index) visitVertices(keep func(viewport.AABB) bool, f func(p mgl32.Vec3)) {
	if len(x.vtxBVH.nodes) == 0 {
		return
	}
	var stack [64]int32
	sp := 1
	for sp > 0 {
		sp--
		nd := &x.vtxBVH.nodes[stack[sp]]
		if !keep(nd.box) {
			continue
		}
		if nd.count > 0 {
			for _, it := range x.vtxBVH.items[nd.start : nd.start+nd.count] {
				f(x.verts[it])
			}
			continue
		}
		stack[sp], stack[sp+1], sp = nd.left, nd.left+1, sp+2
	}
}
