package viewport

import "github.com/go-gl/mathgl/mgl32"

// Hit is the result of a CPU pick.
type Hit struct {
	ID    uint32     // entity id of the nearest instance hit
	T     float32    // distance along the ray (in units of Ray.Dir)
	Point mgl32.Vec3 // world-space hit point
}

// Pick returns the nearest instance hit by r: each instance's world box is
// tested first, then its triangles in local space (or its local box when the
// batch has no mesh). It is the CPU fallback of the renderer's id buffer
// and costs O(instances); a missing or singular world matrix never panics.
func (d *DrawList) Pick(r Ray) (Hit, bool) {
	var best Hit
	found := false
	for _, b := range d.batches {
		local := b.localBounds()
		for i := range b.Instances {
			in := &b.Instances[i]
			t0, ok := r.IntersectAABB(local.Transform(in.World))
			if !ok || (found && t0 > best.T) {
				continue
			}
			inv := in.World.Inv()
			if inv == (mgl32.Mat4{}) {
				continue
			}
			lr := r.Transform(inv)
			var t float32
			if b.Mesh != nil && len(b.Mesh.Indices) > 0 {
				t, ok = IntersectMesh(b.Mesh, lr)
			} else {
				t, ok = lr.IntersectAABB(local)
			}
			if ok && (!found || t < best.T) {
				best, found = Hit{ID: in.ID, T: t}, true
			}
		}
	}
	if found {
		best.Point = r.At(best.T)
	}
	return best, found
}
