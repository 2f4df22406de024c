package viewport

import "strings"

// FrameState is everything the viewport image depends on, sampled once per
// UI frame. Two equal states render the same image.
type FrameState struct {
	// SceneTick is the newest change tick of anything drawn (Transform,
	// Mesh, Color, hierarchy, entity add/remove).
	SceneTick uint64
	// Selection is the selection's version.
	Selection uint64
	// Camera is the camera as it will render.
	Camera Camera
	// Width and Height are the panel size in pixels; 0 means hidden.
	Width, Height int
	// Assets is the asset registry's version (bumped on reload).
	Assets uint64
	// Playing is true while play mode runs: every frame renders.
	Playing bool
}

// Reason says why a frame must be rendered; 0 means "reuse the last image".
type Reason uint8

// Render reasons (several can be set at once).
const (
	ReasonFirst Reason = 1 << iota
	ReasonScene
	ReasonSelection
	ReasonCamera
	ReasonSize
	ReasonAssets
	ReasonPlaying
	ReasonForced
)

var reasonNames = [...]string{"first", "scene", "selection", "camera", "size", "assets", "playing", "forced"}

// String lists the reasons, e.g. "camera|size", or "none".
func (r Reason) String() string {
	if r == 0 {
		return "none"
	}
	var parts []string
	for i, n := range reasonNames {
		if r&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "|")
}

// RedrawPolicy decides, frame by frame, whether the viewport framebuffer must
// be re-rendered or the last texture can be shown again, and counts both.
// The zero value is ready: its first visible frame renders.
type RedrawPolicy struct {
	last    FrameState
	have    bool
	forced  bool
	renders uint64
	skips   uint64
}

// Decide compares s with the state of the last render and returns why the
// frame must be rendered (counting a render), or 0 (counting a skip) when
// the last image is still right. A hidden panel (zero size) never renders
// and does not count.
func (p *RedrawPolicy) Decide(s FrameState) Reason {
	if s.Width <= 0 || s.Height <= 0 {
		return 0
	}
	var r Reason
	if !p.have {
		r |= ReasonFirst
	} else {
		l := &p.last
		if s.SceneTick != l.SceneTick {
			r |= ReasonScene
		}
		if s.Selection != l.Selection {
			r |= ReasonSelection
		}
		if s.Camera != l.Camera {
			r |= ReasonCamera
		}
		if s.Width != l.Width || s.Height != l.Height {
			r |= ReasonSize
		}
		if s.Assets != l.Assets {
			r |= ReasonAssets
		}
	}
	if s.Playing {
		r |= ReasonPlaying
	}
	if p.forced {
		r |= ReasonForced
	}
	if r == 0 {
		p.skips++
		return 0
	}
	p.last, p.have, p.forced = s, true, false
	p.renders++
	return r
}

// Invalidate makes the next visible frame render (e.g. after the GL
// context's resources were recreated).
func (p *RedrawPolicy) Invalidate() { p.forced = true }

// Renders returns how many frames Decide asked to render.
func (p *RedrawPolicy) Renders() uint64 { return p.renders }

// Skips returns how many visible frames reused the last image.
func (p *RedrawPolicy) Skips() uint64 { return p.skips }
