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
	base := name
	if i := strings.LastIndex(name, " ("); i >= 0 && strings.HasSuffix(name, ")") {
		if _, err := strconv.Atoi(name[i+2 : len(name)-1]); err == nil {
			base = name[:i]
		}
	}
	for k := 1; ; k++ {
		if n := base + " (" + strconv.Itoa(k) + ")"; !taken[n] {
			return n
		}
	}
}

// rootNames returns the names of w's top-level entities (nil when none has one).
func rootNames(w *ecs.World) map[string]bool {
	names := ecs.NewMap[Name](w)
	var taken map[string]bool
	w.EachEntity(func(e ecs.Entity) bool {
		if !w.Parent(e).IsZero() {
			return true
		}
		if n, ok := names.TryGet(e); ok {
			if taken == nil {
				taken = map[string]bool{}
			}
			taken[n.Value] = true
		}
		return true
	})
	return taken
}
