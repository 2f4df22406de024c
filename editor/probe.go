package editor

import (
	"bytes"
	"encoding/json"
	"os"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
)

// probeRect is a rectangle in window pixels.
type probeRect struct{ X, Y, W, H int }

func rectOf(pos, size imgui.Vec2) probeRect {
	return probeRect{X: int(pos.X + 0.5), Y: int(pos.Y + 0.5), W: int(size.X + 0.5), H: int(size.Y + 0.5)}
}

// probeState is what the editor reports to end-to-end tests through the file named by $VOLTEX_PROBE: where the
// panels are and the counters a test asserts on. It is written only when that variable is set.
type probeState struct {
	Title           string               `json:"title"`
	Frames          uint64               `json:"frames"`
	ViewportRenders uint64               `json:"viewportRenders"`
	Panels          map[string]probeRect `json:"panels"`
	Viewport        probeRect            `json:"viewport"`
	Entities        int                  `json:"entities"`
	Selected        []uint64             `json:"selected"`
	Dirty           bool                 `json:"dirty"`
	Modal           string               `json:"modal"`
	Playing         bool                 `json:"playing"`
	UndoDepth       int                  `json:"undoDepth"`
	ScenePath       string               `json:"scenePath"`
	// Hierarchy lists the hierarchy rows built in the last frame (the visible ones), top to bottom.
	Hierarchy []probeRow `json:"hierarchy"`
	// Gizmo is the screen position of the active entity's gizmo centre (0,0 when there is none).
	Gizmo [2]int `json:"gizmo"`
	// Console is the console's last few messages ("error: …", "warning: …", "info: …"), newest last.
	Console []string `json:"console"`
	// Inspector lists the inspector's widgets of the last frame: "header:Color", "Color.rgba", "Transform.position[0]".
	Inspector map[string]probeWidget `json:"inspector"`
}

// probeRow is one hierarchy row.
type probeRow struct {
	probeRect
	Name     string `json:"name"`
	Depth    int    `json:"depth"`
	Selected bool   `json:"selected"`
}

// probeWidget is one inspector widget: where it is and what it shows.
type probeWidget struct {
	probeRect
	Shown string `json:"shown"`
}

// prober writes probeState snapshots atomically when they change (frame counts alone at most 4 times a second).
type prober struct {
	path      string
	state     probeState
	last      []byte
	lastWrite time.Time
}

func newProber() *prober {
	p := os.Getenv("VOLTEX_PROBE")
	if p == "" {
		return nil
	}
	return &prober{path: p, state: probeState{Panels: map[string]probeRect{}}}
}

// panel records the current ImGui window's rectangle under name. Call between Begin and End.
func (p *prober) panel(name string) {
	if p == nil {
		return
	}
	p.state.Panels[name] = rectOf(imgui.WindowPos(), imgui.WindowSize())
}

// flush writes the state if it changed; the frame counter alone triggers a write at most 4 times a second.
func (p *prober) flush() {
	if p == nil {
		return
	}
	frames := p.state.Frames
	p.state.Frames = 0
	key, _ := json.Marshal(&p.state)
	p.state.Frames = frames
	if bytes.Equal(key, p.last) && time.Since(p.lastWrite) < 250*time.Millisecond {
		return
	}
	p.last = key
	data, _ := json.Marshal(&p.state)
	tmp := p.path + ".tmp"
	if os.WriteFile(tmp, data, 0o644) == nil {
		_ = os.Rename(tmp, p.path)
	}
	p.lastWrite = time.Now()
}
