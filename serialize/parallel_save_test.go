package serialize

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// parallelScene returns a scene of n entities with a bit of everything a save writes: names that need
// escaping, a hierarchy, every kind of field (Kinds, with entity references), editor-only and
// transient tags, unknown components, entities without components, and the editor section.
func parallelScene(t testing.TB, n int, seed uint64) *Scene {
	w := testWorld()
	r := rand.New(rand.NewPCG(seed, 1))
	var ents []ecs.Entity
	for i := range n {
		var vals []any
		if r.IntN(10) > 0 {
			vals = append(vals, &ecs.Transform{Position: mgl32.Vec3{r.Float32()*100 - 50, float32(i), 0.1 * float32(i%7)},
				Rotation: mgl32.Vec3{0, float32(r.IntN(360)), 0}, Scale: mgl32.Vec3{1, 1, 1}},
				&scene.Mesh{Asset: "builtin:cube"}, &scene.Color{RGBA: [4]float32{r.Float32(), 0.5, 1, 1}})
		}
		switch r.IntN(12) {
		case 0:
			vals = append(vals, &scene.Name{Value: fmt.Sprintf("Odd \"name\"\t%d \\ é ✓\n", i)})
		case 1:
			k := kinds{B: true, I8: -3, I: i, U16: 7, U64: math.MaxUint64, F64: 1e-300, S: "s\x01", Arr: [2]int32{1, -1},
				Sl: []float32{0.25, 3}, V: mgl32.Vec3{1, 2, 3}}
			k.Nested.A, k.Nested.Tags = 2.5, []string{"a", "b"}
			if len(ents) > 0 {
				k.Ref = ents[r.IntN(len(ents))]
				k.Refs = []ecs.Entity{ents[0], {}}
			}
			vals = append(vals, &k)
		case 2:
			vals = append(vals, &locked{}, &selected{})
		case 3:
			vals = append(vals, &scene.Unknown{Components: []scene.RawComponent{{Name: "Zeta", JSON: `{ "x": 1 }`},
				{Name: "Alpha", JSON: `{}`}}})
		case 4:
			vals = append(vals, &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: float32(i)})
		default:
			vals = append(vals, &scene.Name{Value: fmt.Sprintf("Cube %d", i)})
		}
		e := w.Spawn(vals...)
		if len(ents) > 0 && r.IntN(4) == 0 {
			if err := w.SetParent(e, ents[r.IntN(len(ents))]); err != nil {
				t.Fatal(err)
			}
		}
		ents = append(ents, e)
	}
	return &Scene{Name: "Parallel", World: w, Camera: &scene.EditorCamera{Yaw: 30, Pitch: -25, Distance: 40},
		Selection: ents[:3]}
}

// saveWith saves s with the given number of encoding goroutines.
func saveWith(t testing.TB, workers int, s *Scene, opts SaveOptions, out *bytes.Buffer) error {
	t.Helper()
	old := saveWorkers
	saveWorkers = func() int { return workers }
	defer func() { saveWorkers = old }()
	return Save(context.Background(), out, s, opts)
}

// A save encoded by several goroutines writes the same bytes as one encoding them in turn, at sizes
// around the chunk boundaries, and the file loads back to the same save.
func TestParallelSaveWritesTheSameBytes(t *testing.T) {
	for i, n := range []int{parallelMin - 1, parallelMin, 3*chunkEntities + 17, 5 * chunkEntities} {
		s := parallelScene(t, n, uint64(i+1))
		var seq bytes.Buffer
		if err := saveWith(t, 1, s, SaveOptions{}, &seq); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{2, 3, 8} {
			var par bytes.Buffer
			var calls []int64
			progress := func(done, total int64) {
				if total != int64(n) || (len(calls) > 0 && done < calls[len(calls)-1]) {
					t.Fatalf("progress %d of %d after %v", done, total, calls)
				}
				calls = append(calls, done)
			}
			if err := saveWith(t, workers, s, SaveOptions{Progress: progress}, &par); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(seq.Bytes(), par.Bytes()) {
				t.Fatalf("%d entities, %d workers: the parallel save differs from the sequential one: %s",
					n, workers, firstDiff(seq.Bytes(), par.Bytes()))
			}
			if len(calls) < 2 || calls[len(calls)-1] != int64(n) {
				t.Fatalf("%d entities, %d workers: progress %v, want it to end at %d", n, workers, calls, n)
			}
		}
		l, err := Load(context.Background(), bytes.NewReader(seq.Bytes()), LoadOptions{NewWorld: testWorld})
		if err != nil {
			t.Fatal(err)
		}
		var again bytes.Buffer
		if err := saveWith(t, 2, &Scene{Name: l.Name, World: l.World, Camera: l.Camera, Selection: l.Selection}, SaveOptions{}, &again); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(seq.Bytes(), again.Bytes()) {
			t.Fatalf("%d entities: load and save changed the file: %s", n, firstDiff(seq.Bytes(), again.Bytes()))
		}
	}
}

// A value a file cannot hold fails the parallel save with the message of the first such entity in
// file order, as the sequential save does, wherever the chunks end.
func TestParallelSaveReportsTheFirstBadEntity(t *testing.T) {
	s := parallelScene(t, 4*chunkEntities, 9)
	order := scene.EnsureIDs(s.World)
	tm := ecs.NewMap[ecs.Transform](s.World)
	var bad []ecs.Entity
	for _, i := range []int{3*chunkEntities + 5, chunkEntities + 1, 2*chunkEntities - 1} {
		for !tm.Has(order[i]) {
			i++
		}
		tm.Mut(order[i]).Position[1] = float32(math.NaN())
		bad = append(bad, order[i])
	}
	var seq, par bytes.Buffer
	errSeq := saveWith(t, 1, s, SaveOptions{}, &seq)
	errPar := saveWith(t, 2, s, SaveOptions{}, &par)
	if errSeq == nil || errPar == nil || errSeq.Error() != errPar.Error() {
		t.Fatalf("sequential: %v\nparallel: %v", errSeq, errPar)
	}
	id := ecs.NewMap[scene.SceneID](s.World).Get(bad[1]).ID
	if !strings.Contains(errPar.Error(), fmt.Sprintf("entity %d", id)) || !strings.Contains(errPar.Error(), "Transform.position[1]") {
		t.Fatalf("the error should name entity %d's Transform.position[1]: %v", id, errPar)
	}
}

// failWriter fails once it has taken n bytes.
type failWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n -= len(p); f.n < 0 {
		return 0, errDiskFull
	}
	return len(p), nil
}

// A parallel save stops on a cancelled context and on a write error, and returns their errors.
func TestParallelSaveStops(t *testing.T) {
	s := parallelScene(t, 6*chunkEntities, 4)
	old := saveWorkers
	saveWorkers = func() int { return 2 }
	defer func() { saveWorkers = old }()
	ctx, cancel := context.WithCancel(context.Background())
	err := Save(ctx, &bytes.Buffer{}, s, SaveOptions{Progress: func(done, total int64) {
		if done > 0 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled save: %v", err)
	}
	if err := Save(context.Background(), &failWriter{n: 1 << 20}, s, SaveOptions{}); !errors.Is(err, errDiskFull) {
		t.Fatalf("failing writer: %v", err)
	}
}

// exportWith exports s with the given number of encoding goroutines.
func exportWith(t testing.TB, ctx context.Context, workers int, s *Scene, out *bytes.Buffer) error {
	t.Helper()
	old := saveWorkers
	saveWorkers = func() int { return workers }
	defer func() { saveWorkers = old }()
	return Export(ctx, out, s)
}

// A game export encoded by several goroutines writes the same bytes as one encoding them in turn,
// reports the first entity (in export order) it cannot write, and stops when cancelled.
func TestParallelExportWritesTheSameBytes(t *testing.T) {
	for i, n := range []int{parallelMin - 1, 3*chunkEntities + 17} {
		s := parallelScene(t, n, uint64(i+7))
		var seq bytes.Buffer
		if err := exportWith(t, context.Background(), 1, s, &seq); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{2, 3} {
			var par bytes.Buffer
			if err := exportWith(t, context.Background(), workers, s, &par); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(seq.Bytes(), par.Bytes()) {
				t.Fatalf("%d entities, %d workers: the parallel export differs from the sequential one: %s",
					n, workers, firstDiff(seq.Bytes(), par.Bytes()))
			}
		}
	}
	s := parallelScene(t, 4*chunkEntities, 11)
	n := 0
	ecs.NewQuery1[scene.Color](s.World).Each(func(e ecs.Entity, c *scene.Color) {
		if n++; n%1500 == 0 {
			c.RGBA[2] = float32(math.Inf(1))
		}
	})
	var seq, par bytes.Buffer
	errSeq := exportWith(t, context.Background(), 1, s, &seq)
	errPar := exportWith(t, context.Background(), 2, s, &par)
	if errSeq == nil || errPar == nil || errSeq.Error() != errPar.Error() || !strings.Contains(errPar.Error(), "Color.rgba") {
		t.Fatalf("sequential: %v\nparallel: %v", errSeq, errPar)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := exportWith(t, ctx, 2, parallelScene(t, parallelMin, 12), &bytes.Buffer{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled export: %v", err)
	}
}

// TestSaveOfAReadCopyIsTheSame: a save writes the same bytes from a world's ecs.World.ReadCopy (what the editor's
// save job writes from: no change ticks, no world matrices) as from the world itself.
func TestSaveOfAReadCopyIsTheSame(t *testing.T) {
	solar, err := LoadFile(context.Background(), "testdata/solar.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Scene{"solar": solar, "big": parallelScene(t, 5*chunkEntities, 7)} {
		var whole, read bytes.Buffer
		if err := Save(context.Background(), &whole, s, SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		c := *s
		c.World = s.World.ReadCopy()
		if err := Save(context.Background(), &read, &c, SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(whole.Bytes(), read.Bytes()) {
			t.Fatalf("%s: the save of the read copy differs: %s", name, firstDiff(whole.Bytes(), read.Bytes()))
		}
	}
}

// SaveOptions.Also gets every byte of the save, in order, as out does: on the parallel path (chunks encoded on
// several goroutines) and the sequential one.
func TestSaveAlsoGetsEveryByte(t *testing.T) {
	for _, n := range []int{10, 3 * parallelMin} {
		s := parallelScene(t, n, 7)
		var out, also bytes.Buffer
		if err := Save(context.Background(), &out, s, SaveOptions{Also: &also}); err != nil {
			t.Fatal(err)
		}
		if out.Len() == 0 || !bytes.Equal(out.Bytes(), also.Bytes()) {
			t.Fatalf("%d entities: out has %d bytes, Also got %d (equal: %v)", n, out.Len(), also.Len(), bytes.Equal(out.Bytes(), also.Bytes()))
		}
	}
}
