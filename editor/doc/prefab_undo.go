package doc

import (
	"reflect"
	"slices"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// Undo and redo of steps touching prefab instances' entities after the prefab changed.
//
// A step records, for each entity of an instance it holds a state of (a compChange, or an entSnap
// of a structural step), the prefab source it was made from (serialize.PrefabSource: one entity
// of one version of the prefab file; cheap, no values copied). Undo and redo give such an entity
// the recorded state; when its source is no longer the prefab's current one (the file changed on
// disk since, Prefabs.Changed), they rebase the state on the prefab as it is now: what the recorded
// state does not override takes the prefab's current value, as Unity's undo of a property
// modification does. A plain restore would turn the prefab's old values into overrides.

// recordBases notes the prefab sources of the changes of cmd (a command just pushed) whose
// entities are entities of instances.
func (d *core) recordBases(cmd command) {
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
				s = d.scene()
			}
			ch.src = serialize.SourceOf(s, e)
		}
	}
}

// sourceState returns src's state of component cid for e.
func (d *core) sourceState(s *serialize.Scene, src serialize.PrefabSource, e ecs.Entity, cid ecs.ComponentID) compState {
	name := ""
	if cid != d.names.ID() {
		name = d.world.ComponentInfo(cid).Name
	}
	v, has := src.Value(s, e, name)
	if !has || cid == d.names.ID() && v.(scene.Name).Value == "" {
		return compState{}
	}
	return compState{has: true, val: d.own(cid, v)}
}

// setChangeState gives ch's entity the state st (ch's before or after), rebased on the prefab's
// current state if the prefab changed since ch was made.
func (d *core) setChangeState(ch *compChange, st compState) error {
	if ch.src.Known() {
		if e, ok := d.entity(ch.id); ok {
			s := d.scene()
			if now := serialize.SourceOf(s, e); now.Known() && now != ch.src {
				st = rebase(st, d.sourceState(s, ch.src, e, ch.cid), d.sourceState(s, now, e, ch.cid))
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

// rebaseSnaps gives the entities of snaps just restored whose prefab changed since the snapshot
// their recorded states rebased on the prefab as it is now (see rebase).
func (d *core) rebaseSnaps(snaps []entSnap) {
	var es []ecs.Entity
	var at []int
	for i := range snaps {
		if !snaps[i].src.Known() {
			continue
		}
		if e, ok := d.entity(snaps[i].id); ok {
			es, at = append(es, e), append(at, i)
		}
	}
	if len(es) == 0 {
		return
	}
	s := d.scene()
	for k, now := range serialize.SourcesOf(s, es) {
		sn, e := &snaps[at[k]], es[k]
		if !now.Known() || now == sn.src {
			continue
		}
		cids := []ecs.ComponentID{d.names.ID()}
		for _, src := range []serialize.PrefabSource{sn.src, now} {
			for _, n := range src.Components() {
				if cid, ok := d.world.ComponentByName(n); ok && !slices.Contains(cids, cid) {
					cids = append(cids, cid)
				}
			}
		}
		for _, c := range sn.comps {
			if !slices.Contains(cids, c.id) {
				cids = append(cids, c.id)
			}
		}
		for _, cid := range cids {
			var st compState
			if j := slices.IndexFunc(sn.comps, func(c compVal) bool { return c.id == cid }); j >= 0 {
				st = compState{has: true, val: sn.comps[j]}
			}
			if r := rebase(st, d.sourceState(s, sn.src, e, cid), d.sourceState(s, now, e, cid)); !sameState(r, st) {
				mustOK(d.setState(sn.id, cid, r))
			}
		}
	}
}
