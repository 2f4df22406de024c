package scene

import (
	"strconv"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
)

// FreeName returns "base (k)" for the smallest k ≥ 1 that is not in taken, where base is name
// without a " (n)" suffix: the name a new entity gets when a sibling already has name ("Cube"
// becomes "Cube (1)", "Cube (1)" becomes "Cube (2)"), as Unity names copies.
func FreeName(name string, taken map[string]bool) string {
	n, _ := freeName(name, taken)
	return n
}

// freeName is FreeName with its k.
func freeName(name string, taken map[string]bool) (string, int) {
	base := baseName(name)
	for k := 1; ; k++ {
		if n := suffixed(base, k); !taken[n] {
			return n, k
		}
	}
}

// suffixed is "base (k)".
func suffixed(base string, k int) string { return base + " (" + strconv.Itoa(k) + ")" }

// baseName is name without a " (n)" suffix (FreeName's base).
func baseName(name string) string {
	if i := strings.LastIndex(name, " ("); i >= 0 && strings.HasSuffix(name, ")") {
		if _, err := strconv.Atoi(name[i+2 : len(name)-1]); err == nil {
			return name[:i]
		}
	}
	return name
}

// rootNamesAmong returns the names of w's top-level entities that FreeName could ask about for the names wanted:
// those names themselves, and names "base (k)" of their bases (nil when there are none). A spawn beside a million
// roots then keeps a set of its own names, not of the million.
func rootNamesAmong(w *ecs.World, wanted []string) map[string]bool {
	want := make(map[string]bool, len(wanted))
	bases := map[string]bool{}
	for _, n := range wanted {
		want[n] = true
		bases[baseName(n)] = true
	}
	var taken map[string]bool
	ecs.NewQuery1[Name](w, ecs.Read[Name]()).Each(func(e ecs.Entity, n *Name) {
		v := n.Value
		if !want[v] && !(strings.HasSuffix(v, ")") && bases[baseName(v)]) {
			return
		}
		if !w.Parent(e).IsZero() {
			return
		}
		if taken == nil {
			taken = map[string]bool{}
		}
		taken[v] = true
	})
	return taken
}
