package editor

import (
	"testing"
)

// paletteLabels returns the labels paletteMatches ranks for query, best first.
func paletteLabels(query string) []string {
	var out []string
	for _, i := range paletteMatches(actions, query) {
		out = append(out, actions[i].label)
	}
	return out
}

func TestPaletteRanksBestMatchFirst(t *testing.T) {
	for _, c := range []struct{ query, first string }{
		{"save", "Save"},
		{"SAVE", "Save"},
		{"save as", "Save As..."},
		{"svas", "Save As..."},
		{"undo", "Undo"},
		{"redo", "Redo"},
		{"sel all", "Select All"},
		{"desel", "Deselect All"},
		{"frame", "Frame selection"},
		{"play", "Play / Stop"},
		{"pause", "Pause / Resume"},
		{"prefab", "Open Prefab"}, // the shortest label with the word
		{"rot", "Rotate gizmo"},
		{"spawn", "Spawn Cube Grid..."},
		{"cc", "Create Cube"}, // word starts beat letters inside words
	} {
		got := paletteLabels(c.query)
		if len(got) == 0 || got[0] != c.first {
			t.Errorf("%q ranks %q first, want %q", c.query, got, c.first)
		}
	}
}

func TestPaletteMatchesSubsequencesOnly(t *testing.T) {
	if got := paletteLabels("zzq"); len(got) != 0 {
		t.Errorf("zzq matches %q", got)
	}
	if _, ok := fuzzyScore("evas", "Save"); ok {
		t.Error("evas matched Save: the letters must come in order")
	}
	all := paletteLabels("")
	if len(all) != len(actions)-1 {
		t.Errorf("an empty query lists %d actions, want every action but the palette (%d)", len(all), len(actions)-1)
	}
	for _, l := range all {
		if l == paletteLabel {
			t.Error("the palette lists itself")
		}
	}
	k := 0
	for i := range actions {
		if actions[i].label == paletteLabel {
			continue
		}
		if all[k] != actions[i].label {
			t.Fatalf("an empty query lists %q at %d, want the table's order (%q)", all[k], k, actions[i].label)
		}
		k++
	}
}

func TestPaletteMoveWraps(t *testing.T) {
	var p palette
	p.move(-1, 5)
	if p.current != 4 {
		t.Errorf("up from the first row: %d, want the last (4)", p.current)
	}
	p.move(1, 5)
	if p.current != 0 {
		t.Errorf("down from the last row: %d, want 0", p.current)
	}
	p.move(1, 0)
	if p.current != 0 {
		t.Errorf("no matches: %d", p.current)
	}
}
