package hierarchy

import (
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
	var r []ecs.Entity
	for _, e := range f.all {
		if f.w.Parent(e).IsZero() {
			r = append(r, e)
		}
	}
	return r
}
func (f *forest) Children(e ecs.Entity) []ecs.Entity { f.children++; return f.w.Children(e) }
func (f *forest) ChildCount(e ecs.Entity) int        { return f.w.ChildCount(e) }
func (f *forest) Parent(e ecs.Entity) ecs.Entity     { return f.w.Parent(e) }
func (f *forest) ID(e ecs.Entity) uint64             { return uint64(e.Index()) }
func (f *forest) Name(e ecs.Entity) string           { return f.names[e] }
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

// TestRowsMatchTheFilteredTree: on random forests, random expansion, searches and kept rows, the flattened rows
// are the whole tree's depth-first list filtered (collapsed subtrees hidden; a search keeps matches, kept rows and
// their ancestors, every level open).
func TestRowsMatchTheFilteredTree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		f := newForest()
		n := 1 + r.IntN(60)
		for i := range n {
			var parent ecs.Entity
			if i > 0 && r.IntN(4) != 0 {
				parent = f.all[r.IntN(len(f.all))]
			}
			f.add(fmt.Sprintf("%c%c %d", 'a'+r.IntN(4), 'A'+r.IntN(3), i), parent)
		}
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
		got := m.Rows(f, uint64(round), f.w)
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
	if rows := m.Rows(f, 1, f.w); len(rows) != 1 || !rows[0].HasKids {
		t.Fatalf("collapsed: %v", rows)
	}
	f.add("C", ecs.Entity{}) // the same version: the rows are not rebuilt
	if rows := m.Rows(f, 1, f.w); len(rows) != 1 {
		t.Fatalf("rebuilt without a new version: %v", rows)
	}
	if rows := m.Rows(f, 2, f.w); len(rows) != 2 {
		t.Fatalf("a new version: %v", rows)
	}
	m.Reveal(f, b)
	if rows := m.Rows(f, 2, f.w); len(rows) != 3 || rows[1].Entity != b || rows[1].Depth != 1 || !m.Expanded(f.ID(a)) {
		t.Fatalf("after Reveal(B): %v", rows)
	}
	m.SetExpanded(f.ID(a), false)
	if rows := m.Rows(f, 2, f.w); len(rows) != 2 {
		t.Fatalf("collapsed again: %v", rows)
	}
	m.Reset()
	m.Reveal(f, b)
	m.Invalidate()
	if rows := m.Rows(f, 2, f.w); len(rows) != 3 || m.Index(f.ID(b)) != 1 || m.Index(999) != -1 {
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
	if rows := m.Rows(f, 1, f.w); len(rows) != 2 {
		t.Fatalf("search: %v", rows)
	}
	m.Keep(f.ID(c))
	f.names[c] = "Box"
	if rows := m.Rows(f, 2, f.w); len(rows) != 2 || rows[1].Entity != c {
		t.Fatalf("renamed while searching: the row must stay: %v", rows)
	}
	m.SetSearch("cub")
	if rows := m.Rows(f, 2, f.w); len(rows) != 0 {
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
	m.Rows(f, 1, f.w)
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
	m.Rows(f, 1, f.w)
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
	if rows := m.Rows(f, 1, f.w); len(rows) != 1 || !rows[0].HasKids || f.children != 0 {
		t.Fatalf("collapsed: %d rows (has kids %v), Children called %d times", len(rows), len(rows) > 0 && rows[0].HasKids, f.children)
	}
	m.SetExpanded(f.ID(g), true)
	if rows := m.Rows(f, 2, f.w); len(rows) != 1001 || f.children != 1 {
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
	rows := m.Rows(f, 1, f.w)
	if len(rows) != 2 || rows[0].Entity != g || rows[1].Entity != a || rows[1].Depth != 1 {
		t.Fatalf("rows %+v, want Group and A under it", rows)
	}
	m.SetMatch(nil) // the text as a name: nothing is named "Spin"
	if rows := m.Rows(f, 1, f.w); len(rows) != 0 {
		t.Fatalf("a name search after the query: %+v", rows)
	}
}
