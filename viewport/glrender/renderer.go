package glrender

import (
	"errors"
	"fmt"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/viewport"
)

// Settings are the look of the viewport. Colours are sRGB in 0..1.
type Settings struct {
	Background  [3]float32
	Grid        bool       // draw the ground grid with its coloured axes
	Outline     bool       // outline selected entities (they are tinted either way)
	LightDir    mgl32.Vec3 // direction towards the light (normalised when used)
	LightColor  [3]float32 // linear intensity of the directional light
	Sky, Ground [3]float32 // linear ambient from above / below
	SelectColor [3]float32 // selection tint and outline colour
	GridMinor   [3]float32 // colour of the 1-unit lines
	GridMajor   [3]float32 // colour of the 10-unit lines
}

// DefaultSettings returns the editor's look: a dark grey background, the
// grid on, a warm key light from the upper right front, a cool sky ambient,
// and an orange selection.
func DefaultSettings() Settings {
	return Settings{
		Background:  [3]float32{0.16, 0.17, 0.19},
		Grid:        true,
		Outline:     true,
		LightDir:    mgl32.Vec3{0.55, 0.75, 0.3},
		LightColor:  [3]float32{0.95, 0.92, 0.85},
		Sky:         [3]float32{0.22, 0.24, 0.28},
		Ground:      [3]float32{0.10, 0.09, 0.08},
		SelectColor: [3]float32{1.0, 0.6, 0.12},
		GridMinor:   [3]float32{0.45, 0.46, 0.50},
		GridMajor:   [3]float32{0.62, 0.63, 0.68},
	}
}

// Stats describes the last render and running totals (the viewport's Renderer interface reports them).
type Stats = viewport.RenderStats

// Renderer implements the interface the editor's viewport panel draws through.
var _ viewport.Renderer = (*Renderer)(nil)

// selectedBit marks instances drawn selected whatever the selection (viewport.FlagSelected) in the id attachment;
// ReadID and ReadIDs strip it.
const selectedBit = 0x80000000

// Renderer draws a viewport.DrawList seen by a viewport.Camera into framebuffers of its own and composes the
// picture shown ([Renderer.Texture]): the selection tinted and outlined over the last complete picture. It is
// three parts: a picture cache (pictureCache, picture*.go) that decides how each picture is had — re-tinted,
// reused, patched or drawn, over several frames on a software renderer — a drawer (drawer.go) that draws meshes
// and knows nothing of that, and a composer (compose.go) that makes the image shown.
//
// All methods must be called on the thread whose GL context was current at
// [New] (the giu loop thread, or a headless Context's thread via Do);
// calling from another thread panics.
type Renderer struct {
	// Settings may be changed between renders.
	Settings Settings

	owner   int
	deleted bool
	// software is the software-renderer switch (software.go), decided once in New.
	software bool
	d        drawer
	out      composer
	pics     pictureCache
	scratch  []byte // ReadImage's
}

// New creates a renderer in the current OpenGL (4.1 core or later) context.
// go-gl must already be initialised in it ([InitCurrentContext] in the
// editor; headless contexts from [NewHeadless] are). Call [Renderer.Resize] before the first
// render. Whether the software renderer's paths are taken is decided here (see [SoftwareEnv]).
func New() (*Renderer, error) {
	sw, err := softwareSwitch(rendererName())
	if err != nil {
		return nil, err
	}
	return newRenderer(sw)
}

// newRenderer is New with the software switch given (tests draw with both positions).
func newRenderer(software bool) (*Renderer, error) {
	r := &Renderer{Settings: DefaultSettings(), owner: threadID(), software: software}
	r.pics.wire(&r.d, &r.out, &r.Settings, software)
	if err := r.init(); err != nil {
		r.Delete()
		return nil, err
	}
	return r, nil
}

func (r *Renderer) init() error {
	if err := checkVersion(); err != nil {
		return err
	}
	if err := r.d.init(r.software); err != nil {
		return err
	}
	if err := r.out.init(); err != nil {
		return err
	}
	return glError("creating the renderer")
}

// Software reports whether the renderer takes the software renderer's paths (see [SoftwareEnv]).
func (r *Renderer) Software() bool { return r.software }

// check panics on use after Delete or from the wrong thread.
func (r *Renderer) check(method string) {
	if r.deleted {
		panic("glrender: Renderer." + method + " called after Delete: create a new Renderer")
	}
	if t := threadID(); t != r.owner {
		panic(fmt.Sprintf("glrender: Renderer.%s called on thread %d, but the renderer belongs to thread %d: "+
			"call it only where its GL context is current (the UI loop, or inside headless.Context.Do)", method, t, r.owner))
	}
}

func glError(what string) error {
	if e := gl.GetError(); e != gl.NO_ERROR {
		// Drain the other flags so the next check starts clean.
		for gl.GetError() != gl.NO_ERROR {
		}
		return fmt.Errorf("glrender: GL error 0x%04x while %s", e, what)
	}
	return nil
}

// Size returns the framebuffer size in pixels.
func (r *Renderer) Size() (w, h int) { return r.pics.t.w, r.pics.t.h }

// Texture returns the GL name of the texture to show: the last complete picture, with the selection (RGBA8, row
// 0 at the bottom as in all GL textures: show it with flipped V, i.e. UV0 (0,1) and UV1 (1,0)). It changes when
// Resize reallocates and when a picture completes; ask for it every frame.
func (r *Renderer) Texture() uint32 { return r.out.texture() }

// Stats returns the statistics of the picture on screen and the totals.
func (r *Renderer) Stats() Stats {
	s := r.pics.stats()
	s.TotalUploaded = r.d.uploaded
	s.MeshesResident = len(r.d.meshes)
	return s
}

// Resize sets the framebuffer size, reallocating the attachments when it
// changes. A zero or negative size frees them (Render then does nothing).
func (r *Renderer) Resize(w, h int) error {
	r.check("Resize")
	if w == r.pics.t.w && h == r.pics.t.h {
		return nil
	}
	var maxSize int32
	gl.GetIntegerv(gl.MAX_TEXTURE_SIZE, &maxSize)
	if w > int(maxSize) || h > int(maxSize) {
		return fmt.Errorf("glrender: viewport %d×%d exceeds GL_MAX_TEXTURE_SIZE %d", w, h, maxSize)
	}
	r.pics.reset()
	r.out.free()
	err := r.pics.t.resize(w, h, r.Settings.Background, r.software)
	if err == nil && r.pics.t.w > 0 {
		err = r.out.resize(r.pics.t.w, r.pics.t.h)
		r.out.show(r.pics.t.front())
	}
	if err = errors.Join(err, glError("allocating the framebuffers")); err != nil {
		r.pics.t.free()
		r.pics.t.w, r.pics.t.h = 0, 0
		r.out.free()
	}
	return err
}

func newTexture(internal int32, format, typ uint32, w, h int) uint32 {
	var t uint32
	gl.GenTextures(1, &t)
	gl.BindTexture(gl.TEXTURE_2D, t)
	gl.TexImage2D(gl.TEXTURE_2D, 0, internal, int32(w), int32(h), 0, format, typ, nil)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	gl.BindTexture(gl.TEXTURE_2D, 0)
	return t
}

func fboStatus(name string) error {
	if s := gl.CheckFramebufferStatus(gl.FRAMEBUFFER); s != gl.FRAMEBUFFER_COMPLETE {
		return fmt.Errorf("glrender: %s incomplete: status 0x%04x", name, s)
	}
	return nil
}

// Render draws a new picture of dl as seen by cam at once: when it returns, the image shows it. It is Draw
// without a budget, and without reusing the picture on screen (for `voltex-editor render`, thumbnails and tests).
func (r *Renderer) Render(dl *viewport.DrawList, cam viewport.Camera) error {
	r.check("Render")
	r.pics.drop()
	_, err := r.Draw(dl, cam, viewport.DrawOptions{})
	return err
}

// Draw brings the image towards dl as seen by cam (see viewport.Renderer); the picture cache decides how
// (pictureCache.show). On a software renderer the chunks in view are drawn nearest first into the back
// framebuffer, o.Budget's worth per call (the time measured with the GPU work finished, so that the software
// renderer's work counts), and the picture becomes the front one — shown and picked from — once complete;
// meanwhile the last complete picture stays on screen. With o.Interactive the picture is thinned to fit the budget
// and drawn at once; the first call without it draws the full picture at once (a thinned picture is shown only
// while the view moves). With o.Changing a picture begun of an older version of the list is finished rather than
// begun again. On a GPU every picture is drawn whole at once, and the options do not matter. Only the instances
// of the chunks drawn are uploaded, and only their dirty ranges, so a DrawList must feed one Renderer (Draw
// consumes its dirty ranges); passing a different DrawList re-uploads everything. A change of the selection alone
// re-composes the image without drawing. It returns an error if GL reported one.
func (r *Renderer) Draw(dl *viewport.DrawList, cam viewport.Camera, o viewport.DrawOptions) (bool, error) {
	r.check("Draw")
	if dl == nil {
		panic("glrender: Renderer.Draw needs a DrawList: pass viewport.NewDrawList() for an empty scene")
	}
	if r.pics.t.w == 0 || r.pics.t.h == 0 {
		return true, nil
	}
	done := r.pics.show(dl, cam, o)
	return done, glError("drawing")
}

// Adopt makes the complete picture on screen, of from, the picture of to, without drawing, when to draws what
// from draws once from's ids are renamed by rename (the ids it changes listed in renamed, or nil: see
// [viewport.DrawList.DrawsAs]): the id attachment's pixels are
// renamed (and marked selected as to's instances are flagged), and the picture is to's from then on — shown,
// picked from, and patched by to's later changes as if it had been drawn from to. It reports whether it did;
// when it did not (the picture on screen is not a complete one of from as it is now, a picture is being drawn,
// the lists differ, or the renderer is not a software one: the adoption reads the id attachment back, which
// stalls a GPU longer than it takes to draw the picture), nothing changed and the next Draw of to draws it.
//
// It is for the grid dialog's preview: once the grid previewed is spawned, the scene's list draws what the
// preview drew (the scene's instances and the grid's cubes), the cubes under their entities' ids instead of
// preview ids; a picture of 100,000 new cubes costs llvmpipe hundreds of milliseconds, the adoption one pass
// over the id attachment.
func (r *Renderer) Adopt(from, to *viewport.DrawList, rename func(id uint32) uint32, renamed []uint32) bool {
	r.check("Adopt")
	return r.pics.adopt(from, to, rename, renamed) && glError("adopting a picture") == nil
}

// Forget frees what the renderer keeps for dl — its GPU buffers (in llvmpipe, copies in the C heap), its kept
// picture and its reference to the list — when it next draws another list: for a list that will not be drawn
// again, such as the preview of a dialog that closed (the renderer keeps the states of the last maxLists lists
// drawn, so switching between the scene and a preview uploads only what changed). Drawing dl again later uploads
// it whole.
func (r *Renderer) Forget(dl *viewport.DrawList) { r.pics.lists.forget(dl) }

// Delete frees every GL object of the renderer. It must run on the owning
// thread while the context is still alive; the renderer is unusable after.
func (r *Renderer) Delete() {
	if r.deleted {
		return
	}
	r.check("Delete")
	r.pics.free()
	r.out.delete()
	r.d.delete()
	r.deleted = true
}
