package hierarchy

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// TestFilterMatchesTheRowsOfASearch: on random forests, typing a search one letter at a time (and taking some back),
// NameFinder and Filter — what the editor runs on another goroutine — give the rows the model builds for the
// search, kept rows included; a stop that says so abandons the work.
func TestFilterMatchesTheRowsOfASearch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	shown := 0
	for round := range 200 {
		f := randomForest(r, 1+r.IntN(80), "%c%cé %d")
		names := make([]string, len(f.all))
		for i, e := range f.all {
			names[i] = f.Name(e)
		}
		finder := NewNameFinder(f.all, names)
		never := func() bool { return false }
		m, spare := New(), []Row(nil)          // Filter writes over the rows the model showed before
		var spareFound, lastFound []ecs.Entity // and Find over the results of the search before the last
		for _, search := range []string{"a", "aB", "ab ", "abÉ", "a", "", "c", "cA", "1", "12", "zz"} {
			kept := map[uint64]bool{}
			var keptEs []ecs.Entity
			for _, e := range f.all {
				if r.IntN(15) == 0 && search != "" {
					kept[f.ID(e)], keptEs = true, append(keptEs, e)
				}
			}
			found, ok := finder.Find(search, spareFound, never)
			if !ok {
				t.Fatal("Find stopped with a stop that never says so")
			}
			got, ok := Filter(f, f.Roots(), found, keptEs, spare, never)
			if !ok {
				t.Fatal("Filter stopped with a stop that never says so")
			}
			spareFound, lastFound = lastFound, found
			want := expected(f, nil, kept, search)
			if search == "" {
				want = nil
			} else {
				// The model shows them with their scene ids, and finds each row by its id.
				spare = m.SetFiltered(search, got) // the rows it showed before: the next Filter writes over them
				got = rowsOf(m, f, uint64(round))
				for i, r := range got {
					if j := m.Index(r.ID); j != i {
						t.Fatalf("round %d, search %q: the row of id %d is %d, Index says %d", round, search, r.ID, i, j)
					}
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("round %d, search %q:\ngot  %v\nwant %v", round, search, got, want)
			}
			shown += len(got)
		}
	}
	if shown == 0 {
		t.Fatal("no search found anything: the test checks nothing")
	}
	f := newForest()
	for i := range 3 * stopEvery {
		f.add(fmt.Sprint(i), ecs.Entity{})
	}
	stop := func() bool { return true }
	if _, ok := NewNameFinder(f.all, make([]string, len(f.all))).Find("1", nil, stop); ok {
		t.Fatal("Find went on after stop said so")
	}
	if _, ok := Filter(f, f.Roots(), f.all, nil, nil, stop); ok {
		t.Fatal("Filter went on after stop said so")
	}
}

// TestNameFinderAfterAStop: a refinement stopped midway (a newer key made it stale) does not spoil the next
// search: each finds what a new finder finds.
func TestNameFinderAfterAStop(t *testing.T) {
	f := newForest()
	for i := range 5 * stopEvery {
		f.add(fmt.Sprintf("Cube %d", i), ecs.Entity{})
	}
	names := make([]string, len(f.all))
	for i, e := range f.all {
		names[i] = f.Name(e)
	}
	never := func() bool { return false }
	finder := NewNameFinder(f.all, names)
	if _, ok := finder.Find("cube", nil, never); !ok {
		t.Fatal("stopped")
	}
	polls := 0
	if _, ok := finder.Find("cube 1", nil, func() bool { polls++; return polls > 2 }); ok {
		t.Fatal("Find went on after stop said so")
	}
	for _, text := range []string{"cube 12", "cube 1", "3", "cube"} {
		got, _ := finder.Find(text, nil, never)
		want, _ := NewNameFinder(f.all, names).Find(text, nil, never)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Fatalf("%q after a stopped search: %d found, a new finder finds %d", text, len(got), len(want))
		}
	}
}

// TestFilteredRowsStayUntilTheSearchIsCleared: rows built elsewhere are the model's while it searches, whatever
// the version, with the tree's scene ids; clearing the search brings back the tree's rows.
func TestFilteredRowsStayUntilTheSearchIsCleared(t *testing.T) {
	f := newForest()
	f.add("b", ecs.Entity{})
	a := f.add("a", ecs.Entity{})
	m := New()
	m.SetFiltered("a", []Row{{Entity: a}})
	if got, want := rowsOf(m, f, 7), []Row{{Entity: a, ID: f.ID(a)}}; !slices.Equal(got, want) {
		t.Fatalf("filtered rows %v, want %v", got, want)
	}
	if i := m.Index(f.ID(a)); i != 0 {
		t.Fatalf("the row of a is %d, Index says %d", 0, i)
	}
	m.SetSearch("")
	if got := rowsOf(m, f, 8); len(got) != 2 {
		t.Fatalf("after clearing the search: rows %v, want both roots", got)
	}
}
