package doc

import (
	"context"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
)

// benchEdits are the edits BenchmarkEdit and BenchmarkEditWithJournal time: one field of one
// entity (an undo step each), and a 100,000-cube grid spawn (undone untimed).
var benchEdits = []struct {
	name string
	run  func(b *testing.B, d *Document)
}{
	{"field", func(b *testing.B, d *Document) {
		e := ent(b, d, 2)
		tr := cid[ecs.Transform](b, d)
		x := float32(0)
		for b.Loop() {
			x++
			if err := d.SetField([]ecs.Entity{e}, tr, "position[1]", x); err != nil {
				b.Fatal(err)
			}
		}
	}},
	{"spawn100k", func(b *testing.B, d *Document) {
		p := grid100k("")
		for b.Loop() {
			if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			must(b, d.History().Undo())
			b.StartTimer()
		}
	}},
}

// BenchmarkEdit times edits of a document without a journal (compare BenchmarkEditWithJournal).
func BenchmarkEdit(b *testing.B) {
	for _, ed := range benchEdits {
		b.Run(ed.name, func(b *testing.B) {
			d := openSmall(b)
			defer reportCPU(b)()
			ed.run(b, d)
		})
	}
}

// reportCPU starts counting the CPU time the process spends (every goroutine: the journal's writer,
// the collector); the func it returns reports it per op as cpu-ns/op, which other programs on a
// shared machine disturb less than the time per op.
//
// It also reports loop-cpu-ns/op, the CPU time of the benchmark's own thread (the loop thread's
// share: the journal's writer runs on another), locked to it until the func is called.
func reportCPU(b *testing.B) func() {
	runtime.LockOSThread()
	start, own := cpuTime(), threadTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(threadTime()-own)/float64(b.N), "loop-cpu-ns/op")
		runtime.UnlockOSThread()
	}
}

// threadTime returns the CPU time (user and system) the calling thread has spent.
func threadTime() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuTime returns the CPU time (user and system) the process has spent.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEditWithJournal times the edits of BenchmarkEdit with the session journal on: what the
// loop thread pays (queueing the step; the writer encodes, writes and syncs on its goroutine).
func BenchmarkEditWithJournal(b *testing.B) {
	for _, ed := range benchEdits {
		b.Run(ed.name, func(b *testing.B) {
			d := openSmall(b)
			if _, err := d.StartJournal(filepath.Join(b.TempDir(), "bench.journal"), JournalOptions{}); err != nil {
				b.Fatal(err)
			}
			stop := reportCPU(b)
			ed.run(b, d)
			b.StopTimer()
			must(b, d.CloseJournal(true)) // the writer's last batch is counted
			stop()
		})
	}
}

// BenchmarkJournalStep times what the loop thread pays the journal for a field edit's step (the
// rest of BenchmarkEditWithJournal's difference is the writer's, on its own goroutine): queueing
// the step, its command value unchanged.
func BenchmarkJournalStep(b *testing.B) {
	d := openSmall(b)
	j, err := d.StartJournal(filepath.Join(b.TempDir(), "bench.journal"), JournalOptions{})
	if err != nil {
		b.Fatal(err)
	}
	must(b, d.SetField([]ecs.Entity{ent(b, d, 2)}, cid[ecs.Transform](b, d), "position[1]", float32(1)))
	h := d.History()
	cmd := h.steps[h.pos-1].cmd
	for b.Loop() {
		j.step(h, cmd)
	}
	b.StopTimer()
	must(b, d.CloseJournal(true))
}
