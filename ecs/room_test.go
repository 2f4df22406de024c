package ecs_test

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
)

// roomWorld is a world with n entities of Pos, Name and Health, some of them changed and some despawned (their
// rows reused), and a tick advanced between, so that the table holds values, pointers (Name) and change ticks of
// several ages.
func roomWorld(t testing.TB, n int) (*ecs.World, *ecs.Map3[Pos, Name, Health]) {
	t.Helper()
	w := newTestWorld()
	m := ecs.NewMap3[Pos, Name, Health](w)
	var es []ecs.Entity
	m.SpawnBatch(n, func(e ecs.Entity, p *Pos, nm *Name, h *Health) {
		i := len(es)
		*p, nm.S, h.HP = Pos{X: float64(i), Y: -float64(i)}, fmt.Sprint("e", i), i
		es = append(es, e)
	})
	w.Update()
	pm := ecs.NewMap[Pos](w)
	for i := 0; i < n; i += 7 {
		pm.Mut(es[i]).X += 0.5
	}
	for i := 3; i < n; i += 11 {
		w.Despawn(es[i])
	}
	return w, m
}

// spawnMore spawns k entities into m's table, numbered from base.
func spawnMore(m *ecs.Map3[Pos, Name, Health], k, base int) []ecs.Entity {
	var es []ecs.Entity
	m.SpawnBatch(k, func(e ecs.Entity, p *Pos, nm *Name, h *Health) {
		i := base + len(es)
		*p, nm.S, h.HP = Pos{X: float64(i)}, fmt.Sprint("new", i), i
		es = append(es, e)
	})
	return es
}

// snapshot lists every entity of w with Pos, Name and Health, its values, and what Changed/Added queries made
// before see: the observable state a Room must not change.
func snapshot(w *ecs.World, changed *ecs.Query1[Pos], added *ecs.Query1[Health]) []string {
	var out []string
	q := ecs.NewQuery3[Pos, Name, Health](w, ecs.Read[Pos](), ecs.Read[Name](), ecs.Read[Health]())
	for it := q.Iter(); it.Next(); {
		p, nm, h := it.Get()
		out = append(out, fmt.Sprintf("%v %v %q %d", it.Entity(), *p, nm.S, h.HP))
	}
	for it := changed.Iter(); it.Next(); {
		out = append(out, fmt.Sprintf("changed %v", it.Entity()))
	}
	for it := added.Iter(); it.Next(); {
		out = append(out, fmt.Sprintf("added %v", it.Entity()))
	}
	slices.Sort(out)
	return out
}

// TestRoomSpawnEqualsPlainSpawn: a batch spawn after World.UseRoom (the room made on another goroutine while the
// world went on) leaves the world exactly as the same spawn without it — entities, values (pointers included,
// after a collection), change ticks as Changed and Added queries see them — and, when the table's length did not
// change meanwhile, the same capacity. When it did (between: entities spawned into the same table within its
// capacity), the values are still the same.
func TestRoomSpawnEqualsPlainSpawn(t *testing.T) {
	for _, n := range []int{1, 100, 70_000} {
		for _, between := range []string{"edits", "spawns"} {
			t.Run(fmt.Sprint(n, between), func(t *testing.T) {
				const more = 30_000
				var snaps [2][]string
				var bytes [2]int
				for k, room := range []bool{false, true} {
					w, m := roomWorld(t, n)
					changed := ecs.NewQuery1[Pos](w, ecs.Changed[Pos](), ecs.Read[Pos]())
					added := ecs.NewQuery1[Health](w, ecs.Added[Health](), ecs.Read[Health]())
					for it := changed.Iter(); it.Next(); { // the queries' baseline: what changes after it shows
					}
					for it := added.Iter(); it.Next(); {
					}
					w.Update()
					meanwhile := func() { // the world goes on while the room is made
						if between == "spawns" {
							spawnMore(m, 5, 1_000_000)
							return
						}
						ecs.NewMap[Pos](w).SpawnBatch(1000, nil) // another table
						var es []ecs.Entity
						for it := ecs.NewQuery1[Health](w, ecs.Read[Health]()).Iter(); it.Next(); {
							es = append(es, it.Entity())
						}
						pm := ecs.NewMap[Pos](w)
						for i := 0; i < len(es); i += 5 { // row by row, at two ticks: the rows' own change ticks
							pm.Mut(es[i]).Y++
						}
						w.Update()
						for i := 2; i < len(es); i += 5 {
							pm.Mut(es[i]).Y++
						}
					}
					if room {
						r := m.PlanRoom(more)
						if r == nil {
							t.Fatal("no room planned for a table without space")
						}
						done := make(chan struct{})
						go func() { r.Make(context.Background()); close(done) }()
						meanwhile()
						<-done
						runtime.GC()
						if used := w.UseRoom(r); !used && between == "edits" {
							t.Fatal("the room was not used")
						}
					} else {
						meanwhile()
					}
					spawnMore(m, more, 0)
					runtime.GC()
					snaps[k] = snapshot(w, changed, added)
					for _, c := range w.Stats().Components {
						bytes[k] += c.Bytes
					}
				}
				if !slices.Equal(snaps[0], snaps[1]) {
					for i := range min(len(snaps[0]), len(snaps[1])) {
						if snaps[0][i] != snaps[1][i] {
							t.Fatalf("with a room the world differs: first at %d: %q, without %q (%d and %d lines)", i,
								snaps[1][i], snaps[0][i], len(snaps[1]), len(snaps[0]))
						}
					}
					t.Fatalf("with a room %d lines, without %d", len(snaps[1]), len(snaps[0]))
				}
				if between == "edits" && bytes[0] != bytes[1] {
					t.Errorf("storage with a room %d bytes, without %d: the capacity differs", bytes[1], bytes[0])
				}
			})
		}
	}
}

// TestRoomUsedOnlyWhenCurrent: UseRoom takes a room only for the world and table state it was planned for, once,
// after Make; otherwise it reports false and the spawn grows the table as before.
func TestRoomUsedOnlyWhenCurrent(t *testing.T) {
	w, m := roomWorld(t, 1000)
	if r := m.PlanRoom(0); r != nil {
		t.Error("a room for no entities")
	}
	if (*ecs.Room)(nil).Len() != 0 || w.UseRoom(nil) {
		t.Error("a nil room")
	}
	r := m.PlanRoom(5000)
	if w.UseRoom(r) {
		t.Error("a room used before Make")
	}
	r.Make(context.Background())
	other, _ := roomWorld(t, 1000)
	if other.UseRoom(r) {
		t.Error("a room used by another world")
	}
	stale := m.PlanRoom(100_000)
	stale.Make(context.Background())
	if !w.UseRoom(r) {
		t.Fatal("a current room not used")
	}
	if w.UseRoom(r) {
		t.Error("a room used twice")
	}
	if w.UseRoom(stale) {
		t.Error("a room planned for the table's earlier capacity used")
	}
	if r := m.PlanRoom(10); r != nil {
		t.Errorf("a room planned although the table has space: %d rows", r.Len())
	}
	spawnMore(m, 5000, 0)
	// Not during a query.
	q := ecs.NewQuery1[Pos](w, ecs.Read[Pos]())
	r = m.PlanRoom(1 << 20)
	r.Make(context.Background())
	it := q.Iter()
	it.Next()
	expectPanic(t, "cannot use a Room while a query is iterating", func() { w.UseRoom(r) })
	it.Close()
	if !w.UseRoom(r) {
		t.Error("the room not used after the query")
	}
	// Make stops when its context is done; the room stays unmade.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = m.PlanRoom(1 << 21)
	if r.Make(ctx) || w.UseRoom(r) {
		t.Error("a room made although its context was done")
	}
	if !r.Make(context.Background()) || !w.UseRoom(r) {
		t.Error("a room made after a cancelled Make not used")
	}
}

// BenchmarkSpawnWithRoom: 100,000 entities of three components spawned beside 100,000 others in fresh memory (the
// runtime gave its free pages back first, as the editor's idle trim does): the spawn growing the table itself,
// and the spawn after UseRoom of a room made beforehand (Make untimed: it runs ahead, on another goroutine).
func BenchmarkSpawnWithRoom(b *testing.B) {
	for _, room := range []bool{false, true} {
		b.Run(map[bool]string{false: "grow", true: "room"}[room], func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				b.StopTimer()
				w, m := roomWorld(b, 100_000)
				var r *ecs.Room
				if room {
					r = m.PlanRoom(100_000)
					r.Make(context.Background())
				}
				debug.FreeOSMemory()
				b.StartTimer()
				t0 := time.Now()
				w.UseRoom(r)
				spawnMore(m, 100_000, 0)
				total += time.Since(t0)
			}
			b.ReportMetric(float64(total.Nanoseconds())/float64(b.N)/100_000, "ns/entity")
			b.ReportMetric(0, "ns/op")
		})
	}
}
