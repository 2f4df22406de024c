package editor

import (
	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// cameraPreview is the picture a selected camera sees, shown in the viewport's bottom-right corner. Its renderer
// is made when a camera is selected and freed when none is: without a selected camera it costs nothing.
type cameraPreview struct {
	r       viewport.Renderer
	err     error // making the renderer failed: no preview until the next selection of a camera
	want    bool  // a selected camera was found in this frame (drawMarkers)
	cam     scene.Camera
	m       mgl32.Mat4 // the camera's world matrix
	pending bool       // its picture is being drawn over several frames
	// at is the screen rectangle the picture was last drawn in (zero: none). A click there belongs to the
	// preview, not to the scene under it.
	at [2]imgui.Vec2
}

// holds reports whether screen point pt is on the preview drawn last frame.
func (p *cameraPreview) holds(pt imgui.Vec2) bool {
	return pt.X >= p.at[0].X && pt.Y >= p.at[0].Y && pt.X < p.at[1].X && pt.Y < p.at[1].Y
}

// see notes the first selected camera of the frame, with its world matrix.
func (p *cameraPreview) see(c scene.Camera, m mgl32.Mat4) {
	if !p.want {
		p.want, p.cam, p.m = true, c, m
	}
}

// free deletes the preview's renderer.
func (p *cameraPreview) free() {
	if p.r != nil {
		p.r.Delete()
		p.r = nil
	}
	p.pending = false
}

// The preview's width in pixels, and its distance from the image's edges.
const (
	previewMinW = 120
	previewMaxW = 360
	previewPad  = 10
)

// buildCameraPreview draws the picture the selected camera sees (drawn by a renderer of its own from the scene's
// draw list) in the image's bottom-right corner, framed, a quarter of the image wide.
func (v *viewportPanel) buildCameraPreview() {
	p := &v.markers.preview
	want := p.want
	p.want, p.at = false, [2]imgui.Vec2{}
	if v.probe != nil {
		v.probe.CameraPreview = rectOf(imgui.Vec2{}, imgui.Vec2{})
	}
	if !want {
		p.free()
		p.err = nil
		return
	}
	if p.err != nil {
		return
	}
	cam, aspect := viewport.SceneCameraView(p.cam, p.m, v.aspect())
	w := min(max(v.area.w/4, previewMinW), previewMaxW)
	h := int(float32(w) / aspect)
	if limit := v.area.h / 3; h > limit {
		h = limit
		w = int(float32(h) * aspect)
	}
	if w < 8 || h < 8 || w+2*previewPad > v.area.w {
		return
	}
	if p.r == nil {
		if p.r, p.err = v.newRenderer(); p.err != nil {
			v.log.Warnf("camera preview: %v", p.err)
			return
		}
	}
	if rw, rh := p.r.Size(); rw != w || rh != h {
		if err := p.r.Resize(w, h); err != nil {
			p.err = err
			p.free()
			v.log.Warnf("camera preview: %v", err)
			return
		}
	}
	done, err := p.r.Draw(v.scene.builder.DrawList(), cam, viewport.DrawOptions{Budget: drawBudget})
	if err != nil {
		p.err = err
		p.free()
		v.log.Warnf("camera preview: %v", err)
		return
	}
	p.pending = !done
	lo := v.area.origin
	p1 := imgui.Vec2{X: lo.X + float32(v.area.w-previewPad), Y: lo.Y + float32(v.area.h-previewPad)}
	p0 := imgui.Vec2{X: p1.X - float32(w), Y: p1.Y - float32(h)}
	p.at = [2]imgui.Vec2{{X: p0.X - 2, Y: p0.Y - 2}, {X: p1.X + 2, Y: p1.Y + 2}}
	dl := imgui.WindowDrawList()
	dl.AddRectFilled(imgui.Vec2{X: p0.X - 2, Y: p0.Y - 2}, imgui.Vec2{X: p1.X + 2, Y: p1.Y + 2}, 0xff40c8ff)
	if tex := p.r.Texture(); tex != 0 {
		dl.AddImageV(imgui.TextureID(tex), p0, p1, imgui.Vec2{X: 0, Y: 1}, imgui.Vec2{X: 1, Y: 0}, 0xffffffff)
	}
	if v.probe != nil {
		v.probe.CameraPreview = rectOf(p0, imgui.Vec2{X: float32(w), Y: float32(h)})
	}
}
