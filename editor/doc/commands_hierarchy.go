package doc

import (
	"fmt"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// treeCmd inserts (spawn, duplicate, paste) or removes (delete) whole subtrees.
type treeCmd struct {
	name   string
	rm     removal  // the entities (preorder), and for a removal what undo needs
	roots  []uint64 // the top-level entities of rm.pack
	insert bool
}

func (c *treeCmd) label() string { return c.name }

func (c *treeCmd) size() int { return c.rm.size() + 8*len(c.roots) }

func (c *treeCmd) apply(d *core) error {
	if c.insert {
		es := d.restorePack(c.rm.pack, nil, nil)
		d.noteRestored(c.rm.pack.ids, es)
		d.rebasePack(c.rm.pack)
		d.hintRoots(c.rm.pack, es)
		return nil
	}
	return c.remove(d)
}

func (c *treeCmd) revert(d *core) error {
	if c.insert {
		return c.remove(d)
	}
	es := d.restorePack(c.rm.pack, c.rm.order, c.rm.holders)
	d.noteRestored(c.rm.pack.ids, es)
	d.rebasePack(c.rm.pack)
	d.hintRoots(c.rm.pack, es)
	return nil
}

// remove despawns the command's entities. A pack that gave its storage back to the world when they were restored
// (see pack.lent) takes it back, or, should they have changed since, is made again from them, as they are.
func (c *treeCmd) remove(d *core) error {
	if !c.rm.pack.lent {
		return d.removeIDs(c.roots)
	}
	rm, err := d.removeIDsKeeping(c.roots, keepPack, c.rm.pack)
	if err != nil {
		return err
	}
	if rm.pack != c.rm.pack {
		d.packGrew += rm.pack.bytes - c.rm.pack.bytes
	}
	c.rm.pack = rm.pack
	return nil
}

// placeCmd moves entities to new parents and/or new places among their siblings.
type placeCmd struct {
	name  string
	moves []placeMove
}

// placeMove is one entity's parent and order key before and after.
type placeMove struct {
	id             uint64
	from, to       uint64 // parent scene ids (0: root)
	fromKey, toKey float64
}

func (c *placeCmd) label() string { return c.name }

func (c *placeCmd) size() int { return int(unsafe.Sizeof(placeMove{})) * len(c.moves) }

func (c *placeCmd) apply(d *core) error { return d.applyPlace(c.moves, true) }

func (c *placeCmd) revert(d *core) error { return d.applyPlace(c.moves, false) }

// gridCmd is one Spawn Cube Grid. It keeps the parameters, the state of the id generator before
// the first spawn, the names it gave where a root had the cube's and the ids made: redo runs scene.SpawnGrid
// again from the same generator state and with the same names (the scene is as it was before the first spawn:
// the entities get the same ids and names, without a look at every root's), undo despawns by id.
type gridCmd struct {
	p       scene.GridParams
	plan    *scene.GridPlan // the first apply's plan, made by a GridJob; nil afterwards
	gen     scene.IDs       // the world's id generator before the first spawn
	ids     []uint64        // scene ids made: the group (if any) first, then the cubes; nil before the first spawn
	n       int             // entities made (cubes + group)
	group   ecs.Entity
	cubes   []ecs.Entity // handles of the last spawn, checked before use
	grouped bool
	names   *scene.GridNames // the names the first spawn gave; nil before it
}

func (c *gridCmd) label() string { return "Spawn Cube Grid" }

func (c *gridCmd) size() int {
	n := 8*cap(c.ids) + 8*cap(c.cubes)
	if c.names != nil {
		n += 4 * cap(c.names.K)
	}
	return n
}

func (c *gridCmd) apply(d *core) error {
	r := d.idAlloc()
	saved := *r
	first := c.ids == nil
	if first {
		c.gen = saved
	} else {
		taken := r.Taken
		*r = c.gen
		r.Taken = taken
	}
	plan := c.plan
	c.plan = nil // a redo plans again: the history keeps only the parameters and ids
	if plan == nil {
		var err error
		if plan, err = scene.NewGridPlan(c.p); err != nil {
			return err
		}
		plan.Plan(plan.Len())
	}
	if c.names != nil {
		plan.UseNames(c.names)
	}
	c.group, c.cubes = plan.Spawn(d.world)
	c.names = plan.Names()
	if !first {
		*r = saved // the generator had moved past these ids already
	}
	if len(c.cubes)+btoi(c.grouped) != c.n {
		panic(fmt.Sprintf("doc: scene.SpawnGrid made %d entities, expected %d", len(c.cubes)+btoi(c.grouped), c.n))
	}
	c.ids = c.ids[:0]
	if c.grouped {
		c.ids = append(c.ids, d.idOf(c.group))
	}
	for _, e := range c.cubes {
		c.ids = append(c.ids, d.idOf(e))
	}
	i := 0
	if c.grouped {
		d.byID()[c.ids[0]] = c.group
		d.structure++
		i++
	}
	for _, e := range c.cubes {
		d.byID()[c.ids[i]] = e
		d.structure++
		i++
	}
	if !c.grouped { // the cubes are what the spawn selects
		d.noteRestored(c.ids, c.cubes)
	}
	return nil
}

func (c *gridCmd) revert(d *core) error {
	w := d.world
	k := 0
	bulk := d.bulkRemoval(len(c.ids))
	at := func(e ecs.Entity) (ecs.Entity, error) {
		id := c.ids[k]
		if !w.Alive(e) || d.idOf(e) != id {
			var ok bool
			if e, ok = d.entity(id); !ok {
				return e, fmt.Errorf("%w: scene id %d", ErrNoEntity, id)
			}
		}
		k++
		return e, nil
	}
	if bulk {
		defer d.pruneIndex()
	}
	// The cubes in order, then the group: a redo spawns the group (taking the slot freed last) and then the cubes
	// as a batch (taking the slots freed before it, in order), so each entity gets its slot back, and so its id in
	// the viewport's pictures: the picture from before the undo is shown again as it was (glrender's kept
	// pictures), where other ids would have drawn it anew.
	var g ecs.Entity
	if c.grouped {
		var err error
		if g, err = at(c.group); err != nil {
			return err
		}
	}
	es := make([]ecs.Entity, 0, len(c.cubes)+1)
	for _, e := range c.cubes {
		e, err := at(e)
		if err != nil {
			return err
		}
		es = append(es, e)
	}
	if c.grouped {
		es = append(es, g)
	}
	if !bulk { // all found: none is despawned before each one is
		for _, id := range c.ids {
			delete(d.byID(), id)
			d.structure++
		}
	}
	w.DespawnAll(es)
	c.cubes = c.cubes[:0]
	return nil
}
