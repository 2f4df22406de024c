package doc

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// PlayChange is one difference between the play world at Stop and the edit world: a field of a
// component of an entity that exists in both, a whole component added or removed, an entity
// moved, deleted (with its descendants) or created.
type PlayChange struct {
	ID     uint64     // the entity's scene id
	Entity ecs.Entity // its handle in the edit world
	// Deleted: the entity and its descendants are gone from the play world (Component is "").
	Deleted bool
	// Created: the entity was created while playing (Component is ""; Entity is its handle in the
	// play world, gone after Stop). Keeping it inserts it with its components at Stop, under
	// Parent (a scene id; 0 for a root).
	Created bool
	// Moved: the entity has another parent or place among its siblings (Component is ""): Parent
	// and Order are its parent (a scene id, 0 for a root) and sibling order key at Stop, From its
	// parent before Play. Keeping it moves it there, after the created entities are inserted.
	Moved     bool
	Parent    uint64
	From      uint64
	Order     float64
	Name      string // a created entity's name at Stop
	snap      entSnap
	Component string // the component's name
	// Field is the component's top-level field (JSON name, "position"); "" when play mode added or
	// removed the whole component (Old or New is then nil).
	Field    string
	Old, New any  // the values before Play and at Stop
	User     bool // the user made the change while playing; otherwise the systems did
	cid      ecs.ComponentID
	index    []int // the field's index in the component's struct (nil for a whole component)
}

// PlayChanges are the differences between the play world at Stop and the world from before Play.
type PlayChanges struct {
	// Changes are sorted by scene id, then component and field order. A deleted entity is listed
	// once, with no change of its own: only the top of a deleted subtree is.
	Changes []PlayChange
}

// Empty reports whether play mode changed nothing.
func (c *PlayChanges) Empty() bool {
	return c == nil || len(c.Changes) == 0
}

// playField is a field the user edited while playing.
type playField struct {
	id    uint64
	cid   ecs.ComponentID
	field string
}

// topField returns the top-level field of a field path ("position" of "position[0]").
func topField(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

// markUser records that the user edited field (a top-level JSON name, "" for all) of cid on es.
func (p *Play) markUser(ids []uint64, cid ecs.ComponentID, field string) {
	if p.user == nil {
		p.user = map[playField]bool{}
	}
	for _, id := range ids {
		p.user[playField{id, cid, field}] = true
	}
}

// isUser reports whether the user edited field of cid on id while playing.
func (p *Play) isUser(id uint64, cid ecs.ComponentID, field string) bool {
	return p.user[playField{id, cid, field}] || p.user[playField{id, cid, ""}]
}

// playCheck checks that es live in the play world and have component cid there.
func (d *Document) playCheck(es []ecs.Entity, cid ecs.ComponentID) error {
	w := d.play.world
	for _, e := range es {
		if !w.Alive(e) || !w.Has(e, cid) {
			return fmt.Errorf("%s of %v: %w (not in the playing scene)", d.compType(cid).info.Name, e, ErrNoEntity)
		}
	}
	return nil
}

// playSetField is SetField while playing: it changes the play world and records the field as the
// user's.
func (d *Document) playSetField(es []ecs.Entity, cid ecs.ComponentID, path string, v any) error {
	if err := d.playCheck(es, cid); err != nil {
		return err
	}
	ids, err := d.play.pc.resolve(es)
	if err != nil {
		return err
	}
	for _, e := range es {
		if err := d.play.world.SetField(e, cid, path, v); err != nil {
			return err
		}
	}
	d.play.markUser(ids, cid, topField(path))
	d.version++
	return nil
}

// playSetComponents is SetComponents while playing: it changes the play world and records the
// fields each value changes as the user's.
func (d *Document) playSetComponents(es []ecs.Entity, cid ecs.ComponentID, vs []any) error {
	if err := d.playCheck(es, cid); err != nil {
		return err
	}
	ids, err := d.play.pc.resolve(es)
	if err != nil {
		return err
	}
	fields := d.compType(cid).info.Schema.Fields
	w := d.play.world
	for i, e := range es {
		old, _ := w.Get(e, cid)
		pc := d.play.pc
		nv := pc.value(pc.own(cid, positiveZero(deref(vs[i]))), true)
		if err := w.Set(e, cid, nv); err != nil {
			return err
		}
		cur, _ := w.Get(e, cid)
		ov, cv := reflect.ValueOf(old), reflect.ValueOf(cur)
		if ov.Kind() != reflect.Struct || len(fields) == 0 {
			d.play.markUser(ids[i:i+1], cid, "")
			continue
		}
		for j := range fields {
			f := &fields[j]
			if !reflect.DeepEqual(ov.FieldByIndex(f.Index).Interface(), cv.FieldByIndex(f.Index).Interface()) {
				d.play.markUser(ids[i:i+1], cid, f.JSONName)
			}
		}
	}
	d.version++
	return nil
}

// diff returns how the play world differs from the edit world.
func (p *Play) diff() *PlayChanges {
	d := p.c
	pw, ew := p.world, d.world
	out := &PlayChanges{}
	out.Changes = p.created(pw, ew)
	// The clone starts with no change ticks: what a system or the user wrote since Start is what
	// AppendChanged finds; the rest is only compared for presence.
	var changed []ecs.Entity
	for _, cid := range ew.ComponentIDs() {
		changed = pw.AppendChanged(changed, cid, 0)
	}
	touched := make(map[ecs.Entity]bool, len(changed))
	for _, e := range changed {
		touched[e] = true
	}
	madeIDs := make(map[ecs.Entity]uint64, len(out.Changes))
	for _, c := range out.Changes {
		madeIDs[c.Entity] = c.ID
	}
	ids := make([]uint64, 0, len(d.byID()))
	for id := range d.byID() {
		ids = append(ids, id)
	}
	sortIDs(ids)
	for _, id := range ids {
		e, _ := d.entity(id)
		if !pw.Alive(e) {
			if pa := ew.Parent(e); pa.IsZero() || pw.Alive(pa) {
				out.Changes = append(out.Changes, PlayChange{ID: id, Entity: e, Deleted: true, User: p.deleted[id]})
			}
			continue
		}
		if m, ok := p.move(e, id, madeIDs); ok {
			out.Changes = append(out.Changes, m)
		}
		for _, cid := range ew.ComponentIDs() {
			info := d.compType(cid).info
			if info.Computed || info.Type == reflect.TypeFor[scene.SceneID]() {
				continue
			}
			had, has := ew.Has(e, cid), pw.Has(e, cid)
			if had == has && (!has || !touched[e]) {
				continue
			}
			ov, _ := ew.Get(e, cid)
			nv, _ := pw.Get(e, cid)
			if had != has {
				c := PlayChange{ID: id, Entity: e, Component: info.Name, cid: cid, User: p.isUser(id, cid, "")}
				if had {
					c.Old = copyVal(ov)
				} else {
					c.New = copyVal(nv)
				}
				out.Changes = append(out.Changes, c)
				continue
			}
			if reflect.DeepEqual(ov, nv) {
				continue
			}
			o, n := reflect.ValueOf(ov), reflect.ValueOf(nv)
			if o.Kind() != reflect.Struct || len(info.Schema.Fields) == 0 {
				out.Changes = append(out.Changes, PlayChange{ID: id, Entity: e, Component: info.Name, cid: cid,
					Old: copyVal(ov), New: copyVal(nv), User: p.isUser(id, cid, "")})
				continue
			}
			for j := range info.Schema.Fields {
				f := &info.Schema.Fields[j]
				of, nf := o.FieldByIndex(f.Index).Interface(), n.FieldByIndex(f.Index).Interface()
				if reflect.DeepEqual(of, nf) {
					continue
				}
				out.Changes = append(out.Changes, PlayChange{ID: id, Entity: e, Component: info.Name, Field: f.JSONName,
					Old: copyVal(of), New: copyVal(nf), User: p.isUser(id, cid, f.JSONName), cid: cid, index: f.Index})
			}
		}
	}
	sort.SliceStable(out.Changes, func(i, j int) bool { return out.Changes[i].ID < out.Changes[j].ID })
	return out
}

// move returns the change of e (scene id id, in both worlds) if its parent or sibling order key
// differs between them; made names the parents created while playing.
func (p *Play) move(e ecs.Entity, id uint64, made map[ecs.Entity]uint64) (PlayChange, bool) {
	d, pc := p.c, p.pc
	to := uint64(0)
	if pp := pc.world.Parent(e); !pp.IsZero() {
		if to = made[pp]; to == 0 {
			to = pc.idOf(pp)
		}
	}
	from, key := d.idOf(d.world.Parent(e)), pc.keyOf(e)
	if to == from && key == d.keyOf(e) {
		return PlayChange{}, false
	}
	return PlayChange{ID: id, Entity: e, Moved: true, Parent: to, From: from, Order: key, User: p.moved[id]}, true
}

// created lists the entities of the play world that the edit world does not have, in preorder
// (a parent before its children). One a system spawned without a scene id gets a fresh one here,
// so that it can be kept like the others. An edit entity moved under a created one is not among
// them (it is moved: see move), nor are its descendants, which are created only if made in play.
func (p *Play) created(pw, ew *ecs.World) []PlayChange {
	d := p.c
	sidC, _ := ecs.ComponentIDOf[scene.SceneID](pw)
	var roots []ecs.Entity
	pw.EachEntity(func(e ecs.Entity) bool {
		if !ew.Alive(e) {
			if pa := pw.Parent(e); pa.IsZero() || ew.Alive(pa) {
				roots = append(roots, e)
			}
		}
		return true
	})
	var out []PlayChange
	ids := map[ecs.Entity]uint64{}
	// Not the subtrees of edit entities: an entity made in play under one is a root itself.
	for _, e := range preorderWithout(pw, roots, ew.Alive) {
		v, _ := pw.Get(e, sidC)
		sid, ok := v.(scene.SceneID)
		if !ok || sid.ID == 0 {
			sid = scene.SceneID{ID: p.newID(), Order: sid.Order}
		}
		ids[e] = sid.ID
		c := PlayChange{ID: sid.ID, Entity: e, Created: true, User: p.made[sid.ID]}
		if pa := pw.Parent(e); !pa.IsZero() {
			if c.Parent = ids[pa]; c.Parent == 0 {
				c.Parent = d.idOf(pa)
			}
		}
		if nv, ok := pw.Get(e, d.names.ID()); ok {
			c.Name = nv.(scene.Name).Value
		}
		c.snap = entSnap{id: sid.ID, parent: c.Parent}
		for _, cid := range pw.ComponentIDs() {
			if cid != sidC && pw.Has(e, cid) && !d.compType(cid).info.Computed {
				v, _ := pw.Get(e, cid)
				c.snap.comps = append(c.snap.comps, p.pc.own(cid, copyVal(v)))
			}
		}
		c.snap.comps = append(c.snap.comps, compVal{id: sidC, v: sid})
		out = append(out, c)
	}
	return out
}

// copyVal returns a deep copy of a value read from the play world (which is dropped at Stop).
func copyVal(v any) any {
	if v == nil {
		return nil
	}
	return ecs.DeepCopy(reflect.ValueOf(v)).Interface()
}

// KeepPlayChanges applies the chosen changes (of what Stop returned) to the edit world as ONE
// undoable step, "Keep play changes": each field takes its value from the end of play; a whole
// component is added or removed; a created entity is inserted with its scene id and order key; a
// moved entity takes its parent and place among its siblings; a deleted entity is deleted with its
// descendants: the scene the same edits give outside play. On an entity of a prefab instance a kept change is an edit of the
// instance like any other, so it becomes an override. Changes whose entity is gone are refused with
// ErrNoEntity; no step when nothing changes.
func (d *Document) KeepPlayChanges(cs []PlayChange) error {
	if err := d.hist.begin(); err != nil {
		return err
	}
	type key struct {
		id  uint64
		cid ecs.ComponentID
	}
	next := map[key]*compState{}
	var order []key
	var dels []ecs.Entity
	var made []entSnap
	var moves []*PlayChange
	kept := map[uint64]bool{}
	for i := range cs {
		c := &cs[i]
		if c.Created {
			if _, used := d.byID()[c.ID]; used {
				return fmt.Errorf("keep created entity: the scene already has scene id %d", c.ID)
			}
			made = append(made, c.snap)
			kept[c.ID] = true
			continue
		}
		e, ok := d.entity(c.ID)
		if !ok {
			return fmt.Errorf("keep %s of scene id %d: %w", c.Component, c.ID, ErrNoEntity)
		}
		if c.Deleted {
			dels = append(dels, e)
			continue
		}
		if c.Moved {
			moves = append(moves, c)
			continue
		}
		k := key{c.ID, c.cid}
		st := next[k]
		if st == nil {
			cur := d.state(e, c.cid)
			st = &cur
			next[k] = st
			order = append(order, k)
		}
		switch {
		case c.index == nil && c.New == nil:
			*st = compState{val: compVal{id: c.cid}}
		case c.index == nil:
			*st = compState{has: true, val: d.own(c.cid, c.New)}
		case st.has:
			rv := reflect.New(d.compType(c.cid).info.Type).Elem()
			rv.Set(reflect.ValueOf(d.value(st.val, true)))
			rv.FieldByIndex(c.index).Set(reflect.ValueOf(copyVal(c.New)))
			*st = compState{has: true, val: d.own(c.cid, rv.Interface())}
		}
	}
	const label = "Keep play changes"
	cmd := &compCmd{name: label}
	for _, k := range order {
		e, _ := d.entity(k.id)
		cur := d.state(e, k.cid)
		after := *next[k]
		if after.has == cur.has && (!after.has || sameVal(after.val, cur.val)) {
			continue
		}
		cmd.changes = append(cmd.changes, compChange{id: k.id, cid: k.cid, before: cur, after: after})
	}
	tops := d.topLevel(dels)
	if len(tops) == 0 && len(made) == 0 && len(moves) == 0 {
		return d.runComp(cmd)
	}
	if err := d.checkKeptMoves(moves, cs, kept); err != nil {
		return err
	}
	selBefore := d.sel.ids()
	var cmds []command
	if len(cmd.changes) > 0 {
		if err := cmd.apply(d.core); err != nil {
			return err
		}
		cmds = append(cmds, cmd)
	}
	if len(made) > 0 {
		for i := range made {
			made[i].parent = d.keptParent(made[i].parent, cs, kept)
		}
		p := d.packSnaps(made)
		d.captureBasesPack(p, d.restorePack(p, nil, nil))
		cmds = append(cmds, &treeCmd{name: label, rm: removal{pack: p}, roots: p.roots(), insert: true})
	}
	if len(moves) > 0 {
		pm := d.keptMoves(moves, cs, kept)
		if err := pm.apply(d.core); err != nil {
			return err
		}
		cmds = append(cmds, pm)
	}
	if len(tops) > 0 {
		rm := d.removeTrees(tops, keepAll, nil)
		cmds = append(cmds, &treeCmd{name: label, rm: rm, roots: rm.pack.roots()})
	}
	d.sel.prune()
	if len(cmds) == 1 {
		d.hist.push(cmds[0], selBefore)
	} else {
		d.hist.push(&multiCmd{name: label, cmds: cmds}, selBefore)
	}
	return nil
}

// checkKeptMoves refuses moves of prefab parts (as a move outside play is refused) and moves that
// would make an entity its own ancestor when kept without others (ErrCycle), before anything
// changes.
func (d *Document) checkKeptMoves(moves []*PlayChange, cs []PlayChange, kept map[uint64]bool) error {
	es := make([]ecs.Entity, len(moves))
	for i, c := range moves {
		es[i], _ = d.entity(c.ID)
	}
	if err := d.refuseParts("move", es); err != nil {
		return err
	}
	madeParent := map[uint64]uint64{}
	for i := range cs {
		if cs[i].Created && kept[cs[i].ID] {
			madeParent[cs[i].ID] = d.keptParent(cs[i].Parent, cs, kept)
		}
	}
	to := map[uint64]uint64{}
	parentOf := func(id uint64) uint64 {
		if p, ok := to[id]; ok {
			return p
		}
		if p, ok := madeParent[id]; ok {
			return p
		}
		e, _ := d.entity(id)
		return d.idOf(d.world.Parent(e))
	}
	for i, c := range moves {
		p := d.keptParent(c.Parent, cs, kept)
		for x := p; x != 0; x = parentOf(x) {
			if x == c.ID {
				return fmt.Errorf("keep the move of %s: %w (keep the move of its new parent too)", d.label(es[i]), ErrCycle)
			}
		}
		to[c.ID] = p
	}
	return nil
}

// keptMoves is the command that moves the entities of kept moves to their parents at Stop (or the
// nearest kept ancestor, see keptParent) with their order keys there (appended after the children
// of another parent).
func (d *Document) keptMoves(moves []*PlayChange, cs []PlayChange, kept map[uint64]bool) *placeCmd {
	cmd := &placeCmd{name: "Keep play changes"}
	next := map[uint64]func() float64{}
	for _, c := range moves {
		e, _ := d.entity(c.ID)
		to, key := d.keptParent(c.Parent, cs, kept), c.Order
		if to != c.Parent {
			if next[to] == nil {
				p, _ := d.entity(to)
				next[to] = d.appendKeys(p)
			}
			key = next[to]()
		}
		cmd.moves = append(cmd.moves, placeMove{id: c.ID, from: d.idOf(d.world.Parent(e)), to: to, fromKey: d.keyOf(e), toKey: key})
	}
	return cmd
}

// keptParent is where a kept created entity goes: its parent when the edit world has it or it is
// created and kept too, else the nearest such ancestor among the created ones (0: a root).
func (d *Document) keptParent(pid uint64, cs []PlayChange, kept map[uint64]bool) uint64 {
	for pid != 0 && !kept[pid] {
		if _, ok := d.entity(pid); ok {
			return pid
		}
		up := uint64(0)
		for i := range cs {
			if cs[i].Created && cs[i].ID == pid {
				up = cs[i].Parent
			}
		}
		pid = up
	}
	return pid
}

// playComponents is a component command (add, remove, reset, paste, rename) while playing: next
// says, from whether an entity has component cid, whether it should have it and its value (ok
// false: leave the entity alone). It changes the play world and records the component as the
// user's.
func (d *Document) playComponents(es []ecs.Entity, cid ecs.ComponentID, next func(has bool) (want bool, v any, ok bool)) error {
	w := d.play.world
	for _, e := range es {
		if !w.Alive(e) {
			return fmt.Errorf("%s of %v: %w (not in the playing scene)", d.compType(cid).info.Name, e, ErrNoEntity)
		}
	}
	ids, err := d.play.pc.resolve(es)
	if err != nil {
		return err
	}
	for i, e := range es {
		has := w.Has(e, cid)
		want, v, ok := next(has)
		switch {
		case !ok || !want && !has:
			continue
		case !want:
			err = w.Remove(e, cid)
		case has:
			err = w.Set(e, cid, v)
		default:
			err = w.Add(e, cid, v)
		}
		if err != nil {
			return err
		}
		d.play.markUser(ids[i:i+1], cid, "")
	}
	d.version++
	return nil
}

// playDelete is Delete while playing: it despawns es and their descendants from the play world
// and records them as deleted by the user.
func (d *Document) playDelete(es []ecs.Entity) error {
	pc := d.play.pc
	w := pc.world
	var ids []uint64
	var tops []ecs.Entity
	for _, e := range es {
		if !w.Alive(e) {
			continue
		}
		tops = append(tops, e)
		for _, x := range preorder(w, []ecs.Entity{e}) {
			if id := pc.idOf(x); id != 0 {
				ids = append(ids, id)
			}
		}
	}
	d.sel.remove(ids) // while they are alive: the selection finds them by id
	for _, e := range tops {
		if w.Alive(e) {
			w.DespawnRecursive(e)
		}
	}
	if d.play.deleted == nil {
		d.play.deleted = map[uint64]bool{}
	}
	for _, id := range ids {
		d.play.deleted[id] = true
		delete(pc.byID(), id)
	}
	pc.structure++
	d.version++
	return nil
}

// newID returns a scene id that neither the edit world nor the play world uses, from the play
// world's generator (which systems spawning scene entities use too).
func (p *Play) newID() uint64 {
	id := p.pc.newID()
	if p.given == nil {
		p.given = map[uint64]bool{}
	}
	p.given[id] = true
	return id
}
