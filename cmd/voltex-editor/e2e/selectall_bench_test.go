package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// BenchmarkUISelectAll measures Select All in the real editor as BenchmarkUI does, but only it, repeated: a new
// editor opens the grid (100k, 1M), then six times a click on the viewport's sky (nothing selected) and Ctrl+A (key →
// UI, and the part of it the editor spent from the start of the frame that handled the key to the presentation of the
// frame with the result); then Delete and undo. Each figure is the median of its runs. `go test -run '^$' -bench 'UISelectAll/100k$'
// -benchtime 1x ./cmd/voltex-editor/e2e/`; $VOLTEX_BENCH_PROFILE writes CPU profiles of the editor as for
// BenchmarkUI.
func BenchmarkUISelectAll(b *testing.B) {
	for _, size := range uiSizes {
		b.Run(size.name, func(b *testing.B) {
			f := figures{}
			path := gridScene(b, size)
			for b.Loop() {
				b.StopTimer()
				b.Logf("load average at the start: %s", loadAvg())
				selectAllRuns(b, size, path, f)
				b.Logf("load average at the end: %s", loadAvg())
				b.StartTimer()
			}
			for _, k := range []string{"select all: key → UI", "select all: frame start → presented",
				"select all: key → frame start", "select all: frame start → result", "select all: result → presented",
				"select all: presented → picture", "select all: editor CPU", "select all: editor CPU, ui",
				"select all: editor CPU, gl", "select all: editor CPU, other", "delete: key → UI", "undo (delete): key → UI"} {
				if m, ok := f.median(k); ok {
					b.ReportMetric(m, metricUnit(k))
				}
			}
		})
	}
}

func selectAllRuns(b *testing.B, size uiSize, path string, f figures) {
	d := guitest.StartDisplay(b, 1600, 1000)
	var env []string
	if dir := os.Getenv("VOLTEX_BENCH_PROFILE"); dir != "" {
		env = append(env, "VOLTEX_CPUPROFILE="+filepath.Join(dir, fmt.Sprintf("editor-selectall-%s-%d.pprof", size.name, time.Now().Unix())))
	}
	e := guitest.LaunchIn(b, d, "", env, "--size", "1600x1000", "--settings", b.TempDir(), path)
	waitMark(e, "open", 0)
	p := settle(e)
	vx, vy := p.Viewport.Center()
	e.Move(vx, vy) // the keys go to the viewport, as a user's would
	for i := range 6 {
		if p := settle(e); p.SelectedCount != 0 {
			t := p.Viewport
			e.Click(t.X+30, t.Y+30, 1) // the sky: nothing there, so nothing selected
			e.Move(vx, vy)
			e.WaitProbe(time.Minute, "nothing selected", func(p *guitest.Probe) bool { return p.SelectedCount == 0 })
			settle(e)
		}
		cpu := threadCPU(e.PID())
		sent := time.Now()
		e.Key("ctrl+a")
		m := waitMark(e, "select all", sent.UnixNano()-int64(time.Second))
		cpuSince(f, "select all", e.PID(), cpu)
		f.ms("select all: key → UI", time.Duration(m.Presented-sent.UnixNano()))
		f.ms("select all: key → frame start", time.Duration(m.Input-sent.UnixNano()))
		f.ms("select all: frame start → presented", time.Duration(m.Presented-m.Input))
		f.ms("select all: frame start → result", time.Duration(m.Result-m.Input))
		f.ms("select all: result → presented", time.Duration(m.Presented-m.Result))
		f.ms("select all: presented → picture", time.Duration(m.Picture-m.Presented))
		if i == 0 {
			look(b, e, size.name+"-selectall.png")
		}
	}
	timeKey(b, e, f, "delete", "Delete", "delete")
	timeKey(b, e, f, "undo (delete)", "ctrl+z", "undo")
	e.RequestClose()
	if p, _ := e.ReadProbe(); p != nil && p.Dirty {
		e.Key("Tab") // Save / Don't Save / Cancel: nothing to keep
	}
	if _, err := e.Wait(time.Minute); err != nil {
		b.Logf("closing: %v", err) // killed by the cleanup
	}
}
