package glrender

import (
	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"math"

	"github.com/voltex-editor/voltex/viewport"
)

// Patches: a picture that differs from the one on screen only in some chunks (a field edit, an entity moved,
// added or deleted, a spawn beside the scene or its undo) is drawn over the front picture, inside the screen
// rectangle that covers where the changed chunks were and are: there it is cleared and the instances in view that
// reach into it are drawn again, nothing else (of a chunk that reaches only partly into it, just its instances
// whose box does, in their order: a pixel inside gets the same fragments in the same order as in a whole picture).
// A patch whose changed chunks were all unseen or only appended to (a spawn, the undo of a delete) is additive:
// nothing is cleared, only the new instances are drawn over the picture with its depth (exact for opaque instances
// whose boxes are apart from those on screen), marking the pixels they win in the stencil; the ground grid, already
// blended into the rest, is blended over those pixels only. A
// patch that fits the frame's budget is drawn in place, into the front picture, at once (the picture never shows it
// half-drawn, and the frame that asked shows it); a bigger one over a copy of the front picture, over frames.
// Each chunk's state remembers what the front picture shows of it (the chunk, its Changes and its box when drawn),
// so a patch knows what changed even after an abandoned picture consumed the dirty ranges.

// maxPatchShare is the share of the image above which a whole picture is drawn instead of a patch (a patch that
// big redraws about what a whole picture does, and copies the front picture too).
const maxPatchShare = 0.9

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
// maxPatchShare of the image. additive is true when the patch only adds chunks (see additive). Call it after
// syncBatches.
func (pc *pictureCache) patchRect(key pictureKey, f *frame) (rc [4]int32, ok, additive bool) {
	s := &pc.shown.key
	ls := pc.lists.cur
	if !pc.have || pc.shown.coarse || ls == nil || ls.dl != key.dl || ls.lost || s.dl != key.dl ||
		s.cam != key.cam || s.w != key.w || s.h != key.h || s.settings != key.settings {
		return rc, false, false
	}
	area := emptyRect()
	add := func(b viewport.AABB) bool {
		sr, ok := screenRect(b, f.vp, key.w, key.h)
		area = area.union(sr)
		return ok
	}
	additive = true
	key.dl.BoxStale()
	for i, b := range key.dl.Batches() {
		bs := &ls.batches[i]
		for j, c := range b.Chunks() {
			cs := &bs.chunks[j]
			if cs.shown == c && cs.shownChanges == c.Changes() {
				continue
			}
			if cs.shown == c {
				// The chunk knows which of its instances changed since it was drawn: only their boxes.
				if dmg, since, ok := c.Damage(); ok && since == cs.shownChanges {
					additive = additive && cs.appended(c)
					if f.frustum.IntersectsAABB(dmg) && !add(dmg) {
						return rc, false, false
					}
					continue
				}
			}
			if cs.shown != nil {
				additive = additive && cs.appended(c)
				if !add(cs.shownBox) {
					return rc, false, false
				}
			}
			if c.Len() > 0 && bs.mesh != nil {
				if nb := c.Bounds(); f.frustum.IntersectsAABB(nb) && !add(nb) {
					return rc, false, false
				}
			}
		}
	}
	if area.empty() {
		return rc, true, false // nothing in view changed: the picture is the front one, with the new version
	}
	if additive && pc.additive(key, f) {
		return [4]int32{0, 0, int32(key.w), int32(key.h)}, true, true
	}
	x0 := max(int32(math.Floor(float64(area.x0)))-patchMargin, 0)
	y0 := max(int32(math.Floor(float64(area.y0)))-patchMargin, 0)
	x1 := min(int32(math.Ceil(float64(area.x1)))+patchMargin, int32(key.w))
	y1 := min(int32(math.Ceil(float64(area.y1)))+patchMargin, int32(key.h))
	if x1 <= x0 || y1 <= y0 {
		return rc, true, false
	}
	if float64(x1-x0)*float64(y1-y0) > maxPatchShare*float64(key.w)*float64(key.h) {
		return rc, false, false
	}
	return [4]int32{x0, y0, x1 - x0, y1 - y0}, true, false
}

// ownedBox is a box and the chunk it is of (its index among the list's chunks).
type ownedBox struct {
	box   viewport.AABB
	owner int
}

// additive reports whether the changed chunks of a picture of key — each of them unseen in the front picture, or
// changed only by instances appended to it — can be drawn over it (their new instances) with its depth, nothing
// cleared, and give the whole picture: the box of no chunk's new instances comes near
// the box of another chunk the picture shows (nearer than the depth buffer resolves there), so that no pixel has
// two fragments of equal depth whose order a whole picture would decide otherwise (within a chunk, the new
// instances come after the old ones, as in a whole picture).
func (pc *pictureCache) additive(key pictureKey, f *frame) bool {
	// The depth buffer (24 bits) resolves about d²/(near·2²⁴) at distance d; keep eight times that apart.
	near := float64(max(key.cam.Near, 1e-6))
	ls := pc.lists.cur
	fresh, kept := pc.patch.fresh[:0], pc.patch.kept[:0]
	owner := -1
	for i, b := range key.dl.Batches() {
		bs := &ls.batches[i]
		local := viewport.MeshBounds(b.Mesh)
		for j, c := range b.Chunks() {
			owner++
			cs := &bs.chunks[j]
			if c.Len() == 0 || bs.mesh == nil {
				continue
			}
			nb := c.Bounds()
			if !f.frustum.IntersectsAABB(nb) {
				continue
			}
			if cs.shown == c {
				kept = append(kept, ownedBox{cs.shownBox, owner})
				if cs.shownChanges == c.Changes() {
					continue
				}
				nb = viewport.EmptyAABB() // the box of the instances appended
				for k := cs.shownLen; k < c.Len(); k++ {
					nb = nb.Union(local.Transform(c.Instances[k].World))
				}
			}
			far := 0.0
			for k := range 8 {
				p := nb.Min
				for a := range 3 {
					if k&(1<<a) != 0 {
						p[a] = nb.Max[a]
					}
				}
				far = max(far, float64(p.Sub(f.eye).Len()))
			}
			eps := float32(8*far*far/(near*(1<<24)) + 1e-4)
			d := mgl32.Vec3{eps, eps, eps}
			fresh = append(fresh, ownedBox{viewport.AABB{Min: nb.Min.Sub(d), Max: nb.Max.Add(d)}, owner})
		}
	}
	pc.patch.fresh, pc.patch.kept = fresh, kept
	for _, fa := range fresh {
		for _, kb := range kept {
			a, b := &fa.box, &kb.box
			if fa.owner != kb.owner && a.Min[0] <= b.Max[0] && b.Min[0] <= a.Max[0] && a.Min[1] <= b.Max[1] && b.Min[1] <= a.Max[1] &&
				a.Min[2] <= b.Max[2] && b.Min[2] <= a.Max[2] {
				return false
			}
		}
	}
	return true
}

// patchScratch is what patches reuse from one to the next: the items of the patch being planned, where they read
// their instances, the instances of chunks that reach partly into it and the buffer they are uploaded to, and
// additive's boxes.
type patchScratch struct {
	items       []viewport.DrawItem
	sub         []subRange
	inst        []viewport.Instance
	buf         instanceBuffer
	fresh, kept []ownedBox
}

// keepScratch makes keep, subs and inst p's items and the scratch to reuse.
func (s *patchScratch) keepScratch(p *picture, keep []viewport.DrawItem, subs []subRange, inst []viewport.Instance) {
	p.items, p.sub = keep, subs
	s.items, s.sub, s.inst = keep, subs, inst
}

// subRange is where an item of a patch reads its instances: the chunk itself (n < 0), or n instances of the
// patch's own buffer from off (those of the chunk that reach into the patch's rectangle).
type subRange struct {
	off, n int32
	own    bool // n instances of the chunk's own buffer from off (those appended to it)
}

// patchItems keeps the items of p whose chunks may reach into the patch's rectangle; of a chunk that reaches only
// partly into it, only the instances whose box may (a plane test against the rectangle's frustum: conservative,
// so every instance with a pixel inside is kept), copied in order into the patch's instance buffer. An additive
// patch keeps the changed chunks, whole.
func (pc *pictureCache) patchItems(p *picture) {
	batches := p.key.dl.Batches()
	keep := pc.patch.items[:0]
	subs := pc.patch.sub[:0]
	inst := pc.patch.inst[:0]
	if p.additive {
		for _, it := range p.items {
			ch := batches[it.Batch].Chunks()[it.Chunk]
			cs := &pc.lists.cur.batches[it.Batch].chunks[it.Chunk]
			switch {
			case cs.shown != ch:
				keep = append(keep, it)
				subs = append(subs, subRange{n: -1})
			case cs.shownChanges != ch.Changes(): // instances appended: those
				n := ch.Len() - cs.shownLen
				it.Instances, it.Triangles = int32(n), it.Triangles/ch.Len()*n
				keep = append(keep, it)
				subs = append(subs, subRange{off: int32(cs.shownLen), n: int32(n), own: true})
			}
		}
		pc.patch.keepScratch(p, keep, subs, inst)
		return
	}
	if p.rect[2] <= 0 || p.rect[3] <= 0 { // nothing in view changed
		pc.patch.keepScratch(p, keep, subs, inst)
		return
	}
	pr := rect{float32(p.rect[0]), float32(p.rect[1]), float32(p.rect[0] + p.rect[2]), float32(p.rect[1] + p.rect[3])}
	// The frustum through the rectangle (half a pixel wider on every side): the view-projection followed by the
	// map of the rectangle onto the whole of clip space.
	w, h := float32(p.key.w), float32(p.key.h)
	x0, x1 := (pr.x0-0.5)/w*2-1, (pr.x1+0.5)/w*2-1
	y0, y1 := (pr.y0-0.5)/h*2-1, (pr.y1+0.5)/h*2-1
	sub := mgl32.Scale3D(2/(x1-x0), 2/(y1-y0), 1).Mul4(mgl32.Translate3D(-(x0+x1)/2, -(y0+y1)/2, 0)).Mul4(p.f.vp)
	fr := viewport.NewFrustum(sub)
	for _, it := range p.items {
		b := batches[it.Batch]
		c := b.Chunks()[it.Chunk]
		sr, ok := screenRect(c.Bounds(), p.f.vp, p.key.w, p.key.h)
		if ok && !sr.intersects(pr) {
			continue
		}
		if ok && sr.x0 >= pr.x0 && sr.y0 >= pr.y0 && sr.x1 <= pr.x1 && sr.y1 <= pr.y1 {
			keep = append(keep, it) // wholly inside: the chunk as it is
			subs = append(subs, subRange{n: -1})
			continue
		}
		local := viewport.MeshBounds(b.Mesh)
		off := len(inst)
		for i := range c.Instances {
			if fr.IntersectsAABB(local.Transform(c.Instances[i].World)) {
				inst = append(inst, c.Instances[i])
			}
		}
		n := len(inst) - off
		if n == 0 {
			continue
		}
		it.Instances, it.Triangles = int32(n), it.Triangles/c.Len()*n
		keep = append(keep, it)
		subs = append(subs, subRange{off: int32(off), n: int32(n)})
	}
	pc.patch.keepScratch(p, keep, subs, inst)
}

// beginPatch readies the target a patch is drawn into: the front one itself (in place: its rectangle cleared), or
// the back one made a copy of the front one (colour, ids and depth) with the patch's rectangle cleared in it. An
// additive patch clears nothing.
func (pc *pictureCache) beginPatch(p *picture) {
	pc.d.uploadInstances(&pc.patch.buf, pc.patch.inst, &p.stats)
	if p.inPlace {
		if pc.bigPatch(p) { // the picture it changes is kept (a copy) for when the change is undone
			pc.keepCopy()
		}
	} else {
		pc.t.copy(pc.t.front(), pc.t.back())
	}
	pc.t.bind(pc.drawTarget(p))
	if !p.additive {
		pc.scissor(p)
		clearTarget(pc.set.Background)
		gl.Disable(gl.SCISSOR_TEST)
	} else {
		clearStencil()
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
}

// clearStencil clears the bound target's stencil (an additive patch marks the pixels it draws in it).
func clearStencil() {
	gl.StencilMask(0xff)
	var zero int32
	gl.ClearBufferiv(gl.STENCIL, 0, &zero)
}

// stencil sets the stencil test for p's instances: an additive patch marks the pixels they win (1), for the grid.
func stencil(p *picture) {
	if !p.additive {
		gl.Disable(gl.STENCIL_TEST)
		return
	}
	gl.Enable(gl.STENCIL_TEST)
	gl.StencilMask(0xff)
	gl.StencilFunc(gl.ALWAYS, 1, 0xff)
	gl.StencilOp(gl.KEEP, gl.KEEP, gl.REPLACE)
}

// scissor limits drawing to a patch's rectangle (nothing for a whole picture).
func (pc *pictureCache) scissor(p *picture) {
	if p.patch {
		gl.Enable(gl.SCISSOR_TEST)
		gl.Scissor(p.rect[0], p.rect[1], p.rect[2], p.rect[3])
	}
}

// commitShown records what the picture p, now complete, shows of each chunk: the chunks it drew as they are;
// nothing of the others (a whole picture), or of the changed ones it did not draw (a patch: they left the view).
func (pc *pictureCache) commitShown(p *picture) {
	ls := pc.lists.cur
	if p.key.version != p.key.dl.Version() {
		// The list changed while p was drawn from its buffers (uploadItems): what it shows of each chunk is not
		// known to the chunks now, so the next picture is whole.
		for i := range ls.batches {
			for j := range ls.batches[i].chunks {
				ls.batches[i].chunks[j].shown = nil
			}
		}
		ls.lost = true
		return
	}
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
		cs.shownEdits, cs.shownLen = c.Edits(), c.Len()
		c.ResetDamage()
	}
	if !p.patch {
		ls.lost = false
	}
}
