package editor

import (
	"context"
	"testing"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/workspace"
)

// TestBigSpawnShowsProgressFirst: Enter in the grid dialog of a big grid draws the progress overlay in the frame
// that handles it, and the cubes go into the scene only in a later frame, once that one is on the screen: the
// loop thread's share of the work (adding the cubes) never holds up the first sight of the progress. So too when
// the dialog had the spawn ready behind its preview (the cubes were added in the frame of Enter, with no overlay).
func TestBigSpawnShowsProgressFirst(t *testing.T) {
	for _, ready := range []bool{false, true} {
		name := "running"
		if ready {
			name = "ready"
		}
		t.Run(name, func(t *testing.T) {
			f := newAppFixture(t, Options{ScenePath: "testdata/cubes.json"})
			before := f.st.Entities
			v := workspace.DefaultGrid()
			v.Count = [3]int{100, 1, 100}
			f.a.ws.RememberGrid(v)
			f.key(ctrl | key(imgui.KeyG))
			deadline := time.Now().Add(30 * time.Second)
			for ready && (f.st.Grid == nil || !f.st.Grid.Ready) {
				if time.Now().After(deadline) {
					t.Fatalf("the spawn was never made ready: %+v", f.st.Grid)
				}
				f.frame()
				time.Sleep(5 * time.Millisecond)
			}
			f.key(key(imgui.KeyEnter))
			var m probe.Mark
			for m.Presented == 0 {
				if time.Now().After(deadline) {
					t.Fatalf("the spawn never completed: job %+v, console %v", f.st.Job, f.st.Console)
				}
				f.frame()
				time.Sleep(time.Millisecond)
				for _, k := range f.st.Marks {
					if k.What == "spawn grid" {
						m = k
					}
				}
			}
			if f.st.Entities != before+10_000 {
				t.Fatalf("%d entities after the spawn, want %d", f.st.Entities, before+10_000)
			}
			if m.Progress == 0 || m.ProgressFrames != 0 {
				t.Errorf("the progress overlay: presented at %d, %d frames after the one that handled Enter; want it drawn in that frame", m.Progress, m.ProgressFrames)
			}
			if m.Frames == 0 || m.Progress > m.Result {
				t.Errorf("the cubes were added %d frames after Enter, at %d, the overlay presented at %d: want them after it", m.Frames, m.Result, m.Progress)
			}
		})
	}
}

// TestJobOverlayShowsInItsFirstFrame: the progress overlay of a job that shows it at once is on the screen in the
// first frame that draws it, also the first time in a session (ImGui hides a new window that fits itself to its
// contents for its first frame).
func TestJobOverlayShowsInItsFirstFrame(t *testing.T) {
	f := newAppFixture(t, Options{})
	stop := make(chan struct{})
	defer close(stop)
	if !f.a.ws.Jobs().Start("Working", func(ctx context.Context, progress func(done, total int64)) error {
		<-stop
		return nil
	}, func(error) {}, workspace.JobOptions{Immediate: true}) {
		t.Fatal("the job was refused")
	}
	f.frame()
	w := imgui.InternalFindWindowByName("##jobprogress")
	if w == nil || !w.Active() {
		t.Fatal("the overlay's window was not built in the job's first frame")
	}
	if n := max(w.HiddenFramesCannotSkipItems(), w.HiddenFramesCanSkipItems()); n != 0 {
		t.Fatalf("the overlay is hidden in its first frame (for %d frames)", n)
	}
	if f.st.Job == nil || !f.st.Job.Shown || f.st.Job.Cancel.W == 0 {
		t.Fatalf("the probe's job: %+v", f.st.Job)
	}
}
