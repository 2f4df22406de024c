package inputq

import (
	"testing"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/utils/vectors"

	_ "github.com/voltex-editor/voltex/internal/glibcfix"
)

// queue returns the current context's input queue.
func queue() Queue {
	v := imgui.CurrentContext().InputEventsQueue()
	q := Queue{Size: v.Size, Capacity: v.Capacity}
	if v.Data != nil {
		p, _ := v.Data.Handle()
		q.Data = unsafe.Pointer(p)
	}
	return q
}

func setQueue(q Queue) {
	imgui.CurrentContext().SetInputEventsQueue(vectors.NewVectorFromC(int32(q.Size), int32(q.Capacity), imgui.NewInputEventFromC(q.Data)))
}

// TestEventLayout: the events ImGui queues read back as they were added (Event mirrors ImGuiInputEvent).
func TestEventLayout(t *testing.T) {
	ctx := imgui.CreateContext()
	defer imgui.DestroyContext()
	io := imgui.CurrentIO()
	io.AddMousePosEvent(12, -3)
	io.AddMouseButtonEvent(1, true)
	io.AddKeyEvent(imgui.KeyA, true)
	io.AddInputCharacter('é')
	io.AddMouseButtonEvent(1, false)
	ev := queue().Events()
	if len(ev) != 5 {
		t.Fatalf("%d events queued, want 5", len(ev))
	}
	want := []int32{TypeMousePos, TypeMouseButton, TypeKey, TypeText, TypeMouseButton}
	for i, e := range ev {
		if e.Type != want[i] || (i > 0 && e.ID != ev[i-1].ID+1) {
			t.Errorf("event %d: type %d id %d, want type %d, ids in sequence (%+v)", i, e.Type, e.ID, want[i], ev)
		}
	}
	if x, y := ev[0].MousePos(); x != 12 || y != -3 {
		t.Errorf("mouse position %v,%v, want 12,-3", x, y)
	}
	if b, down := ev[1].MouseButton(); b != 1 || !down {
		t.Errorf("press of button %d down=%v, want button 1 down", b, down)
	}
	if k, down := ev[2].Key(); k != int32(imgui.KeyA) || !down {
		t.Errorf("key %d down=%v, want A down", k, down)
	}
	if b, down := ev[4].MouseButton(); b != 1 || down {
		t.Errorf("release of button %d down=%v, want button 1 up", b, down)
	}
	if c := ev[3].Char(); c != 'é' {
		t.Errorf("character %q, want 'é'", c)
	}
	if int(ctx.InputEventsNextEventId()) != int(ev[4].ID)+1 {
		t.Errorf("next event id %d after the last event's %d", ctx.InputEventsNextEventId(), ev[4].ID)
	}
}

// TestSplitJoin: a queue split in two and joined again (whichever buffer has room, or a new one) holds the same
// events in the same order, and ImGui takes it back (it queues more after them).
func TestSplitJoin(t *testing.T) {
	imgui.CreateContext()
	defer imgui.DestroyContext()
	io := imgui.CurrentIO()
	for i := range 6 {
		io.AddInputCharacter(uint32('a' + i))
	}
	ids := func(q Queue) (s []rune) {
		for _, e := range q.Events() {
			s = append(s, e.Char())
		}
		return s
	}
	for _, n := range []int{0, 2, 6} {
		front, back := Split(queue(), func(i int) bool { return i < n })
		if string(ids(front)) != "abcdef"[:n] || string(ids(back)) != "abcdef"[n:] {
			t.Fatalf("split at %d: %q and %q", n, string(ids(front)), string(ids(back)))
		}
		setQueue(Join(front, back))
		if got := string(ids(queue())); got != "abcdef" {
			t.Fatalf("split at %d and joined: %q", n, got)
		}
	}
	// Back in front: the events held (taken out of the queue) go before those ImGui queued meanwhile.
	held := queue()
	setQueue(Queue{})
	for i := range 20 {
		io.AddInputCharacter(uint32('A' + i))
	}
	setQueue(Join(held, queue()))
	io.AddInputCharacter('!')
	if got, want := string(ids(queue())), "abcdefABCDEFGHIJKLMNOPQRST!"; got != want {
		t.Errorf("joined %q, want %q", got, want)
	}
	// A split by any rule keeps each part's order.
	all := string(ids(queue()))
	odd, even := Split(queue(), func(i int) bool { return i%2 == 1 })
	var wantOdd, wantEven []rune
	for i, c := range all {
		if i%2 == 1 {
			wantOdd = append(wantOdd, c)
		} else {
			wantEven = append(wantEven, c)
		}
	}
	if string(ids(odd)) != string(wantOdd) || string(ids(even)) != string(wantEven) {
		t.Errorf("split by odd index: %q and %q", string(ids(odd)), string(ids(even)))
	}
	setQueue(Join(even, odd))
	// Two parts whose buffers are both full join in a new buffer.
	all = string(ids(queue()))
	rest, c1 := Split(queue(), func(i int) bool { return i < 20 })
	head, c2 := Split(rest, func(i int) bool { return i < 13 })
	setQueue(Join(head, Join(c1, c2)))
	if got, want := string(ids(queue())), all[:13]+all[20:]+all[13:20]; got != want {
		t.Errorf("joined %q, want %q", got, want)
	}
}
