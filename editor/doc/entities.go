package doc

import (
	"fmt"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// removeIDs removes the subtrees of the given top-level entities.
func (d *core) removeIDs(ids []uint64) error {
	_, err := d.removeIDsKeeping(ids, keepNothing, nil)
	return err
}

// removeIDsKeeping removes the subtrees of the given top-level entities and returns what keep says of them (see
// removeTrees for lent).
func (d *core) removeIDsKeeping(ids []uint64, keep keepMode, lent *pack) (removal, error) {
	es := make([]ecs.Entity, len(ids))
	for i, id := range ids {
		e, ok := d.entity(id)
		if !ok {
			return removal{}, fmt.Errorf("%w: scene id %d", ErrNoEntity, id)
		}
		es[i] = e
	}
	return d.removeTrees(es, keep, lent), nil
}

// idAlloc returns the world's scene id generator; it skips ids the document already uses.
func (d *core) idAlloc() *scene.IDs {
	r := ecs.Resource[scene.IDs](d.world)
	if r == nil {
		ecs.SetResource(d.world, scene.RandomIDs())
		r = ecs.Resource[scene.IDs](d.world)
	}
	if !d.takenSet {
		// Set once per world (a cloned world may carry another document's function).
		r.Taken = func(id uint64) bool { _, used := d.byID()[id]; return used }
		d.takenSet = true
	}
	return r
}

// forJob returns w, a copy of the edit world for a job on another goroutine (a save, an export, the journal's
// base), without the document's hook in its id generator: the hook reads the document's index, which only the
// loop's goroutine may. The copy's ids are its own (scene.EnsureIDs checks new ones against them).
func forJob(w *ecs.World) *ecs.World {
	if r := ecs.Resource[scene.IDs](w); r != nil {
		r.Taken = nil
	}
	return w
}

// newID hands out a fresh scene id: random (see scene.IDs), never one in use.
func (d *core) newID() uint64 { return d.idAlloc().New() }

// insertTrees runs an insert command for snaps (ids already fresh) and selects its roots.
func (d *scope) insertTrees(name string, snaps []entSnap) []ecs.Entity {
	selBefore := d.sel.ids()
	p := d.packSnaps(snaps)
	cmd := &treeCmd{name: name, rm: removal{pack: p}, roots: p.roots(), insert: true}
	d.captureBasesPack(p, d.restorePack(p, nil, nil))
	roots := d.entitiesOf(cmd.roots)
	d.sel.set(cmd.roots)
	d.hist.push(cmd, selBefore)
	return roots
}

// Spawn creates one entity under parent (the zero Entity for a root) with the given component
// values (registered component types, T or *T) and name (none if ""), gives it a fresh scene id and
// selects it: one undoable step labelled label. Values referring to other entities keep those
// references.
// While playing it changes the play world instead, as the user's change (see Play), and makes no step.
func (d *Document) Spawn(label string, parent ecs.Entity, name string, values ...any) (ecs.Entity, error) {
	if d.live != nil {
		return ecs.Entity{}, d.liveSpawn(parent, name, values)
	}
	if d.play.Playing() {
		var e ecs.Entity
		err := d.play.run(func(s *scope) (err error) {
			e, err = s.spawn(label, parent, name, values)
			return err
		})
		return e, err
	}
	return d.spawn(label, parent, name, values)
}

func (d *scope) spawn(label string, parent ecs.Entity, name string, values []any) (ecs.Entity, error) {
	if err := d.hist.begin(); err != nil {
		return ecs.Entity{}, err
	}
	var pid uint64
	if !parent.IsZero() {
		if pid = d.idFor(parent); pid == 0 {
			return ecs.Entity{}, fmt.Errorf("spawn under %v: %w", parent, ErrNoEntity)
		}
	}
	s := entSnap{parent: pid}
	seen := map[ecs.ComponentID]bool{}
	sidC, _ := ecs.ComponentIDOf[scene.SceneID](d.world)
	nameC, _ := ecs.ComponentIDOf[scene.Name](d.world)
	for _, v := range values {
		cid, err := d.componentOf(v)
		if err != nil {
			return ecs.Entity{}, err
		}
		if seen[cid] || cid == sidC || (cid == nameC && name != "") || d.compType(cid).info.Computed {
			return ecs.Entity{}, fmt.Errorf("spawn with %s: %w (given twice, or set by the document)", d.compType(cid).info.Name, ErrComponent)
		}
		if err := d.checkValue(cid, v); err != nil {
			return ecs.Entity{}, err
		}
		seen[cid] = true
		s.comps = append(s.comps, d.own(cid, deref(v)))
	}
	if name != "" {
		s.comps = append(s.comps, d.own(nameC, scene.Name{Value: name}))
	}
	s.id = d.newID()
	s.comps = append(s.comps, compVal{id: sidC, v: scene.SceneID{ID: s.id, Order: scene.NextOrder(d.world, parent)}})
	es := d.insertTrees(label, []entSnap{s})
	return es[0], nil
}

// SpawnEmpty creates an entity named "Empty" with a default Transform under parent (zero: a root)
// and selects it.
func (d *Document) SpawnEmpty(parent ecs.Entity) (ecs.Entity, error) {
	return d.Spawn("Create Empty", parent, "Empty", ecs.Transform{}.Default())
}

// SpawnCube creates a white cube named "Cube" at its parent's origin under parent (zero: a root)
// and selects it.
func (d *Document) SpawnCube(parent ecs.Entity) (ecs.Entity, error) {
	return d.Spawn("Create Cube", parent, "Cube", ecs.Transform{}.Default(), scene.Mesh{Asset: scene.MeshCube},
		scene.Color{}.Default())
}

// Delete removes es and all their descendants as one undoable step; undo restores them with the
// same scene ids, components, parents and child order. Deleted entities leave the selection.
func (d *Document) Delete(es ...ecs.Entity) error {
	if d.live != nil {
		return d.liveDelete(es)
	}
	if d.play.Playing() {
		return d.playDelete(es)
	}
	if err := d.hist.begin(); err != nil {
		return err
	}
	tops := d.topLevel(es)
	if len(tops) == 0 {
		return nil
	}
	selBefore := d.sel.ids()
	rm := d.removeTrees(tops, keepAll, nil)
	cmd := &treeCmd{name: "Delete", rm: rm, roots: rm.pack.roots()}
	d.sel.prune()
	d.hist.push(cmd, selBefore)
	return nil
}

// DeleteSelection deletes the selected entities (see Delete).
func (d *Document) DeleteSelection() error { return d.Delete(d.sel.Entities()...) }

// Duplicate copies es with all their descendants as one undoable step: the copies get fresh scene
// ids, the same parents as the originals (appended after their last child), and references between
// copied entities point to the copies (references to other entities are kept). The copies of the
// top-level entities are selected and returned.
// While playing it changes the play world instead, as the user's change (see Play), and makes no step.
func (d *Document) Duplicate(es ...ecs.Entity) ([]ecs.Entity, error) {
	if d.play.Playing() {
		var out []ecs.Entity
		err := d.play.run(func(s *scope) (err error) {
			out, err = s.duplicate(es)
			return err
		})
		return out, err
	}
	return d.duplicate(es)
}

func (d *scope) duplicate(es []ecs.Entity) ([]ecs.Entity, error) {
	if err := d.hist.begin(); err != nil {
		return nil, err
	}
	all := preorder(d.world, d.topLevel(es))
	if len(all) == 0 {
		return nil, nil
	}
	if err := d.checkRoom(len(all)); err != nil {
		return nil, fmt.Errorf("duplicate: %w", err)
	}
	snaps := make([]entSnap, len(all))
	for i, e := range all {
		snaps[i] = d.snapshot(e)
	}
	remap := make(map[uint64]uint64, len(snaps))
	for _, s := range snaps {
		remap[s.id] = d.newID()
	}
	d.rekeyInstances(snaps, remap)
	d.renumber(snaps, remap, func(id uint64) uint64 { return id })
	// The copies of the top-level entities go after their parents' last children.
	keys := map[uint64]func() float64{}
	in := idSet(snaps)
	for i := range snaps {
		s := &snaps[i]
		if in[s.parent] {
			continue
		}
		if keys[s.parent] == nil {
			p, _ := d.entity(s.parent)
			keys[s.parent] = d.appendKeys(p)
		}
		d.setSnapOrder(s, keys[s.parent]())
	}
	d.uniqueNames(snaps, in) // "Cube" duplicates as "Cube (1)"
	return d.insertTrees("Duplicate", snaps), nil
}

// DuplicateSelection duplicates the selected entities (see Duplicate).
func (d *Document) DuplicateSelection() ([]ecs.Entity, error) {
	return d.Duplicate(d.sel.Entities()...)
}

// renumber gives snaps the ids of remap (old id -> new id): their own SceneID, their parents when
// inside the set, and their references (references to ids outside the set go through outside).
func (d *core) renumber(snaps []entSnap, remap map[uint64]uint64, outside func(uint64) uint64) {
	sidC, _ := ecs.ComponentIDOf[scene.SceneID](d.world)
	mapRef := func(id uint64) uint64 {
		if n, ok := remap[id]; ok {
			return n
		}
		if id == 0 {
			return 0
		}
		return outside(id)
	}
	for i := range snaps {
		s := &snaps[i]
		s.id = remap[s.id]
		if p, ok := remap[s.parent]; ok {
			s.parent = p
		}
		for j, c := range s.comps {
			if c.id == sidC {
				s.comps[j].v = scene.SceneID{ID: s.id, Order: c.v.(scene.SceneID).Order}
				continue
			}
			s.comps[j] = remapRefs(c, mapRef)
		}
	}
}

// setSnapOrder sets the order key of a snapshot's SceneID.
func (d *core) setSnapOrder(s *entSnap, k float64) {
	sidC, _ := ecs.ComponentIDOf[scene.SceneID](d.world)
	for j, c := range s.comps {
		if c.id == sidC {
			s.comps[j].v = scene.SceneID{ID: s.id, Order: k}
			return
		}
	}
}

// Reparent makes es children of parent (the zero Entity: roots), appended after its children in the
// given order, as one undoable step; undo puts every entity back at its old place among its old
// siblings. Local transforms are kept as they are, so the entities move with their new parent (see
// ReparentKeepWorld). Making an entity a child of itself or of one of its descendants is refused
// with ErrCycle and changes nothing; entities that already are children of parent are left where
// they are (nothing to do: no step).
// While playing it changes the play world instead, as the user's change (see Play), and makes no step.
func (d *Document) Reparent(parent ecs.Entity, es ...ecs.Entity) error {
	return d.reparent(parent, es, false)
}

// ReparentKeepWorld is Reparent that also changes the local Transforms so that the entities stay
// where they are in the world (hierarchy drag and drop, as in Unity and Godot); one step.
func (d *Document) ReparentKeepWorld(parent ecs.Entity, es ...ecs.Entity) error {
	return d.reparent(parent, es, true)
}

func (d *Document) reparent(parent ecs.Entity, es []ecs.Entity, keepWorld bool) error {
	if d.play.Playing() {
		return d.play.run(func(s *scope) error { return s.reparent(parent, es, keepWorld) })
	}
	return d.scope.reparent(parent, es, keepWorld)
}

func (d *scope) reparent(parent ecs.Entity, es []ecs.Entity, keepWorld bool) error {
	if err := d.hist.begin(); err != nil {
		return err
	}
	w := d.world
	var to uint64
	if !parent.IsZero() {
		if to = d.idFor(parent); to == 0 {
			return fmt.Errorf("reparent under %v: %w", parent, ErrNoEntity)
		}
	}
	if _, err := d.resolve(es); err != nil {
		return err
	}
	if err := d.refuseParts("move", d.topLevel(es)); err != nil {
		return err
	}
	var move []ecs.Entity
	for _, e := range d.topLevel(es) {
		if w.Parent(e) != parent {
			move = append(move, e)
		}
	}
	moving := make(map[ecs.Entity]bool, len(es))
	for _, e := range es {
		moving[e] = true
	}
	for p := parent; !p.IsZero(); p = w.Parent(p) {
		if moving[p] {
			return fmt.Errorf("reparent %s under %s: %w", d.label(p), d.label(parent), ErrCycle)
		}
	}
	if len(move) == 0 {
		return nil
	}
	next := d.appendKeys(parent)
	cmd := &placeCmd{name: "Reparent"}
	for _, e := range move {
		cmd.moves = append(cmd.moves, placeMove{id: d.idOf(e), from: d.idOf(w.Parent(e)), to: to, fromKey: d.keyOf(e), toKey: next()})
	}
	if !keepWorld {
		move = nil
	}
	return d.runPlace(cmd, parent, move)
}

// ReparentSelection makes the selected entities children of parent (see Reparent and
// ReparentKeepWorld).
func (d *Document) ReparentSelection(parent ecs.Entity, keepWorld bool) error {
	return d.reparent(parent, d.sel.Entities(), keepWorld)
}

// label names an entity in messages: its name and scene id.
func (d *core) label(e ecs.Entity) string {
	if n := d.nameOf(e); n != "" {
		return fmt.Sprintf("%q (id %d)", n, d.idOf(e))
	}
	return fmt.Sprintf("entity %d", d.idOf(e))
}

// SetSceneName renames the scene (the file's "name") as an undoable step.
func (d *Document) SetSceneName(name string) error {
	if err := d.hist.begin(); err != nil {
		return err
	}
	if name == d.name {
		return nil
	}
	cmd := &sceneNameCmd{from: d.name, to: name}
	selBefore := d.sel.ids()
	if err := cmd.apply(d.core); err != nil {
		return err
	}
	d.hist.push(cmd, selBefore)
	return nil
}
