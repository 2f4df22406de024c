package doc

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// columnMin is the number of entities from which a field set on all of them is kept as a column:
// below it the per-entity changes of compCmd cost little and say more in the history.
var columnMin = 256

// fieldSet is one field written to every entity of a column edit, its value of the field's own type.
type fieldSet struct {
	path string
	v    any
}

// fieldCmd sets fields of one component on many entities, the same value on each (a field typed
// with many entities selected). Its values before are one column (ecs.Values: no value boxed), its
// values after the writes themselves, each value once; apply and revert are loops over the
// entities. Only components of plain memory (no pointers, no entity references) and no entities of
// prefab instances: their undo needs compCmd's per-entity states.
type fieldCmd struct {
	name   string
	cid    ecs.ComponentID
	ids    []uint64 // the entities' scene ids; never written once pushed (the journal's writer reads them)
	before ecs.Values
	sets   []fieldSet
	// ents are the entities of ids when last resolved (loop thread): a delete and its undo give
	// them new handles.
	ents []ecs.Entity
}

func (c *fieldCmd) label() string { return c.name }

func (c *fieldCmd) size() int {
	n := int(unsafe.Sizeof(*c)) + c.before.Bytes() + 16*len(c.ids)
	for _, s := range c.sets {
		n += len(s.path) + int(reflect.TypeOf(s.v).Size())
	}
	return n
}

// entities returns the entities of c.ids, resolving those no longer alive again by scene id.
func (c *fieldCmd) entities(d *core) ([]ecs.Entity, error) {
	for i, e := range c.ents {
		if d.world.Alive(e) {
			continue
		}
		e, ok := d.entity(c.ids[i])
		if !ok {
			return nil, fmt.Errorf("%w: scene id %d", ErrNoEntity, c.ids[i])
		}
		c.ents[i] = e
	}
	return c.ents, nil
}

func (c *fieldCmd) apply(d *core) error {
	es, err := c.entities(d)
	if err != nil {
		return err
	}
	for _, s := range c.sets {
		if err := d.world.SetFieldEach(es, c.cid, s.path, s.v); err != nil {
			return err
		}
	}
	return nil
}

func (c *fieldCmd) revert(d *core) error {
	es, err := c.entities(d)
	if err != nil {
		return err
	}
	return d.world.StoreValues(es, c.before)
}

// colEdit is an open transaction's field sets on many entities, kept as a column until it ends
// (a fieldCmd) or another edit joins it (spill).
type colEdit struct {
	cid    ecs.ComponentID
	ents   []ecs.Entity
	ids    []uint64
	before ecs.Values
	sets   []fieldSet
}

// setColumn sets the field at path of component cid on es as a column edit of the open
// transaction, when it is one: the transaction's first edit, on many entities of a plain
// component, or a later set of a field of the same entities. It reports false, having done
// nothing, when the edit must be recorded entity by entity.
func (d *Document) setColumn(es []ecs.Entity, cid ecs.ComponentID, path string, v any) (bool, error) {
	t := d.hist.edit
	if c := t.col; c != nil {
		if c.cid != cid || !sameEntities(c.ents, es) {
			return false, nil // touch spills it
		}
		if err := d.world.SetFieldEach(c.ents, cid, path, v); err != nil {
			return true, err
		}
		c.set(d.world, path)
		d.version++
		return true, nil
	}
	if len(es) < columnMin || len(t.changes) > 0 || !plainMemory(d.compType(cid).info.Type) || d.anyPart(es) {
		return false, nil
	}
	ids, err := d.resolve(es)
	if err != nil {
		return true, err
	}
	before, err := d.world.CopyValues(cid, es)
	if err != nil {
		return true, err
	}
	if err := d.world.SetFieldEach(es, cid, path, v); err != nil {
		return true, err
	}
	t.col = &colEdit{cid: cid, ents: slices.Clone(es), ids: ids, before: before}
	t.col.set(d.world, path)
	d.version++
	return true, nil
}

// set records the field at path as just written: its value read back (of the field's type, as
// converted) replaces the last set's if that was of the same field.
func (c *colEdit) set(w *ecs.World, path string) {
	v, err := w.GetField(c.ents[0], c.cid, path)
	mustOK(err)
	if n := len(c.sets); n > 0 && c.sets[n-1].path == path {
		c.sets[n-1].v = v
		return
	}
	c.sets = append(c.sets, fieldSet{path: path, v: v})
}

// anyPart reports whether an entity of es is part of a prefab instance.
func (d *core) anyPart(es []ecs.Entity) bool {
	pid, ok := ecs.ComponentIDOf[scene.PrefabPart](d.world)
	if !ok {
		return false
	}
	for _, e := range es {
		if d.world.Has(e, pid) {
			return true
		}
	}
	return false
}

// spill turns the transaction's column edit into per-entity changes (another edit joins it).
func (d *Document) spill(t *transaction) {
	c := t.col
	t.col = nil
	marks := t.touched[c.cid]
	if t.changes == nil {
		t.changes = make([]compChange, 0, len(c.ents))
	}
	for i, e := range c.ents {
		k := int(e.Index())
		if k < len(marks) && marks[k] {
			continue
		}
		if k >= len(marks) {
			marks = append(marks, make([]bool, k+1-len(marks)+len(marks)/2)...)
		}
		marks[k] = true
		st := compState{has: true, val: d.own(c.cid, c.before.At(i))}
		t.changes = append(t.changes, compChange{id: c.ids[i], cid: c.cid, before: st})
	}
	t.touched[c.cid] = marks
}

// cancelColumn puts back the values from before the transaction's column edit.
func (d *core) cancelColumn(c *colEdit) {
	mustOK(d.world.StoreValues(c.ents, c.before))
}

// endColumn makes the command of a column edit that ends; nil when it left every value as it was.
// Entities whose value did not change are left out.
func (d *core) endColumn(name string, c *colEdit) *fieldCmd {
	same, err := d.world.SameValues(c.ents, c.before)
	mustOK(err)
	cmd := &fieldCmd{name: name, cid: c.cid, ids: c.ids, before: c.before, sets: c.sets, ents: c.ents}
	switch {
	case len(same) == len(c.ents):
		return nil
	case len(same) > 0: // rare: keep the changed ones
		n := len(c.ents) - len(same)
		cmd.ids, cmd.ents = make([]uint64, 0, n), make([]ecs.Entity, 0, n)
		cmd.before = ecs.NewValues(d.world, c.cid, n)
		for i := range c.ents {
			if len(same) > 0 && same[0] == i {
				same = same[1:]
				continue
			}
			cmd.before.Set(len(cmd.ids), c.before.At(i))
			cmd.ids, cmd.ents = append(cmd.ids, c.ids[i]), append(cmd.ents, c.ents[i])
		}
	}
	return cmd
}

// sameEntities reports whether a and b hold the same entities in the same order, compared as memory
// (a million entities typed into at every key).
func sameEntities(a, b []ecs.Entity) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	size := len(a) * int(unsafe.Sizeof(a[0]))
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), size), unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), size))
}
