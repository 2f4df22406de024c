package e2e

import (
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// The latency benchmarks drive the real editor and report what a user waits for: from the key (or the launch) to
// the first frame presented that shows the result, from the timestamps the editor records in its probe (probe.Mark)
// and the harness's clock when it sends the key (the same machine's clock). They assert nothing about speed.
// Run them with `make bench-ui` (go test -run '^$' -bench UI ./cmd/voltex-editor/e2e/).

// latency accumulates one figure over the iterations of a benchmark.
type latency struct {
	name  string
	total time.Duration
	n     int
}

func (l *latency) add(d time.Duration) { l.total += d; l.n++ }

func (l *latency) report(b *testing.B) {
	if l.n > 0 {
		b.ReportMetric(float64(l.total.Microseconds())/1000/float64(l.n), l.name)
	}
}

// waitMark waits for a new mark named what (newer than after, in editor time) and returns it.
func waitMark(e *guitest.Editor, what string, after int64) guitest.Mark {
	p := e.WaitProbe(5*time.Minute, what+" presented", func(p *guitest.Probe) bool {
		m, ok := lastMark(p, what)
		return ok && m.Input > after && m.Presented != 0
	})
	m, _ := lastMark(p, what)
	return m
}

// BenchmarkUISpawnGrid100k: Enter in the grid dialog (100×10×100, its preview shown) → the first frame presented
// with the 100,000 cubes in the scene, in an editor holding scenes/cubes.json; each iteration undoes the spawn and
// opens the dialog again (it remembers the counts).
func BenchmarkUISpawnGrid100k(b *testing.B) {
	d := guitest.StartDisplay(b, 1600, 1000)
	e := guitest.Launch(b, d, "--size", "1600x1000", "--settings", b.TempDir(), copyScene(b, "cubes.json"))
	p0, _ := e.ReadProbe()
	toResult, toFrame, inEditor := latency{name: "ms-key-to-result"}, latency{name: "ms-key-to-frame"}, latency{name: "ms-editor-input-to-frame"}
	first := true
	for b.Loop() {
		b.StopTimer()
		if first {
			setGrid(e, "100", "10", "100")
			first = false
		} else {
			e.Key("ctrl+g") // the dialog remembers 100×10×100
		}
		e.WaitProbe(5*time.Minute, "preview of the cubes", func(p *guitest.Probe) bool {
			return p.Grid != nil && p.Grid.Preview == "cubes" && p.Grid.PreviewCubes == 100_000
		})
		b.StartTimer()
		key := time.Now()
		e.Key("Return")
		m := waitMark(e, "spawn grid", key.UnixNano()-int64(time.Second))
		b.StopTimer()
		toResult.add(time.Duration(m.Result - key.UnixNano()))
		toFrame.add(time.Duration(m.Presented - key.UnixNano()))
		inEditor.add(time.Duration(m.Presented - m.Input))
		e.Key("ctrl+z")
		e.WaitProbe(5*time.Minute, "undone", func(p *guitest.Probe) bool { return p.Entities == p0.Entities })
		b.StartTimer()
	}
	toResult.report(b)
	toFrame.report(b)
	inEditor.report(b)
}

// BenchmarkUIOpen100k: launching the editor on a 100,000-cube scene → the first frame presented with the scene
// (the window, with the progress, is up long before).
func BenchmarkUIOpen100k(b *testing.B) {
	path := bigScene(b, 100, 10, 100)
	d := guitest.StartDisplay(b, 1600, 1000)
	toFrame, frames := latency{name: "ms-launch-to-frame"}, 0
	for b.Loop() {
		start := time.Now()
		e := guitest.Launch(b, d, "--size", "1600x1000", "--settings", b.TempDir(), path)
		m := waitMark(e, "open", 0)
		b.StopTimer()
		toFrame.add(time.Duration(m.Presented - start.UnixNano()))
		frames += int(m.Frames)
		e.RequestClose()
		if _, err := e.Wait(time.Minute); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	toFrame.report(b)
	b.ReportMetric(float64(frames)/float64(max(toFrame.n, 1)), "frames-while-loading")
}
