package serialize

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// instWriter is what a save of a world with prefab instances needs beyond the entities: the
// override record of each instance entity that differs from its prefab (or that the file must
// list), and the records of entities removed from their instances.
type instWriter struct {
	sw      *sceneWriter
	w       *ecs.World
	prefabs *ecs.Map[scene.Prefab]
	parts   *ecs.Map[scene.PrefabPart]
	kept    *ecs.Map[scene.PrefabKept]
	byID    map[uint64]ecs.Entity
	roots   map[uint64]*rootInfo // by the instance's scene id
	recs    map[ecs.Entity][]byte
	removed []removedRec // sorted by id
	next    int          // first removed record not written yet
}

type rootInfo struct {
	t    *Template
	view []tplEnt // nil when the prefab cannot be used
}

type removedRec struct {
	id, instance, source uint64
}

// hasInstances reports whether w has any prefab instance.
func hasInstances(w *ecs.World) bool {
	if _, ok := ecs.ComponentIDOf[scene.Prefab](w); !ok {
		return false
	}
	return ecs.NewQuery1[scene.Prefab](w).Count() > 0
}

// countInstances returns the number of prefab instances of w (nested ones not counted).
func countInstances(w *ecs.World) int {
	if _, ok := ecs.ComponentIDOf[scene.Prefab](w); !ok {
		return 0
	}
	parts := ecs.NewMap[scene.PrefabPart](w)
	n := 0
	ecs.NewQuery1[scene.Prefab](w).Each(func(e ecs.Entity, _ *scene.Prefab) {
		if !parts.Has(e) {
			n++
		}
	})
	return n
}

// newInstWriter computes the records of the instances in order (the world's entities by id).
func newInstWriter(ctx context.Context, sw *sceneWriter, s *Scene, order []ecs.Entity) (*instWriter, error) {
	w := sw.w
	iw := &instWriter{sw: sw, w: w, prefabs: ecs.NewMap[scene.Prefab](w), parts: ecs.NewMap[scene.PrefabPart](w),
		kept: ecs.NewMap[scene.PrefabKept](w), byID: make(map[uint64]ecs.Entity, len(order)),
		roots: map[uint64]*rootInfo{}, recs: map[ecs.Entity][]byte{}}
	for _, e := range order {
		iw.byID[sw.sids.Get(e).ID] = e
	}
	prefabs := s.Prefabs
	if prefabs == nil {
		prefabs = NewPrefabs(PrefabOptions{})
	}
	dir := s.Dir
	if dir == "" {
		dir = "."
	}
	// The instances and their prefabs.
	for _, e := range order {
		pf, ok := iw.prefabs.TryGet(e)
		if !ok || iw.parts.Has(e) {
			continue
		}
		ri := &rootInfo{}
		iw.roots[sw.sids.Get(e).ID] = ri
		if pf.Problem != "" {
			continue
		}
		clean, err := checkPrefabPath(pf.Path)
		if err != nil {
			return nil, fmt.Errorf("saving: entity %d: %w", sw.sids.Get(e).ID, err)
		}
		t := prefabs.template(ctx, dir, clean, nil, 0)
		if t.err == nil {
			ri.t, ri.view = t, t.view(prefixOf(clean))
		}
	}
	// Which entities of instances the file must list: parents of other entities, and targets of
	// references written to the file.
	needed := map[ecs.Entity]bool{}
	needRefs := func(e ecs.Entity, c *savedComp) {
		c.codec.eachRef(c.get(e), func(t ecs.Entity) {
			if iw.parts.Has(t) {
				needed[t] = true
			}
		})
	}
	for _, e := range order {
		part := iw.parts.Has(e)
		if p := w.Parent(e); !part && !p.IsZero() && iw.parts.Has(p) {
			needed[p] = true
		}
		if part {
			if err := iw.partRecord(e, needRefs); err != nil {
				return nil, err
			}
			continue
		}
		for i := range sw.comps {
			c := &sw.comps[i]
			if c.codec != nil && c.codec.hasRefs() && w.Has(e, c.id) {
				needRefs(e, c)
			}
		}
	}
	for e := range needed {
		if iw.recs[e] == nil {
			iw.recs[e] = appendRecordComps(nil, nil)
		}
	}
	// Entities removed from their instances (each of them: an entity the prefab moves out from
	// under a removed one stays removed).
	for rootID, ri := range iw.roots {
		for i := range ri.view {
			te := &ri.view[i]
			if _, ok := iw.alive(scene.InstanceID(rootID, te.id)); ok {
				continue
			}
			iw.removed = append(iw.removed, removedRec{id: scene.InstanceID(rootID, te.id), instance: rootID, source: te.id})
		}
	}
	slices.SortFunc(iw.removed, func(a, b removedRec) int { return cmp.Compare(a.id, b.id) })
	return iw, nil
}

func (iw *instWriter) alive(id uint64) (ecs.Entity, bool) {
	e, ok := iw.byID[id]
	return e, ok && iw.w.Alive(e)
}

// partRecord computes the record of the instance entity e (nil: nothing to write), calling need
// for the components it writes that can hold references.
func (iw *instWriter) partRecord(e ecs.Entity, need func(ecs.Entity, *savedComp)) error {
	sw := iw.sw
	pp := iw.parts.Get(e)
	sid := sw.sids.Get(e)
	if want := scene.InstanceID(pp.Instance, pp.Source); sid.ID != want {
		return fmt.Errorf("saving: entity %d belongs to prefab instance %d (entity %d of the prefab) but its id is not %d; "+
			"give instance entities their ids with scene.InstanceID", sid.ID, pp.Instance, pp.Source, want)
	}
	if k, ok := iw.kept.TryGet(e); ok && k.Orphan {
		iw.recs[e] = appendKept(nil, &k)
		return nil
	}
	var te *tplEnt
	if ri := iw.roots[pp.Instance]; ri != nil && ri.view != nil {
		if i, ok := ri.t.byID[pp.Source]; ok {
			te = &ri.view[i]
		}
	}
	o, err := sw.override(e, pp.Instance, te, iw.parts, iw.kept, need)
	if err != nil {
		return err
	}
	if o.empty() {
		return nil
	}
	iw.recs[e] = o.appendTo(nil)
	return nil
}

// override is how an entity of an instance differs from its prefab entity: a record's name and
// components (fields that differ, added components whole, "null" for removed ones), sorted by name.
type override struct {
	name    string
	hasName bool
	comps   []scene.RawComponent
}

func (o *override) empty() bool { return !o.hasName && len(o.comps) == 0 }

// appendTo appends the record's members after its source.
func (o *override) appendTo(b []byte) []byte {
	if o.hasName {
		b = append(b, ",\n      \"name\": "...)
		b = jsonpos.AppendString(b, o.name)
	}
	return appendRecordComps(b, o.comps)
}

// override computes how e, an entity of instance inst, differs from te, its prefab entity (nil if
// the prefab has none: everything is added). need (may be nil) is called for the components it
// keeps that can hold references.
func (sw *sceneWriter) override(e ecs.Entity, inst uint64, te *tplEnt, parts *ecs.Map[scene.PrefabPart],
	kept *ecs.Map[scene.PrefabKept], need func(ecs.Entity, *savedComp)) (override, error) {
	w := sw.w
	var o override
	name, hasName := sw.names.TryGet(e)
	if te == nil || name.Value != te.name {
		if hasName || te != nil {
			o.name, o.hasName = name.Value, true
		}
	}
	var tcs []tplComp
	var tunk []scene.RawComponent
	if te != nil {
		tcs, tunk = te.comps, te.unknown
	}
	refID := func(x ecs.Entity) int64 { // a reference as the template would write it
		if x.IsZero() || !w.Alive(x) {
			return 0
		}
		if q, ok := parts.TryGet(x); ok && q.Instance == inst {
			return int64(q.Source)
		}
		return -int64(sw.sids.Get(x).ID) // never a template id
	}
	for i := range sw.comps {
		c := &sw.comps[i]
		for len(tcs) > 0 && tcs[0].name < c.name {
			o.comps = append(o.comps, scene.RawComponent{Name: tcs[0].name, JSON: "null"}) // not in this world
			tcs = tcs[1:]
		}
		var tc *tplComp
		if len(tcs) > 0 && tcs[0].name == c.name {
			tc = &tcs[0]
			tcs = tcs[1:]
		}
		has := w.Has(e, c.id)
		switch {
		case !has && tc == nil:
		case !has:
			o.comps = append(o.comps, scene.RawComponent{Name: c.name, JSON: "null"})
		default:
			js, same, err := sw.compare(e, c, tc, refID)
			if err != nil {
				return o, err
			}
			if same {
				continue
			}
			o.comps = append(o.comps, scene.RawComponent{Name: c.name, JSON: js})
			if need != nil && c.codec.hasRefs() {
				need(e, c)
			}
		}
	}
	for _, tc := range tcs {
		o.comps = append(o.comps, scene.RawComponent{Name: tc.name, JSON: "null"})
	}
	// Components this build does not know, as whole values.
	u, _ := sw.unknown.TryGet(e)
	for _, r := range u.Components {
		if j := slices.IndexFunc(tunk, func(x scene.RawComponent) bool { return x.Name == r.Name }); j < 0 || tunk[j].JSON != r.JSON {
			o.comps = append(o.comps, r)
		}
	}
	for _, r := range tunk {
		if !slices.ContainsFunc(u.Components, func(x scene.RawComponent) bool { return x.Name == r.Name }) {
			o.comps = append(o.comps, scene.RawComponent{Name: r.Name, JSON: "null"})
		}
	}
	// What the file said that did not apply (kept as it was).
	if k, ok := kept.TryGet(e); ok && !k.Orphan {
		for _, r := range k.Components {
			if !slices.ContainsFunc(o.comps, func(x scene.RawComponent) bool { return x.Name == r.Name }) {
				o.comps = append(o.comps, r)
			}
		}
	}
	slices.SortStableFunc(o.comps, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
	return o, nil
}

// compare encodes component c of e and compares it with tc, its prefab's value (nil: none). It
// returns the override to write (the differing fields; the whole value without tc) and whether
// there is none. refID writes references as the prefab does.
func (sw *sceneWriter) compare(e ecs.Entity, c *savedComp, tc *tplComp, refID func(ecs.Entity) int64) (string, bool, error) {
	if c.codec == nil {
		_, err := newCodec(sw.w.ComponentInfo(c.id))
		return "", false, fmt.Errorf("saving entity %d: %w", sw.sids.Get(e).ID, err)
	}
	p := c.get(e)
	var err error
	if tc != nil {
		saved := sw.enc.refID
		sw.enc.refID = refID
		sw.cmpBuf, err = c.codec.encode(&sw.enc, sw.cmpBuf[:0], p)
		sw.enc.refID = saved
		if err != nil {
			return "", false, sw.valueError(e, c.name, err)
		}
		if string(sw.cmpBuf) == tc.json {
			return "", true, nil
		}
	}
	full, err := c.codec.encode(&sw.enc, nil, p)
	if err != nil {
		return "", false, sw.valueError(e, c.name, err)
	}
	if tc == nil {
		return string(full), false, nil
	}
	return sparseDiff(full, sw.cmpBuf, tc.json), false, nil
}

// appendKept appends the record of a placeholder as the file had it.
func appendKept(b []byte, k *scene.PrefabKept) []byte {
	if k.HasName {
		b = append(b, ",\n      \"name\": "...)
		b = jsonpos.AppendString(b, k.Name)
	}
	if k.Removed {
		b = append(b, ",\n      \"removed\": true"...)
		if len(k.Components) == 0 {
			return b
		}
	}
	comps := slices.Clone(k.Components)
	slices.SortStableFunc(comps, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
	return appendRecordComps(b, comps)
}

// appendRecordComps appends a record's "components" member.
func appendRecordComps(b []byte, comps []scene.RawComponent) []byte {
	b = append(b, ",\n      \"components\": {"...)
	for j, c := range comps {
		if j > 0 {
			b = append(b, ',')
		}
		b = appendRaw(append(b, '\n'), c)
	}
	if len(comps) > 0 {
		return append(b, "\n      }"...)
	}
	return append(b, '}')
}

// sparseDiff returns the members of full (a component as the scene writes it) whose values differ
// in cmpJSON (the same value with references as the prefab writes them) from tpl (the prefab's
// value), recursing into objects: the override of a component.
func sparseDiff(full, cmpJSON []byte, tpl string) string {
	f, err1 := jsonpos.Parse(full, jsonpos.Limits{})
	c, err2 := jsonpos.Parse(cmpJSON, jsonpos.Limits{})
	t, err3 := jsonpos.Parse([]byte(tpl), jsonpos.Limits{})
	if err1 != nil || err2 != nil || err3 != nil || f.Kind() != jsonpos.Object {
		return string(full)
	}
	out := diffObject(&f, &c, &t)
	return string(jsonpos.AppendInline(nil, &out))
}

func diffObject(f, c, t *jsonpos.Value) jsonpos.Value {
	out := jsonpos.NewObject()
	for i := range f.Len() {
		fm := f.Index(i)
		k := fm.Key()
		cm, tm := c.Get(k), t.Get(k)
		if cm != nil && tm != nil && jsonpos.Equal(cm, tm) {
			continue
		}
		if cm != nil && tm != nil && fm.Kind() == jsonpos.Object && cm.Kind() == jsonpos.Object && tm.Kind() == jsonpos.Object {
			out.Set(k, diffObject(fm, cm, tm))
			continue
		}
		out.Set(k, *fm)
	}
	return out
}

// writeRemovedBefore writes the records of removed entities with ids below id.
func (iw *instWriter) writeRemovedBefore(id uint64) {
	for iw.next < len(iw.removed) && iw.removed[iw.next].id < id {
		r := iw.removed[iw.next]
		iw.next++
		iw.sw.recordHead(r.id, r.instance, r.source)
		iw.sw.buf = append(iw.sw.buf, ",\n      \"removed\": true\n    }"...)
	}
}

// recordHead starts a record (after the separator).
func (sw *sceneWriter) recordHead(id, instance, source uint64) {
	b := sw.sep(sw.buf)
	b = append(b, "    {\n      \"id\": "...)
	b = appendUint(b, id)
	b = append(b, ",\n      \"instance\": "...)
	b = appendUint(b, instance)
	b = append(b, ",\n      \"source\": "...)
	sw.buf = appendUint(b, source)
}

// eachRef calls fn with each entity reference in the value at p.
func (c *codec) eachRef(p unsafe.Pointer, fn func(ecs.Entity)) {
	c.remapRefs(p, func(e ecs.Entity) ecs.Entity { fn(e); return e })
}

// brokenInstance returns an error naming an instance of w whose prefab cannot be used (a
// placeholder): an export would leave its entities out.
func brokenInstance(w *ecs.World) error {
	if !hasInstances(w) {
		return nil
	}
	var err error
	names := ecs.NewMap[scene.Name](w)
	ecs.NewQuery1[scene.Prefab](w).Each(func(e ecs.Entity, pf *scene.Prefab) {
		if pf.Problem != "" && err == nil {
			n, _ := names.TryGet(e)
			err = fmt.Errorf("exporting: instance %q: prefab %s cannot be used (%s); a game would miss its entities", n.Value, pf.Path, pf.Problem)
		}
	})
	return err
}
