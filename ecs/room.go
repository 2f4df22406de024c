package ecs

import (
	"context"
	"github.com/voltex-editor/voltex/internal/prefault"
	"unsafe"
)

// Room is storage for more rows of one table, made ahead of a big batch spawn so that the spawn itself writes
// into memory that is already in place. Growing a table for a batch allocates every column anew at the new
// capacity, and the first writes to that memory fault its pages in (on some machines a page fault costs tens of
// microseconds: a 100,000-entity spawn beside 100,000 more touches about 46 MB of new pages); with a Room that
// work happens where the caller chooses (a background goroutine, while the user still looks at a preview) and the
// spawn on the world's goroutine only copies the table's rows over.
//
// Use it in three steps:
//
//	r := m.PlanRoom(n)  // on the world's goroutine: which table, and how big it must become
//	go r.Make(ctx)      // on any goroutine: allocates the new columns and touches their pages
//	w.UseRoom(r)        // on the world's goroutine, just before m.SpawnBatch(n, …)
//
// A Room never holds anything of the world's but the plan: if the table grew or changed meanwhile, UseRoom
// ignores it (and the spawn grows the table as it would have), so a stale Room costs only its memory. A Room is
// used at most once.
type Room struct {
	w    *World
	t    *table
	from int // the table's capacity when planned
	cap  int // its capacity once the room is used
	ops  []columnOps
	size []uintptr

	made     bool
	ptrs     []unsafe.Pointer // per column: cap values
	added    [][]uint32
	changed  [][]uint32
	entities []Entity
}

// planRoom plans room for n more rows in the table m spawns into (see Room).
func (m *mapN) planRoom(n int) *Room {
	if m.spawnT == nil {
		m.initSpawn()
	}
	return m.w.planRoom(m.spawnT, n)
}

// PlanRoom plans room for n more entities of T alone (see Room): nil when the table has room for them already or
// n is not positive.
func (m *Map[T]) PlanRoom(n int) *Room { return m.w.planRoom(m.table(), n) }

// planRoom plans room for n more rows in t: nil when t has room for them already, or when n is not positive.
func (w *World) planRoom(t *table, n int) *Room {
	if n <= 0 {
		return nil
	}
	need := len(t.entities) + n
	if need <= t.cap {
		return nil
	}
	r := &Room{w: w, t: t, from: t.cap, cap: grownCap(t.cap, need)}
	for _, c := range t.cols {
		r.ops = append(r.ops, c.ops)
		r.size = append(r.size, c.size)
	}
	return r
}

// Len returns how many rows the table holds once the room is used (0 for a nil Room).
func (r *Room) Len() int {
	if r == nil {
		return 0
	}
	return r.cap
}

// Make allocates the room's columns and touches every page of them, so that the memory is in place before the
// spawn. It may run on any goroutine (it reads nothing of the world), before UseRoom. It stops early, leaving the
// room unmade, once ctx is done (checked every few MB), and reports whether the room is made. A nil Room makes
// nothing.
func (r *Room) Make(ctx context.Context) bool {
	if r == nil {
		return false
	}
	if r.made {
		return true
	}
	n := r.cap
	ptrs := make([]unsafe.Pointer, len(r.ops))
	added := make([][]uint32, len(r.ops))
	changed := make([][]uint32, len(r.ops))
	for i, ops := range r.ops {
		ptrs[i] = ops.alloc(n)
		added[i] = make([]uint32, n)
		changed[i] = make([]uint32, n)
		if (r.size[i] != 0 && !touch(ctx, ptrs[i], uintptr(n)*r.size[i])) ||
			!touch(ctx, unsafe.Pointer(&added[i][0]), uintptr(n)*4) ||
			!touch(ctx, unsafe.Pointer(&changed[i][0]), uintptr(n)*4) {
			return false
		}
	}
	entities := make([]Entity, 0, n)
	if !touch(ctx, unsafe.Pointer(unsafe.SliceData(entities[:1])), uintptr(n)*unsafe.Sizeof(Entity{})) {
		return false
	}
	r.ptrs, r.added, r.changed, r.entities, r.made = ptrs, added, changed, entities, true
	return true
}

// touch writes a zero byte into every 4 KiB page of the n bytes at p (which are zero already): the first write to
// fresh memory is what faults its page in. Writing zero over zero changes no value, pointer words included. It
// reports false, having stopped, once ctx is done (checked every 4 MiB).
func touch(ctx context.Context, p unsafe.Pointer, n uintptr) bool {
	const page, check = 4096, 4 << 20
	for off := uintptr(0); off < n; off += page {
		if off%check == 0 {
			if ctx.Err() != nil {
				return false
			}
			prefault.Range(unsafe.Add(p, off), min(check, n-off)) // the block's pages in one call
		}
		*(*byte)(unsafe.Add(p, off)) = 0
	}
	return true
}

// UseRoom gives the table r was planned for the storage r made (see Room): its rows are copied into r's columns,
// which then are the table's, with r's capacity. It reports whether it did; it does nothing (and r keeps its
// memory until dropped) when r is nil, was not made, was used already, is another world's, or the table's
// capacity changed since r was planned. Call it on the world's goroutine, outside queries (like a spawn).
func (w *World) UseRoom(r *Room) bool {
	if r == nil || !r.made || r.w != w {
		return false
	}
	t := r.t
	if t.cap != r.from || len(t.entities) > r.cap || len(t.cols) != len(r.ptrs) {
		return false
	}
	w.checkStructural("use a Room")
	n := len(t.entities)
	np := pagesFor(r.cap)
	for i, c := range t.cols {
		if c.ops != r.ops[i] {
			return false // cannot happen: a table's columns are fixed when it is made
		}
	}
	for i, c := range t.cols {
		if n > 0 && c.size != 0 {
			c.ops.deepCopy(r.ptrs[i], c.ptr, n, false)
		}
		c.ptr = r.ptrs[i]
		copy(r.added[i], c.added[:n])
		copy(r.changed[i], c.changed[:n])
		c.added, c.changed = r.added[i], r.changed[i]
		c.pageChanged = growSlice(c.pageChanged, np)
		c.pageOlder = growSlice(c.pageOlder, np)
		c.pageMask = growSlice(c.pageMask, np)
		c.pageAdded = growSlice(c.pageAdded, np)
	}
	t.entities = append(r.entities, t.entities...)
	t.cap = r.cap
	r.made, r.ptrs, r.added, r.changed, r.entities = false, nil, nil, nil, nil
	r.t, r.w = nil, nil
	return true
}
