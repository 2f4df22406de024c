package serialize

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/treeshape"
)

func shapeFile(t testing.TB, shape string, n int) []byte {
	var b bytes.Buffer
	if err := treeshape.WriteScene(&b, treeshape.Parents(shape, n)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestLoadShapes loads, saves and exports scenes of every hierarchy shape (a 20,000-deep chain too,
// which takes quadratic time if SetParent walks every ancestor for every entity) and checks the
// hierarchy and world matrices that come out.
func TestLoadShapes(t *testing.T) {
	const n = 20_000
	for _, shape := range treeshape.Names {
		t.Run(shape, func(t *testing.T) {
			ps := treeshape.Parents(shape, n)
			data := shapeFile(t, shape, n)
			s, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{File: shape})
			if err != nil {
				t.Fatal(err)
			}
			w := s.World
			byID := map[uint64]ecs.Entity{}
			ids := ecs.NewMap[scene.SceneID](w)
			w.EachEntity(func(e ecs.Entity) bool { byID[ids.Get(e).ID] = e; return true })
			depth := make([]int, n)
			for i, p := range ps {
				want := ecs.Entity{}
				if p >= 0 {
					want, depth[i] = byID[uint64(p+1)], depth[p]+1
				}
				e := byID[uint64(i+1)]
				if w.Parent(e) != want {
					t.Fatalf("entity %d: parent %v, want %v", i+1, w.Parent(e), want)
				}
				if x := w.WorldMatrix(e).At(0, 3); x != float32(depth[i]+1) {
					t.Fatalf("entity %d at depth %d: world x %v", i+1, depth[i], x)
				}
			}
			if err := Export(context.Background(), io.Discard, s); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := Save(context.Background(), &out, s, SaveOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := Load(context.Background(), &out, LoadOptions{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// BenchmarkLoadShapes loads a 100,000-entity scene of each hierarchy shape and reports
// ns/entity and each shape's time relative to the flat scene, measured in the same iterations.
// Target: every shape within 3× flat (a deep chain took 7.5 s, ~80× flat, before loading linked
// the hierarchy in one linear pass).
func BenchmarkLoadShapes(b *testing.B) {
	const n = 100_000
	treeshape.Benchmark(b, n, func(shape string) []byte { return shapeFile(b, shape, n) }, func(data []byte, _ *treeshape.Timer) {
		s, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		s.World.PropagateTransforms()
	})
}

// A 100,000-entity parent cycle is reported on one short line (it was a 989,010-byte line).
func TestLongCycleMessage(t *testing.T) {
	const n = 100_000
	ps := treeshape.Parents("chain", n)
	ps[0] = n - 1 // the root's parent is the last: one big cycle
	var b bytes.Buffer
	if err := treeshape.WriteScene(&b, ps); err != nil {
		t.Fatal(err)
	}
	_, err := Load(context.Background(), &b, LoadOptions{File: "c.json"})
	if err == nil || len(err.Error()) > 300 {
		t.Fatalf("%d bytes: %.300v", len(err.Error()), err)
	}
	want := "parent cycle of 100,000 entities: 1 → 100000 → 99999 → 99998 → 99997 → 99996 → … 99,991 more … → 4 → 3 → 2 → 1 (each is the parent of the one before)"
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v\nwant …%s", err, want)
	}
}
