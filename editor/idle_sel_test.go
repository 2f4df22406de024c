package editor

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs/scene"
)

// TestBigSelectionIdles: the inspector shows the exact count of a big selection in the first frame after it, and
// the editor then goes to sleep after the same few frames whatever the selection's size: the scan of the
// selection's components, done a budget per frame, used to keep the editor drawing flat out until it was done
// (121 frames for 100,000 entities, minutes of CPU for a million); now the idle loop finishes it between frames,
// before sleeping.
func TestBigSelectionIdles(t *testing.T) {
	for _, n := range []int{10_000, 100_000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			f := newAppFixture(t, Options{})
			p := scene.DefaultGrid()
			p.Count = [3]int{n / 100, 1, 100}
			if _, _, err := f.a.ws.Doc().SpawnGrid(context.Background(), p, nil); err != nil {
				t.Fatal(err)
			}
			f.frames(3)
			w := &countingWait{}
			f.a.idle.waiter, f.a.idle.waitReady = w, false
			f.a.ws.Doc().Selection().SelectAll()
			want := strconv.Itoa(n) + " entities"
			const idleWithin = 4
			for i := range idleWithin + 1 {
				f.a.idle.lastActive = time.Now().Add(-2 * idleAfter) // no input for a while
				f.frame()
				if got := f.st.Inspector["id"].Shown; got != want {
					t.Fatalf("frame %d after the selection: the inspector shows %q, want %q", i, got, want)
				}
				if f.st.Idle && f.a.insp.pending {
					t.Fatalf("frame %d: the probe calls the editor idle with the inspector's scan not done", i)
				}
				waits := len(w.waits)
				f.a.sleepIfIdle()
				if len(w.waits) > waits && w.waits[len(w.waits)-1] == idleWakeEvery {
					if f.a.insp.pending {
						t.Fatal("the editor slept with the inspector's scan not done")
					}
					return
				}
			}
			t.Fatalf("%d frames after selecting %d entities the editor has not gone to sleep (inspector pending %v)", idleWithin+1, n, f.a.insp.pending)
		})
	}
}
