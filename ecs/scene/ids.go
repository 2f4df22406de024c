package scene

import (
	"cmp"
	"slices"

	"github.com/voltex-editor/voltex/ecs"
)

// IDs is the world resource that hands out [SceneID]s: Next is the next id
// to assign. The loader sets it past the highest id in the file.
type IDs struct {
	Next uint64
}

// ids returns the world's IDs resource, creating it if needed.
func ids(w *ecs.World) *IDs {
	r := ecs.Resource[IDs](w)
	if r == nil {
		ecs.SetResource(w, IDs{Next: 1})
		r = ecs.Resource[IDs](w)
	}
	if r.Next == 0 {
		r.Next = 1
	}
	return r
}

// AssignID gives e a fresh [SceneID] (replacing any it has: call it on
// duplicated entities) and returns it. It panics if the scene components are
// not registered (call [Register]).
func AssignID(w *ecs.World, e ecs.Entity) uint64 {
	r := ids(w)
	id := r.Next
	r.Next++
	if err := w.Add(e, mustID[SceneID](w), &SceneID{ID: id}); err != nil {
		if err := w.Set(e, mustID[SceneID](w), &SceneID{ID: id}); err != nil {
			panic("scene.AssignID: " + err.Error())
		}
	}
	return id
}

// NoteID tells the allocator that id is in use, so it is never handed out
// again.
func NoteID(w *ecs.World, id uint64) {
	if r := ids(w); id >= r.Next {
		r.Next = id + 1
	}
}

// EnsureIDs gives a fresh [SceneID] to every live entity that has none (or
// zero), and to every entity but the first (lowest index) of a group sharing
// one id, so that ids are unique; then it returns all live entities in
// ascending id order (the order scene files list them in).
func EnsureIDs(w *ecs.World) []ecs.Entity {
	type entry struct {
		id uint64
		e  ecs.Entity
	}
	m := ecs.NewMap[SceneID](w)
	entries := make([]entry, 0, w.Len())
	sorted := true
	var last uint64
	w.EachEntity(func(e ecs.Entity) bool {
		v, _ := m.TryGet(e)
		if v.ID <= last {
			sorted = false
		}
		last = v.ID
		entries = append(entries, entry{v.ID, e})
		return true
	})
	if !sorted {
		slices.SortFunc(entries, func(a, b entry) int {
			if c := cmp.Compare(a.id, b.id); c != 0 {
				return c
			}
			return cmp.Compare(a.e.Index(), b.e.Index())
		})
	}
	if len(entries) > 0 {
		NoteID(w, entries[len(entries)-1].id)
	}
	// Keep the first of each id; collect the rest (and id 0) for new ids.
	kept := entries[:0] // overwrites entries in place, behind the loop
	var need []ecs.Entity
	var prev uint64
	for _, en := range entries {
		if en.id == 0 || en.id == prev {
			need = append(need, en.e)
			continue
		}
		prev = en.id
		kept = append(kept, en)
	}
	out := make([]ecs.Entity, 0, len(entries))
	for _, en := range kept {
		out = append(out, en.e)
	}
	// New ids are above every kept one, so they go at the end, in index order.
	slices.SortFunc(need, func(a, b ecs.Entity) int { return cmp.Compare(a.Index(), b.Index()) })
	for _, e := range need {
		AssignID(w, e)
		out = append(out, e)
	}
	return out
}

func mustID[T any](w *ecs.World) ecs.ComponentID {
	id, ok := ecs.ComponentIDOf[T](w)
	if !ok {
		panic("scene: the scene components are not registered with this world; call scene.Register(w) first")
	}
	return id
}
