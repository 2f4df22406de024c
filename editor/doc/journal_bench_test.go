package doc

import (
	"context"
	"path/filepath"
	"testing"

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
		b.Run(ed.name, func(b *testing.B) { ed.run(b, openSmall(b)) })
	}
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
			ed.run(b, d)
			b.StopTimer()
			must(b, d.CloseJournal(true))
		})
	}
}
