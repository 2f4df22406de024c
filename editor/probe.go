package editor

import (
	"bytes"
	"encoding/json"
	"os"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
)

func rectOf(pos, size imgui.Vec2) probe.Rect {
	return probe.Rect{X: int(pos.X + 0.5), Y: int(pos.Y + 0.5), W: int(size.X + 0.5), H: int(size.Y + 0.5)}
}

// prober writes probe.State snapshots to $VOLTEX_PROBE atomically, once at the end of every frame that changed
// anything (the frame counter included), so a test can count frames to know what the editor has seen.
type prober struct {
	path  string
	state probe.State
	last  []byte
	// the selection State.Selected lists (it is listed again only when it changed)
	selVersion uint64
	selDoc     *doc.Document
	windowBg   uint32 // the style colour State.WindowBg spells
}

func newProber() *prober {
	p := os.Getenv("VOLTEX_PROBE")
	if p == "" {
		return nil
	}
	return &prober{path: p, state: probe.State{Panels: map[string]probe.Rect{}}}
}

// st returns the state the panels fill in, nil without a probe.
func (p *prober) st() *probe.State {
	if p == nil {
		return nil
	}
	return &p.state
}

// panel records the current ImGui window's rectangle under name. Call between Begin and End.
func (p *prober) panel(name string) {
	if p == nil {
		return
	}
	p.state.Panels[name] = rectOf(imgui.WindowPos(), imgui.WindowSize())
	p.state.Shown = append(p.state.Shown, name)
}

// beginPanels starts the list of the panels this frame shows.
func (p *prober) beginPanels() {
	if p != nil {
		p.state.Shown = p.state.Shown[:0]
	}
}

// tab records where the current window's dock tab is, if it is docked (Begin leaves the tab as the last item).
// Call right after Begin.
func (p *prober) tab(name string, docked bool) {
	if p == nil {
		return
	}
	if p.state.Tabs == nil {
		p.state.Tabs = map[string]probe.Rect{}
	}
	if docked {
		p.state.Tabs[name] = rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
	} else {
		delete(p.state.Tabs, name)
	}
}

// forget removes name from the panels (a window that was closed).
func (p *prober) forget(name string) {
	if p != nil {
		delete(p.state.Panels, name)
	}
}

// endFrame records the frame count, whether the editor is about to sleep until input (idle: everything it shows
// has been presented) and its input queue, and writes the state if it changed. Call it once at the end of every
// frame, before sleeping.
func (p *prober) endFrame(frames uint64, idle bool) {
	if p == nil {
		return
	}
	p.state.Frames, p.state.Idle = frames, idle
	ctx := imgui.CurrentContext()
	p.state.InputEvents, p.state.InputPending = ctx.InputEventsNextEventId(), ctx.InputEventsQueue().Size
	data, _ := json.Marshal(&p.state)
	if bytes.Equal(data, p.last) {
		return
	}
	p.last = data
	tmp := p.path + ".tmp"
	if os.WriteFile(tmp, data, 0o644) == nil {
		_ = os.Rename(tmp, p.path)
	}
}

// maxFrameTimes is how many frame times the probe keeps (State.FrameMs).
const maxFrameTimes = 120

// frameTime records how long the last frame took.
func (p *prober) frameTime(d time.Duration) {
	if p == nil {
		return
	}
	ms := &p.state.FrameMs
	if len(*ms) == maxFrameTimes {
		*ms = append((*ms)[:0], (*ms)[1:]...)
	}
	*ms = append(*ms, float32(d.Seconds()*1000))
}
