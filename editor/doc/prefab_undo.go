package doc

import (
	"reflect"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// Undo and redo of component edits of prefab instances' entities after the prefab changed.
//
// A compChange of an entity of an instance also holds the prefab's state of that component when
// the change was made (base). Undo and redo after a live update (PrefabsChanged) give the entity
// the recorded state rebased on the prefab as it is now: what the recorded state did not override
// takes the prefab's current value, as Unity's undo of a property modification does; a plain
// restore would turn the prefab's old values into overrides.

// recordBases fills the prefab states of the changes of cmd (a command just pushed) whose
// entities are entities of instances.
func (d *Document) recordBases(cmd command) {
	switch c := cmd.(type) {
	case *multiCmd:
		for _, sub := range c.cmds {
			d.recordBases(sub)
		}
	case *compCmd:
		parts := ecs.NewMap[scene.PrefabPart](d.world)
		var s *serialize.Scene
		for i := range c.changes {
			ch := &c.changes[i]
			e, ok := d.entity(ch.id)
			if !ok || !parts.Has(e) {
				continue
			}
			if s == nil {
				s = d.scene(false)
			}
			if base, ok := d.prefabState(s, e, ch.cid); ok {
				ch.base = &base
			}
		}
	}
}

// prefabState returns the prefab's state of component cid of e (ok false if e's prefab entity is
// not known: not an entity of an instance, a placeholder, a prefab that cannot be used).
func (d *Document) prefabState(s *serialize.Scene, e ecs.Entity, cid ecs.ComponentID) (compState, bool) {
	if !serialize.FromPrefab(s, e) {
		return compState{}, false
	}
	name := ""
	if cid != d.names.ID() {
		name = d.world.ComponentInfo(cid).Name
	}
	v, has := serialize.PrefabValue(s, e, name)
	if !has {
		return compState{}, true
	}
	if cid == d.names.ID() && v.(scene.Name).Value == "" {
		return compState{}, true
	}
	return compState{has: true, val: d.own(cid, v)}, true
}

// setChangeState gives ch's entity the state st (ch's before or after), rebased on the prefab's
// current state if the prefab changed since ch was made.
func (d *Document) setChangeState(ch *compChange, st compState) error {
	if ch.base != nil {
		if e, ok := d.entity(ch.id); ok {
			if now, ok := d.prefabState(d.scene(false), e, ch.cid); ok {
				st = rebase(st, *ch.base, now)
			}
		}
	}
	return d.setState(ch.id, ch.cid, st)
}

func sameState(a, b compState) bool {
	return a.has == b.has && (!a.has || sameVal(a.val, b.val))
}

// rebase returns st, a state of a component of an entity of an instance recorded when its prefab's
// state was base, for the prefab's state now: what st does not override follows now.
func rebase(st, base, now compState) compState {
	switch {
	case sameState(base, now):
		return st
	case !st.has && base.has: // the instance removes it
		return st
	case !st.has: // neither had it: the prefab's now
		return now
	case !base.has: // the instance adds it
		return st
	case sameVal(st.val, base.val): // not overridden
		return now
	case !now.has || len(st.val.refs) > 0 || len(base.val.refs) > 0 || len(now.val.refs) > 0:
		return st // the instance's changes stay (references: compared whole)
	}
	m := merge3(reflect.ValueOf(base.val.v), reflect.ValueOf(st.val.v), reflect.ValueOf(now.val.v))
	return compState{has: true, val: compVal{id: st.val.id, v: m.Interface()}}
}

// merge3 returns ours with every field it leaves as base (nested structs field by field, other
// values whole, as overrides are saved) set to theirs.
func merge3(base, ours, theirs reflect.Value) reflect.Value {
	if ours.Kind() != reflect.Struct {
		if reflect.DeepEqual(ours.Interface(), base.Interface()) {
			return theirs
		}
		return ours
	}
	out := reflect.New(ours.Type()).Elem()
	out.Set(ours)
	for i := range ours.NumField() {
		if ours.Type().Field(i).IsExported() {
			out.Field(i).Set(merge3(base.Field(i), ours.Field(i), theirs.Field(i)))
		}
	}
	return out
}
