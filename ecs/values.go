package ecs

import (
	"fmt"
	"github.com/voltex-editor/voltex/internal/prefault"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Values holds the values of one component for several entities outside any world, in order: a
// column detached from its table, one slice of the component's type with no value boxed (what an
// editor's undo history keeps of deleted entities). Values made by CopyValues and stored into a
// world by SpawnValues are private copies (ComponentInfo.SharesMemory types are deep-copied both
// ways), so a Values can be spawned again and again. The zero Values holds nothing.
type Values struct {
	id     ComponentID
	t      reflect.Type
	ops    columnOps
	size   uintptr
	shares bool
	ptr    unsafe.Pointer // the first value of a []T of length n (keeps the slice alive)
	n      int
}

// NewValues returns n values of component id at the type's zero value (set them with Set).
func NewValues(w *World, id ComponentID, n int) Values {
	s := w.store(id)
	return Values{id: id, t: s.info.Type, ops: s.ops, size: s.size, shares: s.info.SharesMemory,
		ptr: s.ops.alloc(n), n: n}
}

// CopyValues returns component id of each entity of es, in order (private copies). Every entity
// must be alive and have the component; otherwise it returns an error and no values. It only reads
// w: calls for several components may run at once on other goroutines while w does not change.
func (w *World) CopyValues(id ComponentID, es []Entity) (Values, error) {
	if int(id) >= len(w.comps) {
		return Values{}, fmt.Errorf("ecs: component ID %d: %w", id, ErrUnknownComponent)
	}
	v := NewValues(w, id, len(es))
	prefault.Range(v.ptr, uintptr(v.n)*v.size) // written whole below
	for i := 0; i < len(es); {
		c, row, n, err := w.rowRun(es, i, id, "copy")
		if err != nil {
			return Values{}, err
		}
		if v.size != 0 {
			v.ops.deepCopy(v.at(i), c.at(row), n, v.shares)
		}
		i += n
	}
	return v, nil
}

// rowRun returns where component id of es[i] is, and how many of the entities from es[i] on are in the rows
// that follow its in the same column (a table's entities in their order: a delete of everything), to be read
// in one piece; or an error (op names the operation) if es[i] is dead or lacks the component.
func (w *World) rowRun(es []Entity, i int, id ComponentID, op string) (*column, uint32, int, error) {
	e := es[i]
	if !w.Alive(e) {
		return nil, 0, 0, fmt.Errorf("ecs: %s %s of %v: %w", op, w.comps[id].info.Name, e, ErrDeadEntity)
	}
	c, row, ok := w.locate(e, id)
	if !ok {
		return nil, 0, 0, fmt.Errorf("ecs: %s %s of %v: %w", op, w.comps[id].info.Name, e, ErrNoComponent)
	}
	n := 1
	for i+n < len(es) && w.Alive(es[i+n]) {
		c2, row2, ok := w.locate(es[i+n], id)
		if !ok || c2 != c || row2 != row+uint32(n) {
			break
		}
		n++
	}
	return c, row, n, nil
}

// SameValues returns, in increasing order, the indexes i of es whose component (that of vals) equals
// value i of vals, compared as memory, without copying the world's values (an editor asks which of a
// million values an edit left as they were). It is for plain types: a type holding pointers or
// strings is an error (ErrNotPlain), since equal contents need not be equal memory. Every entity
// must be alive and have the component, and es must be as long as vals.
func (w *World) SameValues(es []Entity, vals Values) ([]int, error) {
	id := vals.id
	if int(id) >= len(w.comps) || w.comps[id].info.Type != vals.t {
		return nil, fmt.Errorf("ecs: compare values of component %d: %w (not this world's)", id, ErrUnknownComponent)
	}
	name := w.comps[id].info.Name
	if typeHasPointers(vals.t) {
		return nil, fmt.Errorf("ecs: compare values of %s: %w", name, ErrNotPlain)
	}
	if len(es) != vals.n {
		return nil, fmt.Errorf("ecs: compare %d values of %s with %d entities", vals.n, name, len(es))
	}
	var same []int
	for i := 0; i < len(es); {
		c, row, n, err := w.rowRun(es, i, id, "compare")
		if err != nil {
			return nil, err
		}
		size := int(vals.size)
		a := unsafe.Slice((*byte)(c.at(row)), n*size)
		b := unsafe.Slice((*byte)(vals.at(i)), n*size)
		if size == 0 || string(a) == string(b) {
			for k := range n {
				same = append(same, i+k)
			}
		} else {
			for k := range n {
				if string(a[k*size:(k+1)*size]) == string(b[k*size:(k+1)*size]) {
					same = append(same, i+k)
				}
			}
		}
		i += n
	}
	return same, nil
}

// put copies one value from src to dst (deep if the type shares memory).
func (v *Values) put(dst, src unsafe.Pointer) {
	switch {
	case v.size == 0:
	case v.shares:
		v.ops.deepCopy(dst, src, 1, true)
	default:
		v.ops.move(dst, src)
	}
}

func (v *Values) at(i int) unsafe.Pointer { return unsafe.Add(v.ptr, uintptr(i)*v.size) }

// Component returns the component the values are of.
func (v Values) Component() ComponentID { return v.id }

// Len returns the number of values.
func (v Values) Len() int { return v.n }

// Bytes returns the memory the values take in place (len × the type's size; what slices, maps and
// strings inside them point to is not counted).
func (v Values) Bytes() int { return v.n * int(v.size) }

// At returns a copy of value i (a T).
func (v Values) At(i int) any {
	v.check(i)
	if v.shares {
		return deepCopyValue(v.Value(i)).Interface()
	}
	return v.ops.load(v.at(i))
}

// Value returns value i itself as an addressable reflect.Value (changes to it change the Values).
func (v Values) Value(i int) reflect.Value {
	v.check(i)
	return reflect.NewAt(v.t, v.at(i)).Elem()
}

// Set stores x (a T or *T; a private copy is made) as value i. It reports false, storing nothing,
// if x has another type.
func (v Values) Set(i int, x any) bool {
	v.check(i)
	if !typeMatches(x, v.t) {
		return false
	}
	if v.size == 0 {
		return true
	}
	if !v.ops.store(v.at(i), x) {
		return false
	}
	if v.shares {
		v.ops.deepCopy(v.at(i), v.at(i), 1, true)
	}
	return true
}

func (v *Values) check(i int) {
	if i < 0 || i >= v.n {
		panic(fmt.Sprintf("ecs: value %d of %d: index out of range", i, v.n))
	}
}

// SpawnValues creates one entity for each row lo…hi-1 of cols (all of the same length, each of a
// different, non-computed component of w) with exactly those components (and their companions at
// their defaults: Transform brings GlobalTransform), row i's values being cols[k].At(i); it
// returns the entities by row. They take the free entity slots as Spawn would if it were called
// last row first (the slots last freed go to the last rows), so entities despawned in row order
// come back in the slots they had; their table holds them in row order.
func (w *World) SpawnValues(cols []Values, lo, hi int) []Entity {
	w.checkStructural("spawn entities")
	var m, all mask
	for _, c := range cols {
		if int(c.id) >= len(w.comps) || w.comps[c.id].info.Type != c.t {
			panic(fmt.Sprintf("ecs: SpawnValues got values of component %d that are not this world's; make them with this world's CopyValues or NewValues", c.id))
		}
		if lo < 0 || hi > c.n || lo > hi {
			panic(fmt.Sprintf("ecs: SpawnValues rows %d…%d of %d values", lo, hi, c.n))
		}
		s := w.comps[c.id]
		if all.has(c.id) {
			panic(fmt.Sprintf("ecs: SpawnValues got two columns of component %s; pass each component once", s.info.Name))
		}
		if s.info.Computed {
			panic(fmt.Sprintf("ecs: component %s is computed by the world and cannot be spawned", s.info.Name))
		}
		all.set(c.id)
	}
	var extra []ComponentID
	for _, c := range cols {
		for _, r := range w.comps[c.id].requires {
			if !all.has(r) {
				all.set(r)
				extra = append(extra, r)
			}
		}
	}
	for _, c := range cols {
		if w.comps[c.id].sparse == nil {
			m.set(c.id)
		}
	}
	for _, id := range extra {
		if w.comps[id].sparse == nil {
			m.set(id)
		}
	}
	t := w.tableFor(m)
	n := hi - lo
	t.ensure(n)
	reuse := w.free[len(w.free)-min(n, len(w.free)):] // the slots of the last rows, in row order
	fresh := n - len(reuse)
	out := make([]Entity, n)
	if spawnValuesByColumn && !w.anySparse(cols, extra) {
		w.spawnColumns(t, cols, extra, lo, hi, reuse, out)
		w.free = w.free[:len(w.free)-len(reuse)]
		return out
	}
	for i := lo; i < hi; i++ {
		e, row := w.spawnSlot(t, reuse, i-lo-fresh)
		for k := range cols {
			c := &cols[k]
			dst, r := w.place(e, w.comps[c.id], t, row)
			c.put(dst.at(r), c.at(i))
		}
		for _, id := range extra {
			w.placeDefault(e, w.comps[id], t, row)
		}
		out[i-lo] = e
	}
	w.free = w.free[:len(w.free)-len(reuse)]
	return out
}

// spawnValuesByColumn lets SpawnValues write whole columns (a test turns it off to compare with a row at a time).
var spawnValuesByColumn = true

// anySparse reports whether a column of cols or a companion in extra is stored in a sparse set.
func (w *World) anySparse(cols []Values, extra []ComponentID) bool {
	for _, c := range cols {
		if w.comps[c.id].sparse != nil {
			return true
		}
	}
	for _, id := range extra {
		if w.comps[id].sparse != nil {
			return true
		}
	}
	return false
}

// spawnColumns is SpawnValues into table t when every component lives in tables: the entities first, then each
// column's values copied and its ticks stamped in one go (a restored million is a few copies, not a million calls
// per component).
func (w *World) spawnColumns(t *table, cols []Values, extra []ComponentID, lo, hi int, reuse []uint32, out []Entity) {
	n := hi - lo
	row0 := uint32(len(t.entities))
	w.spawnSlots(t, reuse, out)
	row1 := row0 + uint32(n)
	tick := w.tick
	// Each column is its own (and its component's): many rows are written on every core.
	fillColumn := func(k int) {
		if k < len(cols) {
			v := &cols[k]
			c := w.comps[v.id].cols[t.index]
			c.setTicksRange(row0, row1, tick)
			if v.size != 0 && n > 0 {
				v.ops.deepCopy(c.at(row0), v.at(lo), n, v.shares)
			}
			return
		}
		c := w.comps[extra[k-len(cols)]].cols[t.index]
		c.setTicksRange(row0, row1, tick)
		if c.size != 0 {
			for r := row0; r < row1; r++ {
				c.ops.setDefault(c.at(r))
			}
		}
	}
	forEachColumn(len(cols)+len(extra), n, fillColumn)
}

// parallelRows is the number of rows from which spawnColumns writes its columns on several goroutines (a variable
// for tests).
var parallelRows = 1 << 12

// forEachColumn calls fn for 0…m-1, on up to GOMAXPROCS goroutines when the columns have n ≥ parallelRows rows.
func forEachColumn(m, n int, fn func(k int)) {
	workers := min(runtime.GOMAXPROCS(0), m)
	if n < parallelRows || workers < 2 {
		for k := range m {
			fn(k)
		}
		return
	}
	var next atomic.Int32
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for k := int(next.Add(1)) - 1; k < m; k = int(next.Add(1)) - 1 {
				fn(k)
			}
		})
	}
	wg.Wait()
}

// spawnSlots makes len(out) live entities in new rows of t, into out: the last len(reuse) in the slots of reuse, in
// order, the first ones in new slots.
func (w *World) spawnSlots(t *table, reuse []uint32, out []Entity) {
	fresh := len(out) - len(reuse)
	for i := range out {
		out[i], _ = w.spawnSlot(t, reuse, i-fresh)
	}
}

// spawnSlot makes a live entity in a new row of t: in slot reuse[j], or a new slot when j < 0.
func (w *World) spawnSlot(t *table, reuse []uint32, j int) (Entity, uint32) {
	var idx uint32
	if j >= 0 {
		idx = reuse[j]
	} else {
		idx = uint32(len(w.records))
		w.records = append(w.records, record{})
	}
	e := Entity{index: idx, gen: w.records[idx].gen}
	row := t.pushEntity(e)
	r := &w.records[idx]
	r.table, r.row = t.index, row
	w.alive++
	w.hier.changed(idx)
	return e, row
}
