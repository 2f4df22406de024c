package hierarchy

import (
	"strings"
	"unicode/utf8"

	"github.com/voltex-editor/voltex/ecs"
)

// Source is a scene as Filter reads it: on any goroutine, so nobody may change it meanwhile (the editor gives it a
// copy of the world made to read).
type Source interface {
	Children(e ecs.Entity) []ecs.Entity
	// HasChildren is asked of every result and ancestor in sibling order, far from the order of the entities in
	// memory: it should not read the entity's storage (the editor's answers from a bit per entity).
	HasChildren(e ecs.Entity) bool
	Parent(e ecs.Entity) ecs.Entity
}

// EntitySet is a set of entities as a bit by entity index (generations are not told apart): for sets of many,
// read in any order.
type EntitySet []uint64

// Add puts e in the set.
func (s *EntitySet) Add(e ecs.Entity) {
	x := int(e.Index())
	if x>>6 >= len(*s) {
		*s = append(*s, make([]uint64, x>>6+1-len(*s))...)
	}
	(*s)[x>>6] |= 1 << (x & 63)
}

// Has reports whether e is in the set.
func (s EntitySet) Has(e ecs.Entity) bool {
	x := int(e.Index())
	return x>>6 < len(s) && s[x>>6]&(1<<(x&63)) != 0
}

// stopEvery is how many entities Filter visits between two polls of stop.
const stopEvery = 1 << 14

// Filter returns the rows of a search's results, as Update builds them while searching: the found entities, the
// kept ones and their ancestors, depth first in sibling order from roots, every level open. Their scene ids are
// left zero: the model gives a row its id when it is asked for the row (SetFiltered), so that a million results
// cost no look-up of an id each. It polls stop now and then and returns false as soon as stop says so (a newer
// search has come). The rows are appended to buf[:0] (the rows of an older search, given back by SetFiltered:
// a million rows written over warm memory instead of fresh pages).
func Filter(t Source, roots, found, kept []ecs.Entity, buf []Row, stop func() bool) ([]Row, bool) {
	var marked EntitySet // a result or an ancestor of one
	mark := func(e ecs.Entity) {
		for p := e; !p.IsZero() && !marked.Has(p); p = t.Parent(p) {
			marked.Add(p)
		}
	}
	for i, e := range found {
		if i%stopEvery == 0 && stop() {
			return nil, false
		}
		mark(e)
	}
	for _, e := range kept {
		mark(e)
	}
	rows := buf[:0]
	if need := len(found) + len(kept); cap(rows) < need {
		rows = make([]Row, 0, need) // room for the results at once (a million in a flat scene)
	}
	visited := 0
	var walk func(e ecs.Entity, depth int32) bool
	walk = func(e ecs.Entity, depth int32) bool {
		if !marked.Has(e) {
			return true
		}
		if visited++; visited%stopEvery == 0 && stop() {
			return false
		}
		kids := t.HasChildren(e)
		rows = append(rows, Row{Entity: e, Depth: depth, HasKids: kids})
		if !kids {
			return true
		}
		for _, c := range t.Children(e) {
			if !walk(c, depth+1) {
				return false
			}
		}
		return true
	}
	for i, e := range roots {
		if i%stopEvery == 0 && stop() {
			return nil, false
		}
		if !walk(e, 0) {
			return nil, false
		}
	}
	return rows, true
}

// NameFinder finds the entities whose names hold a text, as Model.Matches does (a case-insensitive part of the
// name): over all names, or within the results of a shorter text the new one extends (typing one more letter
// looks only at what the last letter found).
type NameFinder struct {
	ents  []ecs.Entity
	names []string
	last  string  // the text of found, lowered ("" none)
	found []int32 // what last found: places in ents
}

// NewNameFinder finds among these entities with these names (names[i] is ents[i]'s).
func NewNameFinder(ents []ecs.Entity, names []string) *NameFinder {
	return &NameFinder{ents: ents, names: names}
}

// Find returns the entities whose names hold text (trimmed, any case), in the order given, appended to dst[:0] (the
// results of an older search nothing reads any more, or nil); it polls stop and returns false as soon as stop says
// so.
func (f *NameFinder) Find(text string, dst []ecs.Entity, stop func() bool) ([]ecs.Entity, bool) {
	text = strings.ToLower(strings.TrimSpace(text))
	if text == "" {
		return nil, true
	}
	// The results are written over the last ones (a refinement reads each before it writes it): no new memory
	// per key, where a million names match the first letter. A search stopped midway leaves them spoilt: forgotten.
	refine := f.last != "" && strings.Contains(text, f.last) // the old results hold every new one
	found := f.found[:0]
	if !refine && cap(found) < len(f.names) {
		found = make([]int32, 0, len(f.names))
	}
	f.last = ""
	if refine {
		for k, i := range f.found {
			if k%stopEvery == 0 && stop() {
				return nil, false
			}
			if containsFold(f.names[i], text) {
				found = append(found, i)
			}
		}
	} else {
		for i, n := range f.names {
			if i%stopEvery == 0 && stop() {
				return nil, false
			}
			if containsFold(n, text) {
				found = append(found, int32(i))
			}
		}
	}
	f.last, f.found = text, found
	out := dst[:0]
	if cap(out) < len(found) {
		out = make([]ecs.Entity, 0, len(found))
	}
	for _, i := range found {
		out = append(out, f.ents[i])
	}
	return out, true
}

// containsFold reports whether s holds lower (already lowered) in any case: strings.Contains(strings.ToLower(s),
// lower) without making the lowered copy when s is ASCII.
func containsFold(s, lower string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), lower)
		}
	}
	n := len(lower)
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for ; j < n; j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == n {
			return true
		}
	}
	return false
}
