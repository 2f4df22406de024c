package merge

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// ConflictsComponent is the name scene.MergeConflicts has in scene files.
const ConflictsComponent = "MergeConflicts"

// Conflict is a conflict that Merge recorded, for reports: the entity it is on (0 for the scene
// itself) and its name, and the record written to the file.
type Conflict struct {
	Entity int64
	Name   string
	scene.MergeConflict
}

// Result is what Merge returns.
type Result struct {
	// Scene is the merged scene: valid (unique ids, existing parents without cycles, existing
	// reference targets) whenever the inputs are, with every conflict recorded in it.
	Scene *serialize.RawScene
	// Conflicts lists the conflicts recorded, by entity id (scene-level ones first).
	Conflicts []Conflict
	// TooManyConflicts is set when the sides conflict in more than MaxConflicts values: Merge
	// stopped, Scene is nil, and the file is to be merged by hand.
	TooManyConflicts bool
	// Unmergeable, if set, says why the sides cannot be merged without their prefabs (Scene is
	// nil, the file is to be merged by hand): an instance unpacked on one side whose entity the
	// other side needs (as a parent or a reference target), or an instance made again of plain
	// entities that base has.
	Unmergeable string
}

// SideLimits are the limits each side of a diff or merge is read within (as the voltex-editor
// diff and merge commands do): the scene limits, so that every scene the editor saves can be
// compared and merged. A side is held as a RawScene (entities with their components' JSON text, not
// decoded values); with MaxConflicts and MaxChanges they bound the memory of the worst diff and
// merge (docs/limits.md). (A variable so that tests can scale it down.)
var SideLimits = serialize.Limits{MaxFileSize: serialize.DefaultMaxFileSize, MaxEntities: serialize.DefaultMaxEntities}

// MaxConflicts is the most conflicts Merge records (each takes about 500 bytes): past it, it
// gives up (Result.TooManyConflicts), so that a merge stays within the memory budget of
// docs/limits.md. (A variable so that tests can scale it down with SideLimits.)
var MaxConflicts = 1_000_000

// Merge merges the changes from base to ours and from base to theirs, entity by entity, component
// by component and field by field (fields of nested objects too; arrays are one value):
//
//   - a value changed on one side only takes that side's value; the same change on both sides is
//     taken once;
//   - entities and components added on either side are added, removed ones removed;
//   - an entity added on both sides with the same id is merged as if its base were empty;
//   - the place of an entity (parent and sibling order key) is one value: moving an entity on one
//     side and changing it on the other merges cleanly;
//   - a value changed two different ways is a conflict: ours is kept and the three versions are
//     recorded in the entity's MergeConflicts component (the scene name's in the editor section);
//   - an entity deleted on one side and changed on the other is kept as changed, with an "entity"
//     conflict; so is a deleted entity that the other side still needs as a parent or as the
//     target of an entity reference (references are known for registered components);
//   - two moves that together would make a parent cycle: ours is kept for one of the entities,
//     with a "place" conflict;
//   - prefab instances: an instance's "prefab" path is one value; override records (entities of
//     instances, keyed by the instance and the prefab entity's id) merge like other entities,
//     field by field; a record that removes its entity on one side and changes it (or still needs
//     it, as the parent of an entity added or the target of a reference) on the other keeps the
//     entity, with a "removed" conflict; a side without a record has an empty one;
//   - an instance unpacked on one side (plain entities with the ids the instance gave them) and
//     kept as an instance on the other stays unpacked: records the other side changed cannot be
//     applied without the prefab, so each is an "override" conflict on its entity (or, if the
//     unpacking side deleted that entity, an "override SOURCE" conflict on the instance) and the
//     instance gets a "prefab" conflict; an unpack merged with changes that leave the records alone
//     is clean;
//   - sides that cannot be merged without the prefab — an entity of an unpacked instance that the
//     other side needs as a parent or a reference target and the unpacking side lacks, or an
//     instance made again of plain entities base has — are refused (Result.Unmergeable).
//
// The merged scene loads (prefabs resolved) when the inputs do (TestEveryMergeOutputLoads merges
// the versions of the test scenes with each other); `voltex-editor merge` checks it anyway.
//
// The editor camera is merged as one value (ours if both changed it); the selection is ours.
// Conflicts already recorded in the inputs are merged like other components.
func Merge(base, ours, theirs *serialize.RawScene) *Result {
	m := &merger{base: base, ours: ours, theirs: theirs, res: &Result{}}
	out := &serialize.RawScene{Selection: slices.Clone(ours.Selection)}
	m.out, m.res.Scene = out, out
	out.Name = m.sceneName()
	out.Camera = ours.Camera
	if sameCamera(ours.Camera, base.Camera) {
		out.Camera = theirs.Camera
	}
	out.Conflicts = append(slices.Clone(ours.Conflicts), m.sceneConflicts...)
	for _, c := range theirs.Conflicts {
		if !slices.Contains(out.Conflicts, c) {
			out.Conflicts = append(out.Conflicts, c)
		}
	}
	m.findUnpacked()
	m.entities()
	if m.n <= MaxConflicts {
		m.repair()
	}
	if m.n > MaxConflicts {
		return &Result{TooManyConflicts: true}
	}
	if m.unmergeable != "" {
		return &Result{Unmergeable: m.unmergeable}
	}
	m.record()
	return m.res
}

type merger struct {
	base, ours, theirs *serialize.RawScene
	out                *serialize.RawScene
	res                *Result
	sceneConflicts     []scene.MergeConflict
	pending            map[int64][]scene.MergeConflict // new conflicts by entity id
	unpacked           map[int64]*unpack               // instances unpacked on one side, by id
	unmergeable        string                          // see Result.Unmergeable
	n                  int                             // conflicts found
	buf                []byte
}

func (m *merger) conflict(id int64, c scene.MergeConflict) {
	if m.n++; m.n > MaxConflicts {
		m.pending = nil // given up: what was kept is garbage
		return
	}
	if m.pending == nil {
		m.pending = map[int64][]scene.MergeConflict{}
	}
	m.pending[id] = append(m.pending[id], c)
}

func (m *merger) sceneName() string {
	b, o, t := m.base.Name, m.ours.Name, m.theirs.Name
	switch {
	case o == t || b == t:
		return o
	case b == o:
		return t
	}
	c := scene.MergeConflict{Path: "scene.name", Base: quote(b), Ours: quote(o), Theirs: quote(t)}
	m.sceneConflicts = append(m.sceneConflicts, c)
	m.res.Conflicts = append(m.res.Conflicts, Conflict{MergeConflict: c})
	return o
}

func quote(s string) string { return string(jsonpos.AppendString(nil, s)) }

func sameCamera(a, b *scene.EditorCamera) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// entities merges the three entity lists (each sorted by id) in one pass.
func (m *merger) entities() {
	bs, os, ts := m.base.Entities, m.ours.Entities, m.theirs.Entities
	out := make([]serialize.RawEntity, 0, max(len(os), len(ts)))
	i, j, k := 0, 0, 0
	for (i < len(bs) || j < len(os) || k < len(ts)) && m.n <= MaxConflicts {
		id := int64(1<<63 - 1)
		if i < len(bs) {
			id = min(id, bs[i].ID)
		}
		if j < len(os) {
			id = min(id, os[j].ID)
		}
		if k < len(ts) {
			id = min(id, ts[k].ID)
		}
		var b, o, t *serialize.RawEntity
		if i < len(bs) && bs[i].ID == id {
			b = &bs[i]
			i++
		}
		if j < len(os) && os[j].ID == id {
			o = &os[j]
			j++
		}
		if k < len(ts) && ts[k].ID == id {
			t = &ts[k]
			k++
		}
		if u := m.unpackedOf(b, o, t); u != nil {
			out = m.unpackedPart(out, u, id, b, o, t)
			continue
		}
		// An override record that a side lacks overrides nothing there (no record is an empty one):
		// merged as one, the result is dropped again if it overrides nothing and has no conflict.
		var none *serialize.RawEntity
		plain := false
		for _, e := range []*serialize.RawEntity{b, o, t} {
			switch {
			case e != nil && e.IsRecord() && e.Instance > 0 && e.Source > 0:
				none = &serialize.RawEntity{ID: id, Instance: e.Instance, Source: e.Source}
			case e != nil:
				plain = true
			}
		}
		if none != nil && !plain && (o == nil || t == nil) {
			b, o, t = cmp.Or(b, none), cmp.Or(o, none), cmp.Or(t, none)
			n := len(out)
			out = m.merged(out, id, b, o, t)
			if len(out) > n && sameRecord(&out[n], nil) && len(m.pending[id]) == 0 {
				out = out[:n]
			}
			continue
		}
		out = m.merged(out, id, b, o, t)
	}
	m.out.Entities = out
	m.unpackConflicts()
}

// merged appends the merge of entity id (b, o and t its versions, nil where absent) to out.
func (m *merger) merged(out []serialize.RawEntity, id int64, b, o, t *serialize.RawEntity) []serialize.RawEntity {
	switch {
	case o == nil && t == nil: // deleted on both sides
	case o != nil && t != nil && (sameEntity(o, t) || (b != nil && sameEntity(b, t))):
		out = append(out, *o)
	case o != nil && t != nil && b != nil && sameEntity(b, o):
		out = append(out, *t)
	case o != nil && t != nil:
		out = append(out, m.entity(b, o, t))
	case b == nil: // added on one side
		out = append(out, *cmp.Or(o, t))
	case o == nil && sameEntity(b, t), t == nil && sameEntity(b, o): // deleted on one side, untouched on the other
	default: // deleted on one side, changed on the other: keep the changed one
		kept := cmp.Or(o, t)
		out = append(out, *kept)
		m.conflict(id, entityConflict(o != nil, t != nil))
	}
	return out
}

func entityConflict(ours, theirs bool) scene.MergeConflict {
	word := func(present bool) string {
		if present {
			return scene.ConflictPresent
		}
		return scene.ConflictDeleted
	}
	return scene.MergeConflict{Path: "entity", Base: scene.ConflictPresent, Ours: word(ours), Theirs: word(theirs)}
}

func sameEntity(a, b *serialize.RawEntity) bool {
	return a.ID == b.ID && a.HasName == b.HasName && a.Name == b.Name && a.Parent == b.Parent && a.Order == b.Order &&
		a.Prefab == b.Prefab && a.Instance == b.Instance && a.Source == b.Source && a.Removed == b.Removed &&
		slices.Equal(a.Components, b.Components)
}

// entity merges an entity present on both sides and changed on both (b is nil if both added it).
func (m *merger) entity(b, o, t *serialize.RawEntity) serialize.RawEntity {
	if b == nil {
		b = &serialize.RawEntity{ID: o.ID}
	}
	// An override record's instance and source make its id: they are the same on both sides.
	r := serialize.RawEntity{ID: o.ID, Instance: o.Instance, Source: o.Source}
	// The prefab an instance instances, and whether a record removes its entity.
	if u := m.unpacked[o.ID]; u != nil { // the unpacking side's: see unpackConflicts
		r.Prefab = ""
	} else if v := m.pick(o.ID, "prefab", prefabJSON(b), prefabJSON(o), prefabJSON(t)); v == prefabJSON(o) {
		r.Prefab = o.Prefab
	} else {
		r.Prefab = t.Prefab
	}
	// (A removal merged with changes made on the other side is undone in repair, with a conflict.)
	if removedJSON(o) == removedJSON(t) || removedJSON(b) == removedJSON(t) {
		r.Removed = o.Removed
	} else {
		r.Removed = t.Removed
	}
	// Name.
	bn, on, tn := nameJSON(b), nameJSON(o), nameJSON(t)
	switch v := m.pick(o.ID, "name", bn, on, tn); v {
	case on:
		r.Name, r.HasName = o.Name, o.HasName
	default:
		r.Name, r.HasName = t.Name, t.HasName
	}
	// Place.
	switch {
	case samePlace(o, t) || samePlace(b, t):
		r.Parent, r.Order = o.Parent, o.Order
	case samePlace(b, o):
		r.Parent, r.Order = t.Parent, t.Order
	default:
		r.Parent, r.Order = o.Parent, o.Order
		m.conflict(o.ID, scene.MergeConflict{Path: "place", Base: placeJSON(b), Ours: placeJSON(o), Theirs: placeJSON(t)})
	}
	// Components, by name (each list is sorted).
	bc, oc, tc := b.Components, o.Components, t.Components
	for len(bc) > 0 || len(oc) > 0 || len(tc) > 0 {
		name := ""
		for _, l := range [][]scene.RawComponent{bc, oc, tc} {
			if len(l) > 0 && (name == "" || l[0].Name < name) {
				name = l[0].Name
			}
		}
		take := func(l *[]scene.RawComponent) (string, bool) {
			if len(*l) > 0 && (*l)[0].Name == name {
				v := (*l)[0].JSON
				*l = (*l)[1:]
				return v, true
			}
			return "", false
		}
		bv, bok := take(&bc)
		ov, ook := take(&oc)
		tv, tok := take(&tc)
		if v, ok := m.component(o.ID, name, bv, bok, ov, ook, tv, tok); ok {
			r.Components = append(r.Components, scene.RawComponent{Name: name, JSON: v})
		}
	}
	return r
}

// pick merges a value held as JSON text ("" = absent) and records a conflict under path when it
// changed two ways (ours is kept).
func (m *merger) pick(id int64, path, b, o, t string) string {
	switch {
	case o == t || b == t:
		return o
	case b == o:
		return t
	}
	m.conflict(id, scene.MergeConflict{Path: path, Base: b, Ours: o, Theirs: t})
	return o
}

func prefabJSON(e *serialize.RawEntity) string {
	if e.Prefab == "" {
		return ""
	}
	return quote(e.Prefab)
}

func removedJSON(e *serialize.RawEntity) string {
	if !e.Removed {
		return ""
	}
	return "true"
}

func nameJSON(e *serialize.RawEntity) string {
	if !e.HasName {
		return ""
	}
	return quote(e.Name)
}

func samePlace(a, b *serialize.RawEntity) bool { return a.Parent == b.Parent && a.Order == b.Order }

// placeJSON is an entity's place as a conflict records it.
func placeJSON(e *serialize.RawEntity) string {
	b := []byte(`{ "parent": `)
	b = strconv.AppendInt(b, e.Parent, 10)
	b = append(b, `, "order": `...)
	b = jsonpos.AppendFloat(b, e.Order, 64)
	return string(append(b, " }"...))
}

// component merges one component (present flags say which sides have it) and returns its JSON and
// whether the result has it.
func (m *merger) component(id int64, name, b string, bok bool, o string, ook bool, t string, tok bool) (string, bool) {
	switch {
	case ook == tok && o == t, bok == tok && b == t:
		return o, ook
	case bok == ook && b == o:
		return t, tok
	}
	path := "components." + name
	if ook && tok {
		bv, ov, tv := parse(b, bok), parse(o, true), parse(t, true)
		if ov != nil && tv != nil {
			var cs []scene.MergeConflict
			r := mergeValue(path, bv, ov, tv, &cs)
			for _, c := range cs {
				m.conflict(id, c)
			}
			m.buf = jsonpos.AppendInline(m.buf[:0], r)
			return string(m.buf), true
		}
	}
	m.conflict(id, scene.MergeConflict{Path: path, Base: b, Ours: o, Theirs: t})
	return o, ook
}

// parse parses a component's JSON (nil if absent or unreadable).
func parse(s string, ok bool) *jsonpos.Value {
	if !ok {
		return nil
	}
	v, err := jsonpos.Parse([]byte(s), jsonpos.Limits{})
	if err != nil {
		return nil
	}
	return &v
}

func inline(v *jsonpos.Value) string {
	if v == nil {
		return ""
	}
	return string(jsonpos.AppendInline(nil, v))
}

func equal(a, b *jsonpos.Value) bool {
	return (a == nil) == (b == nil) && (a == nil || jsonpos.Equal(a, b))
}

// mergeValue merges three versions of a JSON value (nil: absent), recursing into objects; a value
// changed two ways is recorded in cs under path and ours is kept.
func mergeValue(path string, b, o, t *jsonpos.Value, cs *[]scene.MergeConflict) *jsonpos.Value {
	switch {
	case equal(o, t), equal(b, t):
		return o
	case equal(b, o):
		return t
	}
	isObj := func(v *jsonpos.Value) bool { return v != nil && v.Kind() == jsonpos.Object }
	if isObj(o) && isObj(t) && (b == nil || isObj(b)) {
		r := jsonpos.NewObject()
		add := func(key string) {
			if r.Get(key) != nil {
				return
			}
			var bk *jsonpos.Value
			if b != nil {
				bk = b.Get(key)
			}
			if v := mergeValue(path+"."+key, bk, o.Get(key), t.Get(key), cs); v != nil {
				r.Set(key, *v)
			}
		}
		for i := range o.Len() {
			add(o.Index(i).Key())
		}
		for i := range t.Len() {
			add(t.Index(i).Key())
		}
		return &r
	}
	*cs = append(*cs, scene.MergeConflict{Path: path, Base: inline(b), Ours: inline(o), Theirs: inline(t)})
	return o
}

// repair makes the merged scene valid: entities deleted on one side that the result still needs
// (as parents or reference targets) come back with an "entity" conflict, and parent cycles made by
// two moves are broken by keeping ours for one entity (a "place" conflict). Each round only adds
// entities or takes ours, so it ends.
func (m *merger) repair() {
	for {
		changed := m.keepChanged()
		if m.restoreNeeded() {
			changed = true
		}
		if m.breakCycles() {
			changed = true
		}
		if !changed {
			return
		}
	}
}

// keepChanged undoes the removal of an instance's entity (an override record saying "removed")
// that the other side changed (the record has overrides or a conflict) or still needs (as a parent
// or a reference target), with a "removed" conflict: like an entity deleted on one side and
// changed or needed on the other, it is kept.
func (m *merger) keepChanged() bool {
	es := m.out.Entities
	needed := map[int64]bool{}
	removals := false
	for i := range es {
		removals = removals || es[i].Removed
	}
	if !removals {
		return false
	}
	for i := range es {
		if es[i].Parent != 0 {
			needed[es[i].Parent] = true
		}
		for _, c := range es[i].Components {
			for _, r := range m.ours.Refs(c) {
				needed[r] = true
			}
		}
	}
	changed := false
	for i := range es {
		e := &es[i]
		if !e.Removed || (len(e.Components) == 0 && !e.HasName && !needed[e.ID] && len(m.pending[e.ID]) == 0) {
			continue
		}
		rm := func(s *serialize.RawScene) string {
			if x := s.Entity(e.ID); x != nil {
				return removedJSON(x)
			}
			return ""
		}
		e.Removed = false
		m.conflict(e.ID, scene.MergeConflict{Path: "removed", Base: rm(m.base), Ours: rm(m.ours), Theirs: rm(m.theirs)})
		changed = true
	}
	return changed
}

// version returns the entity id from the side that has it (theirs first: a deleted entity that
// is needed was deleted by ours or by theirs, and the other side has it).
func (m *merger) version(id int64) *serialize.RawEntity {
	if u := m.unpackedOf(m.base.Entity(id), m.ours.Entity(id), m.theirs.Entity(id)); u != nil {
		if m.unmergeable == "" {
			m.unmergeable = fmt.Sprintf("entity %d of instance %d is needed (as a parent or a reference target) by "+
				"the side that kept the instance, and the side that unpacked it does not have it", id, u.id)
		}
		return nil
	}
	if e := m.theirs.Entity(id); e != nil {
		return e
	}
	if e := m.ours.Entity(id); e != nil {
		return e
	}
	return m.base.Entity(id)
}

// restoreNeeded brings back missing parents and reference targets; it reports whether it did.
func (m *merger) restoreNeeded() bool {
	out := m.out
	have := func(id int64) bool { return out.Entity(id) != nil }
	var add []serialize.RawEntity
	adding := map[int64]bool{}
	need := func(id int64) {
		if id == 0 || have(id) || adding[id] {
			return
		}
		e := m.version(id)
		if e == nil {
			return // not in any input: the inputs were broken
		}
		adding[id] = true
		if e.IsRecord() { // an entity of an instance, dropped with its empty record: it is there, record or not
			add = append(add, serialize.RawEntity{ID: id, Instance: e.Instance, Source: e.Source})
			return
		}
		add = append(add, *e)
		m.conflict(id, entityConflict(m.ours.Entity(id) != nil, m.theirs.Entity(id) != nil))
	}
	check := func(e *serialize.RawEntity) {
		need(e.Parent)
		need(e.Instance)
		for _, c := range e.Components {
			for _, r := range m.ours.Refs(c) {
				need(r)
			}
		}
	}
	for i := range out.Entities {
		check(&out.Entities[i])
	}
	for k := 0; k < len(add); k++ { //nolint:intrange // check appends to add: restored entities may need others in turn
		check(&add[k])
	}
	if len(add) == 0 {
		return false
	}
	out.Entities = append(out.Entities, add...)
	slices.SortFunc(out.Entities, func(a, b serialize.RawEntity) int { return cmp.Compare(a.ID, b.ID) })
	return true
}

// breakCycles finds parent cycles in the result and breaks each by giving one of its entities
// whose place came from theirs ours' place instead; it reports whether it changed anything.
func (m *merger) breakCycles() bool {
	es := m.out.Entities // sorted by id
	parentOf := func(i int32) (int32, bool) {
		if es[i].Parent == 0 {
			return 0, false
		}
		k, ok := slices.BinarySearchFunc(es, es[i].Parent, func(e serialize.RawEntity, id int64) int { return cmp.Compare(e.ID, id) })
		return int32(k), ok
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, len(es))
	changed := false
	var path []int32
	for i := range es {
		if state[i] != unseen {
			continue
		}
		path = path[:0]
		j, ok := int32(i), true
		for ok && state[j] == unseen {
			state[j] = onPath
			path = append(path, j)
			j, ok = parentOf(j)
		}
		if ok && state[j] == onPath {
			if m.breakCycle(path[slices.Index(path, j):]) {
				changed = true
			}
		}
		for _, p := range path {
			state[p] = done
		}
	}
	return changed
}

func (m *merger) breakCycle(cycle []int32) bool {
	es := m.out.Entities
	for _, i := range cycle {
		e := &es[i]
		o, t := m.ours.Entity(e.ID), m.theirs.Entity(e.ID)
		if o == nil || t == nil || samePlace(o, t) || !samePlace(e, t) {
			continue
		}
		b := m.base.Entity(e.ID)
		if b == nil {
			b = &serialize.RawEntity{ID: e.ID}
		}
		e.Parent, e.Order = o.Parent, o.Order
		m.conflict(e.ID, scene.MergeConflict{Path: "place", Base: placeJSON(b), Ours: placeJSON(o), Theirs: placeJSON(t)})
		return true
	}
	return false // cannot happen when ours and theirs are acyclic: a merged cycle needs a move from theirs
}

// record writes the new conflicts into the entities' MergeConflicts components and lists them.
func (m *merger) record() {
	es := m.out.Entities
	for i := range es {
		cs := m.pending[es[i].ID]
		if len(cs) == 0 {
			continue
		}
		e := &es[i]
		for _, c := range cs {
			m.res.Conflicts = append(m.res.Conflicts, Conflict{Entity: e.ID, Name: e.Name, MergeConflict: c})
		}
		items := cs
		comps := slices.Clone(e.Components)
		at, found := slices.BinarySearchFunc(comps, ConflictsComponent, func(c scene.RawComponent, n string) int { return strings.Compare(c.Name, n) })
		if found { // conflicts left from an earlier merge stay
			if v := parse(comps[at].JSON, true); v != nil {
				if old := v.Get("items"); old != nil && old.Kind() == jsonpos.Array {
					var prev []scene.MergeConflict
					for k := range old.Len() {
						x := old.Index(k)
						str := func(key string) string {
							if s := x.Get(key); s != nil && s.Kind() == jsonpos.String {
								return s.Str()
							}
							return ""
						}
						prev = append(prev, scene.MergeConflict{Path: str("path"), Base: str("base"), Ours: str("ours"), Theirs: str("theirs")})
					}
					items = append(prev, cs...)
				}
			}
			comps[at].JSON = serialize.ConflictsJSON(items)
		} else {
			comps = slices.Insert(comps, at, scene.RawComponent{Name: ConflictsComponent, JSON: serialize.ConflictsJSON(items)})
		}
		e.Components = comps
	}
}

// unpack is an instance that one side unpacked (its entity lost "prefab", the prefab's entities
// became plain entities with the same ids) and the other kept.
type unpack struct {
	id      int64
	ours    bool // ours unpacked it (else theirs)
	deleted bool // the other side deleted it (its "entity" conflict says so)
	changed bool // the side that kept it changed its overrides or its prefab since base
	lost    []scene.MergeConflict
}

// findUnpacked finds the instances that one side made plain entities (unpacked them) where the
// other side still has them as instances (or deleted them), base having them as instances or not
// at all, and whether that other side changed them since base (its prefab, or a record other than
// an empty one appearing). An instance made again of plain entities that base has is unmergeable.
func (m *merger) findUnpacked() {
	for _, side := range []bool{true, false} {
		s, other := m.ours, m.theirs
		if !side {
			s, other = m.theirs, m.ours
		}
		if !hasInstances(other) && !hasInstances(m.base) {
			continue // no instance that s could have unpacked: no entity to look up on the other sides
		}
		for i := range s.Entities {
			e := &s.Entities[i]
			if e.Prefab != "" || e.IsRecord() {
				continue
			}
			// Base's plain entities made an instance again: the other side's plain entities cannot be
			// told from those the instance makes without its prefab.
			x, b := other.Entity(e.ID), m.base.Entity(e.ID)
			if x != nil && x.Prefab != "" && b != nil && b.Prefab == "" && m.unmergeable == "" {
				m.unmergeable = fmt.Sprintf("entity %d is plain in base and an instance of %s on one side (an unpack undone): "+
					"its entities cannot be told from the other side's plain ones without the prefab", e.ID, x.Prefab)
			}
			if x != nil && (x.Prefab == "" || b != nil && b.Prefab == "") || x == nil && (b == nil || b.Prefab == "") {
				continue
			}
			if m.unpacked == nil {
				m.unpacked = map[int64]*unpack{}
			}
			u := &unpack{id: e.ID, ours: side, deleted: x == nil}
			u.changed = !u.deleted && (b == nil || x.Prefab != b.Prefab)
			m.unpacked[e.ID] = u
		}
	}
	if len(m.unpacked) == 0 {
		return
	}
	// A kept side's record that differs from base's changes the instance.
	for _, s := range []*serialize.RawScene{m.base, m.ours, m.theirs} {
		for i := range s.Entities {
			e := &s.Entities[i]
			if u := m.unpacked[e.Instance]; u != nil && e.IsRecord() {
				_, k := m.sides(u, e.ID)
				if !u.deleted && !sameRecord(m.base.Entity(e.ID), k) {
					u.changed = true
				}
			}
		}
	}
}

// hasInstances reports whether s has a prefab instance.
func hasInstances(s *serialize.RawScene) bool {
	for i := range s.Entities {
		if s.Entities[i].Prefab != "" {
			return true
		}
	}
	return false
}

// sides returns the versions of id on the side that unpacked u and on the side that kept it.
func (m *merger) sides(u *unpack, id int64) (unpacked, kept *serialize.RawEntity) {
	if u.ours {
		return m.ours.Entity(id), m.theirs.Entity(id)
	}
	return m.theirs.Entity(id), m.ours.Entity(id)
}

// unpackedOf returns the unpacked instance whose record one of b, o and t is, or nil.
func (m *merger) unpackedOf(b, o, t *serialize.RawEntity) *unpack {
	if m.unpacked == nil {
		return nil
	}
	for _, e := range []*serialize.RawEntity{b, o, t} {
		if e != nil && e.IsRecord() {
			if u := m.unpacked[e.Instance]; u != nil {
				return u
			}
		}
	}
	return nil
}

// unpackedPart merges an entity of an unpacked instance: the unpacking side's plain entity (if it
// kept one) is taken. A record the other side changed cannot be applied to it without the prefab
// (a reverted override goes back to the prefab's value): it is recorded as an "override" conflict,
// on the entity or, if the unpacking side deleted it, on the instance.
func (m *merger) unpackedPart(out []serialize.RawEntity, u *unpack, id int64, b, o, t *serialize.RawEntity) []serialize.RawEntity {
	un, kept := o, t
	if !u.ours {
		un, kept = t, o
	}
	if un != nil {
		out = append(out, *un)
	}
	if u.deleted || sameRecord(b, kept) {
		return out
	}
	c := scene.MergeConflict{Path: "override", Base: recordJSON(b)}
	unJSON, keptJSON := recordJSON(un), recordJSON(kept)
	if u.ours {
		c.Ours, c.Theirs = unJSON, keptJSON
	} else {
		c.Ours, c.Theirs = keptJSON, unJSON
	}
	if un != nil {
		m.conflict(id, c)
		return out
	}
	src := cmp.Or(kept, b)
	c.Path = "override " + strconv.FormatInt(src.Source, 10)
	u.lost = append(u.lost, c)
	return out
}

// unpackConflicts records, on each unpacked instance that the other side changed, a "prefab"
// conflict (the instance stays unpacked) and the conflicts of its records that have no entity
// left.
func (m *merger) unpackConflicts() {
	for _, u := range m.unpacked {
		if e := m.out.Entity(u.id); e != nil {
			e.Prefab = "" // the unpacking side's entities are there: the instance would make them again
		}
		if !u.changed {
			continue
		}
		b := ""
		if e := m.base.Entity(u.id); e != nil {
			b = prefabJSON(e)
		}
		o, t := prefabJSON(m.ours.Entity(u.id)), prefabJSON(m.theirs.Entity(u.id))
		m.conflict(u.id, scene.MergeConflict{Path: "prefab", Base: b, Ours: o, Theirs: t})
		for _, c := range u.lost {
			m.conflict(u.id, c)
		}
	}
}

// sameRecord reports whether two versions of an override record say the same (nil, or a record
// that overrides nothing, says nothing).
func sameRecord(a, b *serialize.RawEntity) bool {
	empty := func(e *serialize.RawEntity) bool {
		return e == nil || (e.IsRecord() && !e.HasName && !e.Removed && len(e.Components) == 0)
	}
	if empty(a) || empty(b) {
		return empty(a) && empty(b)
	}
	return sameEntity(a, b)
}

// recordJSON is an entity as an "override" conflict records it: its name, whether it is removed
// and its components ("" for none).
func recordJSON(e *serialize.RawEntity) string {
	if e == nil {
		return ""
	}
	b := []byte("{")
	if e.HasName {
		b = append(b, ` "name": `...)
		b = jsonpos.AppendString(b, e.Name)
		b = append(b, ',')
	}
	if e.Removed {
		b = append(b, ` "removed": true,`...)
	}
	b = append(b, ` "components": {`...)
	for i, c := range e.Components {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, ' ')
		b = jsonpos.AppendString(b, c.Name)
		b = append(b, ": "...)
		b = append(b, c.JSON...)
	}
	if len(e.Components) > 0 {
		b = append(b, ' ')
	}
	return string(append(b, "} }"...))
}

// ReadSides runs reads (one per side of a diff or merge) at once, since reading and parsing the
// sides is most of the time of a diff or merge of big scenes, and returns their scenes and errors
// in the order of reads.
func ReadSides(reads ...func() (*serialize.RawScene, error)) ([]*serialize.RawScene, []error) {
	scenes, errs := make([]*serialize.RawScene, len(reads)), make([]error, len(reads))
	var wg sync.WaitGroup
	for i, read := range reads {
		wg.Go(func() { scenes[i], errs[i] = read() })
	}
	wg.Wait()
	return scenes, errs
}
