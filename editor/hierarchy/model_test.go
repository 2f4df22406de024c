package hierarchy

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// forest is a Tree over an ecs world: scene ids are entity indexes, roots in spawn order.
type forest struct {
	w        *ecs.World
	names    map[ecs.Entity]string
	all      []ecs.Entity
	children int // Children calls
	counts   int // ChildCount calls: one a row built
	roots    int // Roots calls
	order    uint64
}

func newForest() *forest { return &forest{w: ecs.NewWorld(), names: map[ecs.Entity]string{}} }

func (f *forest) add(name string, parent ecs.Entity) ecs.Entity {
	e := f.w.Spawn()
	if !parent.IsZero() {
		if err := f.w.SetParent(e, parent); err != nil {
			panic(err)
		}
	}
	f.names[e] = name
	f.all = append(f.all, e)
	return e
}

func (f *forest) Roots() []ecs.Entity {
	f.roots++
	var r []ecs.Entity
	for _, e := range f.all {
		if f.w.Parent(e).IsZero() {
			r = append(r, e)
		}
	}
	return r
}
func (f *forest) Children(e ecs.Entity) []ecs.Entity { f.children++; return f.w.Children(e) }
func (f *forest) ChildCount(e ecs.Entity) int        { f.counts++; return f.w.ChildCount(e) }
func (f *forest) HasChildren(e ecs.Entity) bool      { return f.w.ChildCount(e) > 0 }
func (f *forest) Shape() [2]uint64                   { return [2]uint64{f.w.ShapeVersion(), f.order} }

// Changed follows the world's changes of shape; a change of the roots' order it cannot tell.
func (f *forest) Changed(since [2]uint64, fn func(ecs.Entity, bool)) bool {
	return since[1] == f.order && f.w.ShapeChanges(since[0], func(e ecs.Entity) { fn(e, f.w.Alive(e)) })
}

// CompareSiblings orders roots by their place in all.
func (f *forest) CompareSiblings(a, b ecs.Entity) int {
	return cmp.Compare(slices.Index(f.all, a), slices.Index(f.all, b))
}

// rowsOf updates m and returns all its rows.
func rowsOf(m *Model, t Tree, version uint64) []Row {
	n := m.Update(t, version, nil)
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = m.Row(i)
	}
	return rows
}
func (f *forest) Parent(e ecs.Entity) ecs.Entity { return f.w.Parent(e) }
func (f *forest) ID(e ecs.Entity) uint64         { return uint64(e.Index()) }
func (f *forest) Name(e ecs.Entity) string       { return f.names[e] }
func (f *forest) Entity(id uint64) (ecs.Entity, bool) {
	for _, e := range f.all {
		if uint64(e.Index()) == id {
			return e, true
		}
	}
	return ecs.Entity{}, false
}
func (f *forest) IDs() []uint64 {
	var ids []uint64
	for _, e := range f.all {
		ids = append(ids, uint64(e.Index()))
	}
	return ids
}

// expected computes the rows another way: the whole tree in depth-first order, then filtered — without a search a
// row shows when all its ancestors are expanded; with one when it or a descendant matches or is kept.
func expected(f *forest, expanded, kept map[uint64]bool, search string) []Row {
	type item struct {
		row  Row
		anc  []ecs.Entity
		self ecs.Entity
	}
	var all []item
	var walk func(e ecs.Entity, anc []ecs.Entity)
	walk = func(e ecs.Entity, anc []ecs.Entity) {
		kids := f.Children(e)
		all = append(all, item{Row{e, f.ID(e), int32(len(anc)), len(kids) > 0}, anc, e})
		for _, c := range kids {
			walk(c, append(slices.Clip(anc), e))
		}
	}
	for _, r := range f.Roots() {
		walk(r, nil)
	}
	search = strings.ToLower(strings.TrimSpace(search))
	hit := map[ecs.Entity]bool{}
	for _, it := range all {
		if search != "" && (strings.Contains(strings.ToLower(f.Name(it.self)), search) || kept[f.ID(it.self)]) {
			hit[it.self] = true
			for _, a := range it.anc {
				hit[a] = true
			}
		}
	}
	var rows []Row
	for _, it := range all {
		show := true
		if search != "" {
			show = hit[it.self]
		} else {
			for _, a := range it.anc {
				show = show && expanded[f.ID(a)]
			}
		}
		if show {
			rows = append(rows, it.row)
		}
	}
	return rows
}

// randomForest is a forest of n entities with random parents, named by format from two random letters and the
// entity's number.
func randomForest(r *rand.Rand, n int, format string) *forest {
	f := newForest()
	for i := range n {
		var parent ecs.Entity
		if i > 0 && r.IntN(4) != 0 {
			parent = f.all[r.IntN(len(f.all))]
		}
		f.add(fmt.Sprintf(format, 'a'+r.IntN(4), 'A'+r.IntN(3), i), parent)
	}
	return f
}

// TestRowsMatchTheFilteredTree: on random forests, random expansion, searches and kept rows, the flattened rows
// are the whole tree's depth-first list filtered (collapsed subtrees hidden; a search keeps matches, kept rows and
// their ancestors, every level open).
func TestRowsMatchTheFilteredTree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		f := randomForest(r, 1+r.IntN(60), "%c%c %d")
		m := New()
		expanded, kept := map[uint64]bool{}, map[uint64]bool{}
		for _, e := range f.all {
			if r.IntN(2) == 0 {
				m.SetExpanded(f.ID(e), true)
				expanded[f.ID(e)] = true
			}
		}
		search := [...]string{"", "", " ", "a", "Ab", "c", "zz", "1"}[r.IntN(8)]
		m.SetSearch(search)
		if m.Searching() {
			for _, e := range f.all {
				if r.IntN(10) == 0 {
					m.Keep(f.ID(e))
					kept[f.ID(e)] = true
				}
			}
		}
		got := rowsOf(m, f, uint64(round))
		if want := expected(f, expanded, kept, search); !slices.Equal(got, want) {
			t.Fatalf("round %d, search %q:\ngot  %v\nwant %v", round, search, got, want)
		}
	}
}

func TestRowsRebuildOnlyWhenStale(t *testing.T) {
	f := newForest()
	a := f.add("A", ecs.Entity{})
	b := f.add("B", a)
	m := New()
	if rows := rowsOf(m, f, 1); len(rows) != 1 || !rows[0].HasKids {
		t.Fatalf("collapsed: %v", rows)
	}
	f.add("C", ecs.Entity{}) // the same version: the rows are not rebuilt
	if rows := rowsOf(m, f, 1); len(rows) != 1 {
		t.Fatalf("rebuilt without a new version: %v", rows)
	}
	if rows := rowsOf(m, f, 2); len(rows) != 2 {
		t.Fatalf("a new version: %v", rows)
	}
	m.Reveal(f, b)
	if rows := rowsOf(m, f, 2); len(rows) != 3 || rows[1].Entity != b || rows[1].Depth != 1 || !m.Expanded(f.ID(a)) {
		t.Fatalf("after Reveal(B): %v", rows)
	}
	m.SetExpanded(f.ID(a), false)
	if rows := rowsOf(m, f, 2); len(rows) != 2 {
		t.Fatalf("collapsed again: %v", rows)
	}
	m.Reset()
	m.Reveal(f, b)
	m.Invalidate()
	if rows := rowsOf(m, f, 2); len(rows) != 3 || m.Index(f.ID(b)) != 1 || m.Index(999) != -1 {
		t.Fatalf("after Reset and Reveal: %v", rows)
	}
}

// A row renamed during a search stays until the search changes; without a search Keep does nothing.
func TestKeptRowsLastUntilTheSearchChanges(t *testing.T) {
	f := newForest()
	g := f.add("Group", ecs.Entity{})
	c := f.add("Cube", g)
	m := New()
	m.Keep(f.ID(c))
	m.SetSearch("cube")
	if rows := rowsOf(m, f, 1); len(rows) != 2 {
		t.Fatalf("search: %v", rows)
	}
	m.Keep(f.ID(c))
	f.names[c] = "Box"
	if rows := rowsOf(m, f, 2); len(rows) != 2 || rows[1].Entity != c {
		t.Fatalf("renamed while searching: the row must stay: %v", rows)
	}
	m.SetSearch("cub")
	if rows := rowsOf(m, f, 2); len(rows) != 0 {
		t.Fatalf("a new search shows what matches it: %v", rows)
	}
}

// Click: plain selects one, Ctrl toggles, Shift selects the range from the anchor (Ctrl+Shift adds it).
func TestClickAndRangeSelection(t *testing.T) {
	f := newForest()
	var es []ecs.Entity
	for i := range 6 {
		es = append(es, f.add(fmt.Sprint(i), ecs.Entity{}))
	}
	m := New()
	rowsOf(m, f, 1)
	check := func(what string, got []ecs.Entity, how How, want []ecs.Entity, wantHow How) {
		t.Helper()
		if !slices.Equal(got, want) || how != wantHow {
			t.Errorf("%s: %v %v, want %v %v", what, got, how, want, wantHow)
		}
	}
	got, how := m.Click(1, true, false) // Shift without an anchor: that row, which becomes the anchor
	check("shift, no anchor", got, how, es[1:2], Replace)
	got, how = m.Click(4, true, false)
	check("shift range down", got, how, es[1:5], Replace)
	got, how = m.Click(0, true, true)
	check("ctrl+shift range up", got, how, es[0:2], Add)
	got, how = m.Click(3, false, true)
	check("ctrl", got, how, es[3:4], Toggle)
	got, how = m.Click(5, true, false)
	check("shift from the ctrl-clicked row", got, how, es[3:6], Replace)
	got, how = m.Click(2, false, false)
	check("plain", got, how, es[2:3], Replace)
	// The anchor's row gone (collapsed, filtered): Shift-click selects the row and anchors there.
	m.SetSearch("5")
	rowsOf(m, f, 1)
	got, how = m.Click(0, true, false)
	check("shift, anchor not shown", got, how, es[5:6], Replace)
}

func TestZoneAt(t *testing.T) {
	for _, c := range []struct {
		y    float32
		want Zone
	}{{10, Above}, {14.9, Above}, {15, Onto}, {24.9, Onto}, {25, Below}, {29, Below}} {
		if got := ZoneAt(10, 30, c.y); got != c.want {
			t.Errorf("ZoneAt(10, 30, %v) = %v, want %v", c.y, got, c.want)
		}
	}
}

// A collapsed row's children are counted, not listed: a group of a million cubes costs its row nothing until it
// is expanded (the open of a 1M grid spent 0.6 s listing them on every rebuild).
func TestCollapsedChildrenAreNotListed(t *testing.T) {
	f := newForest()
	g := f.add("group", ecs.Entity{})
	for range 1000 {
		f.add("cube", g)
	}
	m := New()
	if rows := rowsOf(m, f, 1); len(rows) != 1 || !rows[0].HasKids || f.children != 0 {
		t.Fatalf("collapsed: %d rows (has kids %v), Children called %d times", len(rows), len(rows) > 0 && rows[0].HasKids, f.children)
	}
	m.SetExpanded(f.ID(g), true)
	if rows := rowsOf(m, f, 2); len(rows) != 1001 || f.children != 1 {
		t.Fatalf("expanded: %d rows, Children called %d times", len(rows), f.children)
	}
}

// A query's matches filter the rows as a name search does: each match with its ancestors, whatever the names.
func TestQueryMatchesFilterTheRows(t *testing.T) {
	f := newForest()
	g := f.add("Group", ecs.Entity{})
	a := f.add("A", g)
	f.add("B", g)
	f.add("Other", ecs.Entity{})
	m := New()
	m.SetSearch("Spin")
	m.SetMatch(func(e ecs.Entity) bool { return e == a })
	rows := rowsOf(m, f, 1)
	if len(rows) != 2 || rows[0].Entity != g || rows[1].Entity != a || rows[1].Depth != 1 {
		t.Fatalf("rows %+v, want Group and A under it", rows)
	}
	m.SetMatch(nil) // the text as a name: nothing is named "Spin"
	if rows := rowsOf(m, f, 1); len(rows) != 0 {
		t.Fatalf("a name search after the query: %+v", rows)
	}
}

// flatForest returns a forest of n roots.
func flatForest(n int) *forest {
	f := newForest()
	for i := range n {
		f.add(fmt.Sprintf("cube %d", i), ecs.Entity{})
	}
	return f
}

// drawRows asks for rows from..to as a list clipper does for the rows on screen.
func drawRows(m *Model, from, to int) {
	for i := from; i < min(to, m.Len()); i++ {
		m.Row(i)
	}
}

// A change to a flat scene of 100,000 roots builds the rows on screen, not a row per root: a rename builds them
// without asking for the roots again, an added root asks for the roots once.
func TestFlatChangeBuildsVisibleRows(t *testing.T) {
	const n, visible = 100_000, 40
	f := flatForest(n)
	m := New()
	m.Update(f, 1, f.w)
	drawRows(m, 0, visible)

	f.counts, f.roots = 0, 0
	f.names[f.all[7]] = "renamed"
	m.Update(f, 2, f.w)
	drawRows(m, 0, visible)
	if f.counts > 2*visible || f.roots != 0 {
		t.Fatalf("rename: %d rows built, roots asked %d times; want <= %d rows and no roots", f.counts, f.roots, 2*visible)
	}

	f.counts, f.roots = 0, 0
	e := f.add("new", ecs.Entity{})
	if got := m.Update(f, 3, f.w); got != n+1 {
		t.Fatalf("add: %d rows, want %d", got, n+1)
	}
	drawRows(m, n+1-visible, n+1)
	if f.counts > 2*visible || f.roots != 0 {
		t.Fatalf("add: %d rows built, roots asked %d times; want <= %d rows and no roots (the added one followed)", f.counts, f.roots, 2*visible)
	}
	if r := m.Row(n); r.Entity != e || m.Index(f.ID(e)) != n {
		t.Fatalf("add: last row %v (index %d), want the new entity", r, m.Index(f.ID(e)))
	}
}

// TestRowsFollowRandomEdits: one model kept across random edits (spawns, despawns, reparents, root reorders,
// renames, expansion) gives the same rows, in the same order, and the same Index as a full build of the tree.
func TestRowsFollowRandomEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 60 {
		f := newForest()
		for i := range 1 + r.IntN(30) {
			var parent ecs.Entity
			if i > 0 && r.IntN(3) == 0 {
				parent = f.all[r.IntN(len(f.all))]
			}
			f.add(fmt.Sprint(i), parent)
		}
		m := New()
		for step := range 80 {
			if len(f.all) == 0 {
				f.add("fresh", ecs.Entity{})
			}
			e := f.all[r.IntN(len(f.all))]
			switch r.IntN(7) {
			case 0: // spawn a root or a child
				var parent ecs.Entity
				if r.IntN(2) == 0 {
					parent = e
				}
				f.add(fmt.Sprint("s", step), parent)
			case 1: // despawn: its children become roots
				f.w.Despawn(e)
				f.all = slices.DeleteFunc(f.all, func(x ecs.Entity) bool { return x == e })
			case 2: // reparent (a cycle is refused) or make a root
				var parent ecs.Entity
				if r.IntN(3) != 0 {
					parent = f.all[r.IntN(len(f.all))]
				}
				_ = f.w.SetParent(e, parent)
			case 3: // move to the end of the sibling order of the roots
				f.all = append(slices.DeleteFunc(f.all, func(x ecs.Entity) bool { return x == e }), e)
				f.order++
			case 4:
				f.names[e] = fmt.Sprint("r", step)
			default:
				m.SetExpanded(f.ID(e), !m.Expanded(f.ID(e)))
			}
			got := rowsOf(m, f, uint64(step+1))
			full := New()
			for id := range m.expanded {
				full.SetExpanded(id, true)
			}
			want := full.buildAll(f, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d step %d:\ngot  %v\nwant %v", round, step, got, want)
			}
			for _, x := range f.all {
				wantAt := slices.IndexFunc(want, func(row Row) bool { return row.Entity == x })
				if at := m.Index(f.ID(x)); at != wantAt {
					t.Fatalf("round %d step %d: Index(%d) = %d, want %d", round, step, f.ID(x), at, wantAt)
				}
			}
		}
	}
}

// The roots' places by entity index, and the roots once they grow, take the world's room for entities at once
// (ecs.World.IndexCap): roots added within it grow neither, and the rows stay right.
func TestRootsFollowWorldRoom(t *testing.T) {
	f := newForest()
	for i := range 50 {
		f.add(fmt.Sprint("a", i), ecs.Entity{})
	}
	f.w.ReserveLike(f.all[0], 300)
	room := f.w.IndexCap()
	m := New()
	m.Update(f, 1, f.w)
	if len(m.rootPos) < room {
		t.Fatalf("root places for %d entities in a world with room for %d", len(m.rootPos), room)
	}
	rootPos := &m.rootPos[0]
	for i := range 100 {
		f.add(fmt.Sprint("b", i), ecs.Entity{})
	}
	if n := m.Update(f, 2, f.w); n != 150 || cap(m.roots) < room {
		t.Fatalf("%d rows after adding 100 roots to 50, roots' room %d; want 150, %d", n, cap(m.roots), room)
	}
	roots := &m.roots[0]
	for i := range 100 {
		f.add(fmt.Sprint("c", i), ecs.Entity{})
	}
	if n := m.Update(f, 3, f.w); n != 250 {
		t.Fatalf("%d rows after adding 100 more roots; want 250", n)
	}
	if f.w.IndexCap() != room {
		t.Fatalf("the world's room changed (%d -> %d): the test spawns too many", room, f.w.IndexCap())
	}
	if &m.rootPos[0] != rootPos || &m.roots[0] != roots {
		t.Fatal("roots added within the world's room grew the model's arrays")
	}
	if f.roots != 1 {
		t.Fatalf("%d full listings of the roots; want the first only (the rest followed the changes)", f.roots)
	}
	for i, e := range f.all {
		if r := m.Row(i); r.Entity != e {
			t.Fatalf("row %d is %v, want %v", i, r.Entity, e)
		}
	}
}
