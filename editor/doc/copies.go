package doc

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// CopySource is what Spawn Grid repeats instead of cubes: an entity of the scene (with its
// descendants and all its components), or a prefab file (each copy an instance of it).
type CopySource struct {
	// Entity, if not zero, is the entity to copy.
	Entity ecs.Entity
	// Prefab, if not empty, is the prefab file (absolute, or relative to the working folder; in the
	// scene's folder or below).
	Prefab string
}

// MaxCopyEntities bounds the entities one grid of copies makes (copies × entities per copy).
const MaxCopyEntities = 2_000_000

// SpawnCopies spawns a grid of copies of src laid out by p (counts, spacing, centre, group, and the
// per-copy rotation and scale steps; p's mesh, colours and spin are for cubes and not used): copy i
// gets p.Transform(i) — for an entity, composed with the entity's own rotation and scale — and the
// name p.CopyName(name, i). The copies of an entity are duplicates of it (fresh ids, references
// inside the copied subtree remapped); the copies of a prefab are instances of it. ONE undoable
// step; the group (if any) or the copies are selected. It returns the group (zero if none) and the
// copies.
func (d *Document) SpawnCopies(ctx context.Context, p scene.GridParams, src CopySource) (ecs.Entity, []ecs.Entity, error) {
	if err := d.hist.begin(); err != nil {
		return ecs.Entity{}, nil, err
	}
	if err := p.Validate(); err != nil {
		return ecs.Entity{}, nil, err
	}
	n := p.Len()
	if err := d.checkRoom(n); err != nil { // each copy is at least one entity; counted exactly below
		return ecs.Entity{}, nil, err
	}
	var groupSnap *entSnap
	parent := uint64(0)
	if p.Group != "" {
		gs := entSnap{id: d.newID()}
		t := ecs.Transform{}.Default()
		t.Position = p.Origin
		d.addComp(&gs, t)
		d.addComp(&gs, scene.Name{Value: p.Group})
		d.addComp(&gs, scene.SceneID{ID: gs.id, Order: scene.NextOrder(d.world, ecs.Entity{})})
		groupSnap, parent = &gs, gs.id
	}
	order := scene.NextOrder(d.world, ecs.Entity{})
	if groupSnap != nil {
		order = 1
	}
	orders := make([]float64, n)
	for i := range orders {
		orders[i] = order + float64(i)
	}
	var snaps []entSnap
	switch {
	case src.Prefab != "":
		rel, err := d.prefabRel(src.Prefab)
		if err != nil {
			return ecs.Entity{}, nil, err
		}
		name := strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel))
		ts := make([]ecs.Transform, n)
		names := make([]string, n)
		for i := range n {
			ts[i], names[i] = p.Transform(i), p.CopyName(name, i)
		}
		if snaps, err = d.instancesNamed(ctx, rel, names, ts, parent, orders); err != nil {
			return ecs.Entity{}, nil, err
		}
	case !src.Entity.IsZero():
		var err error
		if snaps, err = d.entityCopies(src.Entity, p, parent, orders); err != nil {
			return ecs.Entity{}, nil, err
		}
	default:
		panic("doc.SpawnCopies: the source has neither an entity nor a prefab; set one")
	}
	if groupSnap != nil {
		snaps = append([]entSnap{*groupSnap}, snaps...)
	}
	if err := d.checkRoom(len(snaps)); err != nil {
		return ecs.Entity{}, nil, err
	}
	in := idSet(snaps)
	d.uniqueNames(snaps, in) // the group, or the copies, beside roots of the same names
	es := d.insertTrees("Spawn Grid", snaps)
	var group ecs.Entity
	copies := es
	if groupSnap != nil {
		group = es[0]
		copies = d.world.Children(group)
	}
	return group, copies, nil
}

// addComp appends component value v (a registered type) to s.
func (d *core) addComp(s *entSnap, v any) {
	cid, err := d.componentOf(v)
	if err != nil {
		panic(err)
	}
	s.comps = append(s.comps, d.own(cid, v))
}

// entityCopies returns the snaps of the copies of e (with its subtree) for the grid p.
func (d *core) entityCopies(e ecs.Entity, p scene.GridParams, parent uint64, orders []float64) ([]entSnap, error) {
	if !d.world.Alive(e) || d.idOf(e) == 0 {
		return nil, fmt.Errorf("spawn grid of %v: %w", e, ErrNoEntity)
	}
	all := preorder(d.world, []ecs.Entity{e})
	n := p.Len()
	if n*len(all) > MaxCopyEntities {
		return nil, fmt.Errorf("%d copies of %d entities are more than the limit of %d entities", n, len(all), MaxCopyEntities)
	}
	base := make([]entSnap, len(all))
	for i, x := range all {
		base[i] = d.snapshot(x)
	}
	trC, _ := ecs.ComponentIDOf[ecs.Transform](d.world)
	nameC, _ := ecs.ComponentIDOf[scene.Name](d.world)
	own := ecs.Transform{}.Default()
	if t, ok := ecs.NewMap[ecs.Transform](d.world).TryGet(e); ok {
		own = t
	}
	name := d.nameOf(e)
	if name == "" {
		name = "Copy"
	}
	// The source's own turn and scale, under each copy's step.
	ownRS := mgl32.Translate3D(own.Position[0], own.Position[1], own.Position[2]).Inv().Mul4(own.Matrix())
	out := make([]entSnap, 0, n*len(base))
	for i := range n {
		snaps := make([]entSnap, len(base))
		for k, s := range base {
			snaps[k] = entSnap{id: s.id, parent: s.parent, comps: append([]compVal(nil), s.comps...)}
		}
		remap := make(map[uint64]uint64, len(snaps))
		for _, s := range snaps {
			remap[s.id] = d.newID()
		}
		d.rekeyInstances(snaps, remap)
		d.renumber(snaps, remap, func(id uint64) uint64 { return id })
		top := &snaps[0]
		top.parent = parent
		d.setSnapOrder(top, orders[i])
		t := p.Transform(i)
		m := t.Matrix().Mul4(ownRS)
		ct, ok := ecs.TransformFromMatrix(m, own.Rotation.Add(t.Rotation))
		if !ok {
			ct = t
		}
		set := func(cid ecs.ComponentID, v any) {
			for j := range top.comps {
				if top.comps[j].id == cid {
					top.comps[j] = d.own(cid, v)
					return
				}
			}
			top.comps = append(top.comps, d.own(cid, v))
		}
		set(trC, ct)
		set(nameC, scene.Name{Value: p.CopyName(name, i)})
		out = append(out, snaps...)
	}
	return out, nil
}

// instancesNamed is instancesSnaps with a name per instance.
func (d *core) instancesNamed(ctx context.Context, rel string, names []string, ts []ecs.Transform, parent uint64, orders []float64) ([]entSnap, error) {
	snaps, err := d.instancesSnaps(ctx, rel, "", ts, parent, orders)
	if err != nil {
		return nil, err
	}
	nameC, _ := ecs.ComponentIDOf[scene.Name](d.world)
	k := 0
	for i := range snaps {
		if snaps[i].parent != parent || k >= len(names) {
			continue
		}
		for j := range snaps[i].comps {
			if snaps[i].comps[j].id == nameC {
				snaps[i].comps[j] = d.own(nameC, scene.Name{Value: names[k]})
			}
		}
		k++
	}
	return snaps, nil
}

// ShapeItem is one drawn part of what a grid copies (for previews): a mesh, its matrix relative to
// the copy's place (before the copy's grid position, step rotation and step scale), and its colour.
type ShapeItem struct {
	Mesh   string
	Matrix mgl32.Mat4
	Color  [4]float32
}

// Shape returns the drawn parts of src as SpawnCopies copies them, for a preview.
func (d *Document) Shape(ctx context.Context, src CopySource) ([]ShapeItem, error) {
	if src.Prefab != "" {
		rel, err := d.prefabRel(src.Prefab)
		if err != nil {
			return nil, err
		}
		snaps, err := d.instancesSnaps(ctx, rel, "", []ecs.Transform{ecs.Transform{}.Default()}, 0, []float64{0})
		if err != nil {
			return nil, err
		}
		w := d.opts.newWorld()
		byID := map[uint64]ecs.Entity{}
		for _, s := range snaps {
			vals := make([]any, 0, len(s.comps))
			for _, c := range s.comps {
				vals = append(vals, d.value(c, false))
			}
			e := w.Spawn(vals...)
			byID[s.id] = e
			if p, ok := byID[s.parent]; ok {
				_ = w.SetParent(e, p)
			}
		}
		w.PropagateTransforms()
		return shapeOf(w, byID[snaps[0].id], mgl32.Ident4()), nil
	}
	e := src.Entity
	if !d.world.Alive(e) {
		return nil, fmt.Errorf("%w: %v", ErrNoEntity, e)
	}
	own := ecs.Transform{}.Default()
	if t, ok := ecs.NewMap[ecs.Transform](d.world).TryGet(e); ok {
		own = t
	}
	ownRS := mgl32.Translate3D(own.Position[0], own.Position[1], own.Position[2]).Inv().Mul4(own.Matrix())
	d.world.PropagateTransforms()
	return shapeOf(d.world, e, ownRS.Mul4(d.world.WorldMatrix(e).Inv())), nil
}

// shapeOf lists the drawn entities of root's subtree, their world matrices multiplied by base.
func shapeOf(w *ecs.World, root ecs.Entity, base mgl32.Mat4) []ShapeItem {
	meshes := ecs.NewMap[scene.Mesh](w)
	colors := ecs.NewMap[scene.Color](w)
	trs := ecs.NewMap[ecs.Transform](w)
	var out []ShapeItem
	for _, x := range preorder(w, []ecs.Entity{root}) {
		m, ok := meshes.TryGet(x)
		if !ok || !trs.Has(x) {
			continue
		}
		c := scene.Color{}.Default()
		if v, ok := colors.TryGet(x); ok {
			c = v
		}
		out = append(out, ShapeItem{Mesh: m.Asset, Matrix: base.Mul4(w.WorldMatrix(x)), Color: c.RGBA})
	}
	return out
}

// Subtree returns e and its descendants in the world shown (see World), parents first.
func (d *Document) Subtree(e ecs.Entity) []ecs.Entity {
	w := d.World()
	if !w.Alive(e) {
		return nil
	}
	return preorder(w, []ecs.Entity{e})
}
