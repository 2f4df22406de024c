package glrender

import (
	"math"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/viewport"
)

// Patches: a picture that differs from the one on screen only in a few chunks (a field edit, an entity moved,
// added or deleted) is drawn over a copy of the front picture, inside the screen rectangle that covers where the
// changed chunks were and are: there it is cleared and the chunks in view that reach into it are drawn again,
// nothing else. Each chunk's state remembers what the front picture shows of it (the chunk, its Changes and its
// box when drawn), so a patch knows what changed even after an abandoned picture consumed the dirty ranges.

// maxPatchShare is the share of the image above which a whole picture is drawn instead of a patch.
const maxPatchShare = 0.5

// patchMargin widens a patch's rectangle by this many pixels on every side (rasterisation rounding).
const patchMargin = 2

// rect is a rectangle of framebuffer pixels (origin bottom-left, as glScissor takes it), x0/y0 inclusive, x1/y1
// exclusive.
type rect struct{ x0, y0, x1, y1 float32 }

func emptyRect() rect {
	inf := float32(math.Inf(1))
	return rect{inf, inf, -inf, -inf}
}

func (a rect) empty() bool { return a.x0 >= a.x1 || a.y0 >= a.y1 }

func (a rect) union(b rect) rect {
	return rect{min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1)}
}

func (a rect) intersects(b rect) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

// screenRect returns the pixel rectangle box b covers in a w×h image through vp, and false when part of it is at
// or behind the eye (no rectangle holds it then).
func screenRect(b viewport.AABB, vp mgl32.Mat4, w, h int) (rect, bool) {
	r := emptyRect()
	if b.IsEmpty() {
		return r, true
	}
	for i := range 8 {
		c := mgl32.Vec4{b.Min[0], b.Min[1], b.Min[2], 1}
		for k := range 3 {
			if i&(1<<k) != 0 {
				c[k] = b.Max[k]
			}
		}
		p := vp.Mul4x1(c)
		if !(p[3] > 1e-6) {
			return r, false
		}
		x, y := (p[0]/p[3]*0.5+0.5)*float32(w), (p[1]/p[3]*0.5+0.5)*float32(h)
		r.x0, r.x1 = min(r.x0, x), max(r.x1, x)
		r.y0, r.y1 = min(r.y0, y), max(r.y1, y)
	}
	return r, true
}

// patchRect returns the rectangle a picture of key, seen through f, can be drawn in over the front picture (in
// whole pixels, clipped to the image), and false when it must be drawn whole: nothing complete on screen, another
// list, camera, size or look, a chunk state lost, a changed chunk reaching behind the eye, or a patch over
// maxPatchShare of the image. Call it after syncBatches.
func (r *Renderer) patchRect(key pictureKey, f *frame) ([4]int32, bool) {
	s := &r.shown.key
	if !r.have || r.shown.coarse || r.list == nil || r.list.dl != key.dl || r.list.lost || s.dl != key.dl ||
		s.cam != key.cam || s.w != key.w || s.h != key.h || s.settings != key.settings {
		return [4]int32{}, false
	}
	area := emptyRect()
	add := func(b viewport.AABB) bool {
		sr, ok := screenRect(b, f.vp, key.w, key.h)
		area = area.union(sr)
		return ok
	}
	for i, b := range key.dl.Batches() {
		bs := &r.list.batches[i]
		for j, c := range b.Chunks() {
			cs := &bs.chunks[j]
			if cs.shown == c && cs.shownChanges == c.Changes() {
				continue
			}
			if cs.shown != nil && !add(cs.shownBox) {
				return [4]int32{}, false
			}
			if c.Len() > 0 && bs.mesh != nil {
				if nb := c.Bounds(); f.frustum.IntersectsAABB(nb) && !add(nb) {
					return [4]int32{}, false
				}
			}
		}
	}
	if area.empty() {
		return [4]int32{}, true // nothing in view changed: the picture is the front one, with the new version
	}
	x0 := max(int32(math.Floor(float64(area.x0)))-patchMargin, 0)
	y0 := max(int32(math.Floor(float64(area.y0)))-patchMargin, 0)
	x1 := min(int32(math.Ceil(float64(area.x1)))+patchMargin, int32(key.w))
	y1 := min(int32(math.Ceil(float64(area.y1)))+patchMargin, int32(key.h))
	if x1 <= x0 || y1 <= y0 {
		return [4]int32{}, true
	}
	if float64(x1-x0)*float64(y1-y0) > maxPatchShare*float64(key.w)*float64(key.h) {
		return [4]int32{}, false
	}
	return [4]int32{x0, y0, x1 - x0, y1 - y0}, true
}

// patchItems keeps the items whose chunks may reach into the patch's rectangle.
func (r *Renderer) patchItems(p *picture) {
	pr := rect{float32(p.rect[0]), float32(p.rect[1]), float32(p.rect[0] + p.rect[2]), float32(p.rect[1] + p.rect[3])}
	batches := p.key.dl.Batches()
	keep := r.patchBuf[:0]
	for _, it := range p.items {
		sr, ok := screenRect(batches[it.Batch].Chunks()[it.Chunk].Bounds(), p.f.vp, p.key.w, p.key.h)
		if !ok || sr.intersects(pr) {
			keep = append(keep, it)
		}
	}
	p.items, r.patchBuf = keep, keep
}

// beginPatch makes the back target a copy of the front one (colour, ids and depth) and clears the patch's
// rectangle in it.
func (r *Renderer) beginPatch(p *picture) {
	front, back := &r.targets[r.front], &r.targets[1-r.front]
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, front.fbo)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, back.fbo)
	gl.Disable(gl.SCISSOR_TEST)
	w, h := int32(r.w), int32(r.h)
	// One colour attachment at a time: the colour (normalised) and the ids (integer) cannot share a blit.
	only := func(att uint32) {
		bufs := [2]uint32{gl.NONE, gl.NONE}
		bufs[att-gl.COLOR_ATTACHMENT0] = att
		gl.DrawBuffers(2, &bufs[0])
		gl.ReadBuffer(att)
	}
	only(gl.COLOR_ATTACHMENT0)
	gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.COLOR_BUFFER_BIT|gl.DEPTH_BUFFER_BIT, gl.NEAREST)
	only(gl.COLOR_ATTACHMENT1)
	gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	all := [2]uint32{gl.COLOR_ATTACHMENT0, gl.COLOR_ATTACHMENT1}
	gl.DrawBuffers(2, &all[0])
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, front.fbo)
	gl.ReadBuffer(gl.COLOR_ATTACHMENT0)
	gl.BindFramebuffer(gl.FRAMEBUFFER, back.fbo)
	gl.Viewport(0, 0, w, h)
	gl.ColorMask(true, true, true, true)
	gl.DepthMask(true)
	r.scissor(p)
	r.clearTarget()
	gl.Disable(gl.SCISSOR_TEST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
}

// scissor limits drawing to a patch's rectangle (nothing for a whole picture).
func (r *Renderer) scissor(p *picture) {
	if p.patch {
		gl.Enable(gl.SCISSOR_TEST)
		gl.Scissor(p.rect[0], p.rect[1], p.rect[2], p.rect[3])
	}
}

// commitShown records what the picture p, now complete, shows of each chunk: the chunks it drew as they are;
// nothing of the others (a whole picture), or of the changed ones it did not draw (a patch: they left the view).
func (r *Renderer) commitShown(p *picture) {
	ls := r.list
	for i, b := range p.key.dl.Batches() {
		bs := &ls.batches[i]
		for j, c := range b.Chunks() {
			cs := &bs.chunks[j]
			if !p.patch || cs.shown != c || cs.shownChanges != c.Changes() {
				cs.shown = nil
			}
		}
	}
	batches := p.key.dl.Batches()
	for _, it := range p.items {
		c := batches[it.Batch].Chunks()[it.Chunk]
		cs := &ls.batches[it.Batch].chunks[it.Chunk]
		cs.shown, cs.shownChanges, cs.shownBox = c, c.Changes(), c.Bounds()
	}
	if !p.patch {
		ls.lost = false
	}
}
