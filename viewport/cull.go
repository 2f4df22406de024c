package viewport

import (
	"math"
	"slices"
	"time"

	"github.com/go-gl/mathgl/mgl32"
)

// DrawItem is one chunk to draw: where it is in its list, how many instances and triangles it holds, and how far
// it is from the eye.
type DrawItem struct {
	Batch, Chunk int32
	Instances    int32
	Triangles    int
	// Dist is the distance from the eye to the chunk's box (0 when the eye is inside it).
	Dist float32
}

// Visible appends to dst the chunks of d that may be seen through f — those holding instances, of a batch with a
// mesh, whose box intersects f — nearest to eye first (drawing front to back lets a renderer skip hidden pixels
// early), those of blended materials last and farthest first — and returns it. Like all plane tests it is conservative: a chunk near a frustum corner may be listed
// while none of it shows.
func (d *DrawList) Visible(f *Frustum, eye mgl32.Vec3, dst []DrawItem) []DrawItem {
	start := len(dst)
	for bi, b := range d.batches {
		if b.Mesh == nil || b.n == 0 {
			continue
		}
		tris := b.Mesh.TriangleCount()
		if !f.IntersectsAABB(b.Bounds()) {
			continue
		}
		for ci, c := range b.chunks {
			if len(c.Instances) == 0 {
				continue
			}
			box := c.Bounds()
			if !f.IntersectsAABB(box) {
				continue
			}
			dst = append(dst, DrawItem{Batch: int32(bi), Chunk: int32(ci), Instances: int32(len(c.Instances)),
				Triangles: len(c.Instances) * tris, Dist: box.Distance(eye)})
		}
	}
	slices.SortStableFunc(dst[start:], func(a, b DrawItem) int {
		// Blended surfaces go after the rest, far to near, so that each is blended over what is behind it.
		if ba, bb := d.batches[a.Batch].Material.Blended(), d.batches[b.Batch].Material.Blended(); ba != bb {
			if ba {
				return 1
			}
			return -1
		} else if ba {
			a, b = b, a
		}
		switch {
		case a.Dist < b.Dist:
			return -1
		case a.Dist > b.Dist:
			return 1
		}
		return 0
	})
	return dst
}

// Distance returns the distance from p to the nearest point of b (0 when p is inside; +Inf for an empty box).
func (b AABB) Distance(p mgl32.Vec3) float32 {
	if b.IsEmpty() {
		return float32(math.Inf(1))
	}
	var d2 float32
	for i := range 3 {
		v := max(b.Min[i]-p[i], 0, p[i]-b.Max[i])
		d2 += v * v
	}
	return float32(math.Sqrt(float64(d2)))
}

// MaxStride is the coarsest thinning of a picture: every MaxStride-th instance of each chunk (a renderer reads
// the instances of a chunk at a stride of MaxStride × InstanceSize bytes, within what OpenGL allows: 2048).
const MaxStride = 2048 / InstanceSize

// Pacer plans pictures that cost more than a frame may spend on them. It learns what drawing costs on this
// machine from the renderer's measurements ([Pacer.Measure]: triangles drawn and the time it took, GPU work
// included) and answers how much fits in a budget: how many chunks in a step of a picture spread over frames
// ([Pacer.Take]), and how thinly a picture must be drawn to fit one frame while the view moves ([Pacer.Thin]).
// The zero value assumes a slow software renderer until it has measured.
type Pacer struct {
	perTri float64 // seconds per triangle (moving average)
	fixed  float64 // seconds a picture costs besides its triangles (clearing, the grid, composing)
}

// defaultPerTri is what a triangle is assumed to cost before anything was measured: Mesa's llvmpipe on a busy
// 2-core machine (the slowest renderer the editor meets).
const defaultPerTri = 500e-9

// Measure records that drawing tris triangles took d.
func (p *Pacer) Measure(tris int, d time.Duration) {
	if tris <= 0 || d <= 0 {
		return
	}
	v := d.Seconds() / float64(tris)
	if p.perTri == 0 {
		p.perTri = v
		return
	}
	p.perTri += (v - p.perTri) / 4
}

// MeasureFixed records that a picture's passes besides its triangles took d.
func (p *Pacer) MeasureFixed(d time.Duration) {
	if p.fixed == 0 {
		p.fixed = d.Seconds()
		return
	}
	p.fixed += (d.Seconds() - p.fixed) / 4
}

// PerTriangle returns the time a triangle is expected to cost.
func (p *Pacer) PerTriangle() time.Duration {
	if p.perTri == 0 {
		return time.Duration(defaultPerTri * float64(time.Second))
	}
	return time.Duration(p.perTri * float64(time.Second))
}

// Fixed returns the time a picture's passes besides its triangles are expected to cost.
func (p *Pacer) Fixed() time.Duration { return time.Duration(p.fixed * float64(time.Second)) }

// Estimate returns how long tris triangles are expected to take.
func (p *Pacer) Estimate(tris int) time.Duration {
	return time.Duration(float64(tris) * float64(p.PerTriangle()))
}

// Take returns how many of items (in order) to draw in a step of about budget: as many as are expected to fit,
// and at least one (so every step makes progress); and all of them when the rest would cost at most a quarter of
// a budget more (a frame of its own would cost more than that: the UI's drawing, and a frame later on screen). A
// budget of 0 takes them all.
func (p *Pacer) Take(items []DrawItem, budget time.Duration, stride int) int {
	n := p.take(items, budget, stride)
	if n < len(items) && p.Estimate(triangles(items[n:]))/time.Duration(max(stride, 1)) <= budget/4 {
		return len(items)
	}
	return n
}

// triangles sums the triangles of items.
func triangles(items []DrawItem) int {
	n := 0
	for _, it := range items {
		n += it.Triangles
	}
	return n
}

// take is Take without taking a small rest too.
func (p *Pacer) take(items []DrawItem, budget time.Duration, stride int) int {
	if budget <= 0 {
		return len(items)
	}
	per := float64(p.PerTriangle())
	spent := 0.0
	for i, it := range items {
		spent += per * float64(it.Triangles) / float64(max(stride, 1))
		if spent > float64(budget) && i > 0 {
			return i
		}
	}
	return len(items)
}

// Thin plans a picture of items that must fit budget in one frame: it returns the stride (draw every stride-th
// instance of each chunk, 1 for all, at most MaxStride) and how many of the items (nearest first) are drawn; when
// even MaxStride does not fit, the farthest chunks are left out.
func (p *Pacer) Thin(items []DrawItem, budget time.Duration) (stride, n int) {
	tris := 0
	for _, it := range items {
		tris += it.Triangles
	}
	// The passes besides the triangles take their share, but never more than half of the budget.
	avail := float64(max(budget-p.Fixed(), budget/2))
	need := float64(p.Estimate(tris))
	stride = 1
	if need > avail {
		stride = MaxStride
		if avail > 0 {
			stride = min(int(math.Ceil(need/avail)), MaxStride)
		}
	}
	return stride, p.take(items, time.Duration(avail), stride)
}
