package doc

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// Merge conflicts. A scene that `voltex-editor merge` could not merge cleanly holds, on each entity
// it could not decide for, a scene.MergeConflicts component (and the scene-level ones in the file's
// editor section): the value it kept (ours) is in the scene, base, ours and theirs in the record.
// The document lists them (Conflicts) and resolves them one at a time (Resolve): the chosen value
// is applied and the record dropped in one undoable step; a save then writes no record for what is
// resolved, and a scene with none left validates again.

// Resolution is how a conflict is resolved.
type Resolution int

// The resolutions.
const (
	UseOurs    Resolution = iota // the value of the current branch (what the merge kept)
	UseTheirs                    // the value of the branch merged in
	KeepEdited                   // the value as it is now (after editing it by hand)
)

func (r Resolution) String() string {
	switch r {
	case UseOurs:
		return "Use Ours"
	case UseTheirs:
		return "Use Theirs"
	}
	return "Keep Edited"
}

// ErrNoConflict is wrapped by the error of resolving a conflict that is not (or no longer) recorded.
var ErrNoConflict = errors.New("no such merge conflict")

// Conflict is one unresolved merge conflict of the document: Entity is the scene id of the entity
// it is on, 0 for the scene itself.
type Conflict struct {
	Entity uint64
	scene.MergeConflict
}

// Conflicts lists and resolves the document's merge conflicts (Document.Conflicts).
type Conflicts struct{ scope }

// List returns the unresolved merge conflicts: the scene's first, then by entity id.
func (d *Conflicts) List() []Conflict {
	var out []Conflict
	for _, c := range d.sceneConflicts {
		out = append(out, Conflict{MergeConflict: c})
	}
	if _, ok := ecs.ComponentIDOf[scene.MergeConflicts](d.world); !ok {
		return out
	}
	start := len(out)
	// A query visits only the (few) entities with conflicts, not the whole world.
	q := ecs.NewQuery1[scene.MergeConflicts](d.world, ecs.Read[scene.MergeConflicts]())
	q.Each(func(e ecs.Entity, mc *scene.MergeConflicts) {
		for _, c := range mc.Items {
			out = append(out, Conflict{Entity: d.idOf(e), MergeConflict: c})
		}
	})
	slices.SortStableFunc(out[start:], func(a, b Conflict) int { return cmp.Compare(a.Entity, b.Entity) })
	return out
}

// Of returns the unresolved merge conflicts recorded on e (nil if none).
func (d *Conflicts) Of(e ecs.Entity) []scene.MergeConflict {
	if !d.Has(e) {
		return nil
	}
	v, _ := ecs.NewMap[scene.MergeConflicts](d.world).TryGet(e)
	return v.Items
}

// Has reports whether e carries unresolved merge conflicts (cheap: for every row of the
// hierarchy).
func (d *Conflicts) Has(e ecs.Entity) bool {
	cid, ok := ecs.ComponentIDOf[scene.MergeConflicts](d.world)
	return ok && d.world.Alive(e) && d.world.Has(e, cid)
}

// Scene returns the scene-level merge conflicts (the scene's name).
func (d *Conflicts) Scene() []scene.MergeConflict { return d.sceneConflicts }

// chosen returns the value a resolution picks ("" = absent), and whether it applies one at all.
func chosen(c scene.MergeConflict, how Resolution) (string, bool) {
	switch how {
	case UseOurs:
		return c.Ours, true
	case UseTheirs:
		return c.Theirs, true
	}
	return "", false
}

// Resolve resolves the conflict at path of the entity with scene id id (0: the scene) as one
// undoable step labelled "Use Ours", "Use Theirs" or "Keep Edited": it gives the value the chosen
// side had (nothing for Keep Edited) and drops the record; the MergeConflicts component goes when
// its last record does. Use … on an "entity" conflict whose side deleted the entity deletes it (with
// its descendants). A value that cannot be applied (its parent is gone, say) returns an error and
// changes nothing.
func (d *Conflicts) Resolve(id uint64, path string, how Resolution) error {
	if err := d.hist.begin(); err != nil {
		return err
	}
	if id == 0 {
		return d.resolveScene(path, how)
	}
	e, ok := d.entity(id)
	if !ok {
		return fmt.Errorf("%w: scene id %d", ErrNoEntity, id)
	}
	items := d.Of(e)
	at := slices.IndexFunc(items, func(c scene.MergeConflict) bool { return c.Path == path })
	if at < 0 {
		return fmt.Errorf("%w: %s of entity %d", ErrNoConflict, path, id)
	}
	c := items[at]
	val, apply := chosen(c, how)
	var cmds []command
	if apply && c.Path == "entity" {
		if val == scene.ConflictDeleted {
			selBefore := d.sel.ids()
			rm := d.removeTrees([]ecs.Entity{e}, keepAll, nil)
			cmd := &treeCmd{name: how.String(), rm: rm, roots: rm.pack.roots()}
			d.sel.prune()
			d.hist.push(cmd, selBefore)
			return nil
		}
		apply = false // keep it: only the record goes
	}
	if apply {
		cmd, err := d.valueCommand(e, c.Path, val)
		if err != nil {
			return fmt.Errorf("%s %s: %w", how, path, err)
		}
		if cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	// The record.
	rc, _ := ecs.ComponentIDOf[scene.MergeConflicts](d.world)
	rest := slices.Delete(slices.Clone(items), at, at+1)
	after := compState{}
	if len(rest) > 0 {
		after = compState{has: true, val: d.own(rc, scene.MergeConflicts{Items: rest})}
	}
	cmds = append(cmds, &compCmd{name: how.String(), changes: []compChange{{id: id, cid: rc, before: d.state(e, rc), after: after}}})
	var cmd command = &multiCmd{name: how.String(), cmds: cmds}
	selBefore := d.sel.ids()
	if err := cmd.apply(d.core); err != nil {
		return err
	}
	d.hist.push(cmd, selBefore)
	return nil
}

func (d *Conflicts) resolveScene(path string, how Resolution) error {
	at := slices.IndexFunc(d.sceneConflicts, func(c scene.MergeConflict) bool { return c.Path == path })
	if at < 0 {
		return fmt.Errorf("%w: %s of the scene", ErrNoConflict, path)
	}
	c := d.sceneConflicts[at]
	rest := slices.Delete(slices.Clone(d.sceneConflicts), at, at+1)
	if len(rest) == 0 {
		rest = nil
	}
	cmds := []command{&sceneConflictsCmd{from: d.sceneConflicts, to: rest}}
	if val, ok := chosen(c, how); ok && path == "scene.name" {
		var name string
		if err := json.Unmarshal([]byte(val), &name); err != nil {
			return fmt.Errorf("%s %s: %q is not a name: %v", how, path, val, err)
		}
		if name != d.name {
			cmds = append(cmds, &sceneNameCmd{from: d.name, to: name})
		}
	}
	cmd := &multiCmd{name: how.String(), cmds: cmds}
	selBefore := d.sel.ids()
	if err := cmd.apply(d.core); err != nil {
		return err
	}
	d.hist.push(cmd, selBefore)
	return nil
}

// valueCommand returns the command that gives e the value val ("" = absent) at a conflict's path,
// or nil if e has it already.
func (d *core) valueCommand(e ecs.Entity, path, val string) (command, error) {
	id := d.idOf(e)
	switch {
	case path == "name":
		nc, _ := ecs.ComponentIDOf[scene.Name](d.world)
		after := compState{}
		if val != "" {
			var name string
			if err := json.Unmarshal([]byte(val), &name); err != nil {
				return nil, fmt.Errorf("%q is not a name: %v", val, err)
			}
			after = compState{has: true, val: d.own(nc, scene.Name{Value: name})}
		}
		return d.changeCommand(e, nc, after), nil
	case path == "place":
		var pl struct {
			Parent uint64  `json:"parent"`
			Order  float64 `json:"order"`
		}
		if err := json.Unmarshal([]byte(val), &pl); err != nil {
			return nil, fmt.Errorf("%q is not a place: %v", val, err)
		}
		if pl.Parent != 0 {
			p, ok := d.entity(pl.Parent)
			if !ok {
				return nil, fmt.Errorf("its parent %d is not in the scene", pl.Parent)
			}
			for q := p; !q.IsZero(); q = d.world.Parent(q) {
				if q == e {
					return nil, ErrCycle
				}
			}
		}
		from := d.idOf(d.world.Parent(e))
		if from == pl.Parent && d.keyOf(e) == pl.Order {
			return nil, nil
		}
		return &placeCmd{name: "Move", moves: []placeMove{{id: id, from: from, to: pl.Parent, fromKey: d.keyOf(e), toKey: pl.Order}}}, nil
	case strings.HasPrefix(path, "components."):
		comp, field, _ := strings.Cut(strings.TrimPrefix(path, "components."), ".")
		cid, known := d.world.ComponentByName(comp)
		if !known {
			return d.rawCommand(e, comp, field, val)
		}
		after := compState{}
		js := val
		if field != "" { // one field: into the component as it is now
			cur, err := serialize.ComponentJSON(d.world, e, cid)
			if err != nil {
				return nil, err
			}
			if js, err = serialize.SetJSON(cur, field, val); err != nil {
				return nil, err
			}
		}
		if js != "" {
			v, err := serialize.DecodeComponent(d.world, cid, js, d.entity)
			if err != nil {
				return nil, err
			}
			if err := d.checkValue(cid, v); err != nil {
				return nil, err
			}
			after = compState{has: true, val: d.own(cid, deref(v))}
		}
		return d.changeCommand(e, cid, after), nil
	}
	return nil, fmt.Errorf("%w: the editor does not know conflicts of %q", ErrNoConflict, path)
}

// changeCommand returns a command giving e the component state after (nil if it has it already).
func (d *core) changeCommand(e ecs.Entity, cid ecs.ComponentID, after compState) command {
	before := d.state(e, cid)
	if before.has == after.has && (!before.has || sameVal(before.val, after.val)) {
		return nil
	}
	return &compCmd{name: "Resolve", changes: []compChange{{id: d.idOf(e), cid: cid, before: before, after: after}}}
}

// rawCommand applies a value to a component this build does not know (kept as JSON in
// scene.Unknown).
func (d *core) rawCommand(e ecs.Entity, comp, field, val string) (command, error) {
	uc, _ := ecs.ComponentIDOf[scene.Unknown](d.world)
	u, _ := ecs.NewMap[scene.Unknown](d.world).TryGet(e)
	raws := slices.Clone(u.Components)
	at := slices.IndexFunc(raws, func(r scene.RawComponent) bool { return r.Name == comp })
	js := val
	if field != "" {
		cur := "{}"
		if at >= 0 {
			cur = raws[at].JSON
		}
		var err error
		if js, err = serialize.SetJSON(cur, field, val); err != nil {
			return nil, err
		}
	}
	switch {
	case js == "" && at >= 0:
		raws = slices.Delete(raws, at, at+1)
	case js == "":
	case at >= 0:
		raws[at].JSON = js
	default:
		raws = append(raws, scene.RawComponent{Name: comp, JSON: js})
		slices.SortFunc(raws, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
	}
	after := compState{}
	if len(raws) > 0 {
		after = compState{has: true, val: d.own(uc, scene.Unknown{Components: raws})}
	}
	return d.changeCommand(e, uc, after), nil
}
