package serialize

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Instance returns the instance entity e belongs to (its root: the entity with the Prefab, of this
// scene, not a nested one), and whether e belongs to one (an instance's root belongs to itself).
func Instance(w *ecs.World, e ecs.Entity) (ecs.Entity, bool) {
	if _, ok := ecs.ComponentIDOf[scene.Prefab](w); !ok || !w.Alive(e) {
		return ecs.Entity{}, false
	}
	parts := ecs.NewMap[scene.PrefabPart](w)
	pp, isPart := parts.TryGet(e)
	if !isPart {
		if ecs.NewMap[scene.Prefab](w).Has(e) {
			return e, true
		}
		return ecs.Entity{}, false
	}
	for p := w.Parent(e); !p.IsZero(); p = w.Parent(p) {
		if ecs.NewMap[scene.SceneID](w).Get(p).ID == pp.Instance {
			return p, true
		}
	}
	return ecs.Entity{}, false
}

// templateOf returns the template the instance root was built from (nil, error if it cannot be
// used) and the folder prefix of its assets.
func templateOf(s *Scene, root ecs.Entity) (*Template, string, error) {
	pf, ok := ecs.NewMap[scene.Prefab](s.World).TryGet(root)
	if !ok {
		return nil, "", errors.New("not a prefab instance")
	}
	if pf.Problem != "" {
		return nil, "", fmt.Errorf("prefab %s cannot be used: %s", pf.Path, pf.Problem)
	}
	clean, err := checkPrefabPath(pf.Path)
	if err != nil {
		return nil, "", err
	}
	prefabs := s.Prefabs
	if prefabs == nil {
		return nil, "", errors.New("the scene has no prefabs loaded (Scene.Prefabs is nil)")
	}
	dir := s.Dir
	if dir == "" {
		dir = "."
	}
	t := prefabs.template(context.Background(), dir, clean, nil, 0)
	if t.err != nil {
		return nil, "", fmt.Errorf("prefab %s cannot be used: %s", pf.Path, t.problem)
	}
	return t, prefixOf(clean), nil
}

// tplEntOf returns the template entity part e was made from (nil if none: e is no part, a
// placeholder, or its prefab cannot be used) with its template.
func tplEntOf(s *Scene, e ecs.Entity) (*tplEnt, *Template, ecs.Entity) {
	w := s.World
	pp, ok := ecs.NewMap[scene.PrefabPart](w).TryGet(e)
	if !ok {
		return nil, nil, ecs.Entity{}
	}
	if k, ok := ecs.NewMap[scene.PrefabKept](w).TryGet(e); ok && k.Orphan {
		return nil, nil, ecs.Entity{}
	}
	root, ok := Instance(w, e)
	if !ok {
		return nil, nil, ecs.Entity{}
	}
	t, prefix, err := templateOf(s, root)
	if err != nil {
		return nil, nil, root
	}
	i, ok := t.byID[pp.Source]
	if !ok {
		return nil, nil, root
	}
	return &t.view(prefix)[i], t, root
}

// Override is one way an entity of a prefab instance differs from its prefab: a field (Path, its
// JSON name, nested fields joined by "."), a whole component (Path ""), or the entity's name
// (Component "" and Path "name").
type Override struct {
	Component string
	Path      string
	// Added: the instance adds the component; Removed: it removes it.
	Added, Removed bool
}

// Overrides lists how e, an entity of a prefab instance, differs from its prefab entity: changed
// fields (nested ones separately; arrays as one value), added and removed components, its name.
// Nil for entities that are not part of an instance (or whose prefab cannot be used).
func Overrides(s *Scene, e ecs.Entity) []Override {
	te, _, root := tplEntOf(s, e)
	if te == nil {
		return nil
	}
	w := s.World
	sw := newSceneWriter(w)
	inst := sw.sids.Get(root).ID
	o, err := sw.override(e, inst, te, ecs.NewMap[scene.PrefabPart](w), ecs.NewMap[scene.PrefabKept](w), nil)
	if err != nil {
		return nil
	}
	var out []Override
	if o.hasName {
		out = append(out, Override{Path: "name"})
	}
	for _, c := range o.comps {
		_, inTpl := te.comp(c.Name)
		switch {
		case c.JSON == "null":
			out = append(out, Override{Component: c.Name, Removed: true})
		case !inTpl:
			out = append(out, Override{Component: c.Name, Added: true})
		default:
			v, err := jsonpos.Parse([]byte(c.JSON), jsonpos.Limits{})
			if err != nil {
				continue
			}
			var walk func(v *jsonpos.Value, prefix string)
			walk = func(v *jsonpos.Value, prefix string) {
				for i := range v.Len() {
					m := v.Index(i)
					p := prefix + m.Key()
					if m.Kind() == jsonpos.Object && m.Len() > 0 {
						walk(m, p+".")
						continue
					}
					out = append(out, Override{Component: c.Name, Path: p})
				}
			}
			walk(&v, "")
		}
	}
	return out
}

// comp returns the template entity's component name.
func (te *tplEnt) comp(name string) (*tplComp, bool) {
	i, ok := slices.BinarySearchFunc(te.comps, name, func(c tplComp, n string) int { return strings.Compare(c.name, n) })
	if !ok {
		return nil, false
	}
	return &te.comps[i], true
}

// PrefabValue returns what e, an entity of a prefab instance, would have without overrides: the
// prefab's value of component name (references pointing at this instance's entities), or its
// name for name "" (as a scene.Name). ok is false if the prefab entity has no such component (or
// e is not part of an instance).
func PrefabValue(s *Scene, e ecs.Entity, name string) (v any, ok bool) {
	return SourceOf(s, e).Value(s, e, name)
}

// PrefabSource is what an entity of a prefab instance is made from: one entity of one version of
// its prefab file (each change of the file loaded makes a new version). Sources compare with ==:
// equal sources give the same values. The zero PrefabSource is no source.
type PrefabSource struct {
	t  *Template
	te *tplEnt
}

// SourceOf returns the source of e, an entity of a prefab instance (the zero PrefabSource if e is
// not one, is a placeholder, or its prefab cannot be used).
func SourceOf(s *Scene, e ecs.Entity) PrefabSource {
	te, t, _ := tplEntOf(s, e)
	if te == nil {
		return PrefabSource{}
	}
	return PrefabSource{t, te}
}

// SourcesOf returns the sources of es (see [SourceOf]; dead entities and entities of no instance
// get the zero PrefabSource), looking each instance's prefab up once.
func SourcesOf(s *Scene, es []ecs.Entity) []PrefabSource {
	out := make([]PrefabSource, len(es))
	w := s.World
	if _, ok := ecs.ComponentIDOf[scene.PrefabPart](w); !ok {
		return out
	}
	parts, kept := ecs.NewMap[scene.PrefabPart](w), ecs.NewMap[scene.PrefabKept](w)
	type inst struct {
		t    *Template
		view []tplEnt
	}
	insts := map[uint64]inst{}  // by instance id
	byPath := map[string]inst{} // by prefab path
	prefabs := ecs.NewMap[scene.Prefab](w)
	for i, e := range es {
		if !w.Alive(e) {
			continue
		}
		pp, ok := parts.TryGet(e)
		if !ok {
			continue
		}
		if k, ok := kept.TryGet(e); ok && k.Orphan {
			continue
		}
		in, seen := insts[pp.Instance]
		if !seen {
			if root, ok := Instance(w, e); ok {
				pf := prefabs.Get(root)
				var found bool
				if in, found = byPath[pf.Path]; !found || pf.Problem != "" {
					if t, prefix, err := templateOf(s, root); err == nil {
						in = inst{t, t.view(prefix)}
					}
					if pf.Problem == "" {
						byPath[pf.Path] = in
					}
				}
			}
			insts[pp.Instance] = in
		}
		if in.t == nil {
			continue
		}
		if k, ok := in.t.byID[pp.Source]; ok {
			out[i] = PrefabSource{in.t, &in.view[k]}
		}
	}
	return out
}

// Known reports whether p is a source (not the zero PrefabSource).
func (p PrefabSource) Known() bool { return p.te != nil }

// Components returns the names of the components of p's prefab entity (sorted).
func (p PrefabSource) Components() []string {
	if p.te == nil {
		return nil
	}
	names := make([]string, len(p.te.comps))
	for i := range p.te.comps {
		names[i] = p.te.comps[i].name
	}
	return names
}

// Value returns p's value of component name for e, an entity of an instance (references pointing
// at the instance's entities), or its name for name "" (as a scene.Name): see [PrefabValue]. It
// answers for the version of the prefab p was taken from, even after the file changed.
func (p PrefabSource) Value(s *Scene, e ecs.Entity, name string) (v any, ok bool) {
	te, t := p.te, p.t
	if te == nil {
		return nil, false
	}
	if name == "" {
		return scene.Name{Value: te.name}, te.hasName
	}
	c, ok := te.comp(name)
	if !ok {
		return nil, false
	}
	pv := reflect.New(c.codec.typ)
	pv.Elem().Set(ecs.DeepCopy(reflect.ValueOf(c.val)))
	if c.refs {
		root, _ := Instance(s.World, e)
		rootID := ecs.NewMap[scene.SceneID](s.World).Get(root).ID
		ids := entitiesUnder(s.World, root)
		c.codec.remapRefs(pv.UnsafePointer(), func(x ecs.Entity) ecs.Entity {
			if k, ok := t.index[x]; ok {
				return ids[scene.InstanceID(rootID, t.ents[k].id)]
			}
			return ecs.Entity{}
		})
	}
	return pv.Elem().Interface(), true
}

// entitiesUnder maps the scene ids of root's descendants to them.
func entitiesUnder(w *ecs.World, root ecs.Entity) map[uint64]ecs.Entity {
	sids := ecs.NewMap[scene.SceneID](w)
	out := map[uint64]ecs.Entity{}
	var walk func(e ecs.Entity)
	walk = func(e ecs.Entity) {
		for _, c := range w.Children(e) {
			out[sids.Get(c).ID] = c
			walk(c)
		}
	}
	walk(root)
	return out
}

// Unpack turns an instance into plain entities of the scene (Unity's Unpack, Godot's Make Local):
// its root loses its Prefab, its entities become ordinary ones with their current values (and
// their ids), placeholders of entities the prefab no longer has are removed, and instances of
// other prefabs nested in it become instances of the scene (keeping their overrides). It refuses
// an instance whose prefab cannot be used (its overrides would be lost).
func Unpack(s *Scene, root ecs.Entity) error {
	w := s.World
	parts := ecs.NewMap[scene.PrefabPart](w)
	if parts.Has(root) {
		return errors.New("this is an entity of an instance nested in another: unpack the outer instance first")
	}
	t, prefix, err := templateOf(s, root)
	if err != nil {
		return fmt.Errorf("cannot unpack: %w", err)
	}
	view := t.view(prefix)
	sids := ecs.NewMap[scene.SceneID](w)
	kept := ecs.NewMap[scene.PrefabKept](w)
	prefabs := ecs.NewMap[scene.Prefab](w)
	rootID := sids.Get(root).ID
	ents := entitiesUnder(w, root)
	type nested struct {
		e  ecs.Entity
		id uint64
	}
	nestRoots := map[uint64]nested{} // by flat id in the template
	var mine []ecs.Entity
	for _, e := range ents {
		if pp, ok := parts.TryGet(e); ok && pp.Instance == rootID {
			mine = append(mine, e)
			if prefabs.Has(e) {
				nestRoots[pp.Source] = nested{e, sids.Get(e).ID}
			}
		}
	}
	sort.Slice(mine, func(i, j int) bool { return mine[i].Index() < mine[j].Index() })
	for _, e := range mine {
		pp := parts.Get(e)
		if k, ok := kept.TryGet(e); ok && k.Orphan {
			for _, c := range w.Children(e) {
				_ = w.SetParent(c, w.Parent(e))
			}
			w.Despawn(e)
			continue
		}
		if kept.Has(e) {
			kept.Remove(e)
		}
		te := (*tplEnt)(nil)
		if i, ok := t.byID[pp.Source]; ok {
			te = &view[i]
		}
		if te != nil && te.nestRoot != 0 {
			if n, ok := nestRoots[te.nestRoot]; ok { // an entity of a nested instance: now of that instance
				parts.Set(e, scene.PrefabPart{Instance: n.id, Source: te.nestSrc})
				sid := sids.Get(e)
				sid.ID = scene.InstanceID(n.id, te.nestSrc)
				sids.Set(e, sid)
				continue
			}
		}
		parts.Remove(e)
	}
	prefabs.Remove(root)
	return nil
}

// ApplyToPrefab makes overrides of e, an entity of a prefab instance, the prefab's own: it returns
// the prefab file (its path as loads name it) and its new contents, for the caller to write
// (instances then follow through Prefabs.Reload and UpdateInstances). What is applied:
//
//   - component "" and path "name": e's name;
//   - component C and path "": component C as e has it (added to the prefab entity if the prefab
//     lacks it, removed from it if e lacks it);
//   - component C and a field path (JSON names joined by ".", as Overrides gives them): that field;
//   - component "" and path "": every override of e.
//
// Entity references must point at entities of the same instance (the prefab cannot refer to
// others), and asset references at files in the prefab's folder.
func ApplyToPrefab(ctx context.Context, s *Scene, e ecs.Entity, component, path string) (string, []byte, error) {
	te, t, root := tplEntOf(s, e)
	if te == nil {
		if root.IsZero() {
			return "", nil, errors.New("not an entity of a prefab instance")
		}
		return "", nil, errors.New("its prefab cannot be used, or no longer has this entity")
	}
	a, err := newApplier(ctx, s, root, t)
	if err != nil {
		return "", nil, err
	}
	if err := a.entity(e, te, component, path); err != nil {
		return "", nil, err
	}
	data, err := a.save(ctx)
	return t.file, data, err
}

// ApplyInstanceToPrefab makes every override of the instance root the prefab's own: each entity's
// changes, and the entities the instance removed are removed from the prefab. Entities the
// instance adds are not (an error names the first, so that nothing is half applied). See
// ApplyToPrefab.
func ApplyInstanceToPrefab(ctx context.Context, s *Scene, root ecs.Entity) (string, []byte, error) {
	t, prefix, err := templateOf(s, root)
	if err != nil {
		return "", nil, err
	}
	w := s.World
	parts := ecs.NewMap[scene.PrefabPart](w)
	rootID := ecs.NewMap[scene.SceneID](w).Get(root).ID
	ents := entitiesUnder(w, root)
	for _, x := range ents {
		if pp, ok := parts.TryGet(x); ok && pp.Instance == rootID {
			continue
		}
		if p := w.Parent(x); p == root || parts.Has(p) && parts.Get(p).Instance == rootID {
			n, _ := ecs.NewMap[scene.Name](w).TryGet(x)
			return "", nil, fmt.Errorf("the instance adds entity %q: apply entities added to an instance by moving them into the prefab "+
				"(open it), or unpack the instance", n.Value)
		}
	}
	a, err := newApplier(ctx, s, root, t)
	if err != nil {
		return "", nil, err
	}
	view := t.view(prefix)
	for i := range view {
		te := &view[i]
		x, ok := ents[scene.InstanceID(rootID, te.id)]
		if !ok {
			if pe := a.byID[te.id]; !pe.IsZero() && a.w.Alive(pe) {
				a.w.DespawnRecursive(pe)
			}
			continue
		}
		if k, ok := ecs.NewMap[scene.PrefabKept](w).TryGet(x); ok && k.Orphan {
			continue
		}
		if err := a.entity(x, te, "", ""); err != nil {
			return "", nil, err
		}
	}
	data, err := a.save(ctx)
	return t.file, data, err
}

// applier changes a loaded prefab to apply an instance's overrides.
type applier struct {
	s      *Scene
	t      *Template
	ps     *Scene // the prefab file, loaded as a scene
	w      *ecs.World
	b      *binder
	byID   map[uint64]ecs.Entity
	rootID uint64
	prefix string
}

func newApplier(ctx context.Context, s *Scene, root ecs.Entity, t *Template) (*applier, error) {
	_, prefix, err := templateOf(s, root)
	if err != nil {
		return nil, err
	}
	if _, model := modelLoader(t.file); model {
		return nil, fmt.Errorf("%s is a model, not a scene file: change it in the program it was made with and export it again, or unpack the instance", filepath.Base(t.file))
	}
	opts := LoadOptions{File: t.file, Prefabs: s.Prefabs, Dir: filepath.Dir(t.file)}
	if s.Prefabs != nil {
		opts.NewWorld, opts.Limits = s.Prefabs.opts.NewWorld, s.Prefabs.opts.Limits
	}
	// The file may have been replaced since it was loaded: a named pipe would block the read.
	if st, err := os.Stat(t.file); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("reading the prefab: %s is not a regular file (%s)", t.file, st.Mode().Type())
	}
	ps, err := LoadFile(ctx, t.file, opts)
	if err != nil {
		return nil, fmt.Errorf("reading the prefab: %w", err)
	}
	a := &applier{s: s, t: t, ps: ps, w: ps.World, b: newBinder(ps.World), byID: map[uint64]ecs.Entity{},
		rootID: ecs.NewMap[scene.SceneID](s.World).Get(root).ID, prefix: prefix}
	a.b.probs = &diag.List{File: t.file}
	a.b.ds.probs, a.b.ds.path = a.b.probs, &diag.Path{}
	sids := ecs.NewMap[scene.SceneID](ps.World)
	for _, x := range scene.EnsureIDs(ps.World) {
		a.byID[sids.Get(x).ID] = x
	}
	return a, nil
}

// entity applies what of e (made from te) component and path select.
func (a *applier) entity(e ecs.Entity, te *tplEnt, component, path string) error {
	pe := a.byID[te.id]
	if pe.IsZero() {
		return fmt.Errorf("the prefab file %s has no entity %d (it changed on disk: wait for the instance to follow)", a.t.file, te.id)
	}
	sw := newSceneWriter(a.s.World)
	parts := ecs.NewMap[scene.PrefabPart](a.s.World)
	o, err := sw.override(e, a.rootID, te, parts, ecs.NewMap[scene.PrefabKept](a.s.World), nil)
	if err != nil {
		return err
	}
	if (component == "" && (path == "" || path == "name")) && o.hasName {
		names := ecs.NewMap[scene.Name](a.w)
		if names.Has(pe) {
			names.Set(pe, scene.Name{Value: o.name})
		} else {
			names.Add(pe, scene.Name{Value: o.name})
		}
	}
	if component == "" && path == "name" {
		return nil
	}
	for _, c := range o.comps {
		if component != "" && c.Name != component {
			continue
		}
		id, ok := a.w.ComponentByName(c.Name)
		if !ok {
			return fmt.Errorf("the prefab's world has no component %s", c.Name)
		}
		if c.JSON == "null" {
			if path == "" && a.w.Has(pe, id) {
				_ = a.w.Remove(pe, id)
			}
			continue
		}
		js, err := a.prefabJSON(e, c.Name)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		if path != "" {
			if js, err = subObject(js, path); err != nil {
				return fmt.Errorf("%s.%s: %w", c.Name, path, err)
			}
		} else if _, inTpl := te.comp(c.Name); inTpl { // only the fields that differ
			if js, err = onlyFields(js, c.JSON); err != nil {
				return err
			}
		}
		v, err := jsonpos.Parse([]byte(`{ `+string(jsonpos.AppendString(nil, c.Name))+`: `+js+` }`), jsonpos.Limits{})
		if err != nil {
			return err
		}
		a.b.refs = a.b.refs[:0]
		a.b.apply(&ovrRec{rec: -1, comps: &v}, pe, &tplEnt{id: te.id})
		for _, r := range a.b.refs {
			_ = a.w.SetField(pe, r.comp, r.ref.path, a.byID[uint64(r.ref.id)])
		}
		if a.b.probs.HasErrors() {
			return a.b.probs.Err()
		}
	}
	return nil
}

// prefabJSON encodes e's component name as the prefab would hold it: asset references relative to
// the prefab's folder, entity references as the prefab's ids.
func (a *applier) prefabJSON(e ecs.Entity, name string) (string, error) {
	w := a.s.World
	id, _ := w.ComponentByName(name)
	info := w.ComponentInfo(id)
	c, err := newCodec(info)
	if err != nil {
		return "", err
	}
	v, _ := w.Get(e, id)
	pv := reflect.New(info.Type)
	pv.Elem().Set(ecs.DeepCopy(reflect.ValueOf(v)))
	if a.prefix != "" && !c.unbaseAssets(pv.UnsafePointer(), a.prefix) {
		return "", fmt.Errorf("refers to a file outside the prefab's folder (%s); the prefab could not name it", a.prefix)
	}
	parts := ecs.NewMap[scene.PrefabPart](w)
	var bad error
	enc := encodeState{refID: func(x ecs.Entity) int64 {
		if x.IsZero() || !w.Alive(x) {
			return 0
		}
		if pp, ok := parts.TryGet(x); ok && pp.Instance == a.rootID {
			return int64(pp.Source)
		}
		bad = errors.New("refers to an entity outside the instance; a prefab can only refer to its own entities")
		return 0
	}}
	b, err := c.encode(&enc, nil, pv.UnsafePointer())
	if err != nil {
		return "", err
	}
	return string(b), bad
}

// subObject returns the field at path (keys joined by ".") of the JSON object js, wrapped in
// objects down to it: subObject(`{"a": {"b": 1, "c": 2}}`, "a.b") is `{ "a": { "b": 1 } }`.
func subObject(js, path string) (string, error) {
	v, err := jsonpos.Parse([]byte(js), jsonpos.Limits{})
	if err != nil {
		return "", err
	}
	keys := strings.Split(path, ".")
	x := &v
	for _, k := range keys {
		if x.Kind() != jsonpos.Object || x.Get(k) == nil {
			return "", fmt.Errorf("no field %q", path)
		}
		x = x.Get(k)
	}
	out := x.Clone()
	for i := len(keys) - 1; i >= 0; i-- {
		o := jsonpos.NewObject()
		o.Set(keys[i], out)
		out = o
	}
	return string(jsonpos.AppendInline(nil, &out)), nil
}

// onlyFields keeps the members of js that the override ovr names (recursively).
func onlyFields(js, ovr string) (string, error) {
	v, err1 := jsonpos.Parse([]byte(js), jsonpos.Limits{})
	o, err2 := jsonpos.Parse([]byte(ovr), jsonpos.Limits{})
	if err1 != nil || err2 != nil {
		return js, nil
	}
	var keep func(v, o *jsonpos.Value) jsonpos.Value
	keep = func(v, o *jsonpos.Value) jsonpos.Value {
		if v.Kind() != jsonpos.Object || o.Kind() != jsonpos.Object {
			return v.Clone()
		}
		out := jsonpos.NewObject()
		for i := range o.Len() {
			k := o.Index(i).Key()
			if x := v.Get(k); x != nil {
				out.Set(k, keep(x, o.Index(i)))
			}
		}
		return out
	}
	r := keep(&v, &o)
	return string(jsonpos.AppendInline(nil, &r)), nil
}

// save writes the changed prefab in the canonical form.
func (a *applier) save(ctx context.Context) ([]byte, error) {
	var buf bytes.Buffer
	if err := Save(ctx, &buf, a.ps, SaveOptions{}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ForgetKeptRemovals drops, from the given entities of instances, the removals of components
// their prefab entities no longer have (kept by loads and updates so that a prefab that gets the
// component back does not bring it back to the instance). After applying an instance's removal to
// its prefab, the removal is the prefab's own: call it on the applied entities.
func ForgetKeptRemovals(w *ecs.World, es ...ecs.Entity) {
	kept := ecs.NewMap[scene.PrefabKept](w)
	for _, e := range es {
		if k, ok := kept.TryGet(e); ok && !k.Orphan {
			kept.Remove(e)
		}
	}
}
