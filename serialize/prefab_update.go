package serialize

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// UpdateReport says what [UpdateInstances] did.
type UpdateReport struct {
	// Instances is the number of instances brought up to date.
	Instances int
	// Structural: the update spawned or despawned entities (an index of the world's entities
	// must be rebuilt); false when it only changed values and places.
	Structural bool
	// Warnings say what was kept that no longer applies: overrides of entities the prefab no
	// longer has (kept as placeholders), overridden components the prefab entity no longer has
	// (kept as added components), and instances whose prefab cannot be used any more.
	Warnings []string
}

// UpdateInstances brings the instances of s built from the old templates of changes (as
// [Prefabs.Reload] returns them) up to the new ones, in place, keeping what each instance
// overrides: a value the instance has not changed takes the prefab's new value, one it has
// changed keeps the instance's; an entity or component the instance removed stays removed;
// entities added to the prefab appear, entities removed from it go (an entity the instance changed,
// or with children of its own, stays as a placeholder that keeps what the file says about it). An
// instance whose prefab can no longer be used becomes a placeholder (Prefab.Problem), keeping its
// overrides; one whose prefab can be used again is built again with them.
//
// Entities that stay keep their handles. It is what a reload of the scene file would give after
// saving it under the old prefabs (a property test checks this).
func UpdateInstances(s *Scene, changes map[string]TemplateChange) UpdateReport {
	var rep UpdateReport
	w := s.World
	if len(changes) == 0 || !hasInstances(w) {
		return rep
	}
	dir := s.Dir
	if dir == "" {
		dir = "."
	}
	u := &updater{s: s, w: w, rep: &rep, sw: newSceneWriter(w), b: newBinder(w),
		prefabs: ecs.NewMap[scene.Prefab](w), parts: ecs.NewMap[scene.PrefabPart](w), kept: ecs.NewMap[scene.PrefabKept](w),
		touched: map[ecs.Entity]bool{}}
	u.b.probs = &diag.List{File: "prefab update"}
	u.b.ds.probs, u.b.ds.path = u.b.probs, &diag.Path{}
	u.b.prefabs = s.Prefabs
	var jobs []updateJob
	ecs.NewQuery1[scene.Prefab](w).Each(func(e ecs.Entity, pf *scene.Prefab) {
		if u.parts.Has(e) {
			return
		}
		clean, err := checkPrefabPath(pf.Path)
		if err != nil {
			return
		}
		if ch, ok := changes[absPath(filepath.Join(dir, filepath.FromSlash(clean)))]; ok {
			jobs = append(jobs, updateJob{e, clean, ch})
		}
	})
	overLimits(s, jobs)
	for _, j := range jobs {
		u.update(j.root, j.clean, j.ch)
		rep.Instances++
	}
	for p := range u.touched { // children in sibling order, as loads link them
		if w.Alive(p) {
			kids := w.Children(p)
			scene.SortSiblings(w, kids)
			_ = w.SetChildren(p, kids)
		}
	}
	for _, p := range u.b.probs.Problems {
		rep.Warnings = append(rep.Warnings, p.Msg)
	}
	return rep
}

// updateJob is one instance to update: its root, its prefab path (clean) and the change.
type updateJob struct {
	root  ecs.Entity
	clean string
	ch    TemplateChange
}

// overLimits keeps live updates within the limits the scene was loaded with (those of its prefab
// set): if the new versions of the changed prefabs would take the scene past Limits.MaxEntities or
// Limits.MaxWorldBytes (each prefab file within its limits, instanced many times), the changes that
// grow the scene make their instances placeholders that say so, as for a prefab that cannot be
// used.
func overLimits(s *Scene, jobs []updateJob) {
	if s.Prefabs == nil {
		return
	}
	lim := s.Prefabs.opts.Limits.resolved()
	type growth struct {
		n               int
		entities, bytes int64
		own             int64
		jobs            []int
	}
	by := map[string]*growth{}
	var keys []string
	for j := range jobs {
		ch := &jobs[j].ch
		if ch.New == nil || ch.New.err != nil {
			continue
		}
		k := ch.New.abs
		g := by[k]
		if g == nil {
			g = &growth{own: ch.New.own}
			oldLen, oldBytes := 0, int64(0)
			if ch.Old != nil && ch.Old.err == nil {
				oldLen, oldBytes = ch.Old.Len(), ch.Old.bytes
				g.own -= ch.Old.own
			}
			g.entities, g.bytes = int64(ch.New.Len()-oldLen), ch.New.bytes-oldBytes
			by[k] = g
			keys = append(keys, k)
		}
		g.n++
		g.jobs = append(g.jobs, j)
	}
	// A scene the editor holds has no count of its own memory (s.data): its entities' bookkeeping is
	// the floor.
	ents := int64(s.World.Len())
	data := max(s.data, ents*entityOverhead)
	for _, k := range keys {
		g := by[k]
		ents += int64(g.n) * g.entities
		data += int64(g.n)*g.bytes + g.own
	}
	var msg string
	switch {
	case lim.MaxEntities > 0 && ents > int64(lim.MaxEntities):
		msg = fmt.Sprintf("its new version would give the scene %s entities, more than the limit of %s entities", words.Thousands(ents), words.Thousands(int64(lim.MaxEntities)))
	case lim.MaxWorldBytes > 0 && data > lim.MaxWorldBytes:
		msg = fmt.Sprintf("its new version would take the scene past the limit of %s of memory (Limits.MaxWorldBytes)", words.Bytes(lim.MaxWorldBytes))
	default:
		s.data = data
		return
	}
	for _, k := range keys {
		g := by[k]
		if g.entities <= 0 && g.bytes+g.own <= 0 {
			continue
		}
		nt := jobs[g.jobs[0]].ch.New
		err := fmt.Errorf("%s: %s", nt.file, msg)
		bad := &Template{file: nt.file, abs: nt.abs, deps: nt.deps, err: err, problem: err.Error()}
		for _, j := range g.jobs {
			jobs[j].ch.New = bad
		}
	}
}

type updater struct {
	s                *Scene
	w                *ecs.World
	rep              *UpdateReport
	sw               *sceneWriter
	b                *binder
	prefabs          *ecs.Map[scene.Prefab]
	parts            *ecs.Map[scene.PrefabPart]
	kept             *ecs.Map[scene.PrefabKept]
	touched          map[ecs.Entity]bool // parents whose children changed
	byID             map[uint64]ecs.Entity
	slots, old       []ecs.Entity // the instance's entities by index in the new and in the old template
	orphans, strange []ecs.Entity // placeholders, and entities of the instance in neither template
}

// instanceEntities finds the entities of the instance root: by index in v1 (slots), in v0 only
// (old), placeholders and others.
func (u *updater) instanceEntities(root ecs.Entity, rootID uint64, t0, t1 *Template) {
	u.slots = resize(u.slots, len(t1.ents))
	u.old = resize(u.old, len(t0.ents))
	u.orphans, u.strange = u.orphans[:0], u.strange[:0]
	var walk func(e ecs.Entity)
	walk = func(e ecs.Entity) {
		for _, c := range u.w.Children(e) {
			pp, ok := u.parts.TryGet(c)
			if !ok || pp.Instance != rootID {
				continue
			}
			switch k, _ := u.kept.TryGet(c); {
			case k.Orphan:
				u.orphans = append(u.orphans, c)
			default:
				i1, in1 := t1.byID[pp.Source]
				i0, in0 := t0.byID[pp.Source]
				switch {
				case in1 && t1.err == nil:
					u.slots[i1] = c
				case in0 && t0.err == nil:
					u.old[i0] = c
				default:
					u.strange = append(u.strange, c)
				}
			}
			walk(c)
		}
	}
	walk(root)
}

func resize(s []ecs.Entity, n int) []ecs.Entity {
	if cap(s) < n {
		return make([]ecs.Entity, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// update brings one instance from ch.Old to ch.New.
func (u *updater) update(root ecs.Entity, clean string, ch TemplateChange) {
	w := u.w
	rootID := u.sw.sids.Get(root).ID
	prefix := prefixOf(clean)
	t0, t1 := ch.Old, ch.New
	u.instanceEntities(root, rootID, t0, t1)
	pf := u.prefabs.Get(root)
	switch {
	case t1.err != nil:
		if pf.Problem == "" {
			u.warn("instance %q: prefab %s cannot be used any more: %s; it is a placeholder, its overrides are kept",
				u.name(root), pf.Path, t1.problem)
		}
		pf.Problem = t1.problem
		u.prefabs.Set(root, pf)
		if t0.err == nil {
			u.breakInstance(root, rootID, t0.view(prefix))
		}
		return
	case t0.err != nil || pf.Problem != "":
		pf.Problem = ""
		u.prefabs.Set(root, pf)
		u.rebuild(root, rootID, t1, t1.view(prefix))
		return
	}
	v0, v1 := t0.view(prefix), t1.view(prefix)
	// Entities of the new prefab: patched, moved, or new.
	refFix := func(x ecs.Entity) ecs.Entity {
		if k, ok := t1.index[x]; ok {
			return u.slots[k]
		}
		return ecs.Entity{}
	}
	// The removals a save under t0 would write for entities t1 does not have.
	var keepRemoved []int
	for i := range v0 {
		if _, in1 := t1.byID[v0[i].id]; !in1 && u.old[i].IsZero() {
			keepRemoved = append(keepRemoved, i)
		}
	}
	type goner struct {
		e  ecs.Entity
		te *tplEnt // in v0
	}
	var gone []goner
	var spawned []int
	for i := range v1 {
		te := &v1[i]
		e := u.slots[i]
		i0, inOld := t0.byID[te.id]
		if e.IsZero() {
			if inOld {
				continue // the instance removed it (or an entity above it)
			}
			parent := root
			if te.parent >= 0 {
				if parent = u.slots[te.parent]; parent.IsZero() {
					continue // under an entity the instance removed
				}
			}
			vals := u.b.partValues(nil, te, rootID, scene.InstanceID(rootID, te.id))
			e = u.spawn(vals...)
			u.slots[i] = e
			_ = w.SetParent(e, parent)
			u.touched[parent] = true
			spawned = append(spawned, i)
			continue
		}
		if !inOld {
			continue
		}
		t0e := &v0[i0]
		parent := root
		if te.parent >= 0 {
			if parent = u.slots[te.parent]; parent.IsZero() { // its new parent is not in the instance: it goes too
				gone = append(gone, goner{e, t0e})
				u.slots[i] = ecs.Entity{}
				continue
			}
		}
		if !sameTplEnt(t0, t1, t0e, te) {
			u.patch(e, rootID, t0e, te, refFix)
		}
		if w.Parent(e) != parent {
			_ = w.SetParent(e, parent)
			u.touched[parent] = true
		}
		if sid := u.sw.sids.Get(e); sid.Order != te.order {
			sid.Order = te.order
			u.sw.sids.Set(e, sid)
			u.touched[parent] = true
		}
	}
	for _, i := range spawned {
		for j := range v1[i].comps {
			if c := &v1[i].comps[j]; c.refs {
				setRemapped(w, u.slots[i], c, refFix)
			}
		}
	}
	// Entities the prefab no longer has: gone, unless the instance changed them or hangs entities
	// of its own under them (then placeholders keep that). Children first.
	for i := range v0 {
		if e := u.old[i]; !e.IsZero() {
			gone = append(gone, goner{e, &v0[i]})
		}
	}
	for i := len(gone) - 1; i >= 0; i-- {
		g := gone[i]
		o, _ := u.sw.override(g.e, rootID, g.te, u.parts, u.kept, nil)
		if !o.empty() || u.hasOwnChildren(g.e, rootID) {
			u.toOrphan(g.e, root, &o)
			u.warn("instance %q: the prefab has no entity %d (%q) where it was any more: what this instance changes about it is "+
				"kept as a placeholder", u.name(root), g.te.id, g.te.name)
			continue
		}
		u.despawn(g.e)
	}
	// Entities the instance removed that the prefab no longer has: the removal is kept (a
	// placeholder), as a reload would keep it.
	for _, i := range keepRemoved {
		if e := u.entityUnder(root, scene.InstanceID(rootID, v0[i].id)); e.IsZero() {
			u.removedPlaceholder(root, rootID, &v0[i])
		}
	}
	// Placeholders whose entity the prefab has again: built from the prefab with what they kept.
	for _, e := range u.orphans {
		pp := u.parts.Get(e)
		if i, ok := t1.byID[pp.Source]; ok && u.slots[i].IsZero() {
			parent := root
			if pi := v1[i].parent; pi >= 0 {
				if parent = u.slots[pi]; parent.IsZero() {
					continue
				}
			}
			u.materialize(e, root, rootID, parent, t1, &v1[i], int(i), refFix)
		}
	}
}

// sameTplEnt reports whether an entity is the same in two templates (its parent by id).
func sameTplEnt(t0, t1 *Template, a, b *tplEnt) bool {
	if a.name != b.name || a.hasName != b.hasName || a.order != b.order || a.prefab != b.prefab ||
		len(a.comps) != len(b.comps) || !slices.Equal(a.unknown, b.unknown) {
		return false
	}
	pa, pb := uint64(0), uint64(0)
	if a.parent >= 0 {
		pa = t0.ents[a.parent].id
	}
	if b.parent >= 0 {
		pb = t1.ents[b.parent].id
	}
	if pa != pb {
		return false
	}
	for i := range a.comps {
		if a.comps[i].name != b.comps[i].name || a.comps[i].json != b.comps[i].json {
			return false
		}
	}
	return true
}

// spawn and despawn change the world's entities, noting it in the report.
func (u *updater) spawn(vals ...any) ecs.Entity {
	u.rep.Structural = true
	return u.w.Spawn(vals...)
}

func (u *updater) despawn(e ecs.Entity) {
	u.rep.Structural = true
	u.w.Despawn(e)
}

func (u *updater) warn(format string, args ...any) {
	u.rep.Warnings = append(u.rep.Warnings, fmt.Sprintf(format, args...))
}

func (u *updater) name(e ecs.Entity) string {
	n, _ := u.sw.names.TryGet(e)
	return n.Value
}

// hasOwnChildren reports whether e has children that are not entities of instance rootID.
func (u *updater) hasOwnChildren(e ecs.Entity, rootID uint64) bool {
	for _, c := range u.w.Children(e) {
		if pp, ok := u.parts.TryGet(c); !ok || pp.Instance != rootID {
			return true
		}
	}
	return false
}

// patch brings e, made from t0, to t1, keeping what it overrides.
func (u *updater) patch(e ecs.Entity, rootID uint64, t0, t1 *tplEnt, refFix func(ecs.Entity) ecs.Entity) {
	w := u.w
	if t0.name != t1.name || t0.hasName != t1.hasName {
		if cur, _ := u.sw.names.TryGet(e); cur.Value == t0.name {
			nid, _ := ecs.ComponentIDOf[scene.Name](w)
			switch {
			case t1.hasName && w.Has(e, nid):
				_ = w.Set(e, nid, &scene.Name{Value: t1.name})
			case t1.hasName:
				_ = w.Add(e, nid, &scene.Name{Value: t1.name})
			default:
				_ = w.Remove(e, nid)
			}
		}
	}
	refID := func(x ecs.Entity) int64 {
		if x.IsZero() || !w.Alive(x) {
			return 0
		}
		if q, ok := u.parts.TryGet(x); ok && q.Instance == rootID {
			return int64(q.Source)
		}
		return -int64(u.sw.sids.Get(x).ID)
	}
	c0s, c1s := t0.comps, t1.comps
	for len(c0s) > 0 || len(c1s) > 0 {
		var c0, c1 *tplComp
		switch {
		case len(c1s) == 0 || len(c0s) > 0 && c0s[0].name < c1s[0].name:
			c0, c0s = &c0s[0], c0s[1:]
		case len(c0s) == 0 || c1s[0].name < c0s[0].name:
			c1, c1s = &c1s[0], c1s[1:]
		default:
			c0, c1 = &c0s[0], &c1s[0]
			c0s, c1s = c0s[1:], c1s[1:]
		}
		if c0 != nil && c1 != nil && c0.json == c1.json {
			continue
		}
		name := cmpName(c0, c1)
		sc := u.saved(name)
		if sc == nil {
			continue
		}
		has := w.Has(e, sc.id)
		switch {
		case c0 != nil && c1 != nil:
			if !has {
				continue // the instance removed it
			}
			js, same, err := u.sw.compare(e, sc, c0, refID)
			if err != nil {
				continue
			}
			if same {
				u.setTemplateValue(e, sc.id, c1, refFix)
			} else {
				u.setWithOverride(e, sc.id, c1, js, refFix)
			}
		case c0 != nil: // the prefab entity lost it
			if !has { // the instance removes it: the removal is kept (as a reload keeps it)
				u.keepRemoval(e, name)
				continue
			}
			if js, same, _ := u.sw.compare(e, sc, c0, refID); same {
				_ = w.Remove(e, sc.id)
			} else { // what the instance changes stays, over the component's defaults (as a reload reads it)
				bd := u.b.byNm[name]
				bd.reset()
				_ = w.Set(e, sc.id, bd.scratch.Interface())
				v, err := jsonpos.Parse([]byte(`{ `+string(jsonpos.AppendString(nil, name))+`: `+js+` }`), jsonpos.Limits{})
				if err == nil {
					u.applyComps(e, &v, nil)
				}
				u.warn("entity %q: the prefab entity has no %s any more; what this instance changes in it is kept", u.name(e), name)
			}
		default: // the prefab entity gained it
			if has {
				continue // the instance's own
			}
			if u.dropKeptRemoval(e, name) {
				continue // the instance removes it: now that the prefab has it, that is an override
			}
			_ = w.Add(e, sc.id, nil)
			u.setTemplateValue(e, sc.id, c1, refFix)
		}
	}
	if !slices.Equal(t0.unknown, t1.unknown) {
		u.patchUnknown(e, t0.unknown, t1.unknown)
	}
	if t0.prefab != t1.prefab {
		pid, _ := ecs.ComponentIDOf[scene.Prefab](w)
		switch {
		case t1.prefab == "":
			_ = w.Remove(e, pid)
		case w.Has(e, pid):
			_ = w.Set(e, pid, &scene.Prefab{Path: t1.prefab})
		default:
			_ = w.Add(e, pid, &scene.Prefab{Path: t1.prefab})
		}
	}
}

func cmpName(a, b *tplComp) string {
	if a != nil {
		return a.name
	}
	return b.name
}

// saved returns the saved component of the world named name.
func (u *updater) saved(name string) *savedComp {
	i, ok := slices.BinarySearchFunc(u.sw.comps, name, func(c savedComp, n string) int { return strings.Compare(c.name, n) })
	if !ok || u.sw.comps[i].codec == nil {
		return nil
	}
	return &u.sw.comps[i]
}

// setTemplateValue sets component id of e to the template value c (references mapped by fix).
func (u *updater) setTemplateValue(e ecs.Entity, id ecs.ComponentID, c *tplComp, fix func(ecs.Entity) ecs.Entity) {
	if c.refs {
		setRemapped(u.w, e, c, fix)
		return
	}
	v := c.val
	if c.deep {
		v = ecs.DeepCopy(reflect.ValueOf(v)).Interface()
	}
	_ = u.w.Set(e, id, v)
}

// setWithOverride sets component id of e to the template value c with the override js (the fields
// that differ, as the scene writes them) applied.
func (u *updater) setWithOverride(e ecs.Entity, id ecs.ComponentID, c *tplComp, js string, fix func(ecs.Entity) ecs.Entity) {
	u.setTemplateValue(e, id, c, fix)
	v, err := jsonpos.Parse([]byte(`{ `+string(jsonpos.AppendString(nil, c.name))+`: `+js+` }`), jsonpos.Limits{})
	if err != nil {
		return
	}
	u.applyComps(e, &v, nil)
}

// applyComps applies override components (an object of component name → fields, null for
// removed) to e, as a load applies a record, and resolves the references they hold.
func (u *updater) applyComps(e ecs.Entity, comps *jsonpos.Value, te *tplEnt) {
	b := u.b
	b.refs = b.refs[:0]
	o := &ovrRec{rec: -1, comps: comps}
	if te == nil {
		te = &tplEnt{}
	}
	b.apply(o, e, te)
	for _, r := range b.refs {
		target := u.entityByID(uint64(r.ref.id))
		_ = u.w.SetField(e, r.comp, r.ref.path, target)
	}
	b.refs = b.refs[:0]
}

// entityByID finds an entity of the world by scene id (an index built on first use).
func (u *updater) entityByID(id uint64) ecs.Entity {
	if u.byID == nil {
		u.byID = map[uint64]ecs.Entity{}
		ecs.NewQuery1[scene.SceneID](u.w).Each(func(e ecs.Entity, s *scene.SceneID) { u.byID[s.ID] = e })
	}
	return u.byID[id]
}

// keepRemoval keeps the removal of component name by e, which its prefab entity no longer has.
func (u *updater) keepRemoval(e ecs.Entity, name string) {
	k, ok := u.kept.TryGet(e)
	k.Components = append(slices.Clone(k.Components), scene.RawComponent{Name: name, JSON: "null"})
	slices.SortStableFunc(k.Components, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
	if ok {
		u.kept.Set(e, k)
	} else {
		u.kept.Add(e, k)
	}
}

// dropKeptRemoval removes a kept removal of component name from e and reports whether there was
// one.
func (u *updater) dropKeptRemoval(e ecs.Entity, name string) bool {
	k, ok := u.kept.TryGet(e)
	if !ok || k.Orphan {
		return false
	}
	n := len(k.Components)
	k.Components = slices.DeleteFunc(slices.Clone(k.Components), func(c scene.RawComponent) bool { return c.Name == name })
	if len(k.Components) == n {
		return false
	}
	if len(k.Components) == 0 {
		u.kept.Remove(e)
	} else {
		u.kept.Set(e, k)
	}
	return true
}

// patchUnknown updates the components this build does not know, as whole values.
func (u *updater) patchUnknown(e ecs.Entity, u0, u1 []scene.RawComponent) {
	m := ecs.NewMap[scene.Unknown](u.w)
	cur, _ := m.TryGet(e)
	out := slices.Clone(cur.Components)
	find := func(l []scene.RawComponent, name string) (scene.RawComponent, bool) {
		i := slices.IndexFunc(l, func(c scene.RawComponent) bool { return c.Name == name })
		if i < 0 {
			return scene.RawComponent{}, false
		}
		return l[i], true
	}
	for _, c := range u0 {
		mine, has := find(out, c.Name)
		if has && mine.JSON == c.JSON {
			out = slices.DeleteFunc(out, func(x scene.RawComponent) bool { return x.Name == c.Name })
			if n, ok := find(u1, c.Name); ok {
				out = append(out, n)
			}
		}
	}
	for _, c := range u1 {
		if _, ok := find(u0, c.Name); !ok {
			if _, has := find(out, c.Name); !has {
				out = append(out, c)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
	switch {
	case len(out) == 0:
		if m.Has(e) {
			m.Remove(e)
		}
	case m.Has(e):
		m.Set(e, scene.Unknown{Components: out})
	default:
		m.Add(e, scene.Unknown{Components: out})
	}
}

// toOrphan replaces e, an entity of the instance whose prefab entity (source) is gone, by a
// placeholder with the same id keeping its override o; its children move to the placeholder.
func (u *updater) toOrphan(e, root ecs.Entity, o *override) {
	sid := u.sw.sids.Get(e)
	pp := u.parts.Get(e)
	kept := &scene.PrefabKept{Orphan: true, Name: o.name, HasName: o.hasName, Components: o.comps}
	name := o.name
	if !o.hasName {
		name = u.name(e)
	}
	u.replace(e, root, &scene.SceneID{ID: sid.ID}, &pp, kept, &scene.Name{Value: name})
}

// replace despawns old and spawns an entity with vals in its place: under parent, with old's
// children. It returns the new entity.
func (u *updater) replace(old, parent ecs.Entity, vals ...any) ecs.Entity {
	w := u.w
	kids := w.Children(old)
	u.despawn(old)
	e := u.spawn(vals...)
	_ = w.SetParent(e, parent)
	u.touched[parent] = true
	for _, c := range kids {
		_ = w.SetParent(c, e)
	}
	if len(kids) > 0 {
		u.touched[e] = true
	}
	return e
}

// breakInstance makes the instance a placeholder: its entities go, except those it changed or
// hangs entities of its own under (placeholders keep what it says about them).
func (u *updater) breakInstance(root ecs.Entity, rootID uint64, v0 []tplEnt) {
	for i := len(v0) - 1; i >= 0; i-- {
		e := u.old[i]
		if e.IsZero() {
			continue
		}
		o, _ := u.sw.override(e, rootID, &v0[i], u.parts, u.kept, nil)
		if !o.empty() || u.hasOwnChildren(e, rootID) {
			u.toOrphan(e, root, &o)
			continue
		}
		u.despawn(e)
	}
	// What was removed from the instance stays removed: placeholders for the removals (not for
	// entities that have a placeholder already).
	for i := range v0 {
		if u.old[i].IsZero() && u.entityUnder(root, scene.InstanceID(rootID, v0[i].id)).IsZero() {
			u.removedPlaceholder(root, rootID, &v0[i])
		}
	}
}

// removedPlaceholder keeps the removal of te from the instance as a placeholder.
func (u *updater) removedPlaceholder(root ecs.Entity, rootID uint64, te *tplEnt) {
	id := scene.InstanceID(rootID, te.id)
	ph := u.spawn(&scene.SceneID{ID: id}, &scene.PrefabPart{Instance: rootID, Source: te.id},
		&scene.PrefabKept{Orphan: true, Removed: true}, &scene.Name{Value: "missing prefab entity " + fmt.Sprint(te.id)})
	_ = u.w.SetParent(ph, root)
	u.touched[root] = true
}

// entityUnder returns the placeholder of the instance with id, if any.
func (u *updater) entityUnder(root ecs.Entity, id uint64) ecs.Entity {
	for _, e := range u.orphans {
		if u.sw.sids.Get(e).ID == id {
			return e
		}
	}
	_ = root
	return ecs.Entity{}
}

// rebuild builds the entities of an instance that was a placeholder from t1, with what its
// placeholders kept.
func (u *updater) rebuild(root ecs.Entity, rootID uint64, t1 *Template, v1 []tplEnt) {
	w := u.w
	removed := map[uint64]bool{}
	bySource := map[uint64]ecs.Entity{}
	for _, e := range u.orphans {
		pp := u.parts.Get(e)
		bySource[pp.Source] = e
		if k := u.kept.Get(e); k.Removed {
			removed[pp.Source] = true
		}
	}
	refFix := func(x ecs.Entity) ecs.Entity {
		if k, ok := t1.index[x]; ok {
			return u.slots[k]
		}
		return ecs.Entity{}
	}
	skipped := make([]bool, len(v1))
	for i := range v1 {
		te := &v1[i]
		if removed[te.id] || (te.parent >= 0 && skipped[te.parent]) {
			skipped[i] = true
			continue
		}
		parent := root
		if te.parent >= 0 {
			parent = u.slots[te.parent]
		}
		if ph, ok := bySource[te.id]; ok {
			u.materialize(ph, root, rootID, parent, t1, te, i, refFix)
			continue
		}
		e := u.spawn(u.b.partValues(nil, te, rootID, scene.InstanceID(rootID, te.id))...)
		u.slots[i] = e
		_ = w.SetParent(e, parent)
		u.touched[parent] = true
	}
	for i := range v1 {
		if u.slots[i].IsZero() {
			continue
		}
		for j := range v1[i].comps {
			if c := &v1[i].comps[j]; c.refs {
				setRemapped(w, u.slots[i], c, refFix)
			}
		}
	}
	// Removals of entities the prefab has: done (not spawned); their placeholders go.
	for _, e := range u.orphans {
		if !w.Alive(e) {
			continue // made an entity of the instance again
		}
		pp := u.parts.Get(e)
		if _, ok := t1.byID[pp.Source]; ok && u.kept.Get(e).Removed {
			for _, c := range w.Children(e) {
				_ = w.SetParent(c, root)
			}
			u.despawn(e)
		}
	}
}

// materialize replaces the placeholder ph by the entity made from te (index i of the template)
// with what ph kept applied; ph's children move to it.
func (u *updater) materialize(ph, _ ecs.Entity, rootID uint64, parent ecs.Entity, _ *Template, te *tplEnt, i int,
	refFix func(ecs.Entity) ecs.Entity) {
	w := u.w
	k := u.kept.Get(ph)
	e := u.replace(ph, parent, u.b.partValues(nil, te, rootID, scene.InstanceID(rootID, te.id))...)
	u.slots[i] = e
	for j := range te.comps {
		if c := &te.comps[j]; c.refs {
			setRemapped(w, e, c, refFix)
		}
	}
	if k.HasName {
		if u.sw.names.Has(e) {
			u.sw.names.Set(e, scene.Name{Value: k.Name})
		} else {
			u.sw.names.Add(e, scene.Name{Value: k.Name})
		}
	}
	if len(k.Components) > 0 {
		b := []byte("{ ")
		for j, c := range k.Components {
			if j > 0 {
				b = append(b, ", "...)
			}
			b = jsonpos.AppendString(b, c.Name)
			b = append(b, ": "...)
			b = append(b, c.JSON...)
		}
		v, err := jsonpos.Parse(append(b, " }"...), jsonpos.Limits{})
		if err == nil {
			u.applyComps(e, &v, te)
		}
	}
}
