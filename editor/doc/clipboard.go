package doc

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// ClipboardName is the scene name of the text Copy makes.
const ClipboardName = "Clipboard"

// Copy returns es with all their descendants as scene JSON text — a complete scene file (format
// voltex.scene, the entities with their scene ids, names, parents and components; parents outside
// the copied set are left out), so that Paste accepts it in any editor process, and a scene file's
// text can be pasted too. The top-level entities' Transforms are their places in the world (in the
// copied scene they have no parent), so a copied child pastes where it was, not at its offset from
// its parent. References to entities outside the copied set are written as 0 (none). Copy does not
// change the document. It returns "" when es is empty.
func (d *Document) Copy(es ...ecs.Entity) (string, error) {
	c := d.shown()
	return c.copyText(c.topLevel(es), false, false, ClipboardName)
}

// copyText is Copy of tops (top-level entities) in a scene named name; with local, the top-level
// entities keep their local Transforms (Save as Prefab of children of one parent); with identity,
// their Transforms are the identity (Save as Prefab of one entity, whose instance takes its place).
func (d *core) copyText(tops []ecs.Entity, local, identity bool, name string) (string, error) {
	all := preorder(d.world, tops)
	if len(all) == 0 {
		return "", nil
	}
	w := d.world
	tw := d.opts.newWorld()
	tcid := make(map[ecs.ComponentID]ecs.ComponentID)
	to := make(map[ecs.Entity]ecs.Entity, len(all))
	var vals []any
	for _, e := range all {
		vals = vals[:0]
		for _, cid := range w.ComponentsOf(e) {
			ct := d.compType(cid)
			if ct.info.Computed {
				continue
			}
			if _, ok := tcid[cid]; !ok {
				tcid[cid] = ecs.RegisterType(tw, ct.info.Type, ecs.WithName(ct.info.Name), ecs.WithStorage(ct.info.Storage))
			}
			v, _ := w.Get(e, cid)
			if ct.pointers {
				v = ecs.DeepCopy(reflect.ValueOf(v)).Interface()
			}
			vals = append(vals, v)
		}
		to[e] = tw.Spawn(vals...)
	}
	for _, e := range all {
		te := to[e]
		for _, cid := range w.ComponentsOf(e) {
			if ct := d.compType(cid); ct.refs && !ct.info.Computed {
				v, _ := tw.Get(te, tcid[cid])
				rv := reflect.New(ct.info.Type)
				rv.Elem().Set(reflect.ValueOf(v))
				walkRefs(rv.Elem(), func(r *ecs.Entity) { *r = to[*r] })
				mustOK(tw.Set(te, tcid[cid], rv.Interface()))
			}
		}
		if p, ok := to[w.Parent(e)]; ok {
			mustOK(tw.SetParent(te, p))
		} else if identity {
			if ttr, ok := ecs.ComponentIDOf[ecs.Transform](tw); ok && tw.Has(te, ttr) {
				mustOK(tw.Set(te, ttr, ecs.Transform{}.Default()))
			}
		} else if !w.Parent(e).IsZero() && !local {
			worldTransform(w, e, tw, te)
		}
	}
	tall := make([]ecs.Entity, len(all))
	for i, e := range all {
		tall[i] = to[e]
	}
	plainParts(tw, tall) // entities of instances copied without their instance: plain ones
	var b strings.Builder
	if err := serialize.Save(context.Background(), &b, &serialize.Scene{Name: name, World: tw, Prefabs: d.prefabSet, Dir: d.folder()},
		serialize.SaveOptions{}); err != nil {
		return "", fmt.Errorf("copy: %w", err)
	}
	return b.String(), nil
}

// worldTransform sets the Transform of te (in tw) to the place in the world of e (in w), if e has a
// Transform whose world matrix has one (not a zero scale).
func worldTransform(w *ecs.World, e ecs.Entity, tw *ecs.World, te ecs.Entity) {
	tr, ok := ecs.ComponentIDOf[ecs.Transform](w)
	ttr, tok := ecs.ComponentIDOf[ecs.Transform](tw)
	if !ok || !tok {
		return
	}
	v, has := w.Get(e, tr)
	if !has {
		return
	}
	if t, ok := ecs.TransformFromMatrix(w.WorldMatrix(e), v.(ecs.Transform).Rotation); ok {
		mustOK(tw.Set(te, ttr, t))
	}
}

// CopySelection copies the selected entities (see Copy).
func (d *Document) CopySelection() (string, error) { return d.Copy(d.sel.Entities()...) }

// Paste adds the entities of scene JSON text (what Copy returns, or any scene file) under parent
// (the zero Entity: as roots) as one undoable step: they get fresh scene ids, keep their hierarchy,
// and references between them are remapped to the new entities. The pasted top-level entities keep
// their places in the world (under a parent their Transforms become relative to it) and get names
// that no sibling has ("Cube (1)" beside "Cube"). They are selected and returned. Text that is not a valid scene returns the loader's error (positions as
// clipboard:line:col) and changes nothing; cancelling ctx stops a long paste the same way.
// While playing it changes the play world instead, as the user's change (see Play), and makes no step.
func (d *Document) Paste(ctx context.Context, text string, parent ecs.Entity) ([]ecs.Entity, error) {
	if d.play.Playing() {
		var out []ecs.Entity
		err := d.play.run(func(s *scope) (err error) {
			out, err = s.paste(ctx, text, parent)
			return err
		})
		return out, err
	}
	return d.paste(ctx, text, parent)
}

func (d *scope) paste(ctx context.Context, text string, parent ecs.Entity) ([]ecs.Entity, error) {
	if err := d.hist.begin(); err != nil {
		return nil, err
	}
	var pid uint64
	if !parent.IsZero() {
		if pid = d.idOf(parent); pid == 0 {
			return nil, fmt.Errorf("paste under %v: %w", parent, ErrNoEntity)
		}
	}
	s, err := serialize.Load(ctx, strings.NewReader(text), serialize.LoadOptions{File: "clipboard", Limits: d.opts.Limits,
		NewWorld: d.opts.NewWorld, Prefabs: d.prefabSet, Dir: d.folder(), KeepBroken: true})
	if err != nil {
		return nil, err
	}
	tw := s.World
	order := scene.EnsureIDs(tw)
	if len(order) == 0 {
		return nil, nil
	}
	var roots []ecs.Entity
	for _, e := range order {
		if tw.Parent(e).IsZero() {
			roots = append(roots, e)
		}
	}
	tsids := ecs.NewMap[scene.SceneID](tw)
	tidOf := func(e ecs.Entity) uint64 { v, _ := tsids.TryGet(e); return v.ID }
	all := preorder(tw, roots)
	if err := d.checkRoom(len(all)); err != nil {
		return nil, fmt.Errorf("paste: %w", err)
	}
	snaps := make([]entSnap, len(all))
	remap := make(map[uint64]uint64, len(all))
	for i, e := range all {
		s, missing := d.snapIn(tw, e, tidOf)
		if missing != "" {
			panic(fmt.Sprintf("doc: the clipboard world has component %s that the document's world lacks; "+
				"Options.NewWorld must make worlds with the same components every time", missing))
		}
		snaps[i] = s
		remap[s.id] = d.newID()
	}
	d.rekeyInstances(snaps, remap)
	d.renumber(snaps, remap, func(id uint64) uint64 {
		if _, ok := d.entity(id); ok {
			return id
		}
		return 0
	})
	in := idSet(snaps)
	next := d.appendKeys(parent)
	for i := range snaps {
		if !in[snaps[i].parent] {
			snaps[i].parent = pid
			d.setSnapOrder(&snaps[i], next())
			if !parent.IsZero() {
				d.relativeTo(parent, &snaps[i])
			}
		}
	}
	d.uniqueNames(snaps, in)
	return d.insertTrees("Paste", snaps), nil
}

// relativeTo turns the Transform of s, a place in the world, into the same place relative to parent.
func (d *core) relativeTo(parent ecs.Entity, s *entSnap) {
	tr, ok := ecs.ComponentIDOf[ecs.Transform](d.world)
	if !ok {
		return
	}
	for j, c := range s.comps {
		if c.id != tr {
			continue
		}
		t := c.v.(ecs.Transform)
		if local, ok := ecs.TransformFromMatrix(d.world.WorldMatrix(parent).Inv().Mul4(t.Matrix()), t.Rotation); ok {
			s.comps[j].v = local
		}
	}
}

// idSet returns the scene ids of snaps.
func idSet(snaps []entSnap) map[uint64]bool {
	in := make(map[uint64]bool, len(snaps))
	for i := range snaps {
		in[snaps[i].id] = true
	}
	return in
}

// uniqueNames renames the top-level entities of snaps (those whose parent is not in the set in) whose
// names a sibling already has, as Unity does: "Cube" becomes "Cube (1)", "Cube (1)" becomes
// "Cube (2)" — the first number free among the siblings, old and new.
func (d *core) uniqueNames(snaps []entSnap, in map[uint64]bool) {
	nameC, ok := ecs.ComponentIDOf[scene.Name](d.world)
	if !ok {
		return
	}
	taken := map[uint64]map[string]bool{} // by parent scene id: the names of its children
	for i := range snaps {
		s := &snaps[i]
		if in[s.parent] {
			continue
		}
		names := taken[s.parent]
		if names == nil {
			names = map[string]bool{}
			p, _ := d.entity(s.parent)
			for _, c := range d.siblingsOf(p) {
				names[d.nameOf(c)] = true
			}
			taken[s.parent] = names
		}
		for j, c := range s.comps {
			if c.id != nameC {
				continue
			}
			n := c.v.(scene.Name)
			if names[n.Value] {
				n.Value = scene.FreeName(n.Value, names)
				s.comps[j].v = n
			}
			names[n.Value] = true
		}
	}
}
