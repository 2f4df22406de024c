package editor

import (
	"strings"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/serialize/merge"
)

func diffChanges() []merge.Change {
	return []merge.Change{
		{Op: merge.Changed, Path: "scene.name", From: `"a"`, To: `"b"`},
		{Op: merge.Changed, Entity: 3, Name: "Scout", Path: "components.Unit.speed", From: "4", To: "7"},
		{Op: merge.Added, Entity: 5, Name: "Tower", Path: ""},
		{Op: merge.Changed, Entity: 3, Name: "Scout", Path: "components.Transform.position", From: "[0,0,0]", To: "[1,0,0]"},
		{Op: merge.Removed, Entity: 9, Path: "components.Spin", From: `{"speed":1}`},
	}
}

// TestDiffWindowGroups: the changes are grouped by entity in the order they come, each header counts its
// changes, and the title counts changes and entities (the scene's own changes in none).
func TestDiffWindowGroups(t *testing.T) {
	w := newDiffWindow(workspace.DiffRequest{Title: "T", Changes: diffChanges()})
	if got, want := w.counts(), "5 changes in 3 entities"; got != want {
		t.Errorf("counts %q, want %q", got, want)
	}
	var got []string
	for _, r := range w.rows {
		got = append(got, r.label)
	}
	want := []string{
		"Scene (1 change)", "changed  scene.name: \"a\" → \"b\"",
		"Scout (id 3) (2 changes)", "changed  Unit.speed: 4 → 7", "changed  Transform.position: [0,0,0] → [1,0,0]",
		"Tower (id 5) (1 change)", "added  (entity): (none) → present",
		"Entity (id 9) (1 change)", "removed  Spin: {\"speed\":1} → (none)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if w.rows[3].entity != 3 || w.rows[4].change != 3 {
		t.Errorf("the rows point at %+v, %+v", w.rows[3], w.rows[4])
	}
}

// TestDiffWindowFilter: the filter keeps the changes whose entity, kind, field or values hold it, in any case,
// with their entities' headers; clearing it shows all again.
func TestDiffWindowFilter(t *testing.T) {
	w := newDiffWindow(workspace.DiffRequest{Title: "T", Changes: diffChanges()})
	for _, c := range []struct {
		filter string
		shown  int
		rows   int
	}{
		{"scout", 2, 3}, {"SPEED", 2, 4}, {"removed", 1, 2}, {"[1,0", 1, 2}, {"id 5", 1, 2}, {"nothing", 0, 0}, {"", 5, 9},
	} {
		w.setFilter(c.filter)
		if w.shown != c.shown || len(w.rows) != c.rows {
			t.Errorf("filter %q: %d changes in %d rows, want %d in %d:\n%s", c.filter, w.shown, len(w.rows), c.shown, c.rows, w.text())
		}
	}
	if w.counts() != "5 changes in 3 entities" {
		t.Errorf("the title counts the filtered changes: %q", w.counts())
	}
}

// TestDiffWindowButtons: no buttons is a Close button; Enter presses the first, Escape the cancel one.
func TestDiffWindowButtons(t *testing.T) {
	w := newDiffWindow(workspace.DiffRequest{Title: "T"})
	if len(w.keys.buttons) != 1 || w.keys.buttons[0] != "Close" {
		t.Fatalf("buttons %v", w.keys.buttons)
	}
	got := -1
	w = newDiffWindow(workspace.DiffRequest{Title: "T", Buttons: []string{"Recover", "Discard", "Open both"}, Cancel: 2,
		OnChoose: func(i int) { got = i }})
	if i := w.keys.keyChoice(only(imgui.KeyEnter), false); i != 0 {
		t.Errorf("Enter presses %d", i)
	}
	if i := w.keys.keyChoice(only(imgui.KeyEscape), false); i != 2 {
		t.Errorf("Escape presses %d", i)
	}
	w.keys.choose(0)
	if got != 0 || !w.done() {
		t.Errorf("chose %d, done %v", got, w.done())
	}
}

// TestElide: a long value is cut to the width with an ellipsis; a short one is whole.
func TestElide(t *testing.T) {
	if s, cut := elide("short", 10); s != "short" || cut {
		t.Errorf("elide short: %q %v", s, cut)
	}
	if s, cut := elide("[1.25,2.5,3.75,4.125]", 10); s != "[1.25,2.5…" || !cut {
		t.Errorf("elide long: %q %v", s, cut)
	}
}

// only is a key state with only k pressed.
func only(k imgui.Key) func(imgui.Key) bool { return func(q imgui.Key) bool { return q == k } }
