package doc

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/live"
)

var (
	// ErrAttached says the document shows a running game's world, which is not a file: only values,
	// components, spawn and delete go to the game; the rest (undo, reparent, prefabs...) is refused.
	ErrAttached = errors.New("attached to a running game: only values, components, spawn and delete go to the game")
	// ErrLinkLost says the connection to the game ended; what the document shows is read-only.
	ErrLinkLost = errors.New("the connection to the game is lost: what is shown is read-only")
)

// LiveSink is where an attached document sends the user's edits (package serialize/live's
// requests); the game applies them and its next delta brings them back. Entities are the game's
// handles; values are scene JSON with references as handles.
type LiveSink interface {
	SetField(h uint64, comp, path string, value json.RawMessage)
	SetComponent(h uint64, comp, js string)
	AddComponent(h uint64, comp string)
	RemoveComponent(h uint64, comp string)
	Spawn(parent uint64, comps map[string]string)
	Despawn(h uint64)
}

// liveLink is an attached document's mirror of the game's entities: which entity of the world is
// which handle of the game, and the JSON last applied of each component.
type liveLink struct {
	sink     LiveSink
	ent      map[uint64]ecs.Entity
	handle   map[ecs.Entity]uint64
	last     map[uint64]map[string]string
	readOnly bool
}

// NewLive returns a document attached to a running game: its world is empty until ApplyLive fills
// it from the game's deltas, and the user's edits go to sink instead of the undo history (there is
// none, nothing is journaled, and the document is never dirty: Save does not apply).
func NewLive(name string, opts Options, sink LiveSink) *Document {
	d := New(name, opts)
	d.live = &liveLink{sink: sink, ent: map[uint64]ecs.Entity{}, handle: map[ecs.Entity]uint64{},
		last: map[uint64]map[string]string{}}
	return d
}

// Attached reports whether the document shows a running game's world (NewLive).
func (d *Document) Attached() bool { return d.live != nil }

// LiveReadOnly reports whether an attached document lost its game: it keeps what it showed and
// refuses edits with ErrLinkLost.
func (d *Document) LiveReadOnly() bool { return d.live != nil && d.live.readOnly }

// SetLiveReadOnly marks an attached document read-only (its connection ended).
func (d *Document) SetLiveReadOnly() {
	if d.live != nil && !d.live.readOnly {
		d.live.readOnly = true
		d.version++
	}
}

// LiveHandle returns the game's handle of entity e of an attached document (0: none).
func (d *Document) LiveHandle(e ecs.Entity) uint64 {
	if d.live == nil {
		return 0
	}
	return d.live.handle[e]
}

// LiveEntity returns the entity of an attached document that shows the game's entity h.
func (d *Document) LiveEntity(h uint64) (ecs.Entity, bool) {
	if d.live == nil {
		return ecs.Entity{}, false
	}
	e, ok := d.live.ent[h]
	return e, ok
}

// ApplyLive makes the world of an attached document show ents (the game's entities a delta
// changed, as the client's view holds them now) and drops the entities removed. Components the
// editor does not know (a game's, when the editor was not built with them) are left out; a value
// that cannot be read is reported and the entity keeps the one before.
func (d *Document) ApplyLive(ents []live.Entity, removed []uint64) []error {
	l := d.live
	if l == nil {
		return []error{ErrNoEntity}
	}
	w := d.world
	var errs []error
	structural := false
	for _, h := range removed {
		if e, ok := l.ent[h]; ok {
			if w.Alive(e) {
				for _, c := range w.Children(e) {
					_ = w.SetParent(c, ecs.Entity{}) // the game reports where they went
				}
				w.Despawn(e)
			}
			delete(l.ent, h)
			delete(l.handle, e)
			delete(l.last, h)
			structural = true
		}
	}
	for i := range ents {
		if _, ok := l.ent[ents[i].Handle]; !ok {
			e := w.Spawn()
			l.ent[ents[i].Handle], l.handle[e] = e, ents[i].Handle
			l.last[ents[i].Handle] = map[string]string{}
			structural = true
		}
	}
	ref := func(h uint64) (ecs.Entity, bool) { return l.ent[h], true }
	sidC := d.sids.ID()
	for i := range ents {
		le := &ents[i]
		e := l.ent[le.Handle]
		if p := l.ent[le.Parent]; w.Parent(e) != p {
			if err := w.SetParent(e, p); err != nil {
				errs = append(errs, fmt.Errorf("entity %d: parent %d: %v", le.Handle, le.Parent, err))
			}
			structural = true
		}
		last := l.last[le.Handle]
		for name, js := range le.Components {
			if js == "" || last[name] == js {
				continue
			}
			cid, ok := w.ComponentByName(name)
			if !ok || w.ComponentInfo(cid).Computed {
				continue
			}
			v, err := d.liveDecode(cid, js, ref)
			if err != nil {
				errs = append(errs, fmt.Errorf("entity %d: %v", le.Handle, err))
				continue
			}
			if cid == sidC {
				sid := *v.(*scene.SceneID)
				if o, taken := d.byID()[sid.ID]; sid.ID == 0 || taken && o != e {
					continue // the document keeps the id it gave
				}
				structural = true
			}
			if w.Has(e, cid) {
				err = w.Set(e, cid, v)
			} else {
				err, structural = w.Add(e, cid, v), true
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("entity %d: %s: %v", le.Handle, name, err))
				continue
			}
			last[name] = js
		}
		for _, cid := range w.ComponentsOf(e) {
			info := w.ComponentInfo(cid)
			if _, ok := le.Components[info.Name]; !ok && !info.Computed && cid != sidC {
				_ = w.Remove(e, cid) // it has it: cannot fail
				delete(last, info.Name)
				structural = true
			}
		}
	}
	if structural {
		d.reindex()
	}
	if w.TransformsDirty() {
		w.PropagateTransforms()
	}
	d.version++
	return errs
}

// liveDecode reads a value of component cid from the game's JSON. Names and scene ids, which scene
// files hold as keys of the entity, come as their Go values' JSON.
func (d *Document) liveDecode(cid ecs.ComponentID, js string, ref func(uint64) (ecs.Entity, bool)) (any, error) {
	switch cid {
	case d.sids.ID():
		var v scene.SceneID
		return &v, json.Unmarshal([]byte(js), &v)
	case d.names.ID():
		var v scene.Name
		return &v, json.Unmarshal([]byte(js), &v)
	}
	return serialize.DecodeComponent(d.world, cid, js, ref)
}

// liveCheck refuses edits of an attached document that lost its game.
func (d *Document) liveCheck() error {
	if d.live.readOnly {
		return ErrLinkLost
	}
	return nil
}

// liveJSON returns entity e's component cid as scene JSON with references as the game's handles.
func (d *Document) liveJSON(e ecs.Entity, cid ecs.ComponentID) (string, error) {
	v, ok := d.world.Get(e, cid)
	if !ok {
		return "", fmt.Errorf("%s of %v: %w", d.compType(cid).info.Name, e, ErrComponent)
	}
	return d.liveValueJSON(cid, v)
}

// liveValueJSON returns a value of component cid (T or *T) as scene JSON with references as handles.
func (d *Document) liveValueJSON(cid ecs.ComponentID, v any) (string, error) {
	if cid == d.names.ID() || cid == d.sids.ID() {
		b, err := json.Marshal(deref(v))
		return string(b), err
	}
	info := d.compType(cid).info
	enc, err := serialize.NewComponentEncoder(info, func(r ecs.Entity) int64 { return int64(d.live.handle[r]) })
	if err != nil {
		return "", err
	}
	p := reflect.New(info.Type).Elem()
	p.Set(reflect.ValueOf(deref(v)))
	b, err := enc.Append(nil, p)
	return string(b), err
}

// liveSetField is SetField of an attached document: the world shows the value at once and the
// game gets the field.
func (d *Document) liveSetField(es []ecs.Entity, cid ecs.ComponentID, path string, v any) error {
	if err := d.liveCheck(); err != nil {
		return err
	}
	name := d.compType(cid).info.Name
	for _, e := range es {
		if err := d.world.SetField(e, cid, path, v); err != nil {
			return err
		}
		js, err := d.liveJSON(e, cid)
		if err != nil {
			return err
		}
		raw, err := jsonAt(js, path)
		if err != nil {
			return fmt.Errorf("set %s.%s: %v", name, path, err)
		}
		d.live.sink.SetField(d.live.handle[e], name, path, raw)
	}
	d.version++
	return nil
}

// liveSetComponents is SetComponents of an attached document.
func (d *Document) liveSetComponents(es []ecs.Entity, cid ecs.ComponentID, vs []any) error {
	if err := d.liveCheck(); err != nil {
		return err
	}
	name := d.compType(cid).info.Name
	for i, e := range es {
		if err := d.world.Set(e, cid, d.value(d.own(cid, positiveZero(deref(vs[i]))), true)); err != nil {
			return err
		}
		js, err := d.liveJSON(e, cid)
		if err != nil {
			return err
		}
		d.live.sink.SetComponent(d.live.handle[e], name, js)
	}
	d.version++
	return nil
}

// liveComponentOp is componentOp of an attached document: adding and removing go to the game.
func (d *Document) liveComponentOp(op compOp, es []ecs.Entity, cid ecs.ComponentID) error {
	if err := d.liveCheck(); err != nil {
		return err
	}
	if op != opAdd && op != opRemove {
		return ErrAttached
	}
	if _, err := d.checkTargets(es, cid, false); err != nil {
		return err
	}
	name := d.compType(cid).info.Name
	for _, e := range es {
		switch h, has := d.live.handle[e], d.world.Has(e, cid); {
		case op == opAdd && !has:
			d.live.sink.AddComponent(h, name)
		case op == opRemove && has:
			d.live.sink.RemoveComponent(h, name)
		}
	}
	return nil
}

// liveSpawn is Spawn of an attached document: the game makes the entity, which a delta brings.
func (d *Document) liveSpawn(parent ecs.Entity, name string, values []any) error {
	if err := d.liveCheck(); err != nil {
		return err
	}
	comps := map[string]string{}
	if name != "" {
		values = append(values, scene.Name{Value: name})
	}
	for _, v := range values {
		cid, err := d.componentOf(v)
		if err != nil {
			return err
		}
		js, err := d.liveValueJSON(cid, v)
		if err != nil {
			return err
		}
		comps[d.compType(cid).info.Name] = js
	}
	d.live.sink.Spawn(d.live.handle[parent], comps)
	return nil
}

// liveDelete is Delete of an attached document: the game despawns the entities and their
// descendants, which a delta removes.
func (d *Document) liveDelete(es []ecs.Entity) error {
	if err := d.liveCheck(); err != nil {
		return err
	}
	for _, e := range d.topLevel(es) {
		if h := d.live.handle[e]; h != 0 {
			d.live.sink.Despawn(h)
		}
	}
	return nil
}

// jsonAt returns the member of the JSON object js at path ("position", "position[1]", "a.b").
func jsonAt(js, path string) (json.RawMessage, error) {
	cur := json.RawMessage(js)
	for part := range strings.SplitSeq(path, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key != "" {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(cur, &m); err != nil {
				return nil, err
			}
			v, ok := m[key]
			if !ok {
				return nil, fmt.Errorf("no field %q", key)
			}
			cur = v
		}
		for rest != "" {
			idx, after, ok := strings.Cut(rest, "]")
			n, err := strconv.Atoi(idx)
			if !ok || err != nil {
				return nil, fmt.Errorf("bad index in %q", path)
			}
			var a []json.RawMessage
			if err := json.Unmarshal(cur, &a); err != nil {
				return nil, err
			}
			if n < 0 || n >= len(a) {
				return nil, fmt.Errorf("index %d out of range in %q", n, path)
			}
			cur = a[n]
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return cur, nil
}
