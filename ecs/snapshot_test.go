package ecs_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// snapshotWorld is opWorld with more to share: names, a hierarchy, sparse tags, entities in several tables.
func snapshotWorld(t *testing.T) (w *ecs.World, e, f ecs.Entity) {
	t.Helper()
	w, e, f = opWorld()
	var prev ecs.Entity
	for i := range 300 {
		g := w.Spawn(Pos{X: float64(i), Y: 1}, Name{fmt.Sprintf("n%d", i)}, ecs.Transform{}.Default())
		if i%3 == 0 {
			_ = w.Add(g, mustID[Health](t, w), Health{HP: i})
		}
		if i%5 == 0 {
			_ = w.Add(g, mustID[Selected](t, w), Selected{})
		}
		if i%2 == 1 {
			if err := w.SetParent(g, prev); err != nil {
				t.Fatal(err)
			}
		}
		prev = g
	}
	if err := w.SetParent(e, prev); err != nil {
		t.Fatal(err)
	}
	return w, e, f
}

// dumpWorld writes what a reader of w sees: every entity with its parent, children and components' values (not
// the computed ones).
func dumpWorld(w *ecs.World) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d entities\n", w.Len())
	w.ReadEntities(func(e ecs.Entity) bool {
		fmt.Fprintf(&b, "%v parent %v children %v", e, w.Parent(e), w.Children(e))
		for _, id := range w.ComponentIDs() {
			if w.ComponentInfo(id).Computed {
				continue
			}
			if v, ok := w.Get(e, id); ok {
				fmt.Fprintf(&b, " %s=%v", w.ComponentInfo(id).Name, v)
			}
		}
		b.WriteByte('\n')
		return true
	})
	return b.String()
}

// After every kind of write to the world, a snapshot taken before it still reads the world as it was (as a read
// copy made then does), and the world is as it would be without the snapshot — whether the snapshot holds every
// component's values or a few.
func TestSnapshotSeesNoLaterWrite(t *testing.T) {
	for _, o := range worldOps() {
		for _, only := range []bool{false, true} {
			w, e, f := snapshotWorld(t)
			twin, _, _ := snapshotWorld(t)
			ids := w.ComponentIDs()
			if only {
				ids = []ecs.ComponentID{mustID[Pos](t, w), mustID[Name](t, w)}
			}
			want := dumpWorld(w.ReadCopyOf(ids...))
			snap, release := w.Snapshot(ids...)
			o.do(w, e, f)
			o.do(twin, e, f)
			if got := dumpWorld(snap); got != want {
				t.Errorf("%s (only %v): the snapshot sees the write made after it:\n%s", o.name, only, firstDiff(got, want))
			}
			if got, want := dumpWorld(w), dumpWorld(twin); got != want {
				t.Errorf("%s (only %v): the world differs from one without a snapshot:\n%s", o.name, only, firstDiff(got, want))
			}
			release()
		}
	}
}

// firstDiff returns the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, a, b)
		}
	}
	return "(same)"
}

// A snapshot read on another goroutine while the owner writes sees the world as it was when taken (run with -race
// to check that the owner never writes the memory it reads); once released, the owner's writes copy nothing.
func TestSnapshotReadWhileTheOwnerWrites(t *testing.T) {
	w, e, f := snapshotWorld(t)
	want := dumpWorld(w.ReadCopy())
	snap, release := w.Snapshot(w.ComponentIDs()...)
	var got string
	var wg sync.WaitGroup
	wg.Go(func() { got = dumpWorld(snap) })
	pos := ecs.NewMap[Pos](w)
	for i := range 50 {
		pos.Mut(e).X = float64(-i)
		_ = w.SetParent(f, e)
		w.Spawn(Pos{X: 7})
		w.Despawn(w.Spawn(Name{"gone"}))
	}
	wg.Wait()
	if got != want {
		t.Fatalf("the snapshot read on its goroutine saw the owner's writes:\n%s", firstDiff(got, want))
	}
	release()
	snap2, release2 := w.Snapshot(mustID[Pos](t, w))
	if !ecs.SharesMemory(w) {
		t.Fatal("a snapshot taken shares nothing with the world")
	}
	release2()
	if ecs.SharesMemory(w) {
		t.Fatal("a released snapshot still shares the world's memory")
	}
	pos.Mut(e).X = 42
	if ecs.NewMap[Pos](snap2).Get(e).X != 42 { // (read here only to see that the memory is still the same)
		t.Fatal("a write after the release copied the column")
	}
}

// A snapshot has no world matrices of its own to compute: asking for one panics, saying so, and the world's are
// untouched.
func TestSnapshotHasNoWorldMatrices(t *testing.T) {
	w, e, _ := snapshotWorld(t)
	want := w.WorldMatrix(e)
	snap, release := w.Snapshot(w.ComponentIDs()...)
	defer release()
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "snapshot has no world matrices") {
				t.Fatalf("WorldMatrix of a snapshot: recovered %v", r)
			}
		}()
		snap.WorldMatrix(e)
	}()
	if got := w.WorldMatrix(e); got != want {
		t.Fatalf("the world's matrix %v, want %v", got, want)
	}
}
