package serialize

import (
	"context"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// prefabState is what the binder keeps about prefab instances until the end of the load.
type prefabState struct {
	ctx        context.Context
	prefabs    *Prefabs
	dir        string
	chain      []string
	keepBroken bool
	insts      []instRec
	ovrs       []ovrRec
	templates  []*Template
	broken     []Problem
	// nFile is the number of entities in the file: records b.recs.at(i) with i >= nFile are
	// entities of instances that the file does not list (parts), whose instance and source are
	// in unlisted[i-nFile].
	nFile    int32
	unlisted []partKey
	isRecord []bool // by file entity: an override record (its parent comes from the prefab)
	// removedIDs are the ids of entities the file removes from their instances, with their records
	// (indexes in ovrs).
	removedIDs map[int64]int
	prefab     scene.Prefab
	part       scene.PrefabPart
	// maxEntities is Limits.MaxEntities (negative: none); tooMany is set once instances went over it.
	maxEntities int
	tooMany     bool
	checked     map[*Template]bool // templates whose component types were checked against the world
	// counted receives the files of a nest checkNest refuses (LoadOptions.counted).
	counted *[]string
	// byPath holds the template of each prefab path the file instances; charged marks the prefab
	// files (absolute paths) whose memory the load counted, tplCharged their sum.
	byPath     map[string]*Template
	charged    map[string]bool
	tplCharged int64
}

// instRec is an entity of the file that instances a prefab.
type instRec struct {
	rec   int32 // index in b.recs
	path  string
	pos   jsonpos.Pos // of the path
	index int         // in the file's entities
}

// ovrRec is an override record of the file: what it says about one entity of an instance.
type ovrRec struct {
	rec              int32 // index in b.recs
	index            int   // in the file's entities
	instance, source int64
	instPos, pos     jsonpos.Pos
	name             string
	hasName, removed bool
	comps            *jsonpos.Value // the "components" object (cloned), nil if none
}

type partKey struct{ instance, source uint64 }

// setPrefabs takes the prefab options of a load.
func (b *binder) setPrefabs(opts *LoadOptions, in *Input) {
	b.prefabs = opts.Prefabs
	if b.prefabs == nil {
		b.prefabs = NewPrefabs(PrefabOptions{NewWorld: opts.NewWorld, Limits: opts.Limits, Strict: opts.Strict})
	}
	b.dir = opts.Dir
	if b.dir == "" {
		switch {
		case in.Path != "":
			b.dir = filepath.Dir(in.Path)
		case opts.File != "" && opts.File != StdinName && opts.File != "-":
			b.dir = filepath.Dir(opts.File)
		default:
			b.dir = "."
		}
	}
	b.chain = opts.chain
	if len(b.chain) == 0 && in.Path != "" {
		b.chain = []string{absPath(in.Path)}
	}
	b.keepBroken = opts.KeepBroken
	b.counted = opts.counted
}

// record keeps an override record until the end of the load, checking its components' names and
// kinds (their values are checked against the prefab entity's components then).
func (b *binder) record(doc *entityDoc) {
	o := ovrRec{rec: int32(b.recs.n), index: doc.index, instance: doc.instance, source: doc.source, instPos: doc.instancePos,
		pos: doc.idPos, removed: doc.removed}
	if doc.name != nil {
		o.name, o.hasName = string(doc.name.Text()), true
	}
	if c := doc.components; c != nil {
		cmark := b.ds.path.Key("components")
		keys := jsonpos.NewKeyIndex(c)
		for i := range c.Len() {
			m := c.Index(i)
			if duplicateKey(b.probs, b.ds.path, keys, c, i) {
				continue
			}
			mark := b.ds.path.Key(m.Key())
			if bd := b.byNm[m.Key()]; bd != nil && bd.refuse != "" {
				kp := m.KeyPos()
				b.probs.Errorf(kp.Line, kp.Col, b.ds.path.String(), "%s cannot be stored here: %s", m.Key(), bd.refuse)
			} else if m.Kind() != jsonpos.Object && m.Kind() != jsonpos.Null {
				errAtValue(b.probs, b.ds.path, m, "expected the fields that differ from the prefab (an object), or null "+
					"(the component is removed), got %s", describeValue(m))
			} else if b.refuseConflicts && m.Kind() == jsonpos.Object && isConflicts(bd) {
				b.refuseRecordConflicts(m)
			}
			b.ds.path.Truncate(mark)
		}
		b.ds.path.Truncate(cmark)
		v := c.Clone()
		o.comps = &v
	}
	b.ovrs = append(b.ovrs, o)
}

// refuseRecordConflicts reports the merge conflicts recorded in an override record (both sides
// overrode the same field of a prefab's entity), checked as the record is read so that they are
// listed even when the instances are not built (the file has other errors). The reader's path is at
// the record's MergeConflicts.
func (b *binder) refuseRecordConflicts(m *jsonpos.Value) {
	items := m.Get("items")
	if items == nil || items.Kind() != jsonpos.Array || items.Len() == 0 {
		return // malformed values are reported when the record is applied
	}
	cs := make([]scene.MergeConflict, items.Len())
	for i := range cs {
		if p := items.Index(i).Get("path"); p != nil && p.Kind() == jsonpos.String {
			cs[i].Path = p.Str()
		}
	}
	kp := m.KeyPos()
	b.probs.Errorf(kp.Line, kp.Col, b.ds.path.String(), "%s", conflictMessage(cs))
}

// isConflicts tells whether bd binds scene.MergeConflicts.
func isConflicts(bd *binding) bool {
	if bd == nil {
		return false
	}
	_, ok := bd.scratch.Interface().(*scene.MergeConflicts)
	return ok
}

// instantiate builds every instance of the file from its prefab and applies the file's override
// records; entities of instances become records of b.recs (listed ones fill the record's entry),
// so that the checks of finish see them.
func (b *binder) instantiate() {
	b.nFile = int32(b.recs.n)
	b.isRecord = make([]bool, b.nFile)
	for _, o := range b.ovrs {
		b.isRecord[o.rec] = true
	}
	roots := make(map[int64]int, len(b.insts))
	for k, in := range b.insts {
		if id := b.recs.at(in.rec).id; id > 0 {
			roots[id] = k
		}
	}
	byInst := make([][]int, len(b.insts))
	for k := range b.ovrs {
		o := &b.ovrs[k]
		r := b.recs.at(o.rec)
		if o.instance <= 0 || o.source <= 0 {
			continue // reported by the reader
		}
		ii, ok := roots[o.instance]
		if !ok {
			b.probs.Errorf(o.instPos.Line, o.instPos.Col, entPath(o.rec, "instance"),
				"entity %d is not an instance of a prefab in this file (an entity with a \"prefab\")", o.instance)
			continue
		}
		if want := scene.InstanceID(uint64(o.instance), uint64(o.source)); r.id > 0 && uint64(r.id) != want {
			b.probs.Errorf(int(r.idLine), int(r.idCol), entPath(o.rec, "id"), "must be %d: the ids of a prefab instance's "+
				"entities are made from the instance's id (%d) and the entity's id in the prefab (%d)", want, o.instance, o.source)
			continue
		}
		if o.removed {
			if b.removedIDs == nil {
				b.removedIDs = map[int64]int{}
			}
			b.removedIDs[r.id] = k
		}
		byInst[ii] = append(byInst[ii], k)
	}
	if !b.checkNest() {
		return
	}
	brokenUses := map[*Template]*brokenUse{}
	var brokenOrder []*Template
	for k := range b.insts {
		t := b.instance(k, byInst[k])
		if t != nil && t.err != nil {
			u := brokenUses[t]
			if u == nil {
				u = &brokenUse{first: k}
				brokenUses[t] = u
				brokenOrder = append(brokenOrder, t)
			}
			u.count++
		}
	}
	for _, t := range brokenOrder {
		b.reportBroken(t, brokenUses[t])
	}
}

type brokenUse struct{ first, count int }

// reportBroken reports a prefab that could not be used by u.count instances (errors, or with
// KeepBroken problems in Scene.Broken).
func (b *binder) reportBroken(t *Template, u *brokenUse) {
	in := &b.insts[u.first]
	msg := "prefab " + strconv.Quote(in.path)
	if u.count > 1 {
		msg += " (used by " + plural(u.count, "instance", "instances") + ")"
	}
	msg += cannotBeUsed + t.problem
	if b.keepBroken {
		msg += "; shown as a placeholder, the file's overrides are kept"
	}
	p := Problem{File: b.probs.File, Line: in.pos.Line, Col: in.pos.Col, Path: "entities[" + strconv.Itoa(in.index) + "].prefab", Msg: msg}
	var inner []Problem
	if le, ok := t.err.(*Error); ok {
		inner = le.Problems
	}
	if b.keepBroken {
		b.broken = append(b.broken, p)
		b.broken = append(b.broken, inner...)
		return
	}
	b.probs.AddFrom(p)
	for _, q := range inner {
		b.probs.AddFrom(q)
	}
}

// useForInstance counts the memory an instance of t takes: its entities, and the prefab files it is
// made from that the load has not counted yet (each loaded prefab holds a world of its own). It
// reports false when that goes over the limit.
func (b *binder) useForInstance(t *Template, in *instRec) bool {
	cost, own := t.bytes, int64(0)
	var files []string
	for _, d := range t.deps {
		if b.charged[d] {
			continue
		}
		if dt := b.prefabs.loaded(d); dt != nil {
			own += dt.own
			files = append(files, d)
		}
	}
	cost += own
	if b.ds.maxData > 0 && b.ds.data+cost > b.ds.maxData {
		b.overMemory(in, cost)
		return false
	}
	if b.charged == nil {
		b.charged = map[string]bool{}
	}
	for _, d := range files {
		b.charged[d] = true
	}
	b.tplCharged += own
	return b.ds.use(cost, in.pos)
}

// overMemory reports that instance in (taking cost bytes more) does not fit in the memory limit.
func (b *binder) overMemory(in *instRec, cost int64) {
	if !b.ds.overData {
		b.ds.overData = true
		b.probs.Errorf(in.pos.Line, in.pos.Col, "entities["+strconv.Itoa(in.index)+"].prefab",
			"with its prefab instances and the prefab files they are made from, the scene takes more than the limit of %s "+
				"of memory (Limits.MaxWorldBytes)", words.Bytes(b.ds.maxData))
	}
	b.ds.use(cost, in.pos)
	b.ds.failed = true
}

// prefixOf returns the folder of a prefab path, for rebasing its asset references ("" for the
// scene's own folder).
func prefixOf(clean string) string {
	d := path.Dir(clean)
	if d == "." {
		return ""
	}
	return d
}

// instance builds instance k from its prefab and applies its override records (indexes into
// b.ovrs). It returns the template used (nil if the path is broken).
func (b *binder) instance(k int, ovrs []int) *Template {
	in := &b.insts[k]
	root := b.recs.at(in.rec)
	clean, err := checkPrefabPath(in.path)
	if err != nil {
		return nil // reported by the reader
	}
	if b.ds.overData || b.tooMany {
		return nil // over a limit already: no more prefab files are read
	}
	t := b.byPath[clean]
	if t == nil {
		// A prefab not loaded yet is read within what is left of this scene's memory limit.
		room := int64(0)
		if b.ds.maxData > 0 {
			room = max(1, b.ds.maxData-b.ds.data)
		}
		t = b.prefabs.template(b.ctx, b.dir, clean, b.chain, room)
		if b.byPath == nil {
			b.byPath = map[string]*Template{}
		}
		b.byPath[clean] = t
	}
	if t.overMemory {
		b.overMemory(in, 0)
		return nil
	}
	if !slices.Contains(b.templates, t) {
		b.templates = append(b.templates, t)
	}
	for _, w := range t.warnings {
		_ = w // the prefab's own warnings are its file's business (validate it); they do not concern this scene
	}
	spawn := !b.probs.HasErrors()
	if t.err != nil {
		if spawn && b.keepBroken {
			b.setProblem(root.e, t.problem)
		}
		for _, k := range ovrs {
			b.orphan(&b.ovrs[k], root, false, spawn)
		}
		return t
	}
	view := t.view(prefixOf(clean))
	if spawn && !b.checked[t] && !b.checkTypes(t, in) {
		spawn = false
	}
	if !b.useForInstance(t, in) {
		return t
	}
	if b.maxEntities > 0 && b.recs.n+len(view) > b.maxEntities {
		if !b.tooMany {
			b.probs.Errorf(in.pos.Line, in.pos.Col, "entities["+strconv.Itoa(in.index)+"].prefab",
				"with the entities of its prefab instances, the scene has more than the limit of %s entities", words.Thousands(int64(b.maxEntities)))
			b.tooMany = true
		}
		return t
	}
	rootID := uint64(root.id)
	listed := make(map[uint64]int, len(ovrs)) // source -> index in b.ovrs
	removed := map[uint64]bool{}
	for _, k := range ovrs {
		o := &b.ovrs[k]
		listed[uint64(o.source)] = k
		if o.removed {
			removed[uint64(o.source)] = true
		}
	}
	parts := make([]ecs.Entity, len(view))
	skipped := make([]bool, len(view))
	vals := b.vals[:0]
	for i := range view {
		te := &view[i]
		if removed[te.id] || (te.parent >= 0 && skipped[te.parent]) {
			skipped[i] = true
			continue
		}
		id := scene.InstanceID(rootID, te.id)
		parentID := root.id
		if te.parent >= 0 {
			parentID = int64(scene.InstanceID(rootID, view[te.parent].id))
		}
		if spawn {
			vals = b.partValues(vals[:0], te, rootID, id)
			parts[i] = b.w.Spawn(vals...)
			clear(vals)
		}
		if k, ok := listed[te.id]; ok {
			r := b.recs.at(b.ovrs[k].rec)
			r.e, r.parent, r.order = parts[i], parentID, te.order
			r.parLine, r.parCo = r.idLine, r.idCol
			continue
		}
		b.recs.push(entRec{id: int64(id), parent: parentID, order: te.order, e: parts[i],
			idLine: int32(in.pos.Line), idCol: int32(in.pos.Col), parLine: int32(in.pos.Line), parCo: int32(in.pos.Col)})
		b.unlisted = append(b.unlisted, partKey{rootID, te.id})
	}
	b.vals = vals[:0]
	if spawn {
		b.fixRefs(t, view, parts)
	}
	for _, k := range ovrs {
		o := &b.ovrs[k]
		i, ok := t.byID[uint64(o.source)]
		switch {
		case o.removed && ok:
			// not spawned
		case !ok || skipped[i]:
			b.orphan(o, root, true, spawn)
		case spawn:
			b.apply(o, parts[i], &view[i])
		}
	}
	return t
}

// checkTypes checks that the prefab's component types are the world's (a project file that
// changed between the two loads could make them differ); it reports false after an error.
func (b *binder) checkTypes(t *Template, in *instRec) bool {
	if b.checked == nil {
		b.checked = map[*Template]bool{}
	}
	for name, c := range t.codecs {
		id, ok := b.w.ComponentByName(name)
		if !ok || b.w.ComponentInfo(id).Type != c.typ {
			b.probs.Errorf(in.pos.Line, in.pos.Col, "entities["+strconv.Itoa(in.index)+"].prefab",
				"prefab %q: its component %s is not the scene's (reload the editor after changing components)", in.path, name)
			return false
		}
	}
	b.checked[t] = true
	return true
}

// partValues appends the values an entity of an instance is spawned with.
func (b *binder) partValues(vals []any, te *tplEnt, instance, id uint64) []any {
	for i := range te.comps {
		c := &te.comps[i]
		if c.deep {
			vals = append(vals, ecs.DeepCopy(reflect.ValueOf(c.val)).Interface())
		} else {
			vals = append(vals, c.val)
		}
	}
	if te.hasName {
		vals = append(vals, &scene.Name{Value: te.name})
	}
	b.sid = scene.SceneID{ID: id, Order: te.order}
	b.part = scene.PrefabPart{Instance: instance, Source: te.id}
	vals = append(vals, &b.sid, &b.part)
	if len(te.unknown) > 0 {
		vals = append(vals, &scene.Unknown{Components: slices.Clone(te.unknown)})
	}
	if te.prefab != "" {
		vals = append(vals, &scene.Prefab{Path: te.prefab})
	}
	return vals
}

// fixRefs points the entity references of a new instance's values (which hold entities of the
// template's world) at the instance's own entities.
func (b *binder) fixRefs(t *Template, view []tplEnt, parts []ecs.Entity) {
	for i := range view {
		te := &view[i]
		if parts[i].IsZero() {
			continue
		}
		for j := range te.comps {
			c := &te.comps[j]
			if !c.refs {
				continue
			}
			setRemapped(b.w, parts[i], c, func(e ecs.Entity) ecs.Entity {
				if k, ok := t.index[e]; ok {
					return parts[k]
				}
				return ecs.Entity{}
			})
		}
	}
}

// setRemapped sets component c of e to its template value with entity references mapped by fn.
func setRemapped(w *ecs.World, e ecs.Entity, c *tplComp, fn func(ecs.Entity) ecs.Entity) {
	id, ok := w.ComponentByName(c.name)
	if !ok {
		return
	}
	pv := reflect.New(c.codec.typ)
	pv.Elem().Set(ecs.DeepCopy(reflect.ValueOf(c.val)))
	c.codec.remapRefs(pv.UnsafePointer(), fn)
	_ = w.Set(e, id, pv.Interface())
}

// setProblem sets the Problem of the instance e.
func (b *binder) setProblem(e ecs.Entity, problem string) {
	if e.IsZero() {
		return
	}
	m := ecs.NewMap[scene.Prefab](b.w)
	if p, ok := m.TryGet(e); ok {
		p.Problem = problem
		m.Set(e, p)
	}
}

// orphan makes a placeholder for an override record whose prefab entity does not exist: it keeps
// the record as it is (written back on save). report says whether to warn (not when the whole
// prefab is missing: that is reported once).
func (b *binder) orphan(o *ovrRec, root *entRec, report, spawn bool) {
	r := b.recs.at(o.rec)
	r.parent, r.order = root.id, 0
	r.parLine, r.parCo = r.idLine, r.idCol
	if report {
		what := "its overrides are kept"
		if o.removed {
			what = "its removal is kept"
		}
		b.probs.Warnf(o.pos.Line, o.pos.Col, entPath(o.rec, "source"), "the prefab of instance %d has no entity %d any more: "+
			"%s and written back on save (revert them, or unpack the instance, to drop them)", o.instance, o.source, what)
	}
	if !spawn {
		return
	}
	kept := &scene.PrefabKept{Orphan: true, Name: o.name, HasName: o.hasName, Removed: o.removed}
	if o.comps != nil {
		for i := range o.comps.Len() {
			m := o.comps.Index(i)
			kept.Components = append(kept.Components, scene.RawComponent{Name: m.Key(), JSON: string(jsonpos.AppendInline(nil, m))})
		}
		slices.SortStableFunc(kept.Components, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
	}
	name := o.name
	if !o.hasName {
		name = "missing prefab entity " + strconv.FormatInt(o.source, 10)
	}
	r.e = b.w.Spawn(&scene.SceneID{ID: uint64(r.id)}, &scene.PrefabPart{Instance: uint64(o.instance), Source: uint64(o.source)},
		kept, &scene.Name{Value: name})
}

// apply applies override record o to e, the entity of its instance made from te.
func (b *binder) apply(o *ovrRec, e ecs.Entity, te *tplEnt) {
	w := b.w
	if o.hasName {
		b.name.Value = o.name
		if nid, ok := ecs.ComponentIDOf[scene.Name](w); ok {
			if w.Has(e, nid) {
				_ = w.Set(e, nid, &b.name)
			} else {
				_ = w.Add(e, nid, &b.name)
			}
		}
	}
	if o.comps == nil {
		return
	}
	path := b.ds.path
	emark := path.Key("entities")
	path.Index(o.index)
	path.Key("components")
	defer path.Truncate(emark)
	var kept []scene.RawComponent
	var unknown *scene.Unknown
	for i := range o.comps.Len() {
		m := o.comps.Index(i)
		name := m.Key()
		bd := b.byNm[name]
		if bd != nil && bd.refuse != "" {
			continue // reported by record
		}
		mark := path.Key(name)
		if bd == nil { // a component this build does not know: the value replaces the prefab's
			if unknown == nil {
				u, _ := ecs.NewMap[scene.Unknown](w).TryGet(e)
				unknown = &scene.Unknown{Components: slices.Clone(u.Components)}
			}
			if m.Kind() == jsonpos.Null {
				n := len(unknown.Components)
				unknown.Components = slices.DeleteFunc(unknown.Components, func(c scene.RawComponent) bool { return c.Name == name })
				if len(unknown.Components) == n {
					kept = append(kept, scene.RawComponent{Name: name, JSON: "null"})
					b.noEffect(m, name)
				}
			} else if raw, ok := b.unknownComponent(m); ok {
				unknown.Components = slices.DeleteFunc(unknown.Components, func(c scene.RawComponent) bool { return c.Name == name })
				unknown.Components = append(unknown.Components, raw)
			}
			path.Truncate(mark)
			continue
		}
		has := w.Has(e, bd.id)
		if m.Kind() == jsonpos.Null {
			if has {
				_ = w.Remove(e, bd.id)
			} else {
				kept = append(kept, scene.RawComponent{Name: w.ComponentInfo(bd.id).Name, JSON: "null"})
				b.noEffect(m, name)
			}
			path.Truncate(mark)
			continue
		}
		if has {
			v, _ := w.Get(e, bd.id)
			if bd.deepDef {
				bd.scratch.Elem().Set(ecs.DeepCopy(reflect.ValueOf(v)))
			} else {
				bd.scratch.Elem().Set(reflect.ValueOf(v))
			}
		} else {
			bd.reset()
		}
		b.ds.failed = false
		bd.codec.decode(&b.ds, m, bd.ptr)
		for _, r := range b.ds.refs {
			b.refs = append(b.refs, refRec{rec: o.rec, comp: bd.id, ref: r})
		}
		b.ds.refs = b.ds.refs[:0]
		if !b.ds.failed {
			if has {
				_ = w.Set(e, bd.id, bd.scratch.Interface())
			} else {
				_ = w.Add(e, bd.id, bd.scratch.Interface())
				if m.Kind() == jsonpos.Object && m.Len() < len(bd.codec.fields) {
					kp := m.KeyPos()
					b.probs.Warnf(kp.Line, kp.Col, path.String(), "the prefab's entity %d has no %s (any more): this override "+
						"adds it, with its other fields at their defaults", te.id, name)
				}
			}
		}
		path.Truncate(mark)
	}
	if unknown != nil {
		uid, _ := ecs.ComponentIDOf[scene.Unknown](w)
		slices.SortStableFunc(unknown.Components, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
		switch {
		case len(unknown.Components) == 0:
			_ = w.Remove(e, uid)
		case w.Has(e, uid):
			_ = w.Set(e, uid, unknown)
		default:
			_ = w.Add(e, uid, unknown)
		}
	}
	if len(kept) > 0 {
		kid, _ := ecs.ComponentIDOf[scene.PrefabKept](w)
		_ = w.Add(e, kid, &scene.PrefabKept{Components: kept})
	}
}

// noEffect warns about the removal of a component the prefab entity does not have.
func (b *binder) noEffect(m *jsonpos.Value, name string) {
	kp := m.KeyPos()
	b.probs.Warnf(kp.Line, kp.Col, b.ds.path.String(), "the prefab's entity has no %s (any more): removing it has no "+
		"effect; the removal is kept and written back on save", name)
}

// partCheck reports a file entity whose parent (or reference target) is an entity of an instance
// that the file does not list: the file must list it (an empty override record is enough), so that
// tools reading the file without its prefabs (diff, merge) find every id it uses.
func (b *binder) partCheck(from, target int32, line, col int, path string, what string) bool {
	if b.nFile == 0 || target < b.nFile || from >= b.nFile || b.isRecord[from] {
		return true
	}
	k := b.unlisted[target-b.nFile]
	id := scene.InstanceID(k.instance, k.source)
	b.probs.Errorf(line, col, path, "%s %d is an entity of prefab instance %d that this file does not list; list it: "+
		"{ \"id\": %d, \"instance\": %d, \"source\": %d }", what, id, k.instance, id, k.instance, k.source)
	return false
}

// removedParent reports file entity i whose parent is an entity the file removes from its instance:
// the entity would lose its place (the prefab entity it hangs under is not made).
func (b *binder) removedParent(i int32, r *entRec) {
	o := &b.ovrs[b.removedIDs[r.parent]]
	b.probs.Errorf(int(r.parLine), int(r.parCo), entPath(i, "parent"), "parent %d is entity %d of prefab instance %d, which this "+
		"file removes (entities[%d], %d:%d): delete this entity too, or keep the prefab entity (drop its \"removed\")",
		r.parent, o.source, o.instance, o.index, o.pos.Line, o.pos.Col)
}
