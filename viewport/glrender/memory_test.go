package glrender

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// processRSS returns the process's resident memory in bytes (VmRSS).
func processRSS(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err) // not Linux: the memory is not measured
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// goAllocated returns the bytes the Go heap allocated since the program started.
func goAllocated() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.TotalAlloc)
}

// TestUndoKeepsNoGLCopies: after every cube is deleted and the delete undone (each picture drawn), the GL driver
// holds no copies of the re-uploaded instances besides their buffers. Writing a whole chunk back into the storage
// the earlier pictures drew from (glBufferSubData) made llvmpipe keep about 370 bytes an instance more (37 MB at
// 100,000); new storage for a mostly changed chunk keeps about 40. Measured as the growth of the process's
// resident memory across the undo (the instances set again, the picture drawn) less what the Go heap allocated.
func TestUndoKeepsNoGLCopies(t *testing.T) {
	const n = 100_000
	dl := bigScene(nil, n)
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), 1)
	all := []viewport.Instance{}
	for _, b := range dl.Batches() {
		all = b.AppendInstances(all)
	}
	c := glContext(t)
	if err := c.Do(func() {
		r, err := New()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Delete()
		if err := r.Resize(256, 256); err != nil {
			t.Fatal(err)
		}
		draw := func() {
			for range 100 { // the whole picture, or the patch of the change, to its end
				if done, err := r.Draw(dl, cam, viewport.DrawOptions{}); err != nil {
					t.Fatal(err)
				} else if done {
					return
				}
			}
			t.Fatal("no picture after 100 calls")
		}
		draw()
		for _, in := range all {
			dl.Remove(in.ID)
		}
		draw()
		// The Go heap's part: with the collector off for the step, every byte it allocates is new (TotalAlloc).
		runtime.GC()
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		rss0, alloc0 := processRSS(t), goAllocated()
		for _, in := range all {
			dl.Set(assets.BuiltinCube, in)
		}
		draw()
		grew := processRSS(t) - rss0 - (goAllocated() - alloc0)
		t.Logf("outside the Go heap: %+d bytes an instance across the undo's picture (resident %d → %d MB)", grew/n, rss0>>20, processRSS(t)>>20)
		if grew > 100*n {
			t.Errorf("the undo's picture grew the memory outside the Go heap by %d MB (%d bytes an instance), want ≤ 100 bytes an instance", grew>>20, grew/n)
		}
	}); err != nil {
		t.Fatal(err)
	}
}
