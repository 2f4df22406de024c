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
		if group != "" && (d.ID(g) != 9 || !eqIDs(d.Selection(), []uint64{9}) || d.ID(cubes[0]) != 10) {
			t.Fatalf("group id %d, selection %v", d.ID(g), d.Selection())
		}
		if group == "" && (!g.IsZero() || d.ID(cubes[23]) != 32 || !eqIDs(d.Selection(), []uint64{2})) {
			t.Fatalf("ungrouped: last id %d, selection %v", d.ID(cubes[23]), d.Selection())
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
		// Ids stay unique after redo: the next spawn gets the next id.
		e, err := d.SpawnEmpty(ecs.Entity{})
		must(t, err)
		if d.ID(e) != 9+uint64(n) {
			t.Fatalf("id after the grid %d", d.ID(e))
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
	// Cancelled while spawning: the grid is taken away again and the id counter restored.
	ctx, cancel = context.WithCancel(context.Background())
	_, _, err := d.SpawnGrid(ctx, smallGrid("G"), func(done, total int64) {
		if done == 0 {
			cancel()
		}
	})
	if err != context.Canceled || saved(t, d) != start || d.Undos() != 0 || d.Len() != 8 {
		t.Fatalf("cancelled during: %v, %d steps", err, d.Undos())
	}
	if e, _ := d.SpawnEmpty(ecs.Entity{}); d.ID(e) != 9 {
		t.Fatalf("id after a cancelled grid: %d", d.ID(e))
	}
	bad := smallGrid("")
	bad.Count[0] = 0
	if _, _, err := d.SpawnGrid(context.Background(), bad, nil); err == nil {
		t.Fatal("invalid grid accepted")
	}
}
