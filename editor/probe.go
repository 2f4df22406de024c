package editor

import (
	"bytes"
	"encoding/json"
	"os"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/editor/probe"
)

func rectOf(pos, size imgui.Vec2) probe.Rect {
	return probe.Rect{X: int(pos.X + 0.5), Y: int(pos.Y + 0.5), W: int(size.X + 0.5), H: int(size.Y + 0.5)}
}

// prober writes probe.State snapshots to $VOLTEX_PROBE atomically when they change (frame counts alone at most 4 times a second).
type prober struct {
	path      string
	state     probe.State
	last      []byte
	lastWrite time.Time
}

func newProber() *prober {
	p := os.Getenv("VOLTEX_PROBE")
	if p == "" {
		return nil
	}
	return &prober{path: p, state: probe.State{Panels: map[string]probe.Rect{}}}
}

// panel records the current ImGui window's rectangle under name. Call between Begin and End.
func (p *prober) panel(name string) {
	if p == nil {
		return
	}
	p.state.Panels[name] = rectOf(imgui.WindowPos(), imgui.WindowSize())
}

// forget removes name from the panels (a window that was closed).
func (p *prober) forget(name string) {
	if p != nil {
		delete(p.state.Panels, name)
	}
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
