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
