package viewport

import (
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
)

// MeshBounds returns the local-space box of m (a unit cube, as drawn for a
// batch without a mesh, when m is nil).
func MeshBounds(m *assets.Mesh) AABB {
	if m == nil {
		return unitCubeBounds
	}
	return AABB{Min: m.Min, Max: m.Max}
}

var unitCubeBounds = AABB{Min: mgl32.Vec3{-0.5, -0.5, -0.5}, Max: mgl32.Vec3{0.5, 0.5, 0.5}}

// IntersectMesh returns the nearest t ≥ 0 where r (in m's local space) hits
// one of m's triangles; ok is false on a miss.
func IntersectMesh(m *assets.Mesh, r Ray) (t float32, ok bool) {
	if _, hit := r.IntersectAABB(MeshBounds(m)); !hit {
		return 0, false
	}
	ix := m.Indices
	n := uint32(m.VertexCount())
	for i := 0; i+2 < len(ix); i += 3 {
		a, b, c := ix[i], ix[i+1], ix[i+2]
		if a >= n || b >= n || c >= n {
			continue
		}
		if ti, hit := r.IntersectTriangle(m.Position(int(a)), m.Position(int(b)), m.Position(int(c))); hit && (!ok || ti < t) {
			t, ok = ti, true
		}
	}
	return t, ok
}
