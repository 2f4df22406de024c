package serialize

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// transformRows is the capacity of the world's Transform storage, in rows (ecs.ComponentStats.Bytes: a value
// and two change ticks a row, and a little for the page summaries).
func transformRows(t *testing.T, w *ecs.World) int {
	t.Helper()
	for _, c := range w.Stats().Components {
		if c.Name == "Transform" {
			return c.Bytes / (int(reflect.TypeFor[ecs.Transform]().Size()) + 8)
		}
	}
	t.Fatal("no Transform in the world")
	return 0
}

// gridFile is a saved grid of n cubes.
func gridFile(t *testing.T, n [3]int) []byte {
	return savedGrid(t, scene.GridParams{Count: n, Spacing: mgl32.Vec3{1, 1, 1}, ColorFrom: [4]float32{1, 1, 1, 1},
		ColorTo: [4]float32{1, 1, 1, 1}}, "Grid")
}

// savedGrid is the file of the cube grid p (ids from a fixed seed).
func savedGrid(t testing.TB, p scene.GridParams, name string) []byte {
	t.Helper()
	s, err := GridScene(p, name, 1)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Save(context.Background(), &buf, s, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A load of many alike entities makes room for them once it has read a few thousand (from the bytes they took
// and the bytes left): the table ends about an eighth bigger than the cubes (room for a first spawn after the
// load), and so do the entity records (World.IndexCap), where growing step by step leaves it up to twice as big
// below 65,536 rows, and anything from as big to a quarter bigger above. The room is bounded by the world-memory limit: a file whose rest is
// whitespace reserves no more than the limit leaves.
func TestLoadReservesForAlikeEntities(t *testing.T) {
	// In turn, and in pieces: the front reads enough for the estimate, or not (a quarter of them on four workers).
	data := gridFile(t, [3]int{24, 32, 16}) // 12,288 cubes
	for _, tc := range []struct{ workers, pieces int }{{0, 0}, {2, 3}, {2, 40}, {4, 4}} {
		loadIn(t, tc.workers, tc.pieces)
		s, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rows := transformRows(t, s.World)
		cubes, pieces := 24*32*16, tc.pieces
		if rows < cubes+cubes/8-cubes/20 || rows > cubes+cubes/8+cubes/20 {
			t.Fatalf("%d pieces: %d cubes loaded into room for %d rows, want an eighth more (within 5 %% of the cubes)", pieces, cubes, rows)
		}
		if c := s.World.IndexCap(); c < cubes+cubes/8-cubes/20 || c > cubes+cubes/8+cubes/20 {
			t.Fatalf("%d pieces: %d cubes loaded into records for %d entities, want an eighth more (within 5 %% of the cubes)", pieces, cubes, c)
		}
	}
	loadIn(t, 0, 0) // the estimate from the bytes left, which a load in turn makes

	// 4,096 cubes, then 20 MB of whitespace: the estimate is some 60,000 more cubes; with a world-memory limit
	// of 4 MiB (about 12,000 cubes) the room is cut to what the limit leaves.
	small := gridFile(t, [3]int{16, 16, 16})
	end := bytes.LastIndex(small, []byte("\n  ]"))
	padded := append(append(append([]byte{}, small[:end]...), strings.Repeat(" ", 20<<20)...), small[end:]...)
	rowsFor := func(lim Limits) int {
		s, err := Load(context.Background(), bytes.NewReader(padded), LoadOptions{Limits: lim})
		if err != nil {
			t.Fatal(err)
		}
		if s.World.Len() < 4096 {
			t.Fatalf("loaded %d entities, want the 4,096 cubes", s.World.Len())
		}
		return transformRows(t, s.World)
	}
	if rows := rowsFor(Limits{}); rows < 40_000 {
		t.Fatalf("4,096 cubes and 20 MB of whitespace: room for only %d rows (the estimate is some 60,000)", rows)
	}
	if rows := rowsFor(Limits{MaxWorldBytes: 4 << 20}); rows > 16_000 {
		t.Fatalf("4,096 cubes and whitespace under a 4 MiB world limit: room for %d rows, want at most about 12,000", rows)
	}
}
