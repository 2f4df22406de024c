package doc

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
)

// BenchmarkSaveWithJournal times an edit and a save of 100,000 cubes, opened from their file, without
// and with the session journal: the whole of it (with a journal, until its base is written again from
// the saved file, a Flush) and what the loop thread waits for (loop-ns/op: preparing the save and
// finishing it; the job runs on a goroutine of its own in the editor). B/op counts the journal's
// copies of the scene.
func BenchmarkSaveWithJournal(b *testing.B) {
	for _, journal := range []bool{false, true} {
		name := "plain"
		if journal {
			name = "journal"
		}
		b.Run(name, func(b *testing.B) {
			d, err := Open(context.Background(), savedGrid(b, grid100k("").Count), testOpts, nil)
			must(b, err)
			if journal {
				_, err := d.StartJournal(filepath.Join(b.TempDir(), "grid.journal"), JournalOptions{})
				must(b, err)
			}
			e, _ := d.Entity(d.IDs()[1])
			tr := cid[ecs.Transform](b, d)
			var loop time.Duration
			x := float32(0)
			for b.Loop() {
				x++
				must(b, d.SetField([]ecs.Entity{e}, tr, "position[1]", x))
				t := time.Now()
				job := d.PrepareSave("")
				loop += time.Since(t)
				err := job.Run(context.Background(), nil)
				t = time.Now()
				d.Finish(job, err)
				loop += time.Since(t)
				must(b, err)
				if journal {
					must(b, d.Journal().Flush())
				}
			}
			b.ReportMetric(float64(loop.Nanoseconds())/float64(b.N), "loop-ns/op")
			must(b, d.CloseJournal(true))
		})
	}
}
