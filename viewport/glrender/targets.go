package glrender

import (
	"errors"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// target is one set of the framebuffer's attachments: colour (RGBA8), entity ids (R32UI) and depth (with a
// stencil: an additive patch marks the pixels it drew, picture_patch.go).
type target struct {
	fbo, color, ids, depth uint32
}

// targets are the picture cache's framebuffers, all of one size: the front one holds the last complete picture
// (shown, picked from), the back one the picture being drawn, and one for each kept picture (keptTargets+slot, made
// when a picture is kept).
type targets struct {
	w, h int
	t    [2 + maxLists]target
	cur  int // index of the front target (0 or 1)
}

// keptTargets is the index in targets.t of the first kept picture's attachments; there is one kept picture for each
// of the maxLists lists whose GPU state the renderer keeps (the scene's, the grid dialog's preview).
const keptTargets = 2

// front is the target of the last complete picture, back the other one; flip swaps them.
func (ts *targets) front() *target { return &ts.t[ts.cur] }
func (ts *targets) back() *target  { return &ts.t[1-ts.cur] }
func (ts *targets) flip()          { ts.cur = 1 - ts.cur }

// kept is kept picture slot i's target (fbo 0: none made yet).
func (ts *targets) kept(i int) *target { return &ts.t[keptTargets+i] }

// resize frees every target and makes the front one at w×h, and the back one when back is true (none for a zero
// or negative size), cleared to bg. Only the software path draws into a back target: on a GPU every picture is
// drawn at once into the front one.
func (ts *targets) resize(w, h int, bg [3]float32, back bool) error {
	ts.free()
	ts.cur = 0
	ts.w, ts.h = max(w, 0), max(h, 0)
	if ts.w == 0 || ts.h == 0 {
		ts.w, ts.h = 0, 0
		return nil
	}
	err := ts.make(ts.front(), bg)
	if back {
		err = errors.Join(err, ts.make(ts.back(), bg))
	}
	return err
}

// make makes t's attachments at the targets' size, cleared to an empty picture.
func (ts *targets) make(t *target, bg [3]float32) error {
	w, h := ts.w, ts.h
	t.ids = newTexture(gl.R32UI, gl.RED_INTEGER, gl.UNSIGNED_INT, w, h)
	t.color = newTexture(gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, w, h)
	gl.GenRenderbuffers(1, &t.depth)
	gl.BindRenderbuffer(gl.RENDERBUFFER, t.depth)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.DEPTH24_STENCIL8, int32(w), int32(h))
	gl.BindRenderbuffer(gl.RENDERBUFFER, 0)
	gl.GenFramebuffers(1, &t.fbo)
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fbo)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, t.color, 0)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT1, gl.TEXTURE_2D, t.ids, 0)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_STENCIL_ATTACHMENT, gl.RENDERBUFFER, t.depth)
	bufs := [2]uint32{gl.COLOR_ATTACHMENT0, gl.COLOR_ATTACHMENT1}
	gl.DrawBuffers(2, &bufs[0])
	err := fboStatus("scene framebuffer")
	// An empty picture until the first one is drawn.
	clearColor := [4]float32{bg[0], bg[1], bg[2], 1}
	gl.ClearBufferfv(gl.COLOR, 0, &clearColor[0])
	var noID [4]uint32
	gl.ClearBufferuiv(gl.COLOR, 1, &noID[0])
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return err
}

// makeKept makes kept picture slot i's target if it has none yet, and reports whether it has one.
func (ts *targets) makeKept(i int, bg [3]float32) bool {
	t := ts.kept(i)
	if t.fbo != 0 {
		return true
	}
	if err := ts.make(t, bg); err != nil || glError("allocating a kept picture") != nil {
		deleteTarget(t)
		return false
	}
	return true
}

// deleteTarget frees t's attachments.
func deleteTarget(t *target) {
	if t.depth != 0 {
		gl.DeleteRenderbuffers(1, &t.depth)
	}
	if t.fbo != 0 {
		gl.DeleteFramebuffers(1, &t.fbo)
	}
	for _, tex := range []*uint32{&t.color, &t.ids} {
		if *tex != 0 {
			gl.DeleteTextures(1, tex)
		}
	}
	*t = target{}
}

// free frees every target (the size stays until the next resize).
func (ts *targets) free() {
	for i := range ts.t {
		deleteTarget(&ts.t[i])
	}
}

// bind binds t as the framebuffer drawn into, over the whole image, with colour and depth writes on.
func (ts *targets) bind(t *target) {
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fbo)
	gl.Viewport(0, 0, int32(ts.w), int32(ts.h))
	gl.ColorMask(true, true, true, true)
	gl.DepthMask(true)
}

// clearTarget clears the bound target's colour to bg, its id attachment to no entity and its depth to the far plane
// (within the scissor rectangle when one is on).
func clearTarget(bg [3]float32) {
	clearColor := [4]float32{bg[0], bg[1], bg[2], 1}
	gl.ClearBufferfv(gl.COLOR, 0, &clearColor[0])
	gl.ClearBufferuiv(gl.COLOR, 1, &clearNoID[0])
	gl.ClearBufferfv(gl.DEPTH, 0, &clearDepth)
}

// clearNoID and clearDepth are what clearTarget clears to (GL reads them; locals would escape, an allocation each).
var (
	clearNoID  [4]uint32
	clearDepth = float32(1)
)

// copy copies src's colour, ids and depth (with the stencil) into dst. It leaves the read framebuffer src's, with
// its colour attachment to read.
func (ts *targets) copy(src, dst *target) {
	w, h := int32(ts.w), int32(ts.h)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, src.fbo)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, dst.fbo)
	gl.Disable(gl.SCISSOR_TEST)
	// One colour attachment at a time: the colour (normalised) and the ids (integer) cannot share a blit.
	only := func(att uint32) {
		bufs := [2]uint32{gl.NONE, gl.NONE}
		bufs[att-gl.COLOR_ATTACHMENT0] = att
		gl.DrawBuffers(2, &bufs[0])
		gl.ReadBuffer(att)
	}
	only(gl.COLOR_ATTACHMENT0)
	gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.COLOR_BUFFER_BIT|gl.DEPTH_BUFFER_BIT|gl.STENCIL_BUFFER_BIT, gl.NEAREST)
	only(gl.COLOR_ATTACHMENT1)
	gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	all := [2]uint32{gl.COLOR_ATTACHMENT0, gl.COLOR_ATTACHMENT1}
	gl.DrawBuffers(2, &all[0])
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, src.fbo)
	gl.ReadBuffer(gl.COLOR_ATTACHMENT0)
}

// readIDs reads a block of the front target's id attachment (GL coordinates, bottom-left).
func (ts *targets) readIDs(x, y, w, h int, dst unsafe.Pointer) {
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, ts.front().fbo)
	gl.ReadBuffer(gl.COLOR_ATTACHMENT1)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
	gl.ReadPixels(int32(x), int32(y), int32(w), int32(h), gl.RED_INTEGER, gl.UNSIGNED_INT, dst)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, 0)
}

// writeIDs replaces the front target's id attachment with ids (w×h, GL row order).
func (ts *targets) writeIDs(ids []uint32) {
	gl.BindTexture(gl.TEXTURE_2D, ts.front().ids)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	gl.TexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, int32(ts.w), int32(ts.h), gl.RED_INTEGER, gl.UNSIGNED_INT, unsafe.Pointer(&ids[0]))
	gl.BindTexture(gl.TEXTURE_2D, 0)
}
