package glrender

import (
	"errors"
	"fmt"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
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

// meshUniforms are the uniforms every mesh program variant has.
var meshUniforms = []string{"uViewProj", "uLightDir", "uLightColor", "uSky", "uGround", "uEye", "uSelectColor"}

// selectedBit marks selected entities in the id attachment (for the
// outline pass); ReadID and ReadIDs strip it.
const selectedBit = 0x80000000

// selectionCache remembers the world box of a draw list's selection.
type selectionCache struct {
	dl      *viewport.DrawList
	version uint64
	box     viewport.AABB
	any     bool
}

// gpuMesh is one uploaded *assets.Mesh.
type gpuMesh struct {
	vbo, ebo   uint32
	indexCount int32
	triangles  int
	used       bool
}

// batchState is the GPU side of one viewport.Batch (same index).
type batchState struct {
	vao, ivbo uint32
	capacity  int // instances the instance buffer holds
	mesh      *gpuMesh
}

// Renderer draws a viewport.DrawList into its own framebuffer: an RGBA8
// colour attachment (the output texture the editor shows,
// [Renderer.Texture]), an R32UI entity-id attachment and depth; when
// something is selected, an outline pass follows, scissored to the
// selection.
//
// All methods must be called on the thread whose GL context was current at
// [New] (the giu loop thread, or a headless Context's thread via Do);
// calling from another thread panics.
type Renderer struct {
	// Settings may be changed between renders.
	Settings Settings

	owner int

	meshProg, gridProg, outlineProg *program
	emptyVAO                        uint32

	w, h                    int
	sceneFBO, idTex         uint32
	depthRB, outFBO, outTex uint32
	meshes                  map[*assets.Mesh]*gpuMesh
	batches                 []batchState
	dl                      *viewport.DrawList
	stats                   Stats
	sel                     selectionCache
	scratch                 []byte
	deleted                 bool
}

// New creates a renderer in the current OpenGL (4.1 core or later) context.
// go-gl must already be initialised in it ([InitCurrentContext] in the
// editor; headless contexts from [NewHeadless] are). Call [Renderer.Resize] before the first
// render.
func New() (*Renderer, error) {
	r := &Renderer{Settings: DefaultSettings(), owner: threadID(), meshes: map[*assets.Mesh]*gpuMesh{}}
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
	var err error
	if r.meshProg, err = newProgram("mesh program", meshVS, meshFS, nil, meshUniforms...); err != nil {
		return err
	}
	if r.gridProg, err = newProgram("grid program", gridVS, gridFS, nil,
		"uInvViewProj", "uClipZ", "uClipW", "uEye", "uFade", "uMinor", "uMajor", "uPass", "uDim", "uBias"); err != nil {
		return err
	}
	if r.outlineProg, err = newProgram("outline program", fullscreenVS, outlineFS, nil,
		"uIDs", "uSelectColor"); err != nil {
		return err
	}
	gl.GenVertexArrays(1, &r.emptyVAO)
	return glError("creating the renderer")
}

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
func (r *Renderer) Size() (w, h int) { return r.w, r.h }

// Texture returns the GL name of the output colour texture (RGBA8, row 0 at
// the bottom as in all GL textures: show it with flipped V, i.e. UV0 (0,1)
// and UV1 (1,0)). It changes when Resize reallocates.
func (r *Renderer) Texture() uint32 { return r.outTex }

// Stats returns the statistics of the last render and the totals.
func (r *Renderer) Stats() Stats {
	s := r.stats
	s.MeshesResident = len(r.meshes)
	return s
}

// Resize sets the framebuffer size, reallocating the attachments when it
// changes. A zero or negative size frees them (Render then does nothing).
func (r *Renderer) Resize(w, h int) error {
	r.check("Resize")
	if w == r.w && h == r.h {
		return nil
	}
	var maxSize int32
	gl.GetIntegerv(gl.MAX_TEXTURE_SIZE, &maxSize)
	if w > int(maxSize) || h > int(maxSize) {
		return fmt.Errorf("glrender: viewport %d×%d exceeds GL_MAX_TEXTURE_SIZE %d", w, h, maxSize)
	}
	r.deleteTargets()
	r.w, r.h = max(w, 0), max(h, 0)
	if r.w == 0 || r.h == 0 {
		r.w, r.h = 0, 0
		return nil
	}
	r.idTex = newTexture(gl.R32UI, gl.RED_INTEGER, gl.UNSIGNED_INT, w, h)
	r.outTex = newTexture(gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, w, h)
	gl.GenRenderbuffers(1, &r.depthRB)
	gl.BindRenderbuffer(gl.RENDERBUFFER, r.depthRB)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, int32(w), int32(h))
	gl.BindRenderbuffer(gl.RENDERBUFFER, 0)

	gl.GenFramebuffers(1, &r.sceneFBO)
	gl.BindFramebuffer(gl.FRAMEBUFFER, r.sceneFBO)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, r.outTex, 0)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT1, gl.TEXTURE_2D, r.idTex, 0)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, r.depthRB)
	bufs := [2]uint32{gl.COLOR_ATTACHMENT0, gl.COLOR_ATTACHMENT1}
	gl.DrawBuffers(2, &bufs[0])
	err := fboStatus("scene framebuffer")

	gl.GenFramebuffers(1, &r.outFBO)
	gl.BindFramebuffer(gl.FRAMEBUFFER, r.outFBO)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, r.outTex, 0)
	err = errors.Join(err, fboStatus("output framebuffer"))
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	if err = errors.Join(err, glError("allocating the framebuffers")); err != nil {
		r.deleteTargets()
		r.w, r.h = 0, 0
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

func (r *Renderer) deleteTargets() {
	for _, f := range []*uint32{&r.sceneFBO, &r.outFBO} {
		if *f != 0 {
			gl.DeleteFramebuffers(1, f)
			*f = 0
		}
	}
	for _, t := range []*uint32{&r.idTex, &r.outTex} {
		if *t != 0 {
			gl.DeleteTextures(1, t)
			*t = 0
		}
	}
	if r.depthRB != 0 {
		gl.DeleteRenderbuffers(1, &r.depthRB)
		r.depthRB = 0
	}
}

// Delete frees every GL object of the renderer. It must run on the owning
// thread while the context is still alive; the renderer is unusable after.
func (r *Renderer) Delete() {
	if r.deleted {
		return
	}
	r.check("Delete")
	r.deleteTargets()
	r.resetBatches()
	for m, gm := range r.meshes {
		deleteMesh(gm)
		delete(r.meshes, m)
	}
	for _, p := range []*program{r.meshProg, r.gridProg, r.outlineProg} {
		p.delete()
	}
	if r.emptyVAO != 0 {
		gl.DeleteVertexArrays(1, &r.emptyVAO)
	}
	r.w, r.h = 0, 0
	r.deleted = true
}
