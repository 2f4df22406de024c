package glrender

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/glrender/headless"
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

// TestUndoKeepsNoGLCopies: after every cube is deleted and the delete undone (each picture drawn), the GL driver
// holds no copies of the re-uploaded instances besides their buffers: the bytes the C heap has handed out
// ([headless.MallocInUse]: the driver's buffers and anything it copies them into) grow by at most 100 bytes an
// instance across the undo's picture (about 0 measured; an instance is 88 bytes, a copy of each would be more).
//
// It runs in a child process with llvmpipe's rasterizer threads off (LP_NUM_THREADS=0). With them on, a picture
// that fills more than one of llvmpipe's scenes (its binned triangles, at most about 36 MB each) sometimes has a
// second scene in flight while the first is rasterized, and that scene's pool, which llvmpipe keeps for reuse,
// shows as about 370 bytes an instance more at 100,000 cubes — in about one run of five on a busy machine, never
// more than one scene's worth. That pool is the driver's, bounded and not a copy of ours; the threads' timing
// moves the process's resident memory by 40 MB from run to run.
func TestUndoKeepsNoGLCopies(t *testing.T) {
	if os.Getenv("LP_NUM_THREADS") != "0" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestUndoKeepsNoGLCopies$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "LP_NUM_THREADS=0")
		out, err := cmd.CombinedOutput()
		t.Logf("child process (LP_NUM_THREADS=0):\n%s", out)
		if err != nil {
			t.Fatalf("child process: %v", err)
		}
		if !strings.Contains(string(out), "--- PASS: TestUndoKeepsNoGLCopies") {
			t.Fatal("the child process did not run the test")
		}
		return
	}
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
		gl.Finish()
		c0, rss0 := headless.MallocInUse(), processRSS(t)
		for _, in := range all {
			dl.Set(assets.BuiltinCube, in)
		}
		draw()
		gl.Finish()
		grew := headless.MallocInUse() - c0
		t.Logf("the C heap in use: %+d bytes an instance across the undo's picture (resident %d → %d MB)", grew/n, rss0>>20, processRSS(t)>>20)
		if grew > 100*n {
			t.Errorf("the undo's picture grew the C heap in use by %d MB (%d bytes an instance), want ≤ 100 bytes an instance", grew>>20, grew/n)
		}
	}); err != nil {
		t.Fatal(err)
	}
}
