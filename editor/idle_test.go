package editor

import (
	"testing"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
)

// countingWait is an idle loop's waiter that records its waits instead of sleeping.
type countingWait struct{ waits []time.Duration }

func (*countingWait) prepare() bool          { return true }
func (c *countingWait) wait(d time.Duration) { c.waits = append(c.waits, d) }

// TestIdleWaitComesAfterThePresent: an idle editor decides to wait at the end of a frame that shows nothing new,
// but waits only after that frame (the loop's after-render hook, sleepIfIdle), so that the frame after the wait is
// the one that handles the input that ended it, with no frame still to draw first. It does not wait when a
// wakeLoop or input arrived between the decision and the hook.
func TestIdleWaitComesAfterThePresent(t *testing.T) {
	f := newAppFixture(t, Options{})
	w := &countingWait{}
	f.a.idle.waiter, f.a.idle.waitReady = w, false
	goIdle := func() {
		t.Helper()
		before := len(w.waits)
		for range 10 { // the startup frames change what they show; the last ones are the same
			f.a.idle.lastActive = time.Now().Add(-2 * idleAfter)
			f.frame()
		}
		if len(w.waits) != before {
			t.Fatalf("waited inside the frame callback: %v", w.waits[before:])
		}
		if f.a.idle.sleepFor == 0 {
			t.Fatal("frames showing nothing new decided no wait")
		}
	}

	goIdle()
	f.a.sleepIfIdle()
	if len(w.waits) != 1 || w.waits[0] != idleWakeEvery {
		t.Fatalf("the hook's waits: %v, want one of %v", w.waits, idleWakeEvery)
	}
	f.a.sleepIfIdle() // once per decision
	if len(w.waits) != 1 {
		t.Fatalf("a second hook without a new decision waited: %v", w.waits)
	}

	// A background goroutine's wakeLoop after the decision: the loop's poll may have taken its empty event.
	goIdle()
	wakes.Add(1)
	f.a.sleepIfIdle()
	if len(w.waits) != 1 {
		t.Fatalf("waited although a wakeLoop came after the decision: %v", w.waits)
	}

	// Input polled while the deciding frame was drawn is in ImGui's queue: the next frame must take it now.
	goIdle()
	imgui.CurrentIO().AddKeyEvent(imgui.KeyF, true)
	f.a.sleepIfIdle()
	if len(w.waits) != 1 {
		t.Fatalf("waited with input queued: %v", w.waits)
	}
	imgui.CurrentIO().AddKeyEvent(imgui.KeyF, false)
	f.frames(2)
}
