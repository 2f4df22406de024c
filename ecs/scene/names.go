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
	m := namesMatcher(w, wanted)
	ecs.NewQuery1[Name](w, ecs.Read[Name]()).Each(func(e ecs.Entity, n *Name) { m.see(e, n.Value) })
	return m.taken
}

// rootNamesRead is rootNamesAmong as a reader of a lent world (ecs.World.Lend) may find them: without a query.
func rootNamesRead(w *ecs.World, wanted []string) map[string]bool {
	m := namesMatcher(w, wanted)
	names := ecs.NewMap[Name](w)
	w.ReadEntities(func(e ecs.Entity) bool {
		if n, ok := names.TryGet(e); ok {
			m.see(e, n.Value)
		}
		return true
	})
	return m.taken
}

// rootNames collects the names of roots that FreeName could ask about for some wanted names.
type rootNames struct {
	w           *ecs.World
	want, bases map[string]bool
	taken       map[string]bool
}

func namesMatcher(w *ecs.World, wanted []string) *rootNames {
	m := &rootNames{w: w, want: make(map[string]bool, len(wanted)), bases: map[string]bool{}}
	for _, n := range wanted {
		m.want[n] = true
		m.bases[baseName(n)] = true
	}
	return m
}

// see looks at entity e, named v.
func (m *rootNames) see(e ecs.Entity, v string) {
	if !m.want[v] && !(strings.HasSuffix(v, ")") && m.bases[baseName(v)]) {
		return
	}
	if !m.w.Parent(e).IsZero() {
		return
	}
	if m.taken == nil {
		m.taken = map[string]bool{}
	}
	m.taken[v] = true
}
