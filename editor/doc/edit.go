package doc

import (
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/assetref"
	"github.com/voltex-editor/voltex/serialize/query"
)

// state returns entity e's component cid as a compState.
func (d *core) state(e ecs.Entity, cid ecs.ComponentID) compState {
	v, ok := d.capture(e, cid)
	return compState{has: ok, val: v}
}

// setState gives the entity with scene id id the component state st.
func (d *core) setState(id uint64, cid ecs.ComponentID, st compState) error {
	e, ok := d.entity(id)
	if !ok {
		return fmt.Errorf("%w: scene id %d", ErrNoEntity, id)
	}
	w := d.world
	switch has := w.Has(e, cid); {
	case st.has && has:
		return w.Set(e, cid, d.value(st.val, true))
	case st.has:
		return w.Add(e, cid, d.value(st.val, true))
	case has:
		return w.Remove(e, cid)
	}
	return nil
}

// BeginEdit opens a transaction: every SetField, SetComponent and SetComponents call until the
// matching EndEdit changes the world at once (so the viewport and the inspector show it live) and
// all of them together become ONE undoable step labelled label — a whole slider drag or gizmo drag.
// Calls nest: only the outermost EndEdit commits. Any other command (and Undo, Redo, Save) commits
// an open transaction first. While playing it does nothing (the edits return ErrPlaying).
func (d *Document) BeginEdit(label string) {
	if d.play.Playing() || d.live != nil {
		return
	}
	if d.hist.edit != nil {
		d.hist.edit.depth++
		return
	}
	d.hist.edit = &transaction{name: label, depth: 1, sel: d.sel.ids(), touched: map[ecs.ComponentID][]bool{}}
}

// Editing reports whether a transaction is open.
func (d *Document) Editing() bool { return d.hist.edit != nil }

// EndEdit closes the transaction opened by the matching BeginEdit. The outermost one records the
// edits as one step, unless they left every value as it was (then there is no step). Without an
// open transaction it does nothing.
func (d *Document) EndEdit() { d.hist.endEdit() }

// CancelEdit closes the open transaction (all nesting levels) and puts back every value it changed
// (Escape during a drag). No step is recorded.
func (d *Document) CancelEdit() {
	t := d.hist.edit
	if t == nil {
		return
	}
	d.hist.edit = nil
	if g := t.drag; g != nil && d.play.Playing() {
		for i, e := range g.ents {
			if d.play.world.Has(e, g.cid) {
				mustOK(d.play.world.Set(e, g.cid, g.start[i]))
			}
		}
		d.version++
	}
	if t.col != nil {
		d.cancelColumn(t.col)
		d.version++
	}
	for i := len(t.changes) - 1; i >= 0; i-- {
		mustOK(d.setState(t.changes[i].id, t.changes[i].cid, t.changes[i].before))
	}
	if len(t.changes) > 0 {
		d.version++
	}
}

// touch records the state of es's component cid before the transaction first changes it.
func (d *Document) touch(es []ecs.Entity, cid ecs.ComponentID) {
	t := d.hist.edit
	if t.col != nil {
		d.spill(t)
	}
	marks := t.touched[cid]
	for _, e := range es {
		i := int(e.Index())
		if i < len(marks) && marks[i] {
			continue
		}
		if i >= len(marks) {
			marks = append(marks, make([]bool, i+1-len(marks)+len(marks)/2)...)
		}
		marks[i] = true
		if t.changes == nil {
			t.changes = make([]compChange, 0, len(es))
		}
		t.changes = append(t.changes, compChange{id: d.idOf(e), cid: cid, before: d.state(e, cid)})
	}
	t.touched[cid] = marks
}

// inEdit runs fn inside a transaction (the open one, or a new one committed at once).
func (d *Document) inEdit(label string, fn func() error) error {
	if err := d.checkEditable(); err != nil {
		return err
	}
	d.BeginEdit(label)
	err := fn()
	d.EndEdit()
	return err
}

// checkTargets checks that es are live entities having component cid (if need) and that cid may be
// edited; it returns the component's info.
func (d *core) checkTargets(es []ecs.Entity, cid ecs.ComponentID, need bool) (*ecs.ComponentInfo, error) {
	if int(cid) >= len(d.world.ComponentIDs()) {
		return nil, fmt.Errorf("component %d: %w (not registered)", cid, ErrComponent)
	}
	info := d.compType(cid).info
	if info.Computed || info.Type == reflect.TypeFor[scene.SceneID]() {
		return nil, fmt.Errorf("%s: %w (it is maintained by the %s)", info.Name, ErrComponent,
			map[bool]string{true: "world", false: "document"}[info.Computed])
	}
	for _, e := range es {
		if !d.world.Alive(e) || d.idFor(e) == 0 {
			return nil, fmt.Errorf("%s of %v: %w", info.Name, e, ErrNoEntity)
		}
		if need && !d.world.Has(e, cid) {
			return nil, fmt.Errorf("%s of %s: %w (the entity does not have it)", info.Name, d.label(e), ErrComponent)
		}
	}
	return info, nil
}

// SetField sets the field at path (JSON names: "position", "position[0]", "rgba[3]") of component
// cid on every entity of es, which must all have it. Inside a transaction (BeginEdit) the change
// joins it; otherwise it is one step of its own. Values are converted as ecs.World.SetField does;
// NaN and infinities are refused.
func (d *Document) SetField(es []ecs.Entity, cid ecs.ComponentID, path string, v any) error {
	info, err := d.shown().checkTargets(es, cid, true)
	if err != nil {
		return err
	}
	if !finite(reflect.ValueOf(v)) {
		return fmt.Errorf("set %s.%s: %w (%v is not a finite number)", info.Name, path, ErrComponent, v)
	}
	if len(es) == 0 {
		return nil
	}
	if _, err := d.World().GetField(es[0], cid, path); err != nil {
		return err
	}
	if f, err := info.Schema.FieldByPath(path); err == nil {
		if err := checkAsset(f, reflect.ValueOf(v), info.Type == reflect.TypeFor[scene.Mesh]()); err != nil {
			return fmt.Errorf("set %s.%s: %w (%v)", info.Name, path, ErrComponent, err)
		}
	}
	v = positiveZero(v)
	if d.play.Playing() {
		return d.playSetField(es, cid, path, v)
	}
	if d.live != nil {
		return d.liveSetField(es, cid, path, v)
	}
	return d.inEdit("Edit "+info.Name, func() error {
		if ok, err := d.setColumn(es, cid, path, v); ok {
			return err
		}
		d.touch(es, cid)
		for _, e := range es {
			if err := d.world.SetField(e, cid, path, v); err != nil {
				return err
			}
		}
		d.version++
		return nil
	})
}

// SetComponent sets the whole value of component cid (a T or *T) on every entity of es, which must
// all have it (a gizmo drag sets Transforms this way). Transactions as for SetField.
func (d *Document) SetComponent(es []ecs.Entity, cid ecs.ComponentID, v any) error {
	vs := make([]any, len(es))
	for i := range vs {
		vs[i] = v
	}
	return d.SetComponents(es, cid, vs)
}

// SetComponents sets component cid of es[i] to vs[i] (a gizmo moving several entities each its own
// way). Transactions as for SetField.
func (d *Document) SetComponents(es []ecs.Entity, cid ecs.ComponentID, vs []any) error {
	if len(vs) != len(es) {
		panic(fmt.Sprintf("doc.SetComponents: %d entities but %d values; pass one value per entity", len(es), len(vs)))
	}
	info, err := d.shown().checkTargets(es, cid, true)
	if err != nil {
		return err
	}
	for _, v := range vs {
		if err := d.checkValue(cid, v); err != nil {
			return err
		}
	}
	if len(es) == 0 {
		return nil
	}
	if d.play.Playing() {
		return d.playSetComponents(es, cid, vs)
	}
	if d.live != nil {
		return d.liveSetComponents(es, cid, vs)
	}
	return d.inEdit("Edit "+info.Name, func() error {
		d.touch(es, cid)
		for i, e := range es {
			if err := d.world.Set(e, cid, d.value(d.own(cid, positiveZero(deref(vs[i]))), true)); err != nil {
				return err
			}
		}
		d.version++
		return nil
	})
}

// changeComponents runs one compCmd that gives each entity of es the state made by next (which may
// return the current state to leave an entity alone). No step when nothing changes.
func (d *Document) changeComponents(label string, es []ecs.Entity, cid ecs.ComponentID, next func(e ecs.Entity, cur compState) compState) error {
	cmd := &compCmd{name: label}
	seen := map[ecs.Entity]bool{}
	for _, e := range es {
		if seen[e] {
			continue
		}
		seen[e] = true
		cur := d.state(e, cid)
		after := next(e, cur)
		if after.has == cur.has && (!after.has || sameVal(after.val, cur.val)) {
			continue
		}
		cmd.changes = append(cmd.changes, compChange{id: d.idOf(e), cid: cid, before: cur, after: after})
	}
	return d.runComp(cmd)
}

// runComp applies cmd and records it as a step (no step when it changes nothing).
func (d *Document) runComp(cmd *compCmd) error {
	if len(cmd.changes) == 0 {
		return nil
	}
	selBefore := d.sel.ids()
	if err := cmd.apply(d.core); err != nil {
		return err
	}
	d.hist.push(cmd, selBefore)
	return nil
}

// compOp is one of the whole-component commands of the inspector's component menu.
type compOp int

const (
	opAdd compOp = iota
	opRemove
	opReset
	opPaste
)

var opVerbs = [...]string{"Add", "Remove", "Reset", "Paste"}

// componentOp runs op on component cid of es as one step (no step if nothing changes).
func (d *Document) componentOp(op compOp, es []ecs.Entity, cid ecs.ComponentID, v any) error {
	if d.live != nil {
		return d.liveComponentOp(op, es, cid)
	}
	if !d.play.Playing() {
		if err := d.hist.begin(); err != nil {
			return err
		}
	}
	c := d.shown() // while playing, references are to the play world's entities
	info, err := c.checkTargets(es, cid, false)
	if err != nil {
		return err
	}
	if op == opReset || (op == opAdd && v == nil) {
		v = info.Schema.Default
	}
	val := compVal{id: cid}
	if op != opRemove {
		if err := d.checkValue(cid, v); err != nil {
			return err
		}
		val = c.own(cid, positiveZero(deref(v)))
	}
	if d.play.Playing() {
		return d.playComponents(es, cid, func(has bool) (bool, any, bool) {
			if op == opRemove {
				return false, nil, true
			}
			return true, c.value(val, true), has != (op == opAdd)
		})
	}
	return d.changeComponents(opVerbs[op]+" "+info.Name, es, cid, func(_ ecs.Entity, cur compState) compState {
		switch {
		case op == opRemove:
			return compState{val: val}
		case cur.has == (op == opAdd): // add only where missing; reset and paste only where present
			return cur
		}
		return compState{has: true, val: val}
	})
}

// AddComponent adds component cid with its schema default to the entities of es that lack it, as
// one step.
func (d *Document) AddComponent(es []ecs.Entity, cid ecs.ComponentID) error {
	return d.componentOp(opAdd, es, cid, nil)
}

// AddComponentValue adds component cid with value v (T or *T) to the entities of es that lack it,
// as one step.
func (d *Document) AddComponentValue(es []ecs.Entity, cid ecs.ComponentID, v any) error {
	if v == nil {
		panic("doc.AddComponentValue: nil value; use AddComponent for the default")
	}
	return d.componentOp(opAdd, es, cid, v)
}

// RemoveComponent removes component cid from the entities of es that have it, as one step. (Not
// SceneID, not computed components.)
func (d *Document) RemoveComponent(es []ecs.Entity, cid ecs.ComponentID) error {
	return d.componentOp(opRemove, es, cid, nil)
}

// ResetComponent sets component cid back to its schema default on the entities of es that have it,
// as one step.
func (d *Document) ResetComponent(es []ecs.Entity, cid ecs.ComponentID) error {
	return d.componentOp(opReset, es, cid, nil)
}

// PasteComponent sets component cid to v (T or *T: values copied from the inspector) on the
// entities of es that have it, as one step.
func (d *Document) PasteComponent(es []ecs.Entity, cid ecs.ComponentID, v any) error {
	return d.componentOp(opPaste, es, cid, v)
}

// Rename sets the name of every entity of es as one step; an empty name removes it.
func (d *Document) Rename(es []ecs.Entity, name string) error {
	if d.live != nil {
		if _, err := d.checkTargets(es, d.names.ID(), true); err != nil || name == "" {
			return ErrAttached // the game's entities are renamed where they have a name
		}
		return d.liveSetComponents(es, d.names.ID(), slices.Repeat([]any{scene.Name{Value: name}}, len(es)))
	}
	if !d.play.Playing() {
		if err := d.hist.begin(); err != nil {
			return err
		}
	}
	if _, err := d.shown().resolve(es); err != nil {
		return err
	}
	cid := d.names.ID()
	val := d.own(cid, scene.Name{Value: name})
	if d.play.Playing() {
		return d.playComponents(es, cid, func(bool) (bool, any, bool) { return name != "", d.value(val, true), true })
	}
	return d.changeComponents("Rename", es, cid, func(ecs.Entity, compState) compState {
		return compState{has: name != "", val: val}
	})
}

// componentOf returns the component ID of a value's type (T or *T).
func (d *core) componentOf(v any) (ecs.ComponentID, error) {
	t := reflect.TypeOf(v)
	if t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, cid := range d.world.ComponentIDs() {
		if d.compType(cid).info.Type == t {
			return cid, nil
		}
	}
	return 0, fmt.Errorf("%v: %w (not a registered component type)", t, ErrComponent)
}

// checkValue checks that v is a T or non-nil *T of component cid holding only finite numbers.
func (d *core) checkValue(cid ecs.ComponentID, v any) error {
	info := d.compType(cid).info
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if !rv.IsValid() || rv.Type() != info.Type {
		return fmt.Errorf("%s: %w (a %T is not a %v)", info.Name, ErrComponent, v, info.Type)
	}
	if !finite(rv) {
		return fmt.Errorf("%s: %w (a value is not a finite number)", info.Name, ErrComponent)
	}
	if err := checkAssets(info.Schema.Fields, rv, info.Type == reflect.TypeFor[scene.Mesh]()); err != nil {
		return fmt.Errorf("%s: %w (%v)", info.Name, ErrComponent, err)
	}
	return nil
}

// checkAssets refuses asset references (string fields with the asset hint) that the scene loader
// would refuse — absolute paths, ".." escapes, URLs — so that no edit puts one in a scene; an
// empty one means none, except for a Mesh (noEmpty).
func checkAssets(fields []ecs.Field, v reflect.Value, noEmpty bool) error {
	for i := range fields {
		f := &fields[i]
		fv := v.Field(f.Index[len(f.Index)-1])
		if err := checkAsset(f, fv, noEmpty); err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	return nil
}

func checkAsset(f *ecs.Field, v reflect.Value, noEmpty bool) error {
	switch {
	case f.Kind == reflect.String && f.Hints.Asset:
		if s := v.String(); s != "" || noEmpty {
			_, err := assetref.Check(s)
			return err
		}
	case f.Kind == reflect.Struct && !f.IsEntity:
		return checkAssets(f.Fields, v, false)
	case (f.Kind == reflect.Array || f.Kind == reflect.Slice) && f.Elem != nil:
		elem := *f.Elem
		elem.Hints.Asset = elem.Hints.Asset || f.Hints.Asset
		for i := range v.Len() {
			if err := checkAsset(&elem, v.Index(i), false); err != nil {
				return err
			}
		}
	}
	return nil
}

// deref returns *v for a pointer v, else v.
func deref(v any) any {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		return rv.Elem().Interface()
	}
	return v
}

// finite reports whether every float inside v is finite.
func finite(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		return !math.IsNaN(f) && !math.IsInf(f, 0)
	case reflect.Struct:
		for i := range v.NumField() {
			if !finite(v.Field(i)) {
				return false
			}
		}
	case reflect.Array, reflect.Slice:
		if k := v.Type().Elem().Kind(); k == reflect.Float32 || k == reflect.Float64 || k == reflect.Struct ||
			k == reflect.Array || k == reflect.Slice || k == reflect.Pointer || k == reflect.Interface {
			for i := range v.Len() {
				if !finite(v.Index(i)) {
					return false
				}
			}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return finite(v.Elem())
		}
	}
	return true
}

// EditField applies src, what is typed into a field ("+= 10", "*= 0.5", "= x*2", "= rand(0,10)", a
// plain value), to the field at path of component comp on every entity of es, each from its own
// value (serialize/query's field edits; rand draws from seed). Transactions as for SetField.
func (d *Document) EditField(es []ecs.Entity, comp, path, src string, seed uint64) error {
	e, err := query.ParseFieldEdit(d.World(), comp, path, src)
	if err != nil {
		return fmt.Errorf("%s.%s %s: %w", comp, path, src, err)
	}
	changes, err := e.Apply(d.World(), es, seed)
	if err != nil || len(changes) == 0 {
		return err
	}
	ents, vals := make([]ecs.Entity, len(changes)), make([]any, len(changes))
	for i, c := range changes {
		ents[i], vals[i] = c.Entity, c.Value
	}
	return d.SetComponents(ents, e.Component(), vals)
}
