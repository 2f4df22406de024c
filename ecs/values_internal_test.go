package ecs

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

type spawnPos struct{ X, Y float64 }

type spawnName struct{ S string }

type spawnTags struct{ List []string }

type spawnMark struct{ N int }

// TestSpawnValuesByColumnAsByRow spawns the same values into two worlds with the same past, one a column at a time
// and one a row at a time (as each row's Spawn would stamp it): the tables, ticks, change summaries, entity slots
// and free lists come out the same, over floors, partly filled pages, older and newer ticks, values that share
// memory, companions and sparse components (which take the row path), the columns written on one goroutine or
// several.
func TestSpawnValuesByColumnAsByRow(t *testing.T) {
	rows := parallelRows
	defer func() { spawnValuesByColumn, parallelRows = true, rows }()
	for trial := range 60 {
		worlds := [2]*World{}
		parallelRows = rows
		if trial%2 == 1 {
			parallelRows = 1 // the columns written on several goroutines
		}
		for k := range worlds {
			spawnValuesByColumn = k == 0
			worlds[k] = spawnValuesHistory(uint64(trial))
		}
		checkSameWorlds(t, trial, worlds[0], worlds[1])
	}
}

// spawnValuesHistory builds a world from seed: spawns, despawns, marks and ticks, and spawns from values copied
// out of it (SpawnValues as spawnValuesByColumn says).
func spawnValuesHistory(seed uint64) *World {
	r := rand.New(rand.NewPCG(seed, 7))
	w := NewWorld()
	Register[spawnPos](w)
	Register[spawnName](w)
	Register[spawnTags](w)
	markID := Register[spawnMark](w, WithStorage(SparseSet))
	var live []Entity
	spawn := func() {
		vals := []any{spawnPos{r.Float64(), 1}, spawnName{"n"}}
		if r.IntN(2) == 0 {
			vals = append(vals, Transform{}.Default())
		}
		if r.IntN(3) == 0 {
			vals = append(vals, spawnTags{[]string{"a"}})
		}
		if r.IntN(5) == 0 {
			vals = append(vals, spawnMark{1})
		}
		live = append(live, w.Spawn(vals...))
	}
	for range 100 + r.IntN(300) {
		spawn()
	}
	for range 20 {
		switch r.IntN(6) {
		case 0:
			w.AdvanceTick()
		case 1:
			for range r.IntN(100) {
				spawn()
			}
		case 2: // a write to every row of a column: its floor
			for it := NewQuery1[spawnPos](w).Iter(); it.Next(); {
				it.Get().Y++
			}
		case 3:
			if len(live) > 0 {
				e := live[r.IntN(len(live))]
				NewMap[spawnName](w).Mut(e).S = "m"
			}
		case 4, 5: // copy some entities out, despawn them and spawn them again from the copies
			if len(live) == 0 {
				continue
			}
			k := r.IntN(len(live))
			m := min(len(live)-k, 1+r.IntN(200))
			pick := slices.Clone(live[k : k+m])
			mark := w.comps[markID].sparse
			pick = slices.DeleteFunc(pick, func(e Entity) bool {
				return w.records[e.index].table != w.records[pick[0].index].table ||
					mark.has(e.index) != mark.has(pick[0].index)
			})
			var cols []Values
			for _, id := range w.tables[w.records[pick[0].index].table].ids {
				if w.comps[id].info.Computed {
					continue
				}
				v, err := w.CopyValues(id, pick)
				if err != nil {
					panic(err)
				}
				cols = append(cols, v)
			}
			if mark.has(pick[0].index) {
				v, err := w.CopyValues(markID, pick)
				if err != nil {
					panic(err)
				}
				cols = append(cols, v)
			}
			live = slices.DeleteFunc(live, func(e Entity) bool { return slices.Contains(pick, e) })
			w.DespawnAll(pick)
			if r.IntN(2) == 0 {
				w.AdvanceTick()
			}
			lo := r.IntN(len(pick))
			live = append(live, w.SpawnValues(cols, lo, len(pick))...)
		}
	}
	return w
}

// checkSameWorlds compares what SpawnValues writes of two worlds: entity records, the free list, tables
// (entities, values, ticks, change summaries) and the log of the changes of shape.
func checkSameWorlds(t *testing.T, trial int, a, b *World) {
	t.Helper()
	if !reflect.DeepEqual(a.records, b.records) || !slices.Equal(a.free, b.free) || a.alive != b.alive ||
		a.tick != b.tick {
		t.Fatalf("trial %d: records, free slots, counts or ticks differ", trial)
	}
	if a.hier.shape != b.hier.shape || !slices.Equal(a.hier.log, b.hier.log) {
		t.Fatalf("trial %d: the logs of the changes of shape differ", trial)
	}
	if len(a.tables) != len(b.tables) {
		t.Fatalf("trial %d: %d tables against %d", trial, len(a.tables), len(b.tables))
	}
	for ti, ta := range a.tables {
		tb := b.tables[ti]
		if !slices.Equal(ta.entities, tb.entities) {
			t.Fatalf("trial %d: table %d's entities differ", trial, ti)
		}
		n := len(ta.entities)
		for k, ca := range ta.cols {
			cb := tb.cols[k]
			name := a.comps[ta.ids[k]].info.Name
			for row := range uint32(n) {
				if !reflect.DeepEqual(ca.ops.load(ca.at(row)), cb.ops.load(cb.at(row))) {
					t.Fatalf("trial %d: table %d %s row %d: values differ", trial, ti, name, row)
				}
			}
			if !slices.Equal(ca.added[:n], cb.added[:n]) || !slices.Equal(ca.changed[:n], cb.changed[:n]) ||
				ca.floor != cb.floor || ca.store.lastChange != cb.store.lastChange {
				t.Fatalf("trial %d: table %d %s: ticks differ", trial, ti, name)
			}
			np := pagesFor(n)
			if !slices.Equal(ca.pageChanged[:np], cb.pageChanged[:np]) || !slices.Equal(ca.pageOlder[:np], cb.pageOlder[:np]) ||
				!slices.Equal(ca.pageMask[:np], cb.pageMask[:np]) || !slices.Equal(ca.pageAdded[:np], cb.pageAdded[:np]) {
				t.Fatalf("trial %d: table %d %s: change summaries differ", trial, ti, name)
			}
		}
	}
}
