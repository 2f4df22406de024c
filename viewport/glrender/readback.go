package glrender

import (
	"image"
	"slices"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// ReadID returns the entity id drawn at pixel (x, y) of the picture on screen
// (top-left origin, as mouse coordinates), or 0 for background, grid, or a
// pixel outside the framebuffer.
func (r *Renderer) ReadID(x, y int) uint32 {
	r.check("ReadID")
	if x < 0 || y < 0 || x >= r.w || y >= r.h {
		return 0
	}
	var id uint32
	r.readIDs(x, r.h-1-y, 1, 1, unsafe.Pointer(&id))
	return id &^ selectedBit
}

// ReadIDs returns the distinct entity ids drawn inside rect (top-left
// origin, clipped to the framebuffer) in the picture on screen, sorted, without 0:
// box selection.
func (r *Renderer) ReadIDs(rect image.Rectangle) []uint32 {
	r.check("ReadIDs")
	rect = rect.Canon().Intersect(image.Rect(0, 0, r.w, r.h))
	if rect.Empty() {
		return nil
	}
	w, h := rect.Dx(), rect.Dy()
	ids := make([]uint32, w*h)
	r.readIDs(rect.Min.X, r.h-rect.Max.Y, w, h, unsafe.Pointer(&ids[0]))
	for i := range ids {
		ids[i] &^= selectedBit
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if ids[0] == 0 {
		ids = ids[1:]
	}
	if len(ids) == 0 {
		return nil
	}
	return slices.Clip(ids)
}

// readIDs reads a block of the id attachment of the picture on screen (GL coordinates, bottom-left).
func (r *Renderer) readIDs(x, y, w, h int, dst unsafe.Pointer) {
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, r.targets[r.front].fbo)
	gl.ReadBuffer(gl.COLOR_ATTACHMENT1)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
	gl.ReadPixels(int32(x), int32(y), int32(w), int32(h), gl.RED_INTEGER, gl.UNSIGNED_INT, dst)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, 0)
}

// ReadImage returns the image on screen (Texture), the right way up
// (GL's row 0 is the bottom; the image's is the top). Nil before the
// first Resize.
func (r *Renderer) ReadImage() *image.RGBA {
	r.check("ReadImage")
	if r.w == 0 || r.h == 0 {
		return nil
	}
	img := image.NewRGBA(image.Rect(0, 0, r.w, r.h))
	stride := 4 * r.w
	if cap(r.scratch) < len(img.Pix) {
		r.scratch = make([]byte, len(img.Pix))
	}
	buf := r.scratch[:len(img.Pix)]
	fbo := r.outFBO
	if r.display != r.outTex {
		fbo = r.targets[r.front].fbo
	}
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, fbo)
	gl.ReadBuffer(gl.COLOR_ATTACHMENT0)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
	gl.ReadPixels(0, 0, int32(r.w), int32(r.h), gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&buf[0]))
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, 0)
	for y := range r.h {
		copy(img.Pix[y*stride:(y+1)*stride], buf[(r.h-1-y)*stride:(r.h-y)*stride])
	}
	return img
}
