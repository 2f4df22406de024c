package ecs

import "testing"

// ReserveLike grows e's table once: the spawns it made room for grow nothing, however many; SameComponents tells
// entities of one table; a dead entity or no count reserves nothing. IndexCap is above every entity's index and
// stays while the spawns fit the records' room.
func TestReserveLike(t *testing.T) {
	w := NewWorld()
	Register[spinLike](w)
	a := w.Spawn(Transform{})
	b := w.Spawn(Transform{}, &spinLike{})
	tab := w.tables[w.records[a.index].table]
	before := tab.cap
	w.ReserveLike(Entity{}, 1000)
	w.ReserveLike(a, 0)
	if tab.cap != before {
		t.Fatalf("a reservation for nothing grew the table: %d -> %d", before, tab.cap)
	}
	const n = 3*bigTable + 5 // past the size where a table grows a quarter at a time
	w.ReserveLike(a, n)
	reserved := tab.cap
	if reserved < n+1 {
		t.Fatalf("room for %d rows after reserving %d more beside one", reserved, n)
	}
	room := w.IndexCap()
	if room < n+3 {
		t.Fatalf("IndexCap %d after reserving %d beside two entities and index 0", room, n)
	}
	for range n {
		if e := w.Spawn(Transform{}); int(e.Index()) >= w.IndexCap() {
			t.Fatalf("entity index %d at IndexCap %d", e.Index(), w.IndexCap())
		}
	}
	if w.IndexCap() != room {
		t.Fatalf("IndexCap %d -> %d over spawns it had room for", room, w.IndexCap())
	}
	if tab.cap != reserved || tab.len() != n+1 {
		t.Fatalf("after %d spawns: %d rows, capacity %d (reserved %d)", n, tab.len(), tab.cap, reserved)
	}
	if c := w.Spawn(Transform{}); !w.SameComponents(a, c) || w.SameComponents(a, b) {
		t.Fatal("SameComponents: wrong for entities of one table, or of two")
	}
	w.Despawn(b)
	if w.SameComponents(b, b) {
		t.Fatal("SameComponents holds for a dead entity")
	}
}

type spinLike struct{ Speed float32 }

// FitRoom gives up the room a table keeps after most of its rows went (the undo of a spawn that doubled it): the
// rows, their values and their change ticks stay, spawns after it grow the table again, and a lent world or a table
// with little spare room is left alone.
func TestFitRoom(t *testing.T) {
	w := NewWorld()
	tr := NewMap[Transform](w)
	var es []Entity
	for i := range 4 * fitMin {
		es = append(es, w.Spawn(Transform{Position: [3]float32{float32(i), 0, 0}}))
	}
	tab := w.tables[w.records[es[0].index].table]
	if got := w.FitRoom(); got != 0 {
		t.Fatalf("a table with %d rows of room %d gave up %d", tab.len(), tab.cap, got)
	}
	q := NewQuery1[Transform](w, Changed[Transform]())
	for it := q.Iter(); it.Next(); {
	}
	w.AdvanceTick()
	tr.Mut(es[5]).Position[1] = 7
	for _, e := range es[fitMin:] {
		w.Despawn(e)
	}
	es = es[:fitMin]
	before := tab.cap
	end := w.Lend(func() bool { return true })
	if got := w.FitRoom(); got != 0 {
		t.Fatalf("a lent world gave up %d rows", got)
	}
	end()
	got := w.FitRoom()
	if want := before - (fitMin + fitMin/8); got != want || tab.cap != fitMin+fitMin/8 {
		t.Fatalf("gave up %d rows (room %d -> %d), want %d", got, before, tab.cap, want)
	}
	for i, e := range es {
		if p := tr.Get(e).Position; p[0] != float32(i) || (i == 5) != (p[1] == 7) {
			t.Fatalf("entity %d: position %v after FitRoom", i, p)
		}
	}
	changed := 0
	for it := q.Iter(); it.Next(); {
		changed++
	}
	if changed != 1 {
		t.Fatalf("%d entities changed since the edit, want 1", changed)
	}
	for range 3 * fitMin {
		es = append(es, w.Spawn(Transform{}))
	}
	if tab.len() != 4*fitMin || tab.cap < tab.len() {
		t.Fatalf("after spawning again: %d rows, room %d", tab.len(), tab.cap)
	}
}
