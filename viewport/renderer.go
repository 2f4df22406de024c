package viewport

import (
	"image"
	"time"
)

// Renderer is what the editor's viewport panel needs of a GPU renderer, in the style of ebiten's graphics-driver
// interface: the panel only sees this interface and plain handles (a texture id), never a GL type. Package
// viewport/glrender implements it with OpenGL; tests of the panel use a fake. All methods are called on the thread
// that owns the renderer's context.
type Renderer interface {
	// Size returns the size of the offscreen image (0×0 before the first Resize).
	Size() (w, h int)
	// Resize sets the size of the offscreen image in pixels.
	Resize(w, h int) error
	// Draw brings the offscreen image towards dl as cam sees it and reports whether the image shows that now. A
	// picture that costs more than o.Budget is drawn over several calls (frames) while the image keeps the last
	// complete picture — never a half-drawn one; a call with another list, camera or size, or after the list
	// changed, starts a new picture. A change of the list's selection alone only re-tints the image.
	Draw(dl *DrawList, cam Camera, o DrawOptions) (done bool, err error)
	// Texture is the offscreen colour image as a texture handle for the UI to draw (its row 0 is at the bottom).
	Texture() uint32
	// ReadID returns the id (EntityID) of what covers pixel (x, y) (origin top-left), 0 for nothing.
	ReadID(x, y int) uint32
	// ReadIDs returns the distinct ids inside r (pixels, origin top-left), without 0.
	ReadIDs(r image.Rectangle) []uint32
	// Stats describes the last render and running totals.
	Stats() RenderStats
	// Delete frees what the renderer holds; it is not used afterwards.
	Delete()
}

// DrawOptions say how much a call of Renderer.Draw may spend and what picture it wants.
type DrawOptions struct {
	// Budget is about how long one call may take (GPU work included); 0 draws the whole picture at once.
	Budget time.Duration
	// Interactive asks for a picture that fits Budget in one call, drawn more thinly if it must (every n-th
	// instance of each chunk, the farthest chunks left out): for a view that moves every frame. The next call that
	// is not interactive replaces a thinned picture with the full one at once, whatever its budget: a thinned
	// picture is never left on screen once the view stopped.
	Interactive bool
	// PatchOnly draws only a change that a patch drawn at once within Budget covers (the image keeps its texture
	// and shows it when Draw returns true); anything else is left for a later call, and Draw returns false
	// without starting it. For a second call in a frame, after the scene changed in it.
	PatchOnly bool
	// Changing says that the list changes from call to call (play mode, a gizmo drag): a picture begun of an older
	// version of it is finished — it shows the list as it was when begun — instead of being begun again at every
	// change, which would never complete one that costs more than a call. The camera and size still start it again.
	Changing bool
	// Between says the list shows a state between undo steps (an edit going on: a field typed into, a drag): its
	// picture is not kept when a later one replaces it, so that the picture kept stays the one from before the
	// edit, which the edit's undo shows again without drawing it (software renderer's kept pictures).
	Between bool
}

// RenderStats describes a renderer's last render and running totals (the viewport's Stats Overlay shows them).
type RenderStats struct {
	Renders        uint64 // frames rendered since the renderer was made
	DrawCalls      int    // mesh draw calls in the last render (one per visible batch)
	Instances      int    // instances drawn in the last render
	Triangles      int    // triangles drawn in the last render
	CulledBatches  int    // batches skipped by frustum culling in the last render
	UploadedBytes  int    // instance and mesh bytes uploaded by the last render
	UploadCalls    int    // buffer uploads (glBufferData/glBufferSubData calls) in the last render
	TotalUploaded  uint64 // bytes uploaded since the renderer was made
	MeshesResident int    // meshes with GPU buffers
	// The picture on screen: instances in the list it shows (Total), chunks culled as out of view, the stride
	// it was thinned at (1: every instance), the calls (frames) it took, and whether a newer one is being drawn.
	Total        int
	CulledChunks int
	Stride       int
	Steps        int
	Pending      bool
	// PendingDone and PendingOf are how far the newer picture being drawn (Pending) is: the parts (chunks of
	// instances) drawn so far, of how many.
	PendingDone, PendingOf int
	// Thinned is true when the picture on screen was thinned to fit a frame (DrawOptions.Interactive): a
	// later call that is not interactive draws the full one.
	Thinned bool
}
