package doc

import (
	"context"
	"errors"
	"fmt"
	"github.com/voltex-editor/voltex/internal/words"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/atomicfile"
	"github.com/voltex-editor/voltex/serialize"
)

// ErrPrefab is wrapped by the error of an operation that does not apply to prefab instances that
// way (moving an entity of an instance out of its place, applying an override the prefab cannot
// hold, …).
var ErrPrefab = errors.New("prefab instance")

func (o Options) newPrefabs() *serialize.Prefabs {
	return serialize.NewPrefabs(serialize.PrefabOptions{NewWorld: o.NewWorld, Limits: o.Limits, CheckAsset: assets.CheckRef})
}

// folder returns the folder the scene's prefab paths are relative to: the scene file's, or the
// working folder for a scene never saved.
func (d *core) folder() string {
	if d.path != "" {
		return filepath.Dir(d.path)
	}
	if d.dir != "" {
		return d.dir
	}
	return "."
}

// Broken returns the problems of instances whose prefab could not be used when the scene was
// opened (they are placeholders; saving keeps what the file says about them).
func (d *Prefabs) Broken() []serialize.Problem { return d.broken }

// Prefabs works with the document's prefab instances: the prefab files they are built from, their
// overrides, and the steps that instantiate, revert, apply, unpack and save prefabs
// (Document.Prefabs).
type Prefabs struct {
	scope
	broken []serialize.Problem // instances left as placeholders when the scene was opened
}

// Set returns the prefab set of the document (the prefabs its instances are built from).
func (d *Prefabs) Set() *serialize.Prefabs { return d.prefabSet }

// Files returns the absolute paths of the prefab files the scene's instances read (for a
// watcher; missing ones too).
func (d *Prefabs) Files() []string { return d.prefabSet.Files() }

// InstanceOf returns the instance e belongs to (its root, e itself for a root) and whether it
// belongs to one.
func (d *Prefabs) InstanceOf(e ecs.Entity) (ecs.Entity, bool) { return serialize.Instance(d.world, e) }

// IsPart reports whether e is an entity of a prefab instance (made from the prefab, not the
// instance itself and not an entity the instance adds).
func (d *Prefabs) IsPart(e ecs.Entity) bool {
	pm := ecs.NewMap[scene.PrefabPart](d.world)
	return pm.Has(e)
}

// AppendParts appends those of es that are entities of prefab instances (see IsPart) to dst and
// returns it: one check per entity, none when the scene has no prefab instance.
func (d *Prefabs) AppendParts(dst, es []ecs.Entity) []ecs.Entity {
	if len(es) > 1 && ecs.NewQuery1[scene.PrefabPart](d.world).Count() == 0 {
		return dst
	}
	pm := ecs.NewMap[scene.PrefabPart](d.world)
	for _, e := range es {
		if pm.Has(e) {
			dst = append(dst, e)
		}
	}
	return dst
}

// Overrides lists how e, an entity of a prefab instance, differs from its prefab (nil for other
// entities): see serialize.Overrides.
func (d *Prefabs) Overrides(e ecs.Entity) []serialize.Override {
	return serialize.Overrides(d.scene(), e)
}

// Changed brings the scene's instances up to date after prefab files changed on disk
// (files: their paths; another editor window saved one, say): each instance takes the prefab's new
// values except those it overrides (serialize.UpdateInstances). It is not an undoable step, and it
// leaves the document's dirty state alone (the scene's own file says the same as before). It
// returns what the update did, and whether any instance changed.
func (d *Prefabs) Changed(ctx context.Context, files ...string) serialize.UpdateReport {
	d.hist.endEdit()
	rep := d.updateInstances(ctx, files...)
	if rep.Instances > 0 && rep.Structural {
		d.sel.prune()
	}
	return rep
}

// updateInstances reads the prefab files again and brings the instances up to date in place
// (serialize.UpdateInstances): the one way instances follow a changed prefab file.
func (d *core) updateInstances(ctx context.Context, files ...string) serialize.UpdateReport {
	changes := d.prefabSet.Reload(ctx, files...)
	rep := serialize.UpdateInstances(d.scene(), changes)
	if rep.Instances > 0 {
		if rep.Structural { // only then can ids have come or gone
			d.reindex()
		}
		d.version++
	}
	return rep
}

// refuseParts returns ErrPrefab if one of es is an entity of an instance (not a placeholder):
// they keep the place their prefab gives them (Unity's "restructuring a prefab instance").
func (d *core) refuseParts(verb string, es []ecs.Entity) error {
	parts := ecs.NewMap[scene.PrefabPart](d.world)
	for _, e := range es {
		if parts.Has(e) {
			return fmt.Errorf("%s %s: %w: its entities keep the place their prefab gives them (unpack the instance to "+
				"change it, or change the prefab)", verb, d.label(e), ErrPrefab)
		}
	}
	return nil
}

// rekeyInstances prepares copies (snaps of Duplicate and Paste, remap: old → new scene ids) of
// prefab instances: the entities of a copied instance get the ids of the copy's instance
// (scene.InstanceID); entities of instances copied without their instance become plain entities.
func (d *core) rekeyInstances(snaps []entSnap, remap map[uint64]uint64) {
	partC, ok := ecs.ComponentIDOf[scene.PrefabPart](d.world)
	if !ok {
		return
	}
	keptC, _ := ecs.ComponentIDOf[scene.PrefabKept](d.world)
	prefabC, _ := ecs.ComponentIDOf[scene.Prefab](d.world)
	for i := range snaps {
		s := &snaps[i]
		j := slices.IndexFunc(s.comps, func(c compVal) bool { return c.id == partC })
		if j < 0 {
			continue
		}
		pp := s.comps[j].v.(scene.PrefabPart)
		if inst, ok := remap[pp.Instance]; ok {
			remap[s.id] = scene.InstanceID(inst, pp.Source)
			s.comps[j].v = scene.PrefabPart{Instance: inst, Source: pp.Source}
			continue
		}
		s.comps = slices.DeleteFunc(s.comps, func(c compVal) bool { return c.id == partC || c.id == keptC || c.id == prefabC })
	}
}

// plainParts turns the entities of instances whose instance is not among all (entities of tw, a
// world being copied) into plain entities.
func plainParts(tw *ecs.World, all []ecs.Entity) {
	parts := ecs.NewMap[scene.PrefabPart](tw)
	sids := ecs.NewMap[scene.SceneID](tw)
	in := make(map[uint64]bool, len(all))
	for _, e := range all {
		in[sids.Get(e).ID] = true
	}
	for _, e := range all {
		pp, ok := parts.TryGet(e)
		if !ok || in[pp.Instance] {
			continue
		}
		parts.Remove(e)
		if m := ecs.NewMap[scene.PrefabKept](tw); m.Has(e) {
			m.Remove(e)
		}
		if m := ecs.NewMap[scene.Prefab](tw); m.Has(e) {
			m.Remove(e)
		}
	}
}

// prefabRel returns the path of the prefab file at path (absolute, or relative to the working
// folder) as the scene names it: relative to its folder, which it must be in.
func (d *core) prefabRel(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir, err := filepath.Abs(d.folder())
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: %s is not in the scene's folder (%s): prefabs are named relative to it and cannot be "+
			"above it (as meshes); save the scene next to its prefabs or above them", ErrPrefab, path, dir)
	}
	if d.path != "" && filepath.Clean(abs) == filepath.Clean(mustAbs(d.path)) {
		return "", fmt.Errorf("%w: a scene cannot contain itself", ErrPrefab)
	}
	return filepath.ToSlash(rel), nil
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// instanceSnaps builds the entities of a new instance of the prefab at rel (relative to the
// scene's folder) named name, with Transform t, under the entity with scene id parent (0: a root):
// they are loaded through the scene loader, so the instance is exactly what reopening the scene
// would give.
func (d *core) instanceSnaps(ctx context.Context, rel, name string, t ecs.Transform, parent uint64, order float64) ([]entSnap, error) {
	return d.instancesSnaps(ctx, rel, name, []ecs.Transform{t}, parent, []float64{order})
}

// instancesSnaps builds len(ts) instances of the prefab at rel (see instanceSnaps); instance k
// has Transform ts[k] and order key orders[k], and is named name, or "name k" with several.
func (d *core) instancesSnaps(ctx context.Context, rel, name string, ts []ecs.Transform, parent uint64, orders []float64) ([]entSnap, error) {
	var b strings.Builder
	b.WriteString(`{ "format": "voltex.scene", "version": 2, "entities": [`)
	for k, t := range ts {
		if k > 0 {
			b.WriteString(",")
		}
		n := name
		if len(ts) > 1 {
			n = fmt.Sprintf("%s %d", name, k+1)
		}
		fmt.Fprintf(&b, `{ "id": %d, "name": %s, "order": %d, "prefab": %s, "components": { "Transform": { "position": %s, "rotation": %s, "scale": %s } } }`,
			k+1, quoteJSON(n), k, quoteJSON(rel), vec(t.Position), vec(t.Rotation), vec(t.Scale))
	}
	b.WriteString("] }")
	// Named as the scene they go into: a refusal names the scene ("level.json ×4 tree.json ×10 …").
	file := d.path
	if file == "" {
		file = filepath.Join(d.folder(), "untitled.json")
	}
	s, err := serialize.Load(ctx, strings.NewReader(b.String()), serialize.LoadOptions{File: file,
		Limits: d.opts.Limits, NewWorld: d.opts.NewWorld, Prefabs: d.prefabSet, Dir: d.folder()})
	if err != nil {
		var le *serialize.Error
		if errors.As(err, &le) && len(le.Problems) > 0 {
			// The first problem is about the instance line made here ("prefab … cannot be used: " and the
			// prefab's first problem); the rest are the prefab's own: those, when there are any, say it once.
			var line []string
			var own []serialize.Problem
			for _, p := range le.Problems {
				if p.File == file {
					line = append(line, p.Msg)
				} else {
					own = append(own, p)
				}
			}
			if len(own) > 0 {
				return nil, fmt.Errorf("instantiate %s: %w", rel, &serialize.Error{Problems: own})
			}
			return nil, fmt.Errorf("instantiate %s: %s", rel, strings.Join(line, "\n"))
		}
		return nil, fmt.Errorf("instantiate %s: %w", rel, err)
	}
	tw := s.World
	tsids := ecs.NewMap[scene.SceneID](tw)
	tidOf := func(e ecs.Entity) uint64 { v, _ := tsids.TryGet(e); return v.ID }
	var roots []ecs.Entity
	for _, e := range scene.EnsureIDs(tw) {
		if tw.Parent(e).IsZero() {
			roots = append(roots, e)
		}
	}
	scene.SortSiblings(tw, roots)
	all := preorder(tw, roots)
	snaps := make([]entSnap, len(all))
	remap := make(map[uint64]uint64, len(all))
	for i, e := range all {
		sn, missing := d.snapIn(tw, e, tidOf)
		if missing != "" {
			return nil, fmt.Errorf("instantiate %s: the prefab has component %s that the scene's world lacks", rel, missing)
		}
		snaps[i] = sn
		if sn.parent == 0 {
			remap[sn.id] = d.newID()
		}
	}
	d.rekeyInstances(snaps, remap)
	d.renumber(snaps, remap, func(uint64) uint64 { return 0 })
	k := 0
	for i := range snaps { // the instances, in order
		if snaps[i].parent == 0 {
			snaps[i].parent = parent
			d.setSnapOrder(&snaps[i], orders[min(k, len(orders)-1)])
			k++
		}
	}
	return snaps, nil
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func vec(v mgl32.Vec3) string {
	return fmt.Sprintf("[%s, %s, %s]", num(v[0]), num(v[1]), num(v[2]))
}

func num(f float32) string { return strings.TrimSuffix(fmt.Sprintf("%g", f), ".0") }

// Instantiate adds an instance of the prefab file at path (absolute, or relative to the working
// folder; it must be in the scene's folder or below) under parent (zero: a root), at position pos
// in parent's space, named after the file, and selects it: one undoable step.
func (d *Prefabs) Instantiate(ctx context.Context, path string, parent ecs.Entity, pos mgl32.Vec3) (ecs.Entity, error) {
	t := ecs.Transform{}.Default()
	t.Position = pos
	return d.InstantiateAt(ctx, path, parent, t)
}

// InstantiateAt is Instantiate with the instance's whole Transform t (parent's space): turned, as one stood on a
// sloping surface is.
func (d *Prefabs) InstantiateAt(ctx context.Context, path string, parent ecs.Entity, t ecs.Transform) (ecs.Entity, error) {
	if err := d.hist.begin(); err != nil {
		return ecs.Entity{}, err
	}
	rel, err := d.prefabRel(path)
	if err != nil {
		return ecs.Entity{}, err
	}
	var pid uint64
	if !parent.IsZero() {
		if pid = d.idOf(parent); pid == 0 {
			return ecs.Entity{}, fmt.Errorf("instantiate under %v: %w", parent, ErrNoEntity)
		}
	}
	name := strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel))
	snaps, err := d.instanceSnaps(ctx, rel, name, t, pid, scene.NextOrder(d.world, parent))
	if err != nil {
		return ecs.Entity{}, err
	}
	if err := d.checkRoom(len(snaps)); err != nil {
		return ecs.Entity{}, fmt.Errorf("instantiate %s: %w", name, err)
	}
	in := idSet(snaps)
	d.uniqueNames(snaps, in)
	es := d.insertTrees("Instantiate "+name, snaps)
	return es[0], nil
}

// captureSubtrees captures roots (top-level entities) and their descendants without changing them.
func (d *core) captureSubtrees(roots []ecs.Entity) subtreeState {
	all := preorder(d.world, roots)
	st := subtreeState{roots: d.idsOf(roots)}
	st.rm.pack = d.packOf(all)
	d.captureBasesPack(st.rm.pack, all)
	st.rm.holders = d.holdersOf(all)
	seen := map[ecs.Entity]bool{}
	for _, r := range roots {
		if p := d.world.Parent(r); !p.IsZero() && !seen[p] {
			seen[p] = true
			st.rm.order = append(st.rm.order, siblings{parent: d.idOf(p), children: d.idsOf(d.world.Children(p))})
		}
	}
	return st
}

// replaceState removes the subtrees of from and restores those of to.
func (d *core) replaceState(from, to subtreeState) error {
	if err := d.removeIDs(from.roots); err != nil {
		return err
	}
	d.restorePack(to.rm.pack, to.rm.order, to.rm.holders)
	d.rebasePack(to.rm.pack)
	return nil
}

// changeSubtrees runs change, which changes the subtrees of roots in the world directly (a
// serialize prefab operation) and returns the roots of the result (nil: the same), and records it
// as one undoable step. If change fails, the subtrees are put back as they were.
func (d *Prefabs) changeSubtrees(label string, roots []ecs.Entity, change func() ([]ecs.Entity, error)) error {
	selBefore := d.sel.ids()
	before := d.captureSubtrees(roots)
	after, err := change()
	d.reindex()
	if err != nil {
		if rerr := d.replaceFrom(before); rerr != nil {
			return errors.Join(err, rerr)
		}
		return err
	}
	if after == nil {
		after = d.entitiesOf(before.roots)
	}
	cmd := &replaceCmd{name: label, before: before, after: d.captureSubtrees(after)}
	d.sel.prune()
	d.hist.push(cmd, selBefore)
	return nil
}

// replaceFrom puts the subtrees of st back after a failed change: whatever carries their root ids
// goes first.
func (d *core) replaceFrom(st subtreeState) error {
	var live []uint64
	for _, id := range st.roots {
		if _, ok := d.entity(id); ok {
			live = append(live, id)
		}
	}
	if err := d.removeIDs(live); err != nil {
		return err
	}
	d.restorePack(st.rm.pack, st.rm.order, st.rm.holders)
	return nil
}

// Unpack turns the instances es into plain entities (see serialize.Unpack), as one undoable step.
func (d *Prefabs) Unpack(es ...ecs.Entity) error {
	if err := d.hist.begin(); err != nil {
		return err
	}
	roots, err := d.instanceRoots(es)
	if err != nil {
		return err
	}
	return d.changeSubtrees("Unpack Prefab", roots, func() ([]ecs.Entity, error) {
		s := d.scene()
		for _, r := range roots {
			if err := serialize.Unpack(s, r); err != nil {
				return nil, fmt.Errorf("unpack %s: %w", d.label(r), err)
			}
		}
		return nil, nil
	})
}

// instanceRoots returns the instances es belong to (each once, top-level ones only).
func (d *core) instanceRoots(es []ecs.Entity) ([]ecs.Entity, error) {
	var roots []ecs.Entity
	for _, e := range es {
		r, ok := serialize.Instance(d.world, e)
		if !ok {
			return nil, fmt.Errorf("%s: %w: not part of a prefab instance", d.label(e), ErrPrefab)
		}
		if !slices.Contains(roots, r) {
			roots = append(roots, r)
		}
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("%w: nothing selected", ErrPrefab)
	}
	return d.topLevel(roots), nil
}

// RevertOverride sets what es (entities of prefab instances) override back to their prefab's:
// component "" and path "name": the name; component C with path "": the whole component (added back
// if the instance removed it, removed if the instance added it); component C and a field path: that
// field. One undoable step.
func (d *Prefabs) RevertOverride(es []ecs.Entity, component, path string) error {
	if err := d.hist.begin(); err != nil {
		return err
	}
	var changes []compChange
	s := d.scene()
	from := 0 // entities of es whose prefab entity is known
	for _, e := range es {
		if !serialize.SourceOf(s, e).Known() {
			continue // a plain entity (or a placeholder) in a mixed selection: nothing to revert
		}
		from++
		id := d.idOf(e)
		if component == "" && path == "name" {
			nameC, _ := ecs.ComponentIDOf[scene.Name](d.world)
			v, has := serialize.PrefabValue(s, e, "")
			changes = append(changes, d.change(e, id, nameC, v, has))
			continue
		}
		cid, ok := d.world.ComponentByName(component)
		if !ok {
			return fmt.Errorf("revert %s: %w (no such component)", component, ErrComponent)
		}
		pv, inPrefab := serialize.PrefabValue(s, e, component)
		if path == "" {
			changes = append(changes, d.change(e, id, cid, pv, inPrefab))
			continue
		}
		if !inPrefab || !d.world.Has(e, cid) {
			if len(es) > 1 {
				continue // this one has no such field to revert
			}
			return fmt.Errorf("revert %s.%s of %s: %w: the prefab or the entity has no %s", component, path, d.label(e), ErrPrefab, component)
		}
		fv, err := ecs.FieldOf(pv, path)
		if err != nil {
			return fmt.Errorf("revert %s.%s: %w", component, path, err)
		}
		cur, _ := d.world.Get(e, cid)
		nv := reflect.New(reflect.TypeOf(cur)).Elem()
		nv.Set(ecs.DeepCopy(reflect.ValueOf(cur)))
		if err := ecs.SetFieldOf(nv.Addr().Interface(), path, fv); err != nil {
			return err
		}
		changes = append(changes, d.change(e, id, cid, nv.Interface(), true))
	}
	if from == 0 {
		return fmt.Errorf("revert %s: %w: none of the entities is part of a prefab instance", strings.Trim(component+"."+path, "."), ErrPrefab)
	}
	changes = slices.DeleteFunc(changes, func(c compChange) bool { return sameState(c.before, c.after) })
	return d.pushChanges("Revert "+strings.Trim(component+"."+path, "."), changes)
}

// change builds the change of e's component cid to v (present or not).
func (d *core) change(e ecs.Entity, id uint64, cid ecs.ComponentID, v any, has bool) compChange {
	c := compChange{id: id, cid: cid}
	if cur, ok := d.capture(e, cid); ok {
		c.before = compState{has: true, val: cur}
	}
	if has {
		c.after = compState{has: true, val: d.own(cid, v)}
	}
	return c
}

// pushChanges applies changes and records them as one step (none if they change nothing).
func (d *Prefabs) pushChanges(label string, changes []compChange) error {
	if len(changes) == 0 {
		return nil
	}
	selBefore := d.sel.ids()
	cmd := &compCmd{name: label, changes: changes}
	if err := cmd.apply(d.core); err != nil {
		_ = cmd.revert(d.core)
		return err
	}
	d.hist.push(cmd, selBefore)
	return nil
}

// RevertInstances sets the instances es belong to back to their prefabs: every override of their
// entities is dropped, the entities they removed come back, placeholders of entities their prefab no
// longer has go; entities the instances add stay. One undoable step.
func (d *Prefabs) RevertInstances(es ...ecs.Entity) error {
	if err := d.hist.begin(); err != nil {
		return err
	}
	roots, err := d.instanceRoots(es)
	if err != nil {
		return err
	}
	return d.changeSubtrees("Revert Prefab Instance", roots, func() ([]ecs.Entity, error) {
		return nil, d.rebuildInstances(roots)
	})
}

// rebuildInstances builds the instances roots again from their prefabs, keeping the roots' own
// components and the entities they add (moved to the same parents when those still exist, else to
// the instance).
func (d *core) rebuildInstances(roots []ecs.Entity) error {
	w := d.world
	parts := ecs.NewMap[scene.PrefabPart](w)
	for _, r := range roots {
		rid := d.idOf(r)
		pf := ecs.NewMap[scene.Prefab](w).Get(r)
		if pf.Problem != "" {
			return fmt.Errorf("%w: %s: the prefab %s cannot be used (%s)", ErrPrefab, d.label(r), pf.Path, pf.Problem)
		}
		t := ecs.NewMap[ecs.Transform](w)
		tr := ecs.Transform{}.Default()
		if v, ok := t.TryGet(r); ok {
			tr = v
		}
		fresh, err := d.instanceSnaps(context.Background(), pf.Path, d.nameOf(r), tr, 0, 0)
		if err != nil {
			return err
		}
		// The instance's own entities (not made from the prefab), by their parents' ids.
		type own struct {
			e      ecs.Entity
			parent uint64
		}
		var owns []own
		for _, e := range preorder(w, []ecs.Entity{r})[1:] {
			if pp, ok := parts.TryGet(e); ok && pp.Instance == rid {
				continue
			}
			if p := w.Parent(e); p == r || parts.Has(p) && parts.Get(p).Instance == rid {
				owns = append(owns, own{e, d.idOf(p)})
			}
		}
		for _, o := range owns {
			mustOK(w.SetParent(o.e, ecs.Entity{}))
		}
		// Replace the parts: despawn them, spawn the fresh ones with the instance's ids.
		for _, e := range preorder(w, []ecs.Entity{r})[1:] {
			if pp, ok := parts.TryGet(e); ok && pp.Instance == rid {
				delete(d.byID(), d.idOf(e))
				d.structure++
				w.Despawn(e)
			}
		}
		remap := map[uint64]uint64{fresh[0].id: rid}
		d.rekeyInstances(fresh[1:], remap)
		d.renumber(fresh[1:], remap, func(uint64) uint64 { return 0 })
		d.restoreTrees(fresh[1:], nil, nil)
		for _, o := range owns {
			p, ok := d.entity(o.parent)
			if !ok {
				p = r
			}
			mustOK(w.SetParent(o.e, p))
		}
		kids := w.Children(r)
		scene.SortSiblings(w, kids)
		d.setChildren(r, kids)
	}
	return nil
}

// Apply makes overrides of e (an entity of a prefab instance) its prefab's own (see
// serialize.ApplyToPrefab for component and path: "" and "" apply all of e's), writes the prefab
// file and brings every instance of the scene up to date. One undoable step: undo writes the prefab
// file back as it was and puts the instance back.
func (d *Prefabs) Apply(ctx context.Context, e ecs.Entity, component, path string) error {
	if err := d.hist.begin(); err != nil {
		return err
	}
	file, data, err := serialize.ApplyToPrefab(ctx, d.scene(), e, component, path)
	if err != nil {
		return fmt.Errorf("apply to prefab: %w", err)
	}
	return d.applyFile(ctx, "Apply to Prefab", e, file, data)
}

// ApplyInstance applies every override of the instance e belongs to (see
// serialize.ApplyInstanceToPrefab). One undoable step.
func (d *Prefabs) ApplyInstance(ctx context.Context, e ecs.Entity) error {
	if err := d.hist.begin(); err != nil {
		return err
	}
	root, ok := serialize.Instance(d.world, e)
	if !ok {
		return fmt.Errorf("%s: %w: not part of a prefab instance", d.label(e), ErrPrefab)
	}
	file, data, err := serialize.ApplyInstanceToPrefab(ctx, d.scene(), root)
	if err != nil {
		return fmt.Errorf("apply to prefab: %w", err)
	}
	return d.applyFile(ctx, "Apply Instance to Prefab", e, file, data)
}

// applyFile writes data to the prefab file and updates the instances, as one step.
func (d *Prefabs) applyFile(ctx context.Context, label string, e ecs.Entity, file string, data []byte) error {
	root, _ := serialize.Instance(d.world, e)
	old, err := readPrefabFile(file, d.opts.Limits.MaxFileSize)
	if err != nil {
		return fmt.Errorf("apply to prefab: %w", err)
	}
	selBefore := d.sel.ids()
	before := d.captureSubtrees([]ecs.Entity{root})
	cmd := &applyCmd{name: label, file: file, old: old, new: data, before: before}
	if err := cmd.write(ctx, d.core, data); err != nil {
		return err
	}
	d.sel.prune() // the update may have taken selected entities away
	if r, ok := d.entity(before.roots[0]); ok {
		serialize.ForgetKeptRemovals(d.world, preorder(d.world, []ecs.Entity{r})...)
		cmd.after = d.captureSubtrees([]ecs.Entity{r})
	}
	d.hist.push(cmd, selBefore)
	return nil
}

// readPrefabFile reads the prefab file at path (kept to undo an apply): a regular file of at most
// maxSize bytes (the default scene file limit if 0).
func readPrefabFile(path string, maxSize int64) ([]byte, error) {
	if maxSize <= 0 {
		maxSize = serialize.DefaultLimits().MaxFileSize
	}
	st, err := os.Stat(path) // before opening: opening a named pipe blocks
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, st.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxSize {
		return nil, fmt.Errorf("%s is larger than the limit of %s", path, words.Bytes(maxSize))
	}
	return data, nil
}

// SaveAs writes es (with their descendants) as a new scene file at path, and replaces them by
// an instance of it (named after the file, at the place of the first of them): one undoable step
// (undo puts the entities back; the file stays, as in Unity). The entities keep their ids and their
// places relative to their parent in the file; entities under different parents keep their places
// in the world. path must be in the scene's folder (or below) and not be the scene itself.
func (d *Prefabs) SaveAs(ctx context.Context, path string, es ...ecs.Entity) (ecs.Entity, error) {
	if err := d.hist.begin(); err != nil {
		return ecs.Entity{}, err
	}
	tops := d.topLevel(es)
	if len(tops) == 0 {
		return ecs.Entity{}, fmt.Errorf("%w: nothing selected", ErrPrefab)
	}
	if err := d.refuseParts("save as a prefab", tops); err != nil {
		return ecs.Entity{}, err
	}
	rel, err := d.prefabRel(path)
	if err != nil {
		return ecs.Entity{}, err
	}
	w := d.world
	parent := w.Parent(tops[0])
	for _, e := range tops[1:] {
		if w.Parent(e) != parent {
			parent = ecs.Entity{}
		}
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := d.usesFiles(tops); err != nil {
			return ecs.Entity{}, fmt.Errorf("save as prefab in %s: %w", dir, err)
		}
	}
	name := strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel))
	// One entity: its instance takes its place, name and Transform (the prefab's copy of it is at
	// the prefab's origin), as Unity's prefab root does.
	instName, instT := name, ecs.Transform{}.Default()
	single := false
	if len(tops) == 1 {
		if t, ok := ecs.NewMap[ecs.Transform](w).TryGet(tops[0]); ok {
			single, instT = true, t
			if n := d.nameOf(tops[0]); n != "" {
				instName = n
			}
		}
	}
	text, err := d.copyText(tops, !parent.IsZero(), single, name)
	if err != nil {
		return ecs.Entity{}, err
	}
	if err := atomicfile.WriteFileFunc(path, func(w io.Writer) error { _, err := w.Write([]byte(text)); return err }); err != nil {
		return ecs.Entity{}, fmt.Errorf("saving the prefab: %w", err)
	}
	d.Changed(ctx, path) // a file that existed may be a prefab of the scene already
	order := d.keyOf(tops[0])
	var pid uint64
	if !parent.IsZero() {
		pid = d.idOf(parent)
	}
	snaps, err := d.instanceSnaps(ctx, rel, instName, instT, pid, order)
	if err != nil {
		return ecs.Entity{}, err
	}
	selBefore := d.sel.ids()
	before := d.captureSubtrees(tops)
	d.removeTrees(tops, keepNothing, nil)
	es2 := d.restoreTrees(snaps, nil, nil)
	if !parent.IsZero() {
		kids := w.Children(parent)
		scene.SortSiblings(w, kids)
		d.setChildren(parent, kids)
	}
	inst := es2[0]
	after := d.captureSubtrees([]ecs.Entity{inst})
	d.sel.set([]uint64{d.idOf(inst)})
	d.hist.push(&replaceCmd{name: "Save as Prefab", before: before, after: after}, selBefore)
	return inst, nil
}

// usesFiles returns an error if the subtrees of tops name files relative to the scene's folder
// (meshes, prefabs): a prefab saved in another folder could not name them.
func (d *core) usesFiles(tops []ecs.Entity) error {
	meshes := ecs.NewMap[scene.Mesh](d.world)
	prefabs := ecs.NewMap[scene.Prefab](d.world)
	for _, e := range preorder(d.world, tops) {
		if m, ok := meshes.TryGet(e); ok && !assets.IsBuiltinRef(m.Asset) {
			return fmt.Errorf("%w: %s uses the mesh %s, relative to the scene's folder; save the prefab in that folder", ErrPrefab, d.label(e), m.Asset)
		}
		if prefabs.Has(e) {
			return fmt.Errorf("%w: %s is an instance of a prefab named relative to the scene's folder; save the prefab in that folder", ErrPrefab, d.label(e))
		}
	}
	return nil
}

// rebasedPath is an instance's prefab path before a save to another folder changed it.
type rebasedPath struct {
	id   uint64
	path string
}

// rebasePrefabs makes the prefab paths of the scene's instances relative to dir (a save to another
// folder), returning the old ones; it changes nothing and returns an error if a prefab is not in
// dir or below it.
func (d *core) rebasePrefabs(dir string) ([]rebasedPath, error) {
	from, err1 := filepath.Abs(d.folder())
	to, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil || from == to {
		return nil, nil
	}
	pm := ecs.NewMap[scene.Prefab](d.world)
	parts := ecs.NewMap[scene.PrefabPart](d.world)
	type change struct {
		e   ecs.Entity
		rel string
	}
	var changes []change
	var err error
	ecs.NewQuery1[scene.Prefab](d.world).Each(func(e ecs.Entity, pf *scene.Prefab) {
		if parts.Has(e) || err != nil {
			return
		}
		abs := filepath.Join(from, filepath.FromSlash(pf.Path))
		rel, rerr := filepath.Rel(to, abs)
		if rerr != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			err = fmt.Errorf("%w: the prefab %s of %s would be outside %s: prefabs are named relative to the scene's folder "+
				"and cannot be above it; save the scene next to its prefabs or above them", ErrPrefab, pf.Path, d.label(e), to)
			return
		}
		changes = append(changes, change{e, filepath.ToSlash(rel)})
	})
	if err != nil {
		return nil, err
	}
	var old []rebasedPath
	for _, c := range changes {
		pf := pm.Get(c.e)
		old = append(old, rebasedPath{d.idOf(c.e), pf.Path})
		pf.Path = c.rel
		pm.Set(c.e, pf)
	}
	return old, nil
}

// restorePrefabPaths puts back what rebasePrefabs changed (the save failed).
func (d *core) restorePrefabPaths(old []rebasedPath) {
	pm := ecs.NewMap[scene.Prefab](d.world)
	for _, r := range old {
		if e, ok := d.entity(r.id); ok && pm.Has(e) {
			pf := pm.Get(e)
			pf.Path = r.path
			pm.Set(e, pf)
		}
	}
}
