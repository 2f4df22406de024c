package hierarchy

import (
	"cmp"
	"slices"
	"sort"
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
	// Shape changes whenever Roots may return other entities or another order (a spawn, a despawn, a parent or a
	// sibling order changed); the model keeps the roots while it stays the same.
	Shape() [2]uint64
	// Changed calls fn for each entity whose place among the roots may have changed since the shape was since (a
	// value of Shape): spawned, despawned, its parent or its sibling order changed (fn may see one several times);
	// for a despawned one, a handle of its slot that is not alive. It returns false when it cannot tell; the model
	// then asks for Roots.
	Changed(since [2]uint64, fn func(e ecs.Entity, alive bool)) bool
	// CompareSiblings orders two roots as Roots does.
	CompareSiblings(a, b ecs.Entity) int
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
	rows    []Row                 // while searching: every row
	// filtered: the rows of the search were built elsewhere (SetFiltered), and Update keeps them while searching.
	filtered bool
	anchor   uint64 // scene id of the last plain or Ctrl click (Shift-click selects from it)

	// Without a search the rows are virtual: a row per root, built when asked for (Row), and the rows of the
	// expanded roots' subtrees (segs, by root). A flat scene of a million roots costs no row until it is drawn.
	virtual    bool
	tree       Tree
	roots      []ecs.Entity
	rootsShape [2]uint64
	rootsWorld *ecs.World
	rootPos    []int32 // by entity index: 1 + the place in roots; 0 for no root
	segs       []seg
	n          int // number of rows

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
	m.roots = nil
	m.dirty = true
}

// Invalidate makes the next Rows rebuild (the tree changed in a way the version does not tell: a reload).
func (m *Model) Invalidate() { m.dirty, m.roots = true, nil }

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
	m.dirty, m.filtered = true, false
}

// SetFiltered shows rows that Filter built for search (on another goroutine, from a copy of the scene): Update
// keeps them, whatever the scene's version, until the search is cleared or SetMatch is called. Their scene ids
// are the tree's, looked up as each row is asked for (Row). It returns the rows it held until now, which it no
// longer reads: the next Filter may write over them.
func (m *Model) SetFiltered(search string, rows []Row) (old []Row) {
	m.SetSearch(search)
	old = m.rows
	m.rows, m.n, m.virtual, m.filtered, m.dirty = rows, len(rows), false, true, false
	m.builtSearch = search
	return old
}

// Kept returns the scene ids given rows by Keep in the current search.
func (m *Model) Kept() []uint64 {
	out := make([]uint64, 0, len(m.kept))
	for id := range m.kept {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
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

// seg is the rows of an expanded root's subtree (below the root's own row).
type seg struct {
	root  int // place of the root in roots
	start int // row of the root
	sub   []Row
}

// Update brings the rows up to date with t when the scene (version, world), the search or the expansion changed
// since the last call, and returns how many there are. Without a search it builds only the rows of expanded
// subtrees (the roots' rows are built by Row) and asks t for the roots only when their shape changed.
func (m *Model) Update(t Tree, version uint64, world *ecs.World) int {
	if m.filtered && m.Searching() {
		m.tree = t
		return m.n
	}
	m.filtered = false
	if m.dirty || version != m.builtVersion || world != m.builtWorld || m.search != m.builtSearch {
		m.rebuild(t, world)
		m.builtVersion, m.builtWorld, m.builtSearch, m.dirty = version, world, m.search, false
	}
	return m.n
}

// Len returns the number of rows as of the last Update.
func (m *Model) Len() int { return m.n }

// Row returns row i (0 <= i < Len) as of the last Update.
func (m *Model) Row(i int) Row {
	if m.filtered && m.tree != nil {
		r := m.rows[i]
		r.ID = m.tree.ID(r.Entity)
		return r
	}
	if !m.virtual {
		return m.rows[i]
	}
	k := sort.Search(len(m.segs), func(k int) bool { return m.segs[k].start > i }) - 1
	if k < 0 {
		return m.rootRow(i)
	}
	s := &m.segs[k]
	switch d := i - s.start; {
	case d == 0:
		return m.rootRow(s.root)
	case d <= len(s.sub):
		return s.sub[d-1]
	default:
		return m.rootRow(s.root + d - len(s.sub))
	}
}

// rootRow returns the row of the root at place ri.
func (m *Model) rootRow(ri int) Row {
	e := m.roots[ri]
	return Row{Entity: e, ID: m.tree.ID(e), HasKids: m.tree.ChildCount(e) > 0}
}

// rebuild brings the rows up to date: virtual ones without a search, every row (buildAll) with one.
func (m *Model) rebuild(t Tree, world *ecs.World) {
	m.tree = t
	if strings.TrimSpace(m.search) != "" {
		m.virtual = false
		m.rows = m.buildAll(t, m.rows[:0])
		m.n = len(m.rows)
		return
	}
	m.virtual = true
	if shape := t.Shape(); m.roots == nil || world != m.rootsWorld || shape != m.rootsShape && !m.followRoots(t, shape) {
		m.roots, m.rootsShape, m.rootsWorld = t.Roots(), shape, world
		clear(m.rootPos)
		m.placeRoots(0)
	}
	m.segs = m.segs[:0]
	for id := range m.expanded {
		e, ok := t.Entity(id)
		ri := m.rootIndex(e)
		if !ok || ri < 0 || t.ChildCount(e) == 0 {
			continue
		}
		var sub []Row
		for _, c := range t.Children(e) {
			sub = m.appendSubtree(t, sub, c, 1, "")
		}
		m.segs = append(m.segs, seg{root: ri, sub: sub})
	}
	slices.SortFunc(m.segs, func(a, b seg) int { return cmp.Compare(a.root, b.root) })
	extra := 0
	for k := range m.segs {
		m.segs[k].start = m.segs[k].root + extra
		extra += len(m.segs[k].sub)
	}
	m.n = len(m.roots) + extra
}

// room is how long rootPos (by entity index) and the roots grow to at once when need is more than they hold: the
// world's room for entities (ecs.World.IndexCap), so that they grow when its records do and not at each spawn.
func (m *Model) room(need int) int {
	if m.rootsWorld == nil {
		return need + need/2
	}
	return max(need, m.rootsWorld.IndexCap())
}

// placeRoots records the places of the roots from place from on in rootPos.
func (m *Model) placeRoots(from int) {
	for i, e := range m.roots[from:] {
		if x := int(e.Index()); x >= len(m.rootPos) {
			m.rootPos = append(m.rootPos, make([]int32, m.room(x+1)-len(m.rootPos))...)
		}
		m.rootPos[e.Index()] = int32(from + i + 1)
	}
}

// followRoots brings the roots up to the shape by the entities that changed since the roots were taken (Changed),
// at a cost of those changes, and reports whether it could: a root added after the others (a spawn) is appended,
// others are merged in their places, and removed roots are dropped in one pass over the roots. With more changes
// than a quarter of the roots it gives up: taking the roots whole is as quick then.
func (m *Model) followRoots(t Tree, shape [2]uint64) bool {
	var touched []ecs.Entity
	var alive []bool
	limit := max(1024, len(m.roots)/4)
	over := false
	if !t.Changed(m.rootsShape, func(e ecs.Entity, live bool) {
		if over = over || len(touched) >= limit; !over {
			touched, alive = append(touched, e), append(alive, live)
		}
	}) || over {
		return false
	}
	removed := false
	for _, e := range touched { // drop the roots of the slots that changed; those still roots come back below
		if x := int(e.Index()); x < len(m.rootPos) && m.rootPos[x] > 0 {
			m.roots[m.rootPos[x]-1] = ecs.Entity{}
			m.rootPos[x], removed = 0, true
		}
	}
	var added []ecs.Entity
	for i, e := range touched {
		x := int(e.Index())
		if (x >= len(m.rootPos) || m.rootPos[x] == 0) && alive[i] && t.Parent(e).IsZero() {
			if x >= len(m.rootPos) {
				m.rootPos = append(m.rootPos, make([]int32, m.room(x+1)-len(m.rootPos))...)
			}
			m.rootPos[x] = -1 // taken (a touched entity is seen once)
			added = append(added, e)
		}
	}
	from := len(m.roots)
	if removed {
		m.roots = slices.DeleteFunc(m.roots, ecs.Entity.IsZero)
		from = 0
	}
	slices.SortFunc(added, t.CompareSiblings)
	// Each added root goes after the kept roots that sort before it (a binary search: few comparisons).
	kept := m.roots
	out := kept
	if len(added) > 0 && len(kept) > 0 && t.CompareSiblings(added[0], kept[len(kept)-1]) < 0 {
		out = make([]ecs.Entity, 0, len(kept)+len(added))
		k := 0
		linear := len(added) > len(kept)/32 // many: one pass over the kept roots beats a search for each
		for i, a := range added {
			at := k
			if linear {
				for at < len(kept) && t.CompareSiblings(kept[at], a) <= 0 {
					at++
				}
			} else {
				at += sort.Search(len(kept)-k, func(i int) bool { return t.CompareSiblings(kept[k+i], a) > 0 })
			}
			if i == 0 {
				from = min(from, at) // the places before the first one added stay
			}
			out = append(append(out, kept[k:at]...), a)
			k = at
		}
		out = append(out, kept[k:]...)
	} else {
		if n := len(out) + len(added); n > cap(out) {
			out = slices.Grow(out, m.room(n)-len(out))
		}
		out = append(out, added...)
	}
	m.roots, m.rootsShape = out, shape
	m.placeRoots(from)
	return true
}

// rootIndex returns the place of e among the roots, -1 if it is none.
func (m *Model) rootIndex(e ecs.Entity) int {
	if x := int(e.Index()); x < len(m.rootPos) && m.rootPos[x] > 0 && m.roots[m.rootPos[x]-1] == e {
		return int(m.rootPos[x] - 1)
	}
	return -1
}

// appendSubtree appends the rows of e's subtree at depth: depth first in sibling order, children only under
// expanded entities (all of them while searching), and while searching only the entities in matches.
func (m *Model) appendSubtree(t Tree, rows []Row, e ecs.Entity, depth int32, search string) []Row {
	if search != "" && !m.matches[e] {
		return rows
	}
	id := t.ID(e)
	n := t.ChildCount(e)
	rows = append(rows, Row{Entity: e, ID: id, Depth: depth, HasKids: n > 0})
	if n == 0 || (search == "" && !m.expanded[id]) {
		return rows
	}
	for _, c := range t.Children(e) {
		rows = m.appendSubtree(t, rows, c, depth+1, search)
	}
	return rows
}

// buildAll appends every row to rows: the tree flattened depth first in sibling order, children only under
// expanded entities (all of them while searching), and while searching only the matches, the kept entities and
// their ancestors.
func (m *Model) buildAll(t Tree, rows []Row) []Row {
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
	roots := t.Roots()
	rows = slices.Grow(rows, len(roots)) // a flat scene of a million roots: its rows grow once
	for _, e := range roots {
		rows = m.appendSubtree(t, rows, e, 0, search)
	}
	return rows
}

// Index returns the row of the entity with scene id id in the rows last built, -1 if it has none.
func (m *Model) Index(id uint64) int {
	if m.filtered && m.tree != nil {
		e, ok := m.tree.Entity(id)
		if !ok {
			return -1
		}
		for i, r := range m.rows {
			if r.Entity == e {
				return i
			}
		}
		return -1
	}
	if !m.virtual {
		for i, r := range m.rows {
			if r.ID == id {
				return i
			}
		}
		return -1
	}
	e, ok := m.tree.Entity(id)
	if !ok {
		return -1
	}
	root := e
	for p := m.tree.Parent(root); !p.IsZero(); p = m.tree.Parent(p) {
		root = p
	}
	ri := m.rootIndex(root)
	if ri < 0 {
		return -1
	}
	k := sort.Search(len(m.segs), func(k int) bool { return m.segs[k].root >= ri })
	start := ri
	if k > 0 {
		start = m.segs[k-1].start + len(m.segs[k-1].sub) + ri - m.segs[k-1].root
	}
	if e == root {
		return start
	}
	if k < len(m.segs) && m.segs[k].root == ri {
		for j, r := range m.segs[k].sub {
			if r.ID == id {
				return start + 1 + j
			}
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
	r := m.Row(i)
	switch {
	case shift && m.anchor != 0:
		from := m.Index(m.anchor)
		if from < 0 {
			m.anchor = r.ID
			return []ecs.Entity{r.Entity}, Replace
		}
		lo, hi := min(from, i), max(from, i)
		es := make([]ecs.Entity, 0, hi-lo+1)
		for j := lo; j <= hi; j++ {
			es = append(es, m.Row(j).Entity)
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
