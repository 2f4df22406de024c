package doc

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// pack is entities held by the history — what undoing a delete restores, what redoing a spawn,
// paste or duplicate spawns again — compactly: the entities (in preorder) are grouped by their set
// of components, and each group keeps each component in one column (ecs.Values: one slice of the
// component's type, nothing boxed), so a cube costs about its components' own bytes plus its two
// ids; entSnap, a slice of boxed values per entity, cost about 600 bytes a cube.
type pack struct {
	ids     []uint64 // scene ids, in preorder
	parents []uint64 // the parents' scene ids (0: a root)
	runs    []packRun
	groups  []packGroup
	// srcs: for the entities of prefab instances, what they were made from when they were taken
	// (see entSnap.src), by entity index.
	srcs map[int]serialize.PrefabSource
	// bytes is what the pack holds, counted once when it is made (see size).
	bytes int
	// lent: restorePack gave the storage of some group back to the world's table (see packGroup.det); the pack
	// no longer holds those values until a despawn of its entities takes it back (takeBack).
	lent bool
}

// packRun is consecutive entities of one group: entities at…at+n-1 are rows row…row+n-1 of
// groups[group].
type packRun struct{ group, at, n, row int }

// packGroup is the entities of a pack having one set of components.
type packGroup struct {
	cids []ecs.ComponentID // sorted
	cols []ecs.Values      // by cids index
	// refs, by cids index (nil for a component without entity references), by row: the scene ids
	// of the value's references in walk order (its ecs.Entity fields are zeroed), as compVal.refs.
	refs [][][]uint64
	n    int
	// det: the group's entities were every entity of one table, whose storage their despawn moved into the
	// pack (cols are its values); restoring them all at once gives it back to the table.
	det *ecs.Detached
	// back: the entities restorePack gave the storage back to (det and cols are then nil), in row order, until
	// takeBack takes it again.
	back []ecs.Entity
}

var errWrongType = errors.New("a snapshot's value has another type than its component")

func (p *pack) len() int { return len(p.ids) }

// group returns the index of the group with components cids (sorted), adding it if need be.
func (p *pack) group(cids []ecs.ComponentID) int {
	if k := len(p.groups) - 1; k >= 0 && slices.Equal(p.groups[k].cids, cids) {
		return k
	}
	for k := range p.groups {
		if slices.Equal(p.groups[k].cids, cids) {
			return k
		}
	}
	p.groups = append(p.groups, packGroup{cids: slices.Clone(cids)})
	return len(p.groups) - 1
}

// add puts entity i (the one after the last added) in group g and returns its row there.
func (p *pack) add(g, i int) int {
	gr := &p.groups[g]
	row := gr.n
	gr.n++
	if k := len(p.runs) - 1; k >= 0 && p.runs[k].group == g && p.runs[k].row+p.runs[k].n == row {
		p.runs[k].n++
	} else {
		p.runs = append(p.runs, packRun{group: g, at: i, n: 1, row: row})
	}
	return row
}

// where returns the group and row of entity i.
func (p *pack) where(i int) (int, int) {
	k, _ := slices.BinarySearchFunc(p.runs, i, func(r packRun, i int) int {
		switch {
		case r.at+r.n <= i:
			return -1
		case r.at > i:
			return 1
		}
		return 0
	})
	r := p.runs[k]
	return r.group, r.row + i - r.at
}

// roots returns the ids of the entities whose parent is not in the pack.
func (p *pack) roots() []uint64 {
	var in map[uint64]bool                 // the pack's ids, made at the first entity that has a parent
	roots := make([]uint64, 0, len(p.ids)) // room for all at once (a flat million: all roots)
	for i, id := range p.ids {
		if pid := p.parents[i]; pid != 0 && in == nil {
			in = make(map[uint64]bool, len(p.ids))
			for _, id := range p.ids {
				in[id] = true
			}
		}
		if p.parents[i] == 0 || !in[p.parents[i]] {
			roots = append(roots, id)
		}
	}
	if len(roots) < cap(roots)/2 { // kept by the history: not the room for all
		roots = slices.Clone(roots)
	}
	return roots
}

// packOf takes live entities es (in preorder, parents before children) into a pack, without
// changing them. Computed components are left out.
func (d *core) packOf(es []ecs.Entity) *pack {
	p, members := d.planPack(es)
	copyColumns(d.world, p, members, nil)
	d.packRefs(p)
	p.count()
	return p
}

// planPack groups live entities es (in preorder) into a pack with no values yet, and returns each group's
// entities, in order.
func (d *core) planPack(es []ecs.Entity) (*pack, [][]ecs.Entity) {
	w := d.world
	p := &pack{ids: make([]uint64, len(es)), parents: make([]uint64, len(es))}
	var cids []ecs.ComponentID
	var members [][]ecs.Entity // by group; nil while all are in the first (es itself: a million cubes alike)
	for i, e := range es {
		p.ids[i], p.parents[i] = d.idOf(e), d.idOf(w.Parent(e))
		cids = w.AppendComponents(cids[:0], e)
		cids = slices.DeleteFunc(cids, func(c ecs.ComponentID) bool { return d.compType(c).info.Computed })
		g := p.group(cids)
		p.add(g, i)
		if members == nil {
			if g == 0 {
				continue
			}
			members = [][]ecs.Entity{slices.Clone(es[:i])}
		}
		if g == len(members) {
			members = append(members, nil)
		}
		members[g] = append(members[g], e)
	}
	if members == nil && len(es) > 0 {
		members = [][]ecs.Entity{es}
	}
	for g := range p.groups {
		gr := &p.groups[g]
		gr.cols = make([]ecs.Values, len(gr.cids))
		gr.refs = make([][][]uint64, len(gr.cids))
	}
	return p, members
}

// packRefs notes the scene ids of the entity references in the values of p's columns and zeroes them there
// (see packGroup.refs). The referenced entities must be alive.
func (d *core) packRefs(p *pack) {
	for g := range p.groups {
		gr := &p.groups[g]
		for k, cid := range gr.cids {
			v := gr.cols[k]
			if d.compType(cid).refs {
				gr.refs[k] = make([][]uint64, v.Len())
				for row := range v.Len() {
					ids := []uint64{}
					walkRefs(v.Value(row), func(r *ecs.Entity) {
						ids = append(ids, d.idOf(*r))
						*r = ecs.Entity{}
					})
					gr.refs[k][row] = ids
				}
			}
		}
	}
}

// canTakeBack reports whether despawning all (in preorder), the entities of lent pack p, can take back the storage
// p gave the world (see takeBack): they are as many as p's, and those of each group that gave its storage are
// still every entity of their table, in its order. Between an undo and its redo nothing changes them.
func (d *core) canTakeBack(p *pack, all []ecs.Entity) bool {
	if !p.lent || len(all) != p.len() {
		return false
	}
	for g := range p.groups {
		if gr := &p.groups[g]; gr.back != nil && !d.world.WholeTable(gr.back) {
			return false
		}
	}
	return true
}

// takeBack despawns all, the entities of lent pack p (canTakeBack holds), moving the storage of its tables back
// into p: p holds its values again, the same as a pack made of them anew, without the copy of its ids.
func (d *core) takeBack(p *pack, all []ecs.Entity) {
	var lists [][]ecs.Entity
	var groups []int
	for g := range p.groups {
		if gr := &p.groups[g]; gr.back != nil {
			lists = append(lists, gr.back)
			groups = append(groups, g)
		}
	}
	dets, err := d.world.DespawnDetach(all, lists)
	mustOK(err) // canTakeBack checked the tables, and nothing changed them since
	for k, g := range groups {
		p.groups[g].hold(dets[k])
	}
	p.lent = false
	d.recount(p)
}

// hold makes det, the storage of the group's table moved out by their despawn, the group's values.
func (gr *packGroup) hold(det *ecs.Detached) {
	gr.det, gr.back = det, nil
	gr.cols = make([]ecs.Values, len(gr.cids))
	for i, cid := range gr.cids {
		v, ok := det.Values(cid)
		if !ok {
			mustOK(fmt.Errorf("detached table has no column of component %d", cid))
		}
		gr.cols[i] = v
	}
}

// otherGroups returns the groups of p that are not in whole.
func otherGroups(p *pack, whole []int) []int {
	out := []int{}
	for g := range p.groups {
		if !slices.Contains(whole, g) {
			out = append(out, g)
		}
	}
	return out
}

// wholeGroups returns the groups of p (members: their entities) whose storage a despawn of them may move into
// the pack instead of copying it (see ecs.World.DespawnDetach): all the entities of one table, in its row order,
// with no entity references to note and no prefab instance's parts (whose values rebasePack reads after a
// restore).
func (d *core) wholeGroups(p *pack, members [][]ecs.Entity) []int {
	w := d.world
	part, hasPart := ecs.ComponentIDOf[scene.PrefabPart](w)
	var out []int
	for g := range p.groups {
		gr := &p.groups[g]
		if len(members[g]) == 0 || slices.ContainsFunc(gr.cids, func(c ecs.ComponentID) bool {
			return d.compType(c).refs || (hasPart && c == part)
		}) {
			continue
		}
		if w.WholeTable(members[g]) {
			out = append(out, g)
		}
	}
	return out
}

// despawnPack despawns es, the entities of p (members: by group) whose values are still to be taken for the
// groups whole (see wholeGroups): their tables' storage moves into the pack, or, should the world refuse,
// their values are copied first.
func (d *core) despawnPack(p *pack, members [][]ecs.Entity, whole []int, es []ecs.Entity) {
	w := d.world
	if len(whole) == 0 {
		w.DespawnAll(es)
		return
	}
	lists := make([][]ecs.Entity, len(whole))
	for k, g := range whole {
		lists[k] = members[g]
	}
	dets, err := w.DespawnDetach(es, lists)
	if err != nil {
		copyColumns(w, p, members, whole)
		w.DespawnAll(es)
		return
	}
	for k, g := range whole {
		p.groups[g].hold(dets[k])
	}
}

// parallelCopy is how many values packOf copies from one goroutine before it shares the copying out.
const parallelCopy = 1 << 16

// copyColumns copies the values of each group's entities (members) into the group's columns, a component at a time,
// on as many goroutines as there are processors when there are many (a delete of a million cubes: about 100 MB
// into fresh pages, whose faults are most of the time). It copies the groups listed, or all for nil.
func copyColumns(w *ecs.World, p *pack, members [][]ecs.Entity, groups []int) {
	type job struct{ g, k int }
	var jobs []job
	n := 0
	for g := range p.groups {
		if groups != nil && !slices.Contains(groups, g) {
			continue
		}
		for k := range p.groups[g].cids {
			jobs = append(jobs, job{g, k})
			n += len(members[g])
		}
	}
	run := func(j job) error {
		gr := &p.groups[j.g]
		v, err := w.CopyValues(gr.cids[j.k], members[j.g])
		gr.cols[j.k] = v
		return err
	}
	workers := min(runtime.GOMAXPROCS(0), len(jobs))
	if n < parallelCopy || workers < 2 {
		for _, j := range jobs {
			mustOK(run(j))
		}
		return
	}
	next := make(chan job, len(jobs))
	for _, j := range jobs {
		next <- j
	}
	close(next)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			for j := range next {
				if err := run(j); err != nil && errs[i] == nil {
					errs[i] = err
				}
			}
		})
	}
	wg.Wait()
	mustOK(errors.Join(errs...))
}

// packSnaps puts snapshots (in preorder) into a pack.
func (d *core) packSnaps(snaps []entSnap) *pack {
	p := &pack{ids: make([]uint64, len(snaps)), parents: make([]uint64, len(snaps))}
	var cids []ecs.ComponentID
	at := make([]int, len(snaps)) // rows
	for i := range snaps {
		s := &snaps[i]
		p.ids[i], p.parents[i] = s.id, s.parent
		cids = cids[:0]
		for _, c := range s.comps {
			cids = append(cids, c.id)
		}
		slices.Sort(cids)
		at[i] = p.add(p.group(cids), i)
		if s.src.Known() {
			if p.srcs == nil {
				p.srcs = map[int]serialize.PrefabSource{}
			}
			p.srcs[i] = s.src
		}
	}
	for g := range p.groups {
		gr := &p.groups[g]
		gr.cols = make([]ecs.Values, len(gr.cids))
		gr.refs = make([][][]uint64, len(gr.cids))
		for k, cid := range gr.cids {
			gr.cols[k] = ecs.NewValues(d.world, cid, gr.n)
			if d.compType(cid).refs {
				gr.refs[k] = make([][]uint64, gr.n)
			}
		}
	}
	for _, r := range p.runs {
		gr := &p.groups[r.group]
		for i := r.at; i < r.at+r.n; i++ {
			for _, c := range snaps[i].comps {
				k, _ := slices.BinarySearch(gr.cids, c.id)
				if !gr.cols[k].Set(at[i], c.v) {
					mustOK(errWrongType)
				}
				if gr.refs[k] != nil {
					gr.refs[k][at[i]] = c.refs
				}
			}
		}
	}
	p.count()
	return p
}

// snap returns entity i of the pack as an entSnap (values boxed: for the few entities that need it).
func (p *pack) snap(i int) entSnap {
	g, row := p.where(i)
	gr := &p.groups[g]
	s := entSnap{id: p.ids[i], parent: p.parents[i], src: p.srcs[i]}
	for k, cid := range gr.cids {
		c := compVal{id: cid, v: gr.cols[k].At(row)}
		if gr.refs[k] != nil {
			c.refs = gr.refs[k][row]
		}
		s.comps = append(s.comps, c)
	}
	return s
}

// recount counts p again (count) after it gave its storage to the world or took it back, adding the change to
// d.packGrew.
func (d *core) recount(p *pack) {
	old := p.bytes
	p.count()
	d.packGrew += p.bytes - old
}

// srcBytes is what a pack counts for each prefab source it keeps.
const srcBytes = 64

// count sets p.bytes: the pack's slices and detached tables, and what the values point to (strings, slices),
// estimated from up to 64 values of each column.
func (p *pack) count() {
	n := 16*len(p.ids) + int(unsafe.Sizeof(packRun{}))*len(p.runs) + srcBytes*len(p.srcs)
	for _, gr := range p.groups {
		n += 8 * len(gr.back)
		if gr.det != nil {
			n += gr.det.Bytes() // the table's storage, room and ticks included
		}
		for k, col := range gr.cols {
			if gr.det == nil {
				n += col.Bytes()
			}
			if gr.refs[k] != nil {
				for _, r := range gr.refs[k] {
					n += 24 + 8*len(r)
				}
			}
			if m := col.Len(); m > 0 && ecs.PointsTo(col.Value(0).Type()) {
				step := max(1, m/64)
				sum, k := 0, 0
				for row := 0; row < m; row += step {
					sum += ecs.HeldBytes(col.Value(row))
					k++
				}
				n += sum * m / k
			}
		}
	}
	p.bytes = n
}

// restorePack spawns the entities of p with their recorded scene ids, links them to their parents
// and puts the children of each parent in order back in the recorded order (parents not listed in
// order get their restored children appended), then gives the holders their recorded values back.
// It returns the new handles, by entity index. A group holding a table's storage gives it back (see pack.lent).
func (d *core) restorePack(p *pack, order []siblings, holders []heldRef) []ecs.Entity {
	w := d.world
	es := make([]ecs.Entity, p.len())
	lent := p.lent
	// Last run first: the free entity slots are reused last-freed first, so entities come back in
	// the slots they were removed from (SpawnValues gives a run's last rows the last freed).
	for k := len(p.runs) - 1; k >= 0; k-- {
		r := p.runs[k]
		gr := &p.groups[r.group]
		if gr.det != nil && r.row == 0 && r.n == gr.n {
			copy(es[r.at:], w.SpawnDetached(gr.det))
			gr.det, gr.cols, gr.back = nil, nil, slices.Clone(es[r.at:r.at+r.n]) // es goes to hintRoots, which sorts it
			p.lent = true
			continue
		}
		copy(es[r.at:], w.SpawnValues(gr.cols, r.row, r.row+r.n))
	}
	if p.lent && !lent {
		d.recount(p)
	}
	if len(p.ids) >= asyncIndexFill && d.indexLen() == 0 {
		d.fillIndexBeside(p.ids, es)
	} else {
		// One allocation rather than the map growing step by step, unless it has the room already.
		index := d.byID()
		if n := len(index) + len(p.ids); len(p.ids) > len(index) && n > d.byIDRoom {
			index = make(map[uint64]ecs.Entity, n)
			maps.Copy(index, d.byID())
			d.setIndex(index, n)
		}
		for i, id := range p.ids {
			index[id] = es[i]
		}
		d.byIDRoom = max(d.byIDRoom, len(index))
	}
	d.structure++
	for _, r := range p.runs {
		gr := &p.groups[r.group]
		for k, refs := range gr.refs {
			if refs == nil {
				continue
			}
			for j := range r.n {
				if row := r.row + j; len(refs[row]) > 0 {
					c := compVal{id: gr.cids[k], v: gr.cols[k].At(row), refs: refs[row]}
					mustOK(w.Set(es[r.at+j], c.id, d.value(c, true)))
				}
			}
		}
	}
	ordered := make(map[uint64]bool, len(order))
	for _, o := range order {
		ordered[o.parent] = true
	}
	var links []ecs.ParentLink
	for i, pid := range p.parents {
		if pid == 0 || ordered[pid] {
			continue
		}
		if pe, ok := d.entity(pid); ok {
			links = append(links, ecs.ParentLink{Child: es[i], Parent: pe})
		}
	}
	mustOK(w.SetParents(links))
	for _, o := range order {
		if pe, ok := d.entity(o.parent); ok {
			d.setChildren(pe, d.entitiesOf(o.children))
		}
	}
	for _, h := range holders {
		mustOK(d.setState(h.id, h.val.id, compState{has: true, val: h.val}))
	}
	return es
}

// size returns the bytes a removal holds.
func (rm *removal) size() int {
	n := 0
	if rm.pack != nil {
		n = rm.pack.bytes
	}
	for _, o := range rm.order {
		n += 32 + 8*len(o.children)
	}
	for _, h := range rm.holders {
		n += 64 + 8*len(h.val.refs) + ecs.HeldBytes(reflect.ValueOf(h.val.v))
	}
	return n
}

// captureBasesPack notes in p (entities es, alive in the world, by index) the prefab sources of
// those that are entities of instances (as SourcesOf finds them).
func (d *core) captureBasesPack(p *pack, es []ecs.Entity) {
	pc, ok := ecs.ComponentIDOf[scene.PrefabPart](d.world)
	if !ok {
		return
	}
	var in []ecs.Entity
	var at []int
	for _, r := range p.runs {
		if _, has := slices.BinarySearch(p.groups[r.group].cids, pc); !has {
			continue
		}
		for i := r.at; i < r.at+r.n; i++ {
			in, at = append(in, es[i]), append(at, i)
		}
	}
	if len(in) == 0 {
		return
	}
	had := len(p.srcs)
	for k, src := range serialize.SourcesOf(d.scene(), in) {
		if src.Known() {
			if p.srcs == nil {
				p.srcs = map[int]serialize.PrefabSource{}
			}
			p.srcs[at[k]] = src
		}
	}
	p.bytes += srcBytes * (len(p.srcs) - had)
}

// rebasePack rebases the entities of p just restored whose prefab changed since they were taken
// (see rebaseSnaps).
func (d *core) rebasePack(p *pack) {
	if len(p.srcs) == 0 {
		return
	}
	at := slices.Sorted(maps.Keys(p.srcs))
	snaps := make([]entSnap, len(at))
	for k, i := range at {
		snaps[k] = p.snap(i)
	}
	d.rebaseSnaps(snaps)
}
