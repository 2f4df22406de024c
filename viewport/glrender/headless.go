package glrender

import (
	"fmt"
	"image"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/glrender/headless"
)

// NewHeadless creates a headless OpenGL 4.1 core context (EGL surfaceless,
// no display server) and initialises go-gl in it. Run GL work, including
// [New], inside its Do; Close it when done.
func NewHeadless() (*headless.Context, error) {
	c, err := headless.New()
	if err != nil {
		return nil, err
	}
	if err := c.Do(func() { err = gl.InitWithProcAddrFunc(headless.ProcAddress) }); err != nil {
		return nil, err
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("glrender: loading OpenGL functions through EGL: %w", err)
	}
	return c, nil
}

// RenderToImage renders dl seen by cam into a w×h image with the default
// settings, offscreen in a context of its own (for `voltex-editor render`
// and tests). It consumes dl's dirty ranges.
func RenderToImage(dl *viewport.DrawList, cam viewport.Camera, w, h int) (*image.RGBA, error) {
	return RenderToImageWith(dl, cam, w, h, DefaultSettings())
}

// RenderToImageWith is RenderToImage with explicit settings.
func RenderToImageWith(dl *viewport.DrawList, cam viewport.Camera, w, h int, s Settings) (*image.RGBA, error) {
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("glrender: image size %d×%d: both sides must be positive", w, h)
	}
	c, err := NewHeadless()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var img *image.RGBA
	derr := c.Do(func() {
		var r *Renderer
		if r, err = New(); err != nil {
			return
		}
		defer r.Delete()
		r.Settings = s
		if err = r.Resize(w, h); err != nil {
			return
		}
		if err = r.Render(dl, cam); err != nil {
			return
		}
		img = r.ReadImage()
	})
	if derr != nil {
		return nil, derr
	}
	return img, err
}
