package glrender

import (
	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/viewport"
)

// Occlusion of chunks (a software renderer's path): a picture's chunks are drawn nearest first, and from
// the occludeFrom-th on each is drawn only if some pixel of its box passes the depth test of what is drawn before
// it (an occlusion query, GL_ANY_SAMPLES_PASSED, and the chunk's draw rendered on its condition). The query reads
// the picture's own depth, so the picture is the one drawn without: a chunk whose box is hidden has nothing to
// show. Inside a big grid of cubes most chunks are hidden behind the outer ones, gaps or not, and cost their
// vertices, their setup and a depth test of each pixel block they cover; their boxes cost a depth test of the
// pixels they cover only.
//
// The queries are asked in waves (items occludeFrom, 2×occludeFrom, 4×occludeFrom … on, and each step's first):
// all the boxes of a wave before any of its chunks, so that llvmpipe, which ends its scene and waits for it to
// know a query's answer, does so once a wave, not once a chunk. A box tests the depth of the waves before its own.
// A GPU would wait for each answer in the middle of its pipeline: there every chunk is drawn.

// occludeFrom is the item from which chunks are drawn on their box's occlusion query.
const occludeFrom = 32

// boxVS draws the 12 triangles of the box uMin–uMax (36 vertices, no attributes), wound outwards.
const boxVS = `
uniform mat4 uViewProj;
uniform vec3 uMin;
uniform vec3 uMax;
const int corners[36] = int[36](0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6,
	1, 3, 5, 3, 7, 5);
void main() {
	int c = corners[gl_VertexID];
	gl_Position = uViewProj * vec4(mix(uMin, uMax, vec3(c & 1, (c >> 1) & 1, (c >> 2) & 1)), 1.0);
}
`

// boxFS writes nothing: the box is only depth-tested.
const boxFS = `
void main() {}
`

// occluder is the occlusion queries' state: the box program, the query objects and the current wave.
type occluder struct {
	prog   *program
	failed bool     // the box program did not compile: no occlusion
	ids    []uint32 // query objects, one for each item of a wave
	start  int      // the wave's first item
	asked  []bool   // whether item start+k has its query
}

// free frees the occluder's GL objects.
func (o *occluder) free() {
	o.prog.delete()
	o.prog = nil
	if len(o.ids) > 0 {
		gl.DeleteQueries(int32(len(o.ids)), &o.ids[0])
	}
	o.ids, o.asked = nil, nil
}

// occludes reports whether p's chunks are drawn on occlusion queries: on a software renderer, a picture of more
// than occludeFrom chunks. A patch's queries are scissored to its rectangle as its chunks are, and an additive
// patch's test the depth of the picture it adds to, whose every pixel stays.
func (c *pictureCache) occludes(p *picture) bool {
	return c.software && !c.noOcclusion && len(p.items) > occludeFrom
}

// waveEnd is the end of the wave that item i (≥ occludeFrom) is in: the next power-of-two multiple of occludeFrom.
func waveEnd(i int) int {
	e := occludeFrom
	for e <= i {
		e *= 2
	}
	return e
}

// askWave asks the occlusion queries of p's items from i (a wave's first in this step) to end (not drawn yet),
// each whose box is wholly in front of the eye; the chunks are drawn on them (drawOccluded). It leaves the pass's
// state (depth test, writes, program) as it found it but for the program in use.
func (c *pictureCache) askWave(p *picture, i, end int) {
	o := &c.occ
	if o.prog == nil && !o.failed {
		var err error
		if o.prog, err = newProgram("box program", boxVS, boxFS, nil, "uViewProj", "uMin", "uMax"); err != nil {
			o.failed = true
		}
	}
	o.start = i
	o.asked = o.asked[:0]
	if o.prog == nil {
		return
	}
	if n := end - i; n > len(o.ids) {
		ids := make([]uint32, n-len(o.ids))
		gl.GenQueries(int32(len(ids)), &ids[0])
		o.ids = append(o.ids, ids...)
	}
	gl.UseProgram(o.prog.id)
	c.d.inUse = nil
	gl.UniformMatrix4fv(o.prog.loc("uViewProj"), 1, false, &p.f.vp[0])
	gl.ColorMask(false, false, false, false)
	gl.ColorMaski(1, false, false, false, false)
	gl.DepthMask(false)
	gl.StencilMask(0) // an additive patch's stencil marks the pixels its instances drew, not their boxes'
	c.d.cull(true)    // a box's front faces are nearer than its back faces: the back ones would pass no test alone
	gl.BindVertexArray(c.d.vao)
	batches := p.key.dl.Batches()
	for k, it := range p.items[i:end] {
		var box viewport.AABB
		cs := &c.lists.cur.batches[it.Batch].chunks[it.Chunk]
		switch {
		case !p.uploaded:
			box = batches[it.Batch].Chunks()[it.Chunk].Bounds()
		case cs.boxAt == p.serial:
			box = cs.box
		default:
			o.asked = append(o.asked, false)
			continue
		}
		in := inFront(&p.f, box)
		o.asked = append(o.asked, in)
		if !in {
			continue
		}
		gl.Uniform3fv(o.prog.loc("uMin"), 1, &box.Min[0])
		gl.Uniform3fv(o.prog.loc("uMax"), 1, &box.Max[0])
		gl.BeginQuery(gl.ANY_SAMPLES_PASSED, o.ids[k])
		gl.DrawArrays(gl.TRIANGLES, 0, 36)
		gl.EndQuery(gl.ANY_SAMPLES_PASSED)
	}
	gl.ColorMask(true, true, true, true)
	gl.ColorMaski(1, true, true, true, true)
	gl.DepthMask(true)
	gl.StencilMask(0xff)
}

// query is the occlusion query item i is drawn on (0: none).
func (o *occluder) query(i int) uint32 {
	if k := i - o.start; k >= 0 && k < len(o.asked) && o.asked[k] {
		return o.ids[k]
	}
	return 0
}

// inFront reports whether box is wholly between the near and far planes of f (a box the near plane cuts would
// not be drawn whole by its query).
func inFront(f *frame, box viewport.AABB) bool {
	if box.IsEmpty() {
		return false
	}
	for k := range 8 {
		q := corner(box, k)
		q = f.vp.Mul4x1(q)
		if !(q[3] > 0) || q[2] < -q[3] || q[2] > q[3] {
			return false
		}
	}
	return true
}
