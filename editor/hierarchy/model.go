package hierarchy

import (
	"slices"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
)

// Tree is the scene as the model reads it (package editor adapts the document).
type Tree interface {
	// Roots returns the entities without a parent, in sibling order.
	Roots() []ecs.Entity
	// Children returns e's children in sibling order; ChildCount how many there are (asked of every row, so it
	// must be cheap: a collapsed entity with a million children costs nothing until it is expanded).
	Children(e ecs.Entity) []ecs.Entity
	ChildCount(e ecs.Entity) int
	// Parent returns e's parent (zero for a root).
	Parent(e ecs.Entity) ecs.Entity
	// ID returns e's scene id, Entity the entity of a scene id.
	ID(e ecs.Entity) uint64
	Entity(id uint64) (ecs.Entity, bool)
	// Name returns e's name.
	Name(e ecs.Entity) string
	// IDs returns every entity's scene id.
	IDs() []uint64
}

// Row is one row of the list: an entity at a depth.
type Row struct {
	Entity  ecs.Entity
	ID      uint64
	Depth   int32
	HasKids bool
}

// Model is the Hierarchy panel's state: the search, the expanded entities (by scene id, so they survive undo and
// reload), the rows built for a version of the scene, and the selection anchor.
type Model struct {
	search   string
	expanded map[uint64]bool // by scene id
	// kept: scene ids renamed while searching. They keep their rows until the search changes, although their new
	// names may not match (a row that vanishes as you rename it looks like a deletion).
	kept    map[uint64]bool
	matches map[ecs.Entity]bool   // search: entities that match or have a matching descendant
	match   func(ecs.Entity) bool // a query's matches (SetMatch); nil: the search is a name
	rows    []Row
	anchor  uint64 // scene id of the last plain or Ctrl click (Shift-click selects from it)

	builtVersion uint64
	builtSearch  string
	builtWorld   *ecs.World
	dirty        bool
}

// New returns a model with nothing expanded and no search.
func New() *Model {
	return &Model{expanded: map[uint64]bool{}, kept: map[uint64]bool{}, matches: map[ecs.Entity]bool{}, dirty: true}
}

// Reset forgets what belongs to a scene (another document was opened): expansion, kept rows, the anchor.
func (m *Model) Reset() {
	clear(m.expanded)
	clear(m.kept)
	m.anchor = 0
	m.dirty = true
}

// Invalidate makes the next Rows rebuild (the tree changed in a way the version does not tell: a reload).
func (m *Model) Invalidate() { m.dirty = true }

// SetSearch sets the search text as typed. A new search forgets the rows kept for the old one.
func (m *Model) SetSearch(s string) {
	if s != m.search {
		clear(m.kept)
		m.search = s
	}
}

// SetMatch makes the search a query's: match tells the entities it matched (nil: the search text is a part of
// names). The rows are rebuilt on the next Rows.
func (m *Model) SetMatch(match func(ecs.Entity) bool) {
	m.match = match
	m.dirty = true
}

// Search returns the search text as typed.
func (m *Model) Search() string { return m.search }

// Searching reports whether a search filters the rows (every level of the results is open then).
func (m *Model) Searching() bool { return strings.TrimSpace(m.search) != "" }

// Expanded reports whether the entity with scene id id shows its children.
func (m *Model) Expanded(id uint64) bool { return m.expanded[id] }

// SetExpanded opens or closes the entity with scene id id.
func (m *Model) SetExpanded(id uint64, open bool) {
	if m.expanded[id] != open {
		if open {
			m.expanded[id] = true
		} else {
			delete(m.expanded, id)
		}
		m.dirty = true
	}
}

// Reveal expands e's ancestors so that it has a row.
func (m *Model) Reveal(t Tree, e ecs.Entity) {
	for p := t.Parent(e); !p.IsZero(); p = t.Parent(p) {
		m.SetExpanded(t.ID(p), true)
	}
}

// Keep gives the entities with these scene ids rows in the current search results until the search changes (they
// are being renamed). Without a search it does nothing.
func (m *Model) Keep(ids ...uint64) {
	if !m.Searching() {
		return
	}
	for _, id := range ids {
		m.kept[id] = true
	}
	m.dirty = true
}

// Matches reports whether e, named name, is a result of the search: the query's match when the search is a
// query (SetMatch), else a case-insensitive part of its name; every entity while there is no search.
func (m *Model) Matches(e ecs.Entity, name string) bool {
	search := strings.ToLower(strings.TrimSpace(m.search))
	switch {
	case search == "":
		return true
	case m.match != nil:
		return m.match(e)
	}
	return strings.Contains(strings.ToLower(name), search)
}

// Rows returns the rows of t, rebuilt when the scene (version, world), the search or the expansion changed since
// the last call. The slice is reused by the next rebuild.
func (m *Model) Rows(t Tree, version uint64, world *ecs.World) []Row {
	if m.dirty || version != m.builtVersion || world != m.builtWorld || m.search != m.builtSearch {
		m.rebuild(t)
		m.builtVersion, m.builtWorld, m.builtSearch, m.dirty = version, world, m.search, false
	}
	return m.rows
}

// rebuild flattens the tree into rows: depth first in sibling order, children only under expanded entities (all
// of them while searching), and while searching only the matches, the kept entities and their ancestors.
func (m *Model) rebuild(t Tree) {
	m.rows = m.rows[:0]
	search := strings.ToLower(strings.TrimSpace(m.search))
	clear(m.matches)
	if search != "" {
		mark := func(e ecs.Entity) {
			for p := e; !p.IsZero() && !m.matches[p]; p = t.Parent(p) {
				m.matches[p] = true
			}
		}
		for _, id := range t.IDs() {
			if e, ok := t.Entity(id); ok && m.Matches(e, t.Name(e)) {
				mark(e)
			}
		}
		for id := range m.kept {
			if e, ok := t.Entity(id); ok {
				mark(e)
			}
		}
	}
	var visit func(e ecs.Entity, depth int32)
	visit = func(e ecs.Entity, depth int32) {
		if search != "" && !m.matches[e] {
			return
		}
		id := t.ID(e)
		n := t.ChildCount(e)
		m.rows = append(m.rows, Row{Entity: e, ID: id, Depth: depth, HasKids: n > 0})
		if n == 0 || (search == "" && !m.expanded[id]) {
			return
		}
		for _, c := range t.Children(e) {
			visit(c, depth+1)
		}
	}
	roots := t.Roots()
	m.rows = slices.Grow(m.rows, len(roots)) // a flat scene of a million roots: its rows grow once
	for _, e := range roots {
		visit(e, 0)
	}
}

// Index returns the row of the entity with scene id id in the rows last built, -1 if it has none.
func (m *Model) Index(id uint64) int {
	for i, r := range m.rows {
		if r.ID == id {
			return i
		}
	}
	return -1
}

// How says what a click does to the selection.
type How uint8

// What a click does.
const (
	Replace How = iota // select only these
	Add                // add these to the selection
	Toggle             // toggle this one
)

// Click returns what a click on row i (of the rows last built) selects: a plain click that row only, Ctrl toggles
// it, Shift selects the rows from the anchor (the last plain or Ctrl click) to it — adding them with Ctrl too. A
// Shift-click whose anchor has no row selects the row and makes it the anchor.
func (m *Model) Click(i int, shift, ctrl bool) ([]ecs.Entity, How) {
	r := m.rows[i]
	switch {
	case shift && m.anchor != 0:
		from := m.Index(m.anchor)
		if from < 0 {
			m.anchor = r.ID
			return []ecs.Entity{r.Entity}, Replace
		}
		lo, hi := min(from, i), max(from, i)
		es := make([]ecs.Entity, 0, hi-lo+1)
		for _, rr := range m.rows[lo : hi+1] {
			es = append(es, rr.Entity)
		}
		if ctrl {
			return es, Add
		}
		return es, Replace
	case ctrl:
		m.anchor = r.ID
		return []ecs.Entity{r.Entity}, Toggle
	}
	m.anchor = r.ID
	return []ecs.Entity{r.Entity}, Replace
}

// Zone is where a drop lands relative to the row under the mouse.
type Zone uint8

// Drop zones.
const (
	Onto  Zone = iota // the row's entity becomes the parent
	Above             // before the row's entity among its siblings
	Below             // after it
)

// ZoneAt says where a drop at height y lands on a row spanning top..bottom: its upper quarter is above it, its
// lower quarter below it, the rest onto it.
func ZoneAt(top, bottom, y float32) Zone {
	q := (bottom - top) / 4
	switch {
	case y < top+q:
		return Above
	case y >= bottom-q:
		return Below
	}
	return Onto
}
