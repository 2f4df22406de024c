package doc

import (
	"context"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// historyEdits makes five steps on d: a field edit of A, a delete of Solo, a rename of A and B, a
// 2×3×1 grid, a delete of A (with its child A1): a delete names its top entities.
func historyEdits(t *testing.T, d *Document) {
	t.Helper()
	tr := cid[ecs.Transform](t, d)
	must(t, d.SetField([]ecs.Entity{ent(t, d, 2)}, tr, "position[1]", float32(7)))
	must(t, d.Delete(ent(t, d, 5)))
	must(t, d.Rename([]ecs.Entity{ent(t, d, 2), ent(t, d, 3)}, "Twin"))
	_, _, err := d.SpawnGrid(context.Background(), scene.GridParams{Count: [3]int{2, 3, 1}, Spacing: [3]float32{1, 1, 1}}, nil)
	must(t, err)
	must(t, d.Delete(ent(t, d, 2)))
}

func TestHistoryStepsSayWhatTheyTouched(t *testing.T) {
	d := openSmall(t)
	historyEdits(t, d)
	must(t, d.History().Undo())
	var got []string
	for _, s := range d.History().Steps(nil) {
		got = append(got, s.Label+" "+s.What)
		if s.Bytes <= 0 {
			t.Errorf("%s %s holds %d bytes", s.Label, s.What, s.Bytes)
		}
	}
	want := []string{"Edit Transform A", "Delete Solo", "Rename 2 entities", "Spawn Cube Grid 2×3×1", "Delete Twin"}
	if !slices.Equal(got, want) {
		t.Fatalf("steps %q, want %q", got, want)
	}
	if d.History().Undos() != 4 || d.History().Budget() != DefaultMaxHistoryBytes {
		t.Fatalf("%d undos, budget %d", d.History().Undos(), d.History().Budget())
	}
}

// TestHistoryGoTo: going to step n gives the state of n steps done (as undoing all and redoing n),
// back and forth, with the selection each step left.
func TestHistoryGoTo(t *testing.T) {
	d := openSmall(t)
	historyEdits(t, d)
	states := make([]string, 6) // after 0…5 steps
	states[5] = encode(t, d, true)
	for n := 4; n >= 0; n-- {
		must(t, d.History().Undo())
		states[n] = encode(t, d, true)
	}
	redoAll(t, d)
	for _, n := range []int{1, 5, 0, 3, 3, 4, 2} {
		must(t, d.History().GoTo(n))
		if got := encode(t, d, true); d.History().Undos() != n || got != states[n] {
			t.Fatalf("GoTo(%d): %d undos, state\n%s\nwant\n%s", n, d.History().Undos(), got, states[n])
		}
	}
	if err := d.History().GoTo(6); err == nil {
		t.Fatal("GoTo past the last step: no error")
	}
	d.PlayMode().Start()
	mustErr(t, d.History().GoTo(0), ErrPlaying)
}
