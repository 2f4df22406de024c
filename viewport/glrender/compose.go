package glrender

import (
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/viewport"
)

// selTexWidth is the width of the selection texture: entity id i is texel (i mod selTexWidth, i / selTexWidth).
const selTexWidth = 4096

// composer makes the image shown from the front picture: the picture itself when nothing is drawn selected, else
// the picture with the selected pixels tinted and outlined, in an output texture of its own.
type composer struct {
	composeProg, outlineProg *program
	vao                      uint32 // empty: the full-screen passes make their vertices
	fbo, tex                 uint32 // the output framebuffer and its colour texture
	// The tint pass also writes, in selFBO's second attachment, each pixel's id where it is selected (0 where
	// not), so that the outline pass reads one texture per neighbour instead of its id and then the selection's.
	selFBO, selIDs uint32
	w, h           int
	sel            selTexture
	composed       composeKey // what tex shows (when display is tex)
	display        uint32     // the texture shown: the front colour, or tex when something is selected
}

// composeKey is what a composed image shows.
type composeKey struct {
	serial     uint64
	selVersion uint64
	dl         *viewport.DrawList
	settings   Settings
}

// selTexture is the selection as a texture: a byte per entity id, selTexWidth ids a row.
type selTexture struct {
	tex     uint32
	rows    int
	scratch []byte
}

func (c *composer) init() error {
	var err error
	if c.composeProg, err = newProgram("compose program", fullscreenVS, composeFS, []string{"TINT"},
		"uColor", "uIDs", "uSel", "uSelRows", "uSelectColor"); err != nil {
		return err
	}
	if c.outlineProg, err = newProgram("outline program", fullscreenVS, composeFS, nil,
		"uIDs", "uSelIDs", "uSelectColor"); err != nil {
		return err
	}
	gl.GenVertexArrays(1, &c.vao)
	return nil
}

// resize makes the output texture at w×h.
func (c *composer) resize(w, h int) error {
	c.w, c.h = w, h
	c.tex = newTexture(gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, w, h)
	gl.GenFramebuffers(1, &c.fbo)
	gl.BindFramebuffer(gl.FRAMEBUFFER, c.fbo)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, c.tex, 0)
	err := fboStatus("output framebuffer")
	c.selIDs = newTexture(gl.R32UI, gl.RED_INTEGER, gl.UNSIGNED_INT, w, h)
	gl.GenFramebuffers(1, &c.selFBO)
	gl.BindFramebuffer(gl.FRAMEBUFFER, c.selFBO)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, c.tex, 0)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT1, gl.TEXTURE_2D, c.selIDs, 0)
	bufs := []uint32{gl.COLOR_ATTACHMENT0, gl.COLOR_ATTACHMENT1}
	gl.DrawBuffers(2, &bufs[0])
	if err == nil {
		err = fboStatus("tint framebuffer")
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return err
}

// show makes the image the picture of t as it is (nothing selected).
func (c *composer) show(t *target) { c.display = t.color }

// texture is the texture shown.
func (c *composer) texture() uint32 {
	if c.display == 0 {
		return c.tex
	}
	return c.display
}

// output reports whether the image is the output texture (something selected), and then its framebuffer.
func (c *composer) output() (fbo uint32, ok bool) { return c.fbo, c.display == c.tex && c.tex != 0 }

// free frees the output texture (a resize).
func (c *composer) free() {
	if c.fbo != 0 {
		gl.DeleteFramebuffers(1, &c.fbo)
	}
	if c.tex != 0 {
		gl.DeleteTextures(1, &c.tex)
	}
	if c.selFBO != 0 {
		gl.DeleteFramebuffers(1, &c.selFBO)
	}
	if c.selIDs != 0 {
		gl.DeleteTextures(1, &c.selIDs)
	}
	c.fbo, c.tex, c.selFBO, c.selIDs, c.display, c.w, c.h = 0, 0, 0, 0, 0, 0, 0
}

func (c *composer) delete() {
	c.free()
	if c.sel.tex != 0 {
		gl.DeleteTextures(1, &c.sel.tex)
	}
	c.composeProg.delete()
	c.outlineProg.delete()
	if c.vao != 0 {
		gl.DeleteVertexArrays(1, &c.vao)
	}
}

// compose makes the image shown from picture t (the front one, number serial, seen through vp) and dl's
// selection: the picture itself when nothing is drawn selected; otherwise the picture with selected pixels tinted
// (a full-screen pass into the output texture) and, with Settings.Outline, outlined (a pass scissored to the
// selection's screen rectangle). It returns the bytes it uploaded.
func (c *composer) compose(t *target, serial uint64, vp mgl32.Mat4, dl *viewport.DrawList, s *Settings) int {
	if dl.SelectionLen() == 0 && dl.Flagged() == 0 {
		c.display = t.color
		return 0
	}
	key := composeKey{serial: serial, selVersion: dl.SelectionVersion(), dl: dl, settings: *s}
	if c.display == c.tex && c.composed == key {
		return 0
	}
	c.composed = key
	up := c.sel.upload(dl)
	gl.BindFramebuffer(gl.FRAMEBUFFER, c.selFBO)
	gl.Viewport(0, 0, int32(c.w), int32(c.h))
	gl.Disable(gl.DEPTH_TEST)
	gl.Disable(gl.BLEND)
	gl.BindVertexArray(c.vao)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindTexture(gl.TEXTURE_2D, t.color)
	gl.ActiveTexture(gl.TEXTURE1)
	gl.BindTexture(gl.TEXTURE_2D, t.ids)
	gl.ActiveTexture(gl.TEXTURE2)
	gl.BindTexture(gl.TEXTURE_2D, c.sel.tex)
	p := c.composeProg
	gl.UseProgram(p.id)
	gl.Uniform1i(p.loc("uColor"), 0)
	gl.Uniform1i(p.loc("uIDs"), 1)
	gl.Uniform1i(p.loc("uSel"), 2)
	gl.Uniform1i(p.loc("uSelRows"), int32(c.sel.rows))
	gl.Uniform3fv(p.loc("uSelectColor"), 1, &s.SelectColor[0])
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
	if box, ok := c.outlineBox(dl, s); ok {
		if x, y, w, h := scissorFor(box, vp, c.w, c.h); w != 0 && h != 0 {
			gl.BindFramebuffer(gl.FRAMEBUFFER, c.fbo) // the colour alone: selIDs is read
			gl.Enable(gl.SCISSOR_TEST)
			gl.Scissor(x, y, w, h)
			gl.Enable(gl.BLEND)
			gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE)
			gl.ActiveTexture(gl.TEXTURE2)
			gl.BindTexture(gl.TEXTURE_2D, c.selIDs)
			p = c.outlineProg
			gl.UseProgram(p.id)
			gl.Uniform1i(p.loc("uIDs"), 1)
			gl.Uniform1i(p.loc("uSelIDs"), 2)
			gl.Uniform3fv(p.loc("uSelectColor"), 1, &s.SelectColor[0])
			gl.DrawArrays(gl.TRIANGLES, 0, 3)
		}
	}
	gl.Disable(gl.SCISSOR_TEST)
	gl.Disable(gl.BLEND)
	for _, u := range []uint32{gl.TEXTURE2, gl.TEXTURE1, gl.TEXTURE0} {
		gl.ActiveTexture(u)
		gl.BindTexture(gl.TEXTURE_2D, 0)
	}
	gl.BindVertexArray(0)
	gl.UseProgram(0)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	c.display = c.tex
	return up
}

// outlineBox returns the box of what is outlined: nothing without Settings.Outline.
func (c *composer) outlineBox(dl *viewport.DrawList, s *Settings) (viewport.AABB, bool) {
	if !s.Outline {
		return viewport.AABB{}, false
	}
	return dl.SelectionBounds()
}

// upload sends dl's selection (a byte per id) to the texture: selTexWidth ids a row. It returns the bytes sent.
func (st *selTexture) upload(dl *viewport.DrawList) int {
	sel := dl.SelectionBytes()
	rows := max(1, (len(sel)+selTexWidth-1)/selTexWidth)
	if cap(st.scratch) < rows*selTexWidth {
		st.scratch = make([]byte, rows*selTexWidth)
	}
	buf := st.scratch[:rows*selTexWidth]
	clear(buf[copy(buf, sel):])
	if st.tex == 0 {
		gl.GenTextures(1, &st.tex)
		gl.BindTexture(gl.TEXTURE_2D, st.tex)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
	}
	gl.BindTexture(gl.TEXTURE_2D, st.tex)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	if rows != st.rows {
		gl.TexImage2D(gl.TEXTURE_2D, 0, gl.R8UI, selTexWidth, int32(rows), 0, gl.RED_INTEGER, gl.UNSIGNED_BYTE, unsafe.Pointer(&buf[0]))
		st.rows = rows
	} else {
		gl.TexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, selTexWidth, int32(rows), gl.RED_INTEGER, gl.UNSIGNED_BYTE, unsafe.Pointer(&buf[0]))
	}
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	gl.BindTexture(gl.TEXTURE_2D, 0)
	return len(buf)
}

// scissorFor returns the rectangle (GL coordinates) of a w×h framebuffer covering box seen through vp, with room
// for the outline; the whole framebuffer when a corner is behind the camera.
func scissorFor(box viewport.AABB, vp mgl32.Mat4, w, h int) (x, y, sw, sh int32) {
	const pad = 3
	x0, y0, x1, y1 := float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Inf(-1))
	for i := range 8 {
		c := box.Min
		for a := range 3 {
			if i&(1<<a) != 0 {
				c[a] = box.Max[a]
			}
		}
		p := vp.Mul4x1(c.Vec4(1))
		if p[3] <= 1e-6 {
			return 0, 0, int32(w), int32(h)
		}
		sx := (p[0]/p[3]*0.5 + 0.5) * float32(w)
		sy := (p[1]/p[3]*0.5 + 0.5) * float32(h)
		x0, y0, x1, y1 = min(x0, sx), min(y0, sy), max(x1, sx), max(y1, sy)
	}
	ix0 := max(int32(math.Floor(float64(x0)))-pad, 0)
	iy0 := max(int32(math.Floor(float64(y0)))-pad, 0)
	ix1 := min(int32(math.Ceil(float64(x1)))+pad, int32(w))
	iy1 := min(int32(math.Ceil(float64(y1)))+pad, int32(h))
	return ix0, iy0, max(ix1-ix0, 0), max(iy1-iy0, 0)
}
