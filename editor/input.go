package editor

import (
	"time"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/utils/vectors"

	"github.com/voltex-editor/voltex/editor/internal/inputq"
)

// inputGate hands the input ImGui has queued to frames no faster than the UI can take it. ImGui hands queued input
// to frames one change at a time (io.ConfigInputTrickleEventQueue), so a press and its release always reach two
// frames; at a few frames a second (a big scene on a software renderer) that is not enough:
//
//   - a pointer's move and the press that follows it reach one frame, and a dock tab (or any item that allows
//     overlap) only takes a press once it was hovered in the frame before: the click was lost;
//   - what is typed right after opening a dialog or starting a rename reaches the frames in which the field is
//     still about to take the keyboard (ImGui gives it the keyboard a frame or two after it is asked to), and
//     those frames drop it: the first digits typed after Ctrl+G were lost;
//   - ImGui counts a double-click by the time between the frames that handle the two presses, which is two frames
//     or more: at under seven frames a second no double-click was ever seen.
//
// So before each frame (the loop's before-render hook) the gate keeps back a press that came with a move, and
// everything while a field is about to take the keyboard, until the next frame (releases of what is down go on:
// see frameTakes); and it times each press by when it reached the editor (see pressClock). Nothing is dropped, and
// each key's and button's events keep their order: once the frame's NewFrame has read the queue, the held events go
// back into it, after what the frame left of its share and before anything polled later.
type inputGate struct {
	held  inputq.Queue // kept out of this frame's NewFrame; back into the queue after it
	holds int          // frames in a row that held input back
	clock pressClock
}

// maxHolds bounds the frames in a row that hold input back: no state of the UI keeps input waiting longer.
const maxHolds = 3

// keyboardSoon is set by a widget that will ask for the keyboard in the next frame (starting a rename): the input
// after it waits for that field.
var keyboardSoon bool

// takeKeyboardSoon says that a field asks for the keyboard in the next frame.
func takeKeyboardSoon() { keyboardSoon = true }

// beforeNewFrame runs before ImGui's NewFrame reads the queue: it takes out what this frame should not see.
func (g *inputGate) beforeNewFrame() {
	soon := keyboardSoon
	keyboardSoon = false
	q := currentQueue()
	if q.Size == 0 || g.holds >= maxHolds {
		g.holds = 0
		return
	}
	take, all := frameTakes(q.Events(), soon || focusMoving())
	if all {
		g.holds = 0
		return
	}
	g.holds++
	front, back := inputq.Split(q, func(i int) bool { return take[i] })
	setQueue(front)
	g.held = back
}

// afterNewFrame runs at the start of the frame, after NewFrame: the held input goes back into the queue, and the
// presses this frame handled are counted by their own times.
func (g *inputGate) afterNewFrame() {
	if g.held.Size > 0 {
		setQueue(inputq.Join(currentQueue(), g.held))
		g.held = inputq.Queue{}
	}
	g.clock.count()
}

// frameTakes marks which of the queued events (oldest first) the next frame may take, and reports whether that is
// all of them: none while a field is about to take the keyboard (focusing), else all up to a press that comes
// after a move (the move's frame hovers what the press acts on). A release of a key or button the UI has down
// always goes: held back, the key would look held for a whole slow frame, past ImGui's key-repeat delay (a quick
// Tab would move the focus twice).
func frameTakes(ev []inputq.Event, focusing bool) (take []bool, all bool) {
	n := 0
	if !focusing {
		n = pressAfterMove(ev)
	}
	if n == len(ev) {
		return nil, true
	}
	take = make([]bool, len(ev))
	for i := range n {
		take[i] = true
	}
	io := imgui.CurrentIO()
	mouseDown := io.MouseDown()
	later := map[int32]bool{} // keys (and buttons, as -1-button) with an event held back
	for i := n; i < len(ev); i++ {
		var id int32
		var down, isDown bool
		switch ev[i].Type {
		case inputq.TypeKey:
			id, down = ev[i].Key()
			isDown = imgui.IsKeyDown(imgui.Key(id))
		case inputq.TypeMouseButton:
			var b int
			b, down = ev[i].MouseButton()
			id, isDown = int32(-1-b), b >= 0 && b < len(mouseDown) && mouseDown[b]
		default:
			continue
		}
		take[i] = !later[id] && !down && isDown
		later[id] = !take[i]
	}
	return take, false
}

// pressAfterMove returns the index of the first press that comes after a move of the pointer (len(ev) if none
// does, or if a button changes before the pointer moves: ImGui's own trickling then ends the frame's share).
func pressAfterMove(ev []inputq.Event) int {
	pos := imgui.CurrentIO().MousePos()
	moved := false
	for i := range ev {
		switch ev[i].Type {
		case inputq.TypeMousePos:
			x, y := ev[i].MousePos()
			moved = moved || x != pos.X || y != pos.Y
		case inputq.TypeMouseButton:
			if _, down := ev[i].MouseButton(); moved && down {
				return i
			}
			return len(ev)
		}
	}
	return len(ev)
}

// focusMoving reports whether ImGui is moving the keyboard focus: a field asked for it (SetKeyboardFocusHere) or
// Tab moves it, and the next frame gives it to the field. Input typed meanwhile belongs to that field.
func focusMoving() bool {
	ctx := imgui.CurrentContext()
	return ctx.NavMoveSubmitted() || ctx.NavMoveScoringItems() || ctx.NavNextActivateId() != 0
}

// currentQueue is ImGui's input queue as raw memory.
func currentQueue() inputq.Queue { return rawQueue(imgui.CurrentContext().InputEventsQueue()) }

// rawQueue is ImGui's vector of input events v as raw memory.
func rawQueue(v vectors.Vector[imgui.InputEvent]) inputq.Queue {
	q := inputq.Queue{Size: v.Size, Capacity: v.Capacity}
	if v.Data != nil {
		p, _ := v.Data.Handle()
		q.Data = unsafe.Pointer(p)
	}
	return q
}

// setQueue makes q ImGui's input queue.
func setQueue(q inputq.Queue) {
	imgui.CurrentContext().SetInputEventsQueue(vectors.NewVectorFromC(int32(q.Size), int32(q.Capacity), imgui.NewInputEventFromC(q.Data)))
}

// pressClock counts double-clicks by when the presses reached the editor instead of by the frames that handled
// them. GLFW does not give events' times, so a press is known to have come after the poll before the one that
// read it (after) and by the end of the poll that read it (at); two presses are a double-click when the second
// may have come within ImGui's double-click time of the first.
type pressClock struct {
	stamps  []pressStamp // presses queued and not yet handled, oldest first
	seen    uint32       // the newest event stamped
	drained time.Time    // when the last poll ended
	last    [5]lastPress // per mouse button, the last press handled
}

type pressStamp struct {
	id        uint32
	after, at time.Time
}

type lastPress struct {
	pressStamp
	pos   imgui.Vec2
	count uint16
}

// polled stamps the presses the last poll of window events queued. Call it after every poll or wait.
func (c *pressClock) polled(now time.Time) {
	for _, e := range currentQueue().Events() {
		if int32(e.ID-c.seen) <= 0 && c.seen != 0 {
			continue
		}
		c.seen = e.ID
		if e.Type != inputq.TypeMouseButton {
			continue
		}
		if _, down := e.MouseButton(); down {
			c.stamps = append(c.stamps, pressStamp{id: e.ID, after: c.drained, at: now})
		}
	}
	c.drained = now
}

// count sets the click counts of the presses this frame handled (ImGui's trail of the events it took), from their
// stamps. Call it after NewFrame, before any widget.
func (c *pressClock) count() {
	trail := rawQueue(imgui.CurrentContext().InputEventsTrail())
	if trail.Size == 0 || len(c.stamps) == 0 {
		return
	}
	io := imgui.CurrentIO()
	counts, lasts, doubles := io.MouseClickedCount(), io.MouseClickedLastCount(), io.MouseDoubleClicked()
	clicked, pos := io.MouseClicked(), io.MouseClickedPos()
	changed := false
	for _, e := range trail.Events() {
		if e.Type != inputq.TypeMouseButton {
			continue
		}
		b, down := e.MouseButton()
		st, ok := c.take(e.ID)
		if !down || !ok || b < 0 || b >= len(c.last) || !clicked[b] {
			continue
		}
		prev := &c.last[b]
		n := uint16(1)
		d := pos[b].Sub(prev.pos)
		if prev.count > 0 && st.after.Sub(prev.at).Seconds() < float64(io.MouseDoubleClickTime()) &&
			d.X*d.X+d.Y*d.Y < io.MouseDoubleClickMaxDist()*io.MouseDoubleClickMaxDist() {
			n = prev.count + 1
		}
		*prev = lastPress{pressStamp: st, pos: pos[b], count: n}
		counts[b], lasts[b], doubles[b] = n, n, n == 2
		changed = true
	}
	if changed {
		io.SetMouseClickedCount(&counts)
		io.SetMouseClickedLastCount(&lasts)
		io.SetMouseDoubleClicked(&doubles)
	}
}

// take removes and returns the stamp of press id (and those of older presses, which will not come).
func (c *pressClock) take(id uint32) (pressStamp, bool) {
	for i, s := range c.stamps {
		if s.id == id {
			c.stamps = c.stamps[i+1:]
			return s, true
		}
	}
	return pressStamp{}, false
}
