package scene

import (
	"cmp"
	crand "crypto/rand"
	"encoding/binary"
	"slices"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/internal/radix"
)

// MaxID is the largest scene id handed out: 2^53 − 1, so that every JSON
// reader (JavaScript's numbers, encoding/json into float64, …) reads ids
// exactly.
const MaxID = 1<<53 - 1

// IDs is the world resource that hands out new [SceneID]s. Ids are drawn
// from a keyed permutation of 1..[MaxID]: one generator never repeats an id,
// and two generators seeded apart (two people editing the same scene on two
// branches) pick ids that collide with a chance of about n·m/2^53 for n and m
// new entities — so additions made apart merge without renumbering, and
// sorting a file by id scatters them over it instead of appending them all
// at the end.
//
// The zero value is unusable: make one with [RandomIDs] (what [Register]
// does) or [SeededIDs] (reproducible ids, for tests and tools).
type IDs struct {
	key uint64 // permutation key
	ctr uint64 // next counter value (mod 2^53)
	set bool
	// Taken, if not nil, reports whether an id is already in use; New skips
	// such ids. Whoever indexes the world's ids (the editor's document) sets
	// it, so that ids from files are never handed out again.
	Taken func(id uint64) bool
}

// RandomIDs returns a generator seeded from the operating system's random
// source.
func RandomIDs() IDs {
	var b [16]byte
	_, _ = crand.Read(b[:]) // never fails on supported systems (Go 1.24+ crashes instead)
	return SeededIDs(binary.LittleEndian.Uint64(b[:8]) ^ binary.LittleEndian.Uint64(b[8:])<<1)
}

// SeededIDs returns a generator whose ids depend only on seed.
func SeededIDs(seed uint64) IDs {
	k := splitmix(&seed)
	c := splitmix(&seed) & MaxID
	return IDs{key: k, ctr: c, set: true}
}

// New returns a fresh id in 1..MaxID that this generator never returned
// before and that Taken (if set) does not report as used.
func (r *IDs) New() uint64 {
	if !r.set {
		*r = RandomIDs()
	}
	for {
		x := permute(r.ctr, r.key)
		r.ctr = (r.ctr + 1) & MaxID
		if x != 0 && (r.Taken == nil || !r.Taken(x)) {
			return x
		}
	}
}

// splitmix is SplitMix64: a good 64-bit mix of a counter.
func splitmix(s *uint64) uint64 {
	*s += 0x9e3779b97f4a7c15
	z := *s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// permute is a keyed bijection of [0, 2^53): xor with the key, then
// rounds of multiplication by an odd constant (mod 2^53) and xor-shifts,
// each of which is invertible on 53 bits.
func permute(x, key uint64) uint64 {
	const m = MaxID
	x = (x ^ key) & m
	x = (x * 0x5851f42d4c957f2d) & m
	x ^= x >> 26
	x = (x ^ key>>11) & m
	x = (x * 0x14057b7ef767814f) & m
	x ^= x >> 29
	x = (x * 0x2545f4914f6cdd1d) & m
	x ^= x >> 23
	return x
}

// ids returns the world's IDs resource, creating it if needed.
func ids(w *ecs.World) *IDs {
	r := ecs.Resource[IDs](w)
	if r == nil {
		ecs.SetResource(w, RandomIDs())
		r = ecs.Resource[IDs](w)
	}
	if !r.set {
		taken := r.Taken
		*r = RandomIDs()
		r.Taken = taken
	}
	return r
}

// NewID returns a fresh id from the world's [IDs] generator (creating one if
// the world has none).
func NewID(w *ecs.World) uint64 { return ids(w).New() }

// SeedIDs makes the world's id generator reproducible: the ids it hands out
// from now on depend only on seed (for tests and tools such as
// `voltex-editor grid --seed`). Taken is kept.
func SeedIDs(w *ecs.World, seed uint64) {
	r := ids(w)
	taken := r.Taken
	*r = SeededIDs(seed)
	r.Taken = taken
}

// AssignID gives e a fresh [SceneID] (replacing the id of any it has, and
// keeping its order: call it on duplicated entities) and returns it. It
// panics if the scene components are not registered (call [Register]).
func AssignID(w *ecs.World, e ecs.Entity) uint64 {
	return assignID(w, e, ids(w).New())
}

func assignID(w *ecs.World, e ecs.Entity, id uint64) uint64 {
	cid := mustID[SceneID](w)
	sid := SceneID{ID: id}
	if v, ok := w.Get(e, cid); ok {
		sid.Order = v.(SceneID).Order
		if err := w.Set(e, cid, &sid); err != nil {
			panic("scene.AssignID: " + err.Error())
		}
		return id
	}
	if err := w.Add(e, cid, &sid); err != nil {
		panic("scene.AssignID: " + err.Error())
	}
	return id
}

// EnsureIDs gives a fresh [SceneID] to every live entity that has none (or
// zero), and to every entity but the first (lowest index) of a group sharing
// one id, so that ids are unique; then it returns all live entities in
// ascending id order (the order scene files list them in). When every id is
// there and unique it only reads the world: a save may call it on a world lent
// to it (ecs.World.Lend).
func EnsureIDs(w *ecs.World) []ecs.Entity {
	es, _ := EnsureIDsWith(w)
	return es
}

// EnsureIDsWith is [EnsureIDs] that also returns the entities' ids, in the same order.
func EnsureIDsWith(w *ecs.World) ([]ecs.Entity, []uint64) {
	type entry struct {
		id uint64
		e  ecs.Entity
	}
	m := ecs.NewMap[SceneID](w)
	entries := make([]entry, 0, w.Len())
	sorted := true
	var last uint64
	w.ReadEntities(func(e ecs.Entity) bool {
		v, _ := m.TryGet(e)
		if v.ID <= last {
			sorted = false
		}
		last = v.ID
		entries = append(entries, entry{v.ID, e})
		return true
	})
	byID := func(a, b entry) int {
		if c := cmp.Compare(a.id, b.id); c != 0 {
			return c
		}
		return cmp.Compare(a.e.Index(), b.e.Index())
	}
	if !sorted { // stable: equal ids stay in index order
		radix.SortFunc(entries, func(en entry) uint64 { return en.id })
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
	if len(need) == 0 {
		out, ids := make([]ecs.Entity, len(kept)), make([]uint64, len(kept))
		for i, en := range kept {
			out[i], ids[i] = en.e, en.id
		}
		return out, ids
	}
	// New ids are drawn in index order, skipping the kept ones.
	slices.SortFunc(need, func(a, b ecs.Entity) int { return cmp.Compare(a.Index(), b.Index()) })
	r := ids(w)
	keptIDs := kept
	taken := r.Taken
	r.Taken = func(id uint64) bool { // (the generator never repeats its own ids)
		if _, ok := slices.BinarySearchFunc(keptIDs, id, func(en entry, id uint64) int { return cmp.Compare(en.id, id) }); ok {
			return true
		}
		return taken != nil && taken(id)
	}
	added := make([]entry, 0, len(need))
	for _, e := range need {
		id := r.New()
		assignID(w, e, id)
		added = append(added, entry{id, e})
	}
	r.Taken = taken
	slices.SortFunc(added, byID)
	out := make([]ecs.Entity, 0, len(kept)+len(added))
	ids := make([]uint64, 0, len(kept)+len(added))
	i, j := 0, 0
	for i < len(kept) || j < len(added) {
		if j == len(added) || (i < len(kept) && kept[i].id < added[j].id) {
			out, ids = append(out, kept[i].e), append(ids, kept[i].id)
			i++
		} else {
			out, ids = append(out, added[j].e), append(ids, added[j].id)
			j++
		}
	}
	return out, ids
}

func mustID[T any](w *ecs.World) ecs.ComponentID {
	id, ok := ecs.ComponentIDOf[T](w)
	if !ok {
		panic("scene: the scene components are not registered with this world; call scene.Register(w) first")
	}
	return id
}

// State returns the generator's position (its key and next counter value): IDsAt of it hands out
// the same ids from there (the editor's journal records it to replay a spawn with the same ids).
func (r *IDs) State() (key, ctr uint64) { return r.key, r.ctr }

// IDsAt returns the generator at a position State returned.
func IDsAt(key, ctr uint64) IDs { return IDs{key: key, ctr: ctr & MaxID, set: true} }
