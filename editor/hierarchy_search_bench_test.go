package editor

import (
	"context"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
)

// searchTexts are what the benchmarks type: a name one key at a time, and a field query.
var searchTexts = map[string][]string{
	"name":  {"C", "Cu", "Cub", "Cube", "Cube ", "Cube 5", "Cube 5,", "Cube 5,5"},
	"query": {"Transform.position.y>50"},
}

// BenchmarkHierarchySearch1M: the Hierarchy's search over a flat scene of 1,000,000 cubes, the texts of
// searchTexts typed in turn, a key each (ms/key). loop-before: the rows built by the model itself on the loop
// thread (how the panel searched before it searched on a goroutine); loop: what each key costs the loop thread now
// (a snapshot of the world, and the model's rows); to-rows: each key to its rows, the search done on the goroutine.
func BenchmarkHierarchySearch1M(b *testing.B) {
	d := doc.New("Big", doc.Options{})
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 100, 100}
	if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
		b.Fatal(err)
	}
	for _, kind := range []string{"name", "query"} {
		texts := searchTexts[kind]
		b.Run("loop-before/"+kind, func(b *testing.B) {
			for b.Loop() {
				for _, text := range texts {
					if len(loopRows(d, text)) == 0 {
						b.Fatalf("%q: no rows", text)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(texts)), "ms/key")
		})
		b.Run("loop/"+kind, func(b *testing.B) {
			var loop, longest time.Duration
			for b.Loop() {
				h := newHierarchyPanel(d, nil, nil, nil, nil)
				for _, text := range texts {
					h.search = text
					t0 := time.Now()
					h.rows()
					loop += time.Since(t0)
					longest = max(longest, time.Since(t0))
					for h.searching() {
						time.Sleep(time.Millisecond)
						h.rows()
					}
				}
			}
			b.ReportMetric(float64(loop.Microseconds())/1000/float64(b.N*len(texts)), "loop-ms/key")
			b.ReportMetric(float64(longest.Microseconds())/1000, "loop-ms-longest")
		})
		b.Run("to-rows/"+kind, func(b *testing.B) {
			h := newHierarchyPanel(d, nil, nil, nil, nil)
			h.search = "x"
			for h.rows(); h.searching(); h.rows() { // the roots and names of this version found
				time.Sleep(time.Millisecond)
			}
			for b.Loop() {
				for _, text := range texts {
					h.search = text
					for h.rows(); h.searching(); h.rows() {
						time.Sleep(100 * time.Microsecond)
					}
					if h.model.Len() == 0 {
						b.Fatalf("%q: no rows", text)
					}
				}
				h.search = ""
				h.rows()
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(texts)), "ms/key")
		})
	}
}
