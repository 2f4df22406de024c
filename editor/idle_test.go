package editor

import (
	"context"
	"testing"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/workspace"
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

// TestJobProgressPacesTheFrames: while a background job runs and only its progress changes, a frame waits for the
// next progress (at most jobFrameEvery) instead of the loop running at the full rate, whose drawing took the
// job's CPU (a save of a million entities was 0.3–0.5 s slower for it). A change besides the progress (here a new
// entity in the document) gets the next frame at once, and once the job is merged the editor idles as before.
func TestJobProgressPacesTheFrames(t *testing.T) {
	f := newAppFixture(t, Options{})
	w := &countingWait{}
	f.a.idle.waiter, f.a.idle.waitReady = w, false
	steps, ack := make(chan int64), make(chan struct{})
	if !f.a.ws.Jobs().Start("Working", func(ctx context.Context, progress func(done, total int64)) error {
		for d := range steps {
			progress(d, 100)
			ack <- struct{}{}
		}
		return nil
	}, func(error) {}, workspace.JobOptions{}) {
		t.Fatal("the job was refused")
	}
	f.frames(2)
	for i := int64(1); i <= 4; i++ {
		steps <- i
		<-ack
		f.frame()
		if f.a.idle.sleepFor != jobFrameEvery {
			t.Fatalf("progress %d%%: the frame decided a wait of %v, want %v", i, f.a.idle.sleepFor, jobFrameEvery)
		}
		n := len(w.waits)
		f.a.sleepIfIdle()
		if len(w.waits) != n+1 || w.waits[n] != jobFrameEvery {
			t.Fatalf("progress %d%%: waits %v", i, w.waits)
		}
	}
	// The document changes while the job runs: no wait.
	if _, err := f.a.ws.Doc().SpawnCube(ecs.Entity{}); err != nil {
		t.Fatal(err)
	}
	f.frame()
	if f.a.idle.sleepFor != 0 {
		t.Fatalf("a frame after a document change decided a wait of %v", f.a.idle.sleepFor)
	}
	close(steps)
	deadline := time.Now().Add(30 * time.Second)
	for f.a.ws.Jobs().Current() != nil {
		if time.Now().After(deadline) {
			t.Fatal("the job was never merged")
		}
		f.frame()
		time.Sleep(time.Millisecond)
	}
	// Idle again: frames that show nothing new wait for input (idleWakeEvery), not for a job's progress.
	for range 10 {
		f.a.idle.lastActive = time.Now().Add(-2 * idleAfter)
		f.frame()
	}
	if f.a.idle.sleepFor != idleWakeEvery {
		t.Fatalf("after the job: a wait of %v, want %v", f.a.idle.sleepFor, idleWakeEvery)
	}
}

// TestSearchPacesTheFrames: while the Hierarchy's search runs on its goroutine and nothing else changes, a frame
// waits for its result (at most jobFrameEvery) instead of the loop drawing the same picture at the full rate,
// which took the search's CPU (a field query of a million entities took three times as long beside it). Once the
// result is in, the frames after input run at the full rate again.
func TestSearchPacesTheFrames(t *testing.T) {
	f := newAppFixture(t, Options{})
	f.a.idle.waiter, f.a.idle.waitReady = &countingWait{}, false
	h := f.a.hier
	h.bigScene, h.searchDelay = 1, 300*time.Millisecond
	h.search = "Cube"
	f.frame() // starts the search
	if !h.searcher.busy() {
		t.Fatal("no search runs")
	}
	for i := range 3 {
		f.a.idle.lastActive = time.Now() // a key was just typed
		f.frame()
		if !h.searcher.busy() {
			break
		}
		if f.a.idle.sleepFor != jobFrameEvery {
			t.Fatalf("frame %d beside the search decided a wait of %v, want %v", i, f.a.idle.sleepFor, jobFrameEvery)
		}
		f.a.sleepIfIdle()
	}
	for end := time.Now().Add(time.Minute); h.searcher.busy() || h.searching(); f.frame() {
		f.a.sleepIfIdle()
		if time.Now().After(end) {
			t.Fatal("the search still runs after a minute")
		}
		time.Sleep(time.Millisecond)
	}
	f.a.idle.lastActive = time.Now()
	f.frame()
	if f.a.idle.sleepFor != 0 {
		t.Fatalf("once the search is done, a frame after input decided a wait of %v", f.a.idle.sleepFor)
	}
}
