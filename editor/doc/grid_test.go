package doc

import (
	"context"
	"errors"
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
		if len(cubes) != 24 || d.Len() != 8+int(n) || d.History().Undos() != 1 || d.History().UndoLabel() != "Spawn Cube Grid" {
			t.Fatalf("%d cubes, %d entities, %d steps", len(cubes), d.Len(), d.History().Undos())
		}
		if len(calls) != 2 || calls[0] != [2]int64{0, n} || calls[1] != [2]int64{n, n} {
			t.Fatalf("progress %v", calls)
		}
		if group != "" && (d.ID(g) <= 8 || !eqIDs(d.Selection().IDs(), []uint64{d.ID(g)}) || d.world.Parent(cubes[0]) != g) {
			t.Fatalf("group id %d, selection %v", d.ID(g), d.Selection().IDs())
		}
		if group == "" && (!g.IsZero() || len(d.Selection().IDs()) != 24 || d.Selection().IDs()[0] != d.ID(cubes[0])) {
			t.Fatalf("ungrouped: selection %v", d.Selection().IDs())
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
		end, spawned := saved(t, d), d.Selection().IDs()
		must(t, d.History().Undo())
		if saved(t, d) != start || d.Len() != 8 || !eqIDs(d.Selection().IDs(), []uint64{2}) {
			t.Fatalf("group %q: undo of the grid differs (selection %v)", group, d.Selection().IDs())
		}
		must(t, d.History().Redo())
		if saved(t, d) != end || !eqIDs(d.Selection().IDs(), spawned) {
			t.Fatalf("group %q: redo of the grid differs (selection %v, want %v)", group, d.Selection().IDs(), spawned)
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
	if err != context.Canceled || saved(t, d) != start || d.History().Undos() != 0 || d.Len() != 8 {
		t.Fatalf("cancelled during: %v, %d steps", err, d.History().Undos())
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

// bigGrid has a little more than 2.5 chunks of cubes.
func bigGrid(group string) scene.GridParams {
	p := smallGrid(group)
	p.Count = [3]int{41, 1, 500} // 20,500 cubes
	return p
}

// TestGridJobBuildsDetachedAndMerges: the job's Run works on a goroutine of its own while the document is edited
// (go test -race checks that they share nothing); FinishGrid then adds the grid as one step with ids after the
// edits', and undo goes back to the state the edits made.
func TestGridJobBuildsDetachedAndMerges(t *testing.T) {
	for _, group := range []string{"", "Grid"} {
		d := openSmall(t)
		j, err := d.PrepareGrid(bigGrid(group))
		must(t, err)
		var calls [][2]int64
		ran := make(chan error, 1)
		go func() {
			ran <- j.Run(context.Background(), func(done, total int64) { calls = append(calls, [2]int64{done, total}) })
		}()
		// Meanwhile, on "the loop": edits that take scene ids.
		e, err := d.SpawnEmpty(ecs.Entity{})
		must(t, err)
		must(t, d.Rename([]ecs.Entity{e}, "made while the grid was planned"))
		must(t, <-ran)
		afterEdits := saved(t, d)
		total := int64(j.Len())
		// Real progress: a report before the first chunk and after each, growing, ending at the total.
		if want := (20500+GridChunk-1)/GridChunk + 1; len(calls) != want {
			t.Fatalf("group %q: %d progress reports %v, want %d", group, len(calls), calls, want)
		}
		for i, c := range calls {
			if c[1] != total || (i > 0 && c[0] <= calls[i-1][0]) {
				t.Fatalf("group %q: progress %v", group, calls)
			}
		}
		if calls[0][0] != 0 || calls[len(calls)-1][0] != total {
			t.Fatalf("group %q: progress %v", group, calls)
		}
		if d.Len() != 9 {
			t.Fatalf("Run changed the document: %d entities", d.Len())
		}
		g, cubes, err := d.FinishGrid(j)
		must(t, err)
		if len(cubes) != 20500 || d.Len() != 9+int(total) || d.History().Undos() != 3 {
			t.Fatalf("group %q: %d cubes, %d entities, %d steps", group, len(cubes), d.Len(), d.History().Undos())
		}
		seen := map[uint64]bool{d.ID(e): true}
		for i := 1; i <= 8; i++ {
			seen[uint64(i)] = true
		}
		for _, c := range append([]ecs.Entity{g}, cubes...) {
			if id := d.ID(c); !c.IsZero() && (id == 0 || seen[id]) {
				t.Fatalf("group %q: id %d is the edit's, another cube's or a file's", group, id)
			}
			seen[d.ID(c)] = true
		}
		must(t, d.History().Undo())
		if saved(t, d) != afterEdits {
			t.Fatalf("group %q: undoing the grid does not give the state after the edits", group)
		}
		must(t, d.History().Redo())
		if d.Len() != 9+int(total) {
			t.Fatalf("group %q: redo made %d entities", group, d.Len())
		}
		mustPanic(t, "FinishGrid twice", func() { _, _, _ = d.FinishGrid(j) })
	}
}

// TestGridJobCancelMidway: cancelling while the job runs stops it between chunks — after some cubes were
// computed and before all — and the document is exactly as before; the job cannot be finished.
func TestGridJobCancelMidway(t *testing.T) {
	d := openSmall(t)
	before := saved(t, d)
	j, err := d.PrepareGrid(bigGrid("Grid"))
	must(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var last [2]int64
	err = j.Run(ctx, func(done, total int64) {
		last = [2]int64{done, total}
		if done >= GridChunk { // after the first chunk
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after a mid-way cancel: %v", err)
	}
	if last[0] == 0 || last[0] >= last[1] {
		t.Fatalf("the job stopped at %d of %d: not mid-way", last[0], last[1])
	}
	if saved(t, d) != before || d.History().Undos() != 0 || d.Dirty() {
		t.Fatal("a cancelled grid job changed the document")
	}
	mustPanic(t, "FinishGrid of a cancelled job", func() { _, _, _ = d.FinishGrid(j) })
}

// TestGridJobWhilePlaying: a job that finishes while the scene plays is refused with ErrPlaying and can be
// finished after Stop; a job is finished only by the document that prepared it.
func TestGridJobWhilePlaying(t *testing.T) {
	d := openSmall(t)
	j, err := d.PrepareGrid(smallGrid(""))
	must(t, err)
	must(t, j.Run(context.Background(), nil))
	d.PlayMode().Start()
	if _, _, err := d.FinishGrid(j); !errors.Is(err, ErrPlaying) {
		t.Fatalf("FinishGrid while playing: %v", err)
	}
	if _, err := d.PrepareGrid(smallGrid("")); !errors.Is(err, ErrPlaying) {
		t.Fatalf("PrepareGrid while playing: %v", err)
	}
	d.PlayMode().Stop()
	if _, cubes, err := d.FinishGrid(j); err != nil || len(cubes) != 24 {
		t.Fatalf("FinishGrid after Stop: %d cubes, %v", len(cubes), err)
	}
	other := openSmall(t)
	j2, err := other.PrepareGrid(smallGrid(""))
	must(t, err)
	must(t, j2.Run(context.Background(), nil))
	mustPanic(t, "FinishGrid of another document's job", func() { _, _, _ = d.FinishGrid(j2) })
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}

// TestRedoOfAGridGivesItsEntitiesTheirSlots: undone and redone, a grid's group and cubes are the entities in the
// slots they had (index for index: the viewport's ids, so the picture from before the undo can be shown again),
// also after a delete elsewhere left other free slots.
func TestRedoOfAGridGivesItsEntitiesTheirSlots(t *testing.T) {
	for _, group := range []string{"", "Grid"} {
		d := openSmall(t)
		var some []ecs.Entity // two of the scene's entities deleted: free slots below the grid's
		for it := ecs.NewQuery1[scene.Name](d.World()).Iter(); it.Next(); {
			if len(some) < 2 {
				some = append(some, it.Entity())
			}
		}
		must(t, d.Delete(some...))
		g, cubes, err := d.SpawnGrid(context.Background(), smallGrid(group), nil)
		must(t, err)
		slots := func() map[string]uint32 {
			m := map[string]uint32{}
			names := ecs.NewMap[scene.Name](d.World())
			for it := ecs.NewQuery1[scene.Name](d.World()).Iter(); it.Next(); {
				m[names.Get(it.Entity()).Value] = it.Entity().Index()
			}
			return m
		}
		before := slots()
		if !g.IsZero() && before["Grid"] != g.Index() || len(cubes) != 24 {
			t.Fatalf("group %q: %v, %d cubes", group, g, len(cubes))
		}
		must(t, d.History().Undo())
		must(t, d.History().Redo())
		after := slots()
		for name, idx := range before {
			if after[name] != idx {
				t.Errorf("group %q: %s was in slot %d, after the redo in %d", group, name, idx, after[name])
			}
		}
	}
}

// rootNames returns the names of d's roots, failing on one two roots share.
func uniqueRootNames(t *testing.T, d *Document) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for _, e := range d.Roots() {
		n := d.Name(e)
		if names[n] {
			t.Fatalf("two roots are named %q", n)
		}
		names[n] = true
	}
	return names
}

// TestGridsGetNamesNoSiblingHas: a second grid's cubes (or its group, or its copies) get the names Paste gives —
// "Cube 0,0 (1)" beside "Cube 0,0" — so no two siblings share a name, after undo and redo too.
func TestGridsGetNamesNoSiblingHas(t *testing.T) {
	for _, group := range []string{"", "Grid"} {
		d := New("", Options{})
		p := smallGrid(group)
		p.Count = [3]int{2, 1, 2}
		for range 3 {
			_, _, err := d.SpawnGrid(context.Background(), p, nil)
			must(t, err)
		}
		names := uniqueRootNames(t, d)
		want := "Cube 1,1 (2)"
		if group != "" {
			want = "Grid (2)"
		}
		if !names[want] {
			t.Fatalf("group %q: no root named %q: %v", group, want, names)
		}
		undoAll(t, d)
		redoAll(t, d)
		if got := uniqueRootNames(t, d); len(got) != len(names) || !got[want] {
			t.Fatalf("group %q: after undo and redo the roots are %v", group, got)
		}
	}
	d := New("", Options{})
	src, err := d.SpawnCube(ecs.Entity{})
	must(t, err)
	must(t, d.Rename([]ecs.Entity{src}, "Crate"))
	p := smallGrid("")
	p.Count = [3]int{2, 1, 1}
	for range 2 {
		_, _, err := d.SpawnCopies(context.Background(), p, CopySource{Entity: src})
		must(t, err)
	}
	if names := uniqueRootNames(t, d); !names["Crate 1,0 (1)"] {
		t.Fatalf("copies: %v", names)
	}
}

// TestBigGridFindsItsNamesBesideThePlan: a big grid's Run finds the names the scene's roots leave its cubes
// (beside "Cube 0,0" its first is "Cube 0,0 (1)") and FinishGrid takes them; found in a scene that changed before
// FinishGrid (the grid they collided with undone), they are not taken, nor the order key after the roots found with them; a write before Run reads them takes the
// world back unread, and FinishGrid finds them itself. Every way, the names are those no root has.
func TestBigGridFindsItsNamesBesideThePlan(t *testing.T) {
	p := scene.DefaultGrid()
	p.Count = [3]int{64, 1, 64} // roomFrom cubes: a job with a lent world
	first := func(d *Document, cubes []ecs.Entity) string { return d.Name(cubes[0]) }
	order := func(d *Document, cubes []ecs.Entity) float64 {
		return ecs.NewMap[scene.SceneID](d.World()).Get(cubes[0]).Order
	}
	spawned := func() *Document {
		d := New("", Options{})
		_, _, err := d.SpawnGrid(context.Background(), p, nil)
		must(t, err)
		return d
	}

	d := spawned()
	j, err := d.PrepareGrid(p)
	must(t, err)
	must(t, j.Run(context.Background(), nil))
	if j.look == nil || j.look.names == nil || j.look.names.K == nil {
		t.Fatal("Run found no names for the cubes beside the roots of their names")
	}
	_, cubes, err := d.FinishGrid(j)
	must(t, err)
	if n, o := first(d, cubes), order(d, cubes); n != "Cube 0,0 (1)" || o != 64*64+1 {
		t.Errorf("beside the first grid, the second's first cube is %q, order %v (want after the first's 4096)", n, o)
	}
	uniqueRootNames(t, d)

	d = spawned()
	j, err = d.PrepareGrid(p)
	must(t, err)
	must(t, j.Run(context.Background(), nil))
	must(t, d.History().Undo()) // the names found collided with a grid no longer there
	_, cubes, err = d.FinishGrid(j)
	must(t, err)
	if n, o := first(d, cubes), order(d, cubes); n != "Cube 0,0" || o != 1 {
		t.Errorf("the scene changed after Run: the first cube is %q, order %v; want \"Cube 0,0\", 1", n, o)
	}

	d = spawned()
	j, err = d.PrepareGrid(p)
	must(t, err)
	must(t, d.SetSceneName("Written")) // not a world write: the world stays lent
	must(t, d.Rename([]ecs.Entity{d.Roots()[1]}, "Cube 0,0 (1)"))
	must(t, j.Run(context.Background(), nil))
	if j.look.names != nil {
		t.Error("Run read the world the loop thread took back")
	}
	_, cubes, err = d.FinishGrid(j)
	must(t, err)
	if n := first(d, cubes); n != "Cube 0,0 (2)" {
		t.Errorf("beside \"Cube 0,0\" and \"Cube 0,0 (1)\", the first cube is %q", n)
	}
	uniqueRootNames(t, d)
}
