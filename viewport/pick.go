package viewport

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

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
func (d *DrawList) Pick(r Ray) (Hit, bool) { return d.PickExcept(r, nil) }

// PickExcept is Pick passing over the instances whose ids skip reports (nil: none), so that what lies behind
// them is picked.
func (d *DrawList) PickExcept(r Ray, skip func(id uint32) bool) (Hit, bool) {
	var best Hit
	found := false
	for _, b := range d.batches {
		local := b.localBounds()
		for _, c := range b.chunks {
			if len(c.Instances) == 0 {
				continue
			}
			if _, ok := r.IntersectAABB(c.Bounds()); !ok {
				continue
			}
			for i := range c.Instances {
				in := &c.Instances[i]
				if skip != nil && skip(in.ID) {
					continue
				}
				limit := float32(math.Inf(1))
				if found {
					limit = best.T
				}
				if h, ok := pickInstance(r, b, local, in, limit); ok && (!found || h.T < best.T) {
					best, found = h, true
				}
			}
		}
	}
	if found {
		best.Point = r.At(best.T)
	}
	return best, found
}

// pickInstance tests one instance of batch b (local: its mesh's bounds); it misses when its box is farther than
// limit.
func pickInstance(r Ray, b *Batch, local AABB, in *Instance, limit float32) (Hit, bool) {
	t0, ok := r.IntersectAABB(local.Transform(in.World))
	if !ok || t0 > limit {
		return Hit{}, false
	}
	inv := in.World.Inv()
	if inv == (mgl32.Mat4{}) {
		return Hit{}, false
	}
	lr := r.Transform(inv)
	var t float32
	if b.Mesh != nil && len(b.Mesh.Indices) > 0 {
		t, ok = IntersectMesh(b.Mesh, lr)
	} else {
		t, ok = lr.IntersectAABB(local)
	}
	return Hit{ID: in.ID, T: t}, ok
}
