package serialize

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/voltex-editor/voltex/internal/assetref"
	"io"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/atomicfile"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// RawScene is a scene file as data, without building a world: what tools that compare and merge
// scene files (package serialize/merge: `voltex-editor diff` and `merge`) work on. Entities keep
// their components as JSON text in canonical inline form, so two files can be compared entity by
// entity, component by component and field by field, whatever components they hold.
//
// [ReadRaw] fills it (older file versions are migrated on the way in, as [Load] does);
// [WriteRaw] writes it in the canonical form [Save] writes, so WriteRaw(ReadRaw(f)) == f for every
// file the editor saved.
type RawScene struct {
	Name      string
	Camera    *scene.EditorCamera
	Selection []int64
	// Conflicts are scene-level merge conflicts (see Scene.Conflicts).
	Conflicts []scene.MergeConflict
	// Entities are sorted by ascending ID (ids are unique).
	Entities []RawEntity
	// Warnings are the problems of a lossy read (LoadOptions.Lossy) that did not stop it: asset
	// and prefab paths that break the asset path rule (internal/assetref), which are errors
	// otherwise.
	Warnings []Problem

	refs map[string]*codec // component name → codec, for components holding entity references
}

// RawEntity is one entity of a [RawScene].
type RawEntity struct {
	ID      int64
	Name    string
	HasName bool
	Parent  int64   // 0: a root
	Order   float64 // place among its siblings
	// Components are sorted by name; JSON is the value on one line (`{ "rgba": [1, 0, 0, 1] }`),
	// number literals as the file wrote them. In an override record, a value holds only the fields
	// that differ from the prefab, and "null" means the component is removed.
	Components []scene.RawComponent
	// Prefab is the prefab an instance instances (the "prefab" path), "" for other entities.
	Prefab string
	// Instance and Source are set (positive) on override records: what the file says about the
	// entity made from entity Source of the prefab of instance Instance (its ID is
	// scene.InstanceID(Instance, Source); it has no parent or order of its own).
	Instance, Source int64
	// Removed: the record removes the entity (and its descendants in the prefab) from its instance.
	Removed bool
}

// IsRecord reports whether e is an override record (an entity of a prefab instance).
func (e *RawEntity) IsRecord() bool { return e.Instance > 0 || e.Source > 0 }

// Component returns the JSON of e's component name, and whether e has it.
func (e *RawEntity) Component(name string) (string, bool) {
	i, ok := slices.BinarySearchFunc(e.Components, name, func(c scene.RawComponent, n string) int { return strings.Compare(c.Name, n) })
	if !ok {
		return "", false
	}
	return e.Components[i].JSON, true
}

// Entity returns the entity with id id, or nil.
func (s *RawScene) Entity(id int64) *RawEntity {
	i, ok := slices.BinarySearchFunc(s.Entities, id, func(e RawEntity, id int64) int { return cmp.Compare(e.ID, id) })
	if !ok {
		return nil
	}
	return &s.Entities[i]
}

// Refs returns the entity ids that the component c (of an entity of s) refers to, for components
// registered with entity reference fields (ecs.Entity); nil for others and for unknown components.
// Zero (no entity) is left out.
func (s *RawScene) Refs(c scene.RawComponent) []int64 {
	cd := s.refs[c.Name]
	if cd == nil {
		return nil
	}
	v, err := jsonpos.Parse([]byte(c.JSON), jsonpos.Limits{})
	if err != nil {
		return nil
	}
	var out []int64
	collectRefs(cd, &v, &out)
	return out
}

// collectRefs appends the ids of the entity references in v (read by cd) to out.
func collectRefs(cd *codec, v *jsonpos.Value, out *[]int64) {
	switch cd.kind {
	case kEntity:
		if n, err := v.Int(); err == nil && n > 0 {
			*out = append(*out, n)
		}
	case kArray, kSlice:
		if v.Kind() == jsonpos.Array {
			for i := range v.Len() {
				collectRefs(cd.elem, v.Index(i), out)
			}
		}
	case kStruct:
		if v.Kind() != jsonpos.Object {
			return
		}
		for i := range cd.fields {
			f := &cd.fields[i]
			if !f.hasRefs() {
				continue
			}
			x := v.Get(f.name)
			for _, old := range f.former {
				if x != nil {
					break
				}
				x = v.Get(old)
			}
			if x != nil {
				collectRefs(f, x, out)
			}
		}
	}
}

// checkAssets reports the asset references in v (read by cd) that break the asset path rule,
// as Load does: a raw scene merged or compared must not carry a path that the editor, validate
// and export refuse (an error, or a warning in a lossy read).
func (rr *rawReader) checkAssets(cd *codec, v *jsonpos.Value) {
	path := rr.b.ds.path
	switch cd.kind {
	case kString:
		if !cd.asset || v.Kind() != jsonpos.String {
			return
		}
		if s := v.Str(); cd.noEmpty || s != "" {
			if _, err := assetref.Check(s); err != nil {
				rr.pathProblem(v.Pos(), err)
			}
		}
	case kArray, kSlice:
		if v.Kind() == jsonpos.Array {
			for i := range v.Len() {
				mark := path.Index(i)
				rr.checkAssets(cd.elem, v.Index(i))
				path.Truncate(mark)
			}
		}
	case kStruct:
		if v.Kind() != jsonpos.Object {
			return
		}
		for i := range v.Len() {
			m := v.Index(i)
			if f := cd.field(m.KeyBytes()); f != nil && f.hasAssets() {
				mark := path.Key(f.name)
				rr.checkAssets(f, m)
				path.Truncate(mark)
			}
		}
	}
}

// pathProblem reports a path that breaks the asset path rule at p.
func (rr *rawReader) pathProblem(p jsonpos.Pos, err error) {
	probs := rr.b.probs
	if rr.lossy {
		probs.Warnf(p.Line, p.Col, rr.b.ds.path.String(), "%v", err)
		return
	}
	probs.Errorf(p.Line, p.Col, rr.b.ds.path.String(), "%v", err)
}

// hasRefs reports whether values of cd can hold entity references.
func (c *codec) hasRefs() bool {
	switch c.kind {
	case kEntity:
		return true
	case kArray, kSlice:
		return c.elem.hasRefs()
	case kStruct:
		for i := range c.fields {
			if c.fields[i].hasRefs() {
				return true
			}
		}
	}
	return false
}

// ReadRawFile reads the scene file at path ("-": standard input). See [ReadRaw].
func ReadRawFile(ctx context.Context, path string, opts LoadOptions) (*RawScene, error) {
	in, err := OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return ReadRaw(ctx, in, opts)
}

// ReadRaw reads a scene file into a [RawScene]. It checks what [Load] checks about the file's
// structure — JSON syntax, the keys of the header and of entities, unique positive ids, existing
// parents without cycles, existing targets of entity references, components that may not be
// stored, the limits, asset and prefab paths (the rule of internal/assetref: with
// LoadOptions.Lossy a broken one is a warning, in RawScene.Warnings) — and reports problems the same way (an *[Error] listing them as
// "file:line:col: path: message"), but it does not check the values of components against their
// schemas (validate the scene with [Load] or [ValidateFile] for that). Components are recognised
// by the world LoadOptions.NewWorld makes (scene.NewWorld by default); Progress is not called. r
// is read once, as a stream (see [Load]).
func ReadRaw(ctx context.Context, r io.Reader, opts LoadOptions) (*RawScene, error) {
	in := NewInput(r, opts.File)
	if opts.File == "" {
		opts.File = in.Name
	}
	return readRaw(ctx, in, opts)
}

// rawReader collects the entities of one file.
type rawReader struct {
	b      *binder // for the editor section, the component table and problems
	s      *RawScene
	pos    []rawPos // by entity, in file order
	names  map[string]string
	text   []byte               // current arena chunk for JSON text (never reallocated)
	comps  []scene.RawComponent // current chunk of components (never reallocated)
	buf    []byte
	lossy  bool              // asset path problems are warnings
	assets map[string]*codec // component name → codec, for components holding asset references
	// fastComps holds the components of the entity read straight (fast), until it is; fastN counts those entities.
	fastComps []rawComp
	fastN     int
}

// rawPos is where an entity's id and parent are, for problems found at the end.
type rawPos struct {
	idLine, idCol, parLine, parCol int32
}

const (
	rawTextChunk = 1 << 20
	rawCompChunk = 4096
)

// reserve makes room for the n entities expected to follow (of a file of size bytes): the entity
// list grown once, not copied again and again as it grows by appending. The room is bounded by the
// file's size (an entity takes more than rawMinEntityBytes of file), so an estimate thrown off by
// small first entities cannot take more memory than the file.
func (rr *rawReader) reserve(n int, size int64) {
	n = min(n+n/16, int(size/rawMinEntityBytes)) // a little over: names and ids grow longer down the file
	rr.s.Entities = slices.Grow(rr.s.Entities, n)
	rr.pos = slices.Grow(rr.pos, n)
}

// rawMinEntityBytes bounds what reserve makes room for: about a RawEntity and its rawPos.
const rawMinEntityBytes = 128

// str returns b as a string stored in the text arena.
func (rr *rawReader) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > rawTextChunk/4 {
		return string(b)
	}
	if cap(rr.text)-len(rr.text) < len(b) {
		// Chunks double from 64 KiB to 1 MiB: small files stay small, big ones make few chunks.
		rr.text = make([]byte, 0, min(rawTextChunk, max(64<<10, 2*cap(rr.text), len(b))))
	}
	start := len(rr.text)
	rr.text = append(rr.text, b...)
	return unsafe.String(&rr.text[start], len(b))
}

// inline returns v on one line as a string stored in the text arena, written there directly
// (not into a buffer and copied) while the arena's chunk has room for a usual value.
func (rr *rawReader) inline(v *jsonpos.Value) string {
	if cap(rr.text)-len(rr.text) < rawInlineRoom {
		rr.buf = jsonpos.AppendInline(rr.buf[:0], v)
		return rr.str(rr.buf)
	}
	start := len(rr.text)
	out := jsonpos.AppendInline(rr.text, v)
	if cap(out) != cap(rr.text) { // it outgrew the chunk (strings point into it): kept apart
		return rr.str(out[start:])
	}
	rr.text = out
	if len(out) == start {
		return ""
	}
	return unsafe.String(&out[start], len(out)-start)
}

// rawInlineRoom is the room in the text arena under which inline writes through a buffer.
const rawInlineRoom = 4 << 10

func (rr *rawReader) entity(doc *entityDoc) {
	b := rr.b
	probs := b.probs
	e := RawEntity{ID: doc.id, Parent: doc.parent, Order: doc.order, Instance: doc.instance, Source: doc.source, Removed: doc.removed}
	if doc.name != nil {
		e.Name, e.HasName = rr.str(doc.name.Text()), true
	}
	if doc.prefab != nil {
		e.Prefab = rr.str(doc.prefab.Text())
		if _, err := checkPrefabPath(e.Prefab); err != nil {
			mark := b.ds.path.Key("prefab")
			rr.pathProblem(doc.prefab.Pos(), err)
			b.ds.path.Truncate(mark)
		}
	}
	if doc.isRecord && e.Instance <= 0 && e.Source <= 0 {
		e.Source = -1 // a broken record (reported) is still a record
	}
	if c := doc.components; c != nil {
		n := c.Len()
		if cap(rr.comps)-len(rr.comps) < n {
			rr.comps = make([]scene.RawComponent, 0, max(min(rawCompChunk, 64+2*cap(rr.comps)), n))
		}
		start := len(rr.comps)
		cmark := b.ds.path.Key("components")
		keys := jsonpos.NewKeyIndex(c)
		for i := range n {
			m := c.Index(i)
			if duplicateKey(probs, b.ds.path, keys, c, i) {
				continue
			}
			key := m.KeyBytes()
			name, ok := rr.names[string(key)]
			if !ok {
				name = string(key)
				rr.names[name] = name
			}
			mark := b.ds.path.Key(name)
			if bd := b.byNm[name]; bd != nil && bd.refuse != "" {
				kp := m.KeyPos()
				probs.Errorf(kp.Line, kp.Col, b.ds.path.String(), "%s cannot be stored here: %s", name, bd.refuse)
			} else if m.Kind() != jsonpos.Object && !(doc.isRecord && m.Kind() == jsonpos.Null) {
				errAtValue(probs, b.ds.path, m, "a component must be an object, not %s", describeValue(m))
			}
			if cd := rr.assets[name]; cd != nil {
				rr.checkAssets(cd, m)
			}
			b.ds.path.Truncate(mark)
			rr.comps = append(rr.comps, scene.RawComponent{Name: name, JSON: rr.inline(m)})
		}
		b.ds.path.Truncate(cmark)
		e.Components = rr.comps[start:len(rr.comps):len(rr.comps)]
		if !slices.IsSortedFunc(e.Components, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) }) {
			slices.SortFunc(e.Components, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
		}
	}
	rr.s.Entities = append(rr.s.Entities, e)
	rr.pos = append(rr.pos, rawPos{int32(doc.idPos.Line), int32(doc.idPos.Col), int32(doc.parentPos.Line), int32(doc.parentPos.Col)})
}

func readRaw(ctx context.Context, in *Input, opts LoadOptions) (*RawScene, error) {
	b := newBinder(opts.world()())
	rr := &rawReader{b: b, s: &RawScene{refs: map[string]*codec{}}, names: map[string]string{}, lossy: opts.Lossy}
	for name, bd := range b.byNm {
		if bd.codec != nil && bd.codec.hasRefs() {
			rr.s.refs[name] = bd.codec
		}
		if bd.codec != nil && bd.codec.hasAssets() {
			if rr.assets == nil {
				rr.assets = map[string]*codec{}
			}
			rr.assets[name] = bd.codec
		}
	}
	r := newSceneReader(ctx, in, opts.File, opts.Limits, nil, rr.entity)
	r.expect = func(n int) { rr.reserve(n, r.size) }
	if fastEntities {
		r.straight = rr.fast
	}
	b.probs, b.ds.probs, b.ds.path = r.probs, r.probs, &r.path
	h, err := r.read()
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, fmt.Errorf("reading %s: %w", displayName(opts.File), err)
		}
		return nil, err
	}
	if h != nil {
		rr.finish(h)
	}
	if err := r.probs.Err(); err != nil {
		return nil, err
	}
	if h == nil {
		return nil, &Error{Problems: []Problem{{File: opts.File, Msg: "scene could not be read"}}}
	}
	rr.s.Warnings = r.probs.Warnings()
	readFast.Add(int64(rr.fastN))
	return rr.s, nil
}

// finish checks ids, parents and references, migrates sibling order from version 1 and sorts the
// entities by id.
func (rr *rawReader) finish(h *header) {
	s, probs := rr.s, rr.b.probs
	s.Name = h.name
	var selection []int64
	var selPos []jsonpos.Pos
	if h.editor != nil {
		s.Camera, selection, selPos, s.Conflicts = rr.b.editorSection(h.editor)
	}
	if probs.HasErrors() {
		return
	}
	n := len(s.Entities)
	perm := make([]int32, n) // file index, in id order
	for i := range perm {
		perm[i] = int32(i)
	}
	es := s.Entities
	if !slices.IsSortedFunc(es, func(a, b RawEntity) int { return cmp.Compare(a.ID, b.ID) }) {
		slices.SortStableFunc(perm, func(i, j int32) int { return cmp.Compare(es[i].ID, es[j].ID) })
	}
	for k := 1; k < n; k++ {
		a, c := perm[k-1], perm[k]
		if es[a].ID == es[c].ID {
			p := rr.pos[c]
			probs.Errorf(int(p.idLine), int(p.idCol), entPath(c, "id"), "duplicate id %d (also at %d:%d)", es[c].ID, rr.pos[a].idLine, rr.pos[a].idCol)
		}
	}
	find := func(id int64) int32 {
		k, ok := slices.BinarySearchFunc(perm, id, func(i int32, id int64) int { return cmp.Compare(es[i].ID, id) })
		if !ok {
			return -1
		}
		return perm[k]
	}
	parentOf := make([]int32, n)
	for i := range es {
		parentOf[i] = -1
		e := &es[i]
		if e.Parent == 0 {
			continue
		}
		p := rr.pos[i]
		switch j := find(e.Parent); {
		case j < 0:
			probs.Errorf(int(p.parLine), int(p.parCol), entPath(int32(i), "parent"), "parent %d does not exist", e.Parent)
		case e.Parent == e.ID:
			probs.Errorf(int(p.parLine), int(p.parCol), entPath(int32(i), "parent"), "entity %d is its own parent", e.ID)
		default:
			parentOf[i] = j
		}
	}
	b := rr.b
	b.recs = recList{}
	for i := range es {
		p := rr.pos[i]
		b.recs.push(entRec{id: es[i].ID, parent: es[i].Parent, idLine: p.idLine, idCol: p.idCol, parLine: p.parLine, parCo: p.parCol})
	}
	b.checkCycles(parentOf)
	for i := range es {
		e := &es[i]
		for _, c := range e.Components {
			if s.refs[c.Name] == nil {
				continue
			}
			for _, id := range s.Refs(c) {
				if j := find(id); j < 0 || es[j].Removed {
					p := rr.pos[i]
					probs.Errorf(int(p.idLine), int(p.idCol), entPath(int32(i), "components."+c.Name),
						"entity %d does not exist", id)
				}
			}
		}
		if e.Parent != 0 {
			if j := find(e.Parent); j >= 0 && es[j].Removed {
				p := rr.pos[i]
				probs.Errorf(int(p.parLine), int(p.parCol), entPath(int32(i), "parent"), "parent %d is removed from its prefab instance", e.Parent)
			}
		}
		if !e.IsRecord() || e.Instance <= 0 || e.Source <= 0 {
			continue
		}
		p := rr.pos[i]
		if j := find(e.Instance); j < 0 || es[j].Prefab == "" {
			probs.Errorf(int(p.idLine), int(p.idCol), entPath(int32(i), "instance"),
				"entity %d is not an instance of a prefab in this file (an entity with a \"prefab\")", e.Instance)
		} else if want := scene.InstanceID(uint64(e.Instance), uint64(e.Source)); uint64(e.ID) != want {
			probs.Errorf(int(p.idLine), int(p.idCol), entPath(int32(i), "id"), "must be %d: the ids of a prefab instance's "+
				"entities are made from the instance's id (%d) and the entity's id in the prefab (%d)", want, e.Instance, e.Source)
		}
	}
	for k, id := range selection {
		if find(id) >= 0 {
			s.Selection = append(s.Selection, id)
		} else {
			probs.Add(Problem{Line: selPos[k].Line, Col: selPos[k].Col, Path: "editor.selection[" + strconv.Itoa(k) + "]",
				Msg: fmt.Sprintf("entity %d does not exist; left out of the selection", id), Warning: true})
		}
	}
	if probs.HasErrors() {
		return
	}
	if h.version < 2 { // v1 listed siblings by id
		next := make(map[int64]float64)
		for _, i := range perm {
			k := next[es[i].Parent] + 1
			next[es[i].Parent] = k
			es[i].Order = k
		}
	}
	if !slices.IsSorted(perm) {
		sorted := make([]RawEntity, n)
		for k, i := range perm {
			sorted[k] = es[i]
		}
		s.Entities = sorted
	}
}

// WriteRawFile writes s to path atomically (see [atomicfile.WriteFileFunc] and [WriteRaw]).
func WriteRawFile(ctx context.Context, path string, s *RawScene) error {
	return atomicfile.WriteFileFunc(path, func(w io.Writer) error { return WriteRaw(ctx, w, s) })
}

// WriteRaw writes s in the canonical scene format (as [Save] does; the current version). Its
// entities must be sorted by ascending id and have unique ids, and their components sorted by
// name, as ReadRaw returns them; WriteRaw panics otherwise (a programming error). Component JSON is
// written as it is.
func WriteRaw(ctx context.Context, out io.Writer, s *RawScene) error {
	for i := 1; i < len(s.Entities); i++ {
		if s.Entities[i-1].ID >= s.Entities[i].ID {
			panic(fmt.Sprintf("serialize.WriteRaw: entities not sorted by unique id (%d before %d); sort them first",
				s.Entities[i-1].ID, s.Entities[i].ID))
		}
	}
	b := make([]byte, 0, flushAt+4096)
	b = append(b, "{\n  \"format\": \"voltex.scene\",\n  \"version\": "...)
	b = appendUint(b, CurrentVersion)
	b = append(b, ",\n  \"name\": "...)
	b = jsonpos.AppendString(b, s.Name)
	b = append(b, ",\n"...)
	sel := make([]uint64, len(s.Selection))
	for i, id := range s.Selection {
		sel[i] = uint64(id)
	}
	var err error
	if b, err = appendEditor(b, s.Camera, sel, s.Conflicts); err != nil {
		return err
	}
	if len(s.Entities) == 0 {
		_, err := out.Write(append(b, "  \"entities\": []\n}\n"...))
		return err
	}
	b = append(b, "  \"entities\": [\n"...)
	for i := range s.Entities {
		if i&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("writing: %w", err)
			}
		}
		e := &s.Entities[i]
		if !finite64(e.Order) {
			return fmt.Errorf("writing: entity %d: its order key is not a finite number (%v)", e.ID, e.Order)
		}
		b = append(b, "    {\n      \"id\": "...)
		b = appendInt(b, int(e.ID))
		if e.IsRecord() {
			b = append(b, ",\n      \"instance\": "...)
			b = appendInt(b, int(e.Instance))
			b = append(b, ",\n      \"source\": "...)
			b = appendInt(b, int(e.Source))
		}
		if e.HasName {
			b = append(b, ",\n      \"name\": "...)
			b = jsonpos.AppendString(b, e.Name)
		}
		if e.IsRecord() {
			if e.Removed {
				b = append(b, ",\n      \"removed\": true"...)
				if len(e.Components) == 0 {
					b = append(b, "\n    }"...)
					if i < len(s.Entities)-1 {
						b = append(b, ',')
					}
					b = append(b, '\n')
					continue
				}
			}
		} else {
			if e.Parent != 0 {
				b = append(b, ",\n      \"parent\": "...)
				b = appendInt(b, int(e.Parent))
			}
			b = append(b, ",\n      \"order\": "...)
			b = jsonpos.AppendFloat(b, e.Order, 64)
			if e.Prefab != "" {
				b = append(b, ",\n      \"prefab\": "...)
				b = jsonpos.AppendString(b, e.Prefab)
			}
		}
		b = append(b, ",\n      \"components\": {"...)
		for j, c := range e.Components {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendRaw(append(b, '\n'), c)
		}
		if len(e.Components) > 0 {
			b = append(b, "\n      }"...)
		} else {
			b = append(b, '}')
		}
		b = append(b, "\n    }"...)
		if i < len(s.Entities)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		if len(b) >= flushAt {
			if _, err := out.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, "  ]\n}\n"...)
	_, err = out.Write(b)
	return err
}
