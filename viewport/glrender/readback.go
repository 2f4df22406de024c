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
	w, h := r.Size()
	if x < 0 || y < 0 || x >= w || y >= h {
		return 0
	}
	var id uint32
	r.pics.t.readIDs(x, h-1-y, 1, 1, unsafe.Pointer(&id))
	return id &^ selectedBit
}

// ReadIDs returns the distinct entity ids drawn inside rect (top-left
// origin, clipped to the framebuffer) in the picture on screen, sorted, without 0:
// box selection.
func (r *Renderer) ReadIDs(rect image.Rectangle) []uint32 {
	r.check("ReadIDs")
	fw, fh := r.Size()
	rect = rect.Canon().Intersect(image.Rect(0, 0, fw, fh))
	if rect.Empty() {
		return nil
	}
	w, h := rect.Dx(), rect.Dy()
	ids := make([]uint32, w*h)
	r.pics.t.readIDs(rect.Min.X, fh-rect.Max.Y, w, h, unsafe.Pointer(&ids[0]))
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

// ReadImage returns the image on screen (Texture), the right way up
// (GL's row 0 is the bottom; the image's is the top). Nil before the
// first Resize.
func (r *Renderer) ReadImage() *image.RGBA {
	r.check("ReadImage")
	w, h := r.Size()
	if w == 0 || h == 0 {
		return nil
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	stride := 4 * w
	if cap(r.scratch) < len(img.Pix) {
		r.scratch = make([]byte, len(img.Pix))
	}
	buf := r.scratch[:len(img.Pix)]
	fbo, composed := r.out.output()
	if !composed {
		fbo = r.pics.t.front().fbo
	}
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, fbo)
	gl.ReadBuffer(gl.COLOR_ATTACHMENT0)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
	gl.ReadPixels(0, 0, int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&buf[0]))
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, 0)
	for y := range h {
		copy(img.Pix[y*stride:(y+1)*stride], buf[(h-1-y)*stride:(h-y)*stride])
	}
	return img
}
