package diag

import "testing"

func TestClosest(t *testing.T) {
	known := []string{"Transform", "Name", "Mesh", "Color", "Spin", "Camera", "Health", "max"}
	for _, c := range []struct{ in, want string }{
		{"Transfrom", "Transform"}, // a swap
		{"transform", "Transform"}, // case
		{"Trnsform", "Transform"},  // a deletion
		{"Transformm", "Transform"},
		{"Tarnsfrom", "Transform"}, // two edits in a long name
		{"Colour", "Color"},
		{"Helth", "Health"},
		{"Sipn", "Spin"}, // a swap in a short name
		{"SPIN", "Spin"},
		{"Skin", ""}, // a different short word
		{"Mash", ""},
		{"Enemy", ""},
		{"Spawner", ""},
		{"Transform", ""}, // itself is not a suggestion
		{"", ""},
	} {
		if got := Closest(c.in, known); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Closest("maxx", known); got != "" {
		t.Errorf("Closest(maxx) = %q: short names only match by case or a swap", got)
	}
	if got := DidYouMean("Transfrom", known); got != ` (did you mean "Transform"?)` {
		t.Errorf("DidYouMean %q", got)
	}
	if got := DidYouMean("maxx", known); got != ` (did you mean "max"?)` {
		t.Errorf("DidYouMean(maxx) %q", got)
	}
	if got := DidYouMean("Enemy", known); got != "" {
		t.Errorf("DidYouMean %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"kitten", "sitting", 3}, {"ab", "ba", 1},
	} {
		if got := editDistance(c.a, c.b, 5); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if got := editDistance("kitten", "sitting", 1); got != 2 {
		t.Errorf("limited distance %d, want limit+1", got)
	}
}
