package doc

import (
	"context"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

func smallGrid(group string) scene.GridParams {
	p := scene.DefaultGrid()
	p.Count = [3]int{3, 2, 4}
	p.ColorFrom = [4]float32{1, 0, 0, 1}
	p.Spin = &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 20}
	p.Group = group
	return p
}

func TestSpawnGridIsOneStep(t *testing.T) {
	for _, group := range []string{"", "Grid"} {
		d := openSmall(t)
		start := saved(t, d)
		var calls [][2]int64
		g, cubes, err := d.SpawnGrid(context.Background(), smallGrid(group), func(done, total int64) {
			calls = append(calls, [2]int64{done, total})
		})
		must(t, err)
		n := int64(24)
		if group != "" {
			n++
		}
		if len(cubes) != 24 || d.Len() != 8+int(n) || d.Undos() != 1 || d.UndoLabel() != "Spawn Cube Grid" {
			t.Fatalf("%d cubes, %d entities, %d steps", len(cubes), d.Len(), d.Undos())
		}
		if len(calls) != 2 || calls[0] != [2]int64{0, n} || calls[1] != [2]int64{n, n} {
			t.Fatalf("progress %v", calls)
		}
		if group != "" && (d.ID(g) <= 8 || !eqIDs(d.Selection(), []uint64{d.ID(g)}) || d.world.Parent(cubes[0]) != g) {
			t.Fatalf("group id %d, selection %v", d.ID(g), d.Selection())
		}
		if group == "" && (!g.IsZero() || !eqIDs(d.Selection(), []uint64{2})) {
			t.Fatalf("ungrouped: selection %v", d.Selection())
		}
		// New ids are unique; the grid comes after the existing roots, the cubes in creation order.
		ids := map[uint64]bool{}
		for i := 1; i <= 8; i++ {
			ids[uint64(i)] = true
		}
		for _, e := range append([]ecs.Entity{g}, cubes...) {
			if e.IsZero() {
				continue
			}
			if ids[d.ID(e)] {
				t.Fatalf("id %d handed out twice", d.ID(e))
			}
			ids[d.ID(e)] = true
		}
		roots := d.Roots()
		if group != "" && (len(roots) != 4 || roots[3] != g) {
			t.Fatalf("roots %v: the group should come last", roots)
		}
		if group == "" && (len(roots) != 27 || roots[3] != cubes[0] || roots[26] != cubes[23]) {
			t.Fatalf("roots: the cubes should follow the 3 roots in creation order")
		}
		end := saved(t, d)
		must(t, d.Undo())
		if saved(t, d) != start || d.Len() != 8 {
			t.Fatalf("group %q: undo of the grid differs", group)
		}
		must(t, d.Redo())
		if saved(t, d) != end {
			t.Fatalf("group %q: redo of the grid differs", group)
		}
		// Redo made the same ids; the next spawn gets a new one.
		for id := range ids {
			if _, ok := d.Entity(id); !ok {
				t.Fatalf("redo changed the ids: %d is missing", id)
			}
		}
		e, err := d.SpawnEmpty(ecs.Entity{})
		must(t, err)
		if ids[d.ID(e)] {
			t.Fatalf("id after the grid %d is in use", d.ID(e))
		}
	}
}

func TestSpawnGridCancel(t *testing.T) {
	d := openSmall(t)
	start := saved(t, d)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := d.SpawnGrid(ctx, smallGrid("G"), nil); err != context.Canceled {
		t.Fatalf("cancelled before: %v", err)
	}
	// Cancelled while spawning: the grid is taken away again.
	ctx, cancel = context.WithCancel(context.Background())
	_, _, err := d.SpawnGrid(ctx, smallGrid("G"), func(done, total int64) {
		if done == 0 {
			cancel()
		}
	})
	if err != context.Canceled || saved(t, d) != start || d.Undos() != 0 || d.Len() != 8 {
		t.Fatalf("cancelled during: %v, %d steps", err, d.Undos())
	}
	if e, _ := d.SpawnEmpty(ecs.Entity{}); d.ID(e) == 0 || d.Len() != 9 {
		t.Fatalf("spawn after a cancelled grid: id %d, %d entities", d.ID(e), d.Len())
	}
	bad := smallGrid("")
	bad.Count[0] = 0
	if _, _, err := d.SpawnGrid(context.Background(), bad, nil); err == nil {
		t.Fatal("invalid grid accepted")
	}
}
