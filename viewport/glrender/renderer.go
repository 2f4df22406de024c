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
var meshUniforms = []string{"uViewProj", "uLightDir", "uLightColor", "uSky", "uGround", "uEye"}

// selectedBit marks instances drawn selected whatever the selection (viewport.FlagSelected) in the id attachment;
// ReadID and ReadIDs strip it.
const selectedBit = 0x80000000

// selTexWidth is the width of the selection texture: entity id i is texel (i mod selTexWidth, i / selTexWidth).
const selTexWidth = 4096

// gpuMesh is one uploaded *assets.Mesh.
type gpuMesh struct {
	vbo, ebo   uint32
	indexCount int32
	triangles  int
	used       bool
	closed     bool        // a closed surface wound outwards: its back faces are culled (closedMesh)
	pulled     *pulledMesh // how a small mesh is drawn without instancing (pull.go); nil for bigger ones
	flat       bool        // drawn with FLAT_NORMAL, its vertices shared between faces (flat.go)
}

// chunkState is the GPU side of one viewport.Chunk: its instance buffer and a vertex array reading the batch's
// mesh and the buffer (at a stride of `stride` instances).
type chunkState struct {
	vao, vbo uint32
	tex      uint32   // a buffer texture over vbo, for pulled drawing (pull.go)
	capacity int      // instances the buffer holds
	mesh     *gpuMesh // the mesh the vertex array reads
	stride   int
	// What the front picture shows of the chunk (patch.go): the chunk and its Changes when it was drawn, and its
	// box then; shown is nil when the front picture shows nothing of it.
	shown        *viewport.Chunk
	shownChanges uint64
	shownBox     viewport.AABB
	// Its Edits and length then: while Edits stays, the instances after shownLen were appended since.
	shownEdits uint64
	shownLen   int
	// Whether an instance is mirrored (Renderer.cull), as of the chunk's Changes = mirrorAt-1.
	mirrored bool
	mirrorAt uint64
}

// appended reports whether c changed since the front picture showed it only by instances appended at its end.
func (cs *chunkState) appended(c *viewport.Chunk) bool {
	return cs.shown == c && cs.shownEdits == c.Edits() && c.Len() >= cs.shownLen
}

// batchState is the GPU side of one viewport.Batch (same index).
type batchState struct {
	mesh   *gpuMesh
	chunks []chunkState
}

// target is one set of the framebuffer's attachments: colour (RGBA8), entity ids (R32UI) and depth (with a
// stencil: an additive patch marks the pixels it drew, patch.go). The renderer
// has two: the front one holds the last complete picture (shown, picked from), the back one the picture being
// drawn.
type target struct {
	fbo, color, ids, depth uint32
}

// pictureKey is what a picture shows: two equal keys draw the same picture.
type pictureKey struct {
	dl       *viewport.DrawList
	version  uint64
	cam      viewport.Camera
	w, h     int
	settings Settings
}

// picture is a picture being drawn (into the back target) or shown (the front one).
type picture struct {
	key    pictureKey
	f      frame
	items  []viewport.DrawItem
	next   int  // items drawn so far
	stride int  // every stride-th instance of each chunk is drawn
	coarse bool // thinned, or chunks left out
	patch  bool // drawn over the front picture, only inside rect (patch.go)
	// additive: a patch that only draws new chunks over the picture, nothing cleared; inPlace: a patch drawn into
	// the front target at once (patch.go).
	additive, inPlace bool
	// uploaded: the instances of every item were uploaded when the picture began (uploadItems), and its steps
	// read the buffers only, not the list, which may have changed since.
	uploaded bool
	sub      []subRange // where each item's instances are read (patch.go); nil: from their chunks
	rect     [4]int32
	stats    Stats
	serial   uint64 // counts pictures begun
	content  uint64 // the list's ContentHash when it was begun
}

// Renderer draws a viewport.DrawList seen by a viewport.Camera into framebuffers of its own and composes the
// picture shown ([Renderer.Texture]): the selection tinted and outlined over the last complete picture. Pictures
// that cost more than a frame can be drawn over several frames ([Renderer.Draw]) while the last complete one
// stays on screen.
//
// All methods must be called on the thread whose GL context was current at
// [New] (the giu loop thread, or a headless Context's thread via Do);
// calling from another thread panics.
type Renderer struct {
	// Settings may be changed between renders.
	Settings Settings

	owner int

	// meshProgs draw instances: [pulled][flat], instanced or pulled (pull.go), smooth or with FLAT_NORMAL (flat.go).
	meshProgs                          [2][2]*program
	gridProg, composeProg, outlineProg *program
	progInUse                          *program // the program in use while a picture's instances are drawn
	maxTexels                          int      // GL_MAX_TEXTURE_BUFFER_SIZE
	emptyVAO                           uint32

	w, h           int
	targets        [2 + maxLists]target  // the front and the back (front, 1-front), the kept pictures' (keptTargets)
	front          int                   // index of the target with the last complete picture (0 or 1)
	restores       int                   // kept pictures shown again (tests)
	keptPics       [maxLists]keptPicture // pictures replaced, for when their lists draw them again (adopt.go)
	outFBO, outTex uint32
	selTex         uint32
	selRows        int
	selScratch     []byte
	meshes         map[*assets.Mesh]*gpuMesh
	lists          []*listState // GPU buffers of the lists drawn last
	list           *listState   // of the list being drawn
	shown          picture      // the last complete picture (valid when have)
	have           bool         // a picture is in the front target
	job            *picture     // the picture being drawn
	serial         uint64
	composed       composeKey // what outTex shows (when display is outTex)
	display        uint32     // the texture shown: the front colour, or outTex when something is selected
	pacer          viewport.Pacer
	items          []viewport.DrawItem
	patchBuf       []viewport.DrawItem // a patch's items (patch.go)
	patchSub       []subRange          // where they read their instances
	patchInst      []viewport.Instance // the instances of chunks that reach partly into a patch
	patchVAO       uint32              // reads patchVBO, which holds patchInst
	patchVBO       uint32
	patchCap       int        // instances patchVBO holds
	patchMesh      *gpuMesh   // the mesh patchVAO reads
	patchTex       uint32     // a buffer texture over patchVBO (pull.go)
	fresh, kept    []ownedBox // scratch of additive (patch.go)
	culling        bool       // GL_CULL_FACE is on (while a picture's instances are drawn)
	totalUploaded  uint64
	renders        uint64
	scratch        []byte
	deleted        bool
	// noPull and noFlat turn pulled drawing (pull.go) and shared flat vertices (flat.go) off, for tests that
	// compare them with the plain instanced draw; set them before the first mesh is uploaded.
	noPull, noFlat bool
}

// composeKey is what a composed image shows.
type composeKey struct {
	serial     uint64
	selVersion uint64
	dl         *viewport.DrawList
	settings   Settings
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
	for flat, defines := range [][]string{nil, {"FLAT_NORMAL"}} {
		if r.meshProgs[0][flat], err = newProgram("mesh program", meshVS, meshFS, defines, meshUniforms...); err != nil {
			return err
		}
		p, err := newProgram("pulled mesh program", pulledVS, meshFS, append(defines, pulledDefines...),
			append(meshUniforms, "uInst", "uMesh", "uShift", "uBase", "uStride")...)
		if err != nil {
			return err
		}
		r.meshProgs[1][flat] = p
		gl.UseProgram(p.id)
		gl.Uniform1i(p.loc("uInst"), unitInst)
		gl.Uniform1i(p.loc("uMesh"), unitMesh)
		gl.UseProgram(0)
	}
	var maxTexels int32
	gl.GetIntegerv(gl.MAX_TEXTURE_BUFFER_SIZE, &maxTexels)
	r.maxTexels = int(maxTexels)
	if r.gridProg, err = newProgram("grid program", gridVS, gridFS, nil,
		"uInvViewProj", "uClipZ", "uClipW", "uEye", "uFade", "uMinor", "uMajor", "uPass", "uDim", "uBias"); err != nil {
		return err
	}
	if r.composeProg, err = newProgram("compose program", fullscreenVS, composeFS, []string{"TINT"},
		"uColor", "uIDs", "uSel", "uSelRows", "uSelectColor"); err != nil {
		return err
	}
	if r.outlineProg, err = newProgram("outline program", fullscreenVS, composeFS, nil,
		"uColor", "uIDs", "uSel", "uSelRows", "uSelectColor"); err != nil {
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

// Texture returns the GL name of the texture to show: the last complete picture, with the selection (RGBA8, row
// 0 at the bottom as in all GL textures: show it with flipped V, i.e. UV0 (0,1) and UV1 (1,0)). It changes when
// Resize reallocates and when a picture completes; ask for it every frame.
func (r *Renderer) Texture() uint32 {
	if r.display == 0 {
		return r.outTex
	}
	return r.display
}

// Stats returns the statistics of the picture on screen and the totals.
func (r *Renderer) Stats() Stats {
	s := r.shown.stats
	s.Renders, s.TotalUploaded = r.renders, r.totalUploaded
	s.MeshesResident = len(r.meshes)
	if p := r.job; p != nil {
		s.Pending, s.PendingDone, s.PendingOf = true, p.next, len(p.items)
	}
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
	r.job, r.have, r.display, r.keptPics = nil, false, 0, [maxLists]keptPicture{}
	r.w, r.h = max(w, 0), max(h, 0)
	if r.w == 0 || r.h == 0 {
		r.w, r.h = 0, 0
		return nil
	}
	var err error
	for i := range 2 { // the kept pictures' targets are made when a picture is kept (keepTarget)
		err = errors.Join(err, r.newTarget(&r.targets[i]))
	}
	r.outTex = newTexture(gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, w, h)
	gl.GenFramebuffers(1, &r.outFBO)
	gl.BindFramebuffer(gl.FRAMEBUFFER, r.outFBO)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, r.outTex, 0)
	err = errors.Join(err, fboStatus("output framebuffer"))
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	r.display = r.targets[r.front].color
	if err = errors.Join(err, glError("allocating the framebuffers")); err != nil {
		r.deleteTargets()
		r.w, r.h, r.display = 0, 0, 0
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

// newTarget makes t's attachments at the renderer's size, cleared to an empty picture.
func (r *Renderer) newTarget(t *target) error {
	w, h := r.w, r.h
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
	bg := r.Settings.Background
	clearColor := [4]float32{bg[0], bg[1], bg[2], 1}
	gl.ClearBufferfv(gl.COLOR, 0, &clearColor[0])
	var noID [4]uint32
	gl.ClearBufferuiv(gl.COLOR, 1, &noID[0])
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return err
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

func (r *Renderer) deleteTargets() {
	for i := range r.targets {
		deleteTarget(&r.targets[i])
	}
	fbos := []*uint32{&r.outFBO}
	texs := []*uint32{&r.outTex}
	for _, f := range fbos {
		if *f != 0 {
			gl.DeleteFramebuffers(1, f)
			*f = 0
		}
	}
	for _, t := range texs {
		if *t != 0 {
			gl.DeleteTextures(1, t)
			*t = 0
		}
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
	if r.selTex != 0 {
		gl.DeleteTextures(1, &r.selTex)
	}
	for _, p := range []*program{r.meshProgs[0][0], r.meshProgs[0][1], r.meshProgs[1][0], r.meshProgs[1][1], r.gridProg, r.composeProg, r.outlineProg} {
		p.delete()
	}
	if r.emptyVAO != 0 {
		gl.DeleteVertexArrays(1, &r.emptyVAO)
	}
	if r.patchVAO != 0 {
		gl.DeleteVertexArrays(1, &r.patchVAO)
		gl.DeleteBuffers(1, &r.patchVBO)
	}
	if r.patchTex != 0 {
		gl.DeleteTextures(1, &r.patchTex)
	}
	r.w, r.h = 0, 0
	r.deleted = true
}
