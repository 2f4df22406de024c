package serialize

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/radix"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// LoadOptions configure [Load] and [LoadFile]. The zero value is ready to
// use.
type LoadOptions struct {
	// File is the name problems are reported under; LoadFile uses its path
	// when File is empty.
	File   string
	Limits Limits
	// NewWorld makes the world the scene is loaded into (a load always fills
	// a fresh world, so a failed load changes nothing the caller holds). It
	// must register the scene components (scene.Register) and may register
	// more: components of other types are loaded by their registered names.
	// Default: scene.NewWorld.
	NewWorld func() *ecs.World
	// Progress, if set, is called now and then with the bytes read so far
	// and the input size (0 if unknown), on the loading goroutine.
	Progress func(done, total int64)
	// Strict makes components that no registered type declares errors
	// instead of warnings (`validate --strict`), and missing assets too. A
	// name close to a registered one ("Transfrom") is an error either way.
	Strict bool
	// RefuseConflicts makes unresolved merge conflicts (scene.MergeConflicts
	// components, and the editor section's "conflicts") errors: a file a
	// merge left them in is not ready (`validate`).
	RefuseConflicts bool
	// CheckAsset, if set, is asked once about each asset reference of the
	// file (Mesh.asset, and every string field with the asset hint) that is
	// well formed — references that are not (absolute paths, ".." escapes,
	// URLs, empty) are errors anyway. An error wrapping ErrAssetMissing is a
	// warning (an error with Strict), any other an error, at the reference.
	// The tools pass assets.CheckRef for the scene's folder.
	CheckAsset func(ref string) error
	// CheckWorldMatrices warns, at each entity's "id", when its world matrix
	// is not finite (its Transform, or a parent's, overflows): it cannot be
	// drawn and Export fails on it. It propagates the transforms during the
	// load (the tools set it; the editor, which propagates later anyway,
	// keeps its load leaner).
	CheckWorldMatrices bool
	// Lossy loads what it can of component values that do not fit their
	// types (after a project file changed them): such a field keeps its
	// default, an unknown field is dropped, a misspelt component name is
	// kept as unknown, and each is a warning (Scene.Warnings) instead of an
	// error. Problems outside component values are errors as usual.
	Lossy bool
	// Prefabs finds the prefabs the scene instances (entities with a "prefab" key) and keeps
	// them; the scene keeps it (Scene.Prefabs) for saving. Default: a new set for this load,
	// with this load's NewWorld, Limits and Strict.
	Prefabs *Prefabs
	// Dir is the folder the scene's prefab paths are relative to. Default: the folder of File
	// (of the path, for LoadFile; the working folder for standard input).
	Dir string
	// KeepBroken makes an instance whose prefab cannot be used (no such file, a broken file, a
	// cycle of prefabs) a placeholder instead of failing the load: the entity keeps its own
	// components and Prefab.Problem says what is wrong, what the file says about the prefab's
	// entities is kept as it is (and written back by Save), and the problems are in
	// Scene.Broken. The editor and render use it; validate and export do not.
	KeepBroken bool
	// Alternate, if not nil, makes the parse and the binding take turns, batch by batch, until it is closed
	// (they run side by side after): a load that starts while the editor's window opens leaves it a core.
	Alternate <-chan struct{}

	// chain lists the absolute paths of the prefab files being loaded that lead to this load.
	chain []string
	// overMemory, if set, is set to whether the load went over Limits.MaxWorldBytes (a prefab's
	// load with what is left of its scene's memory limit).
	overMemory *bool
	// counted, if set, is set to the prefab files a refused nest was counted from: a change to any
	// of them can make it fit.
	counted *[]string
}

// world returns NewWorld, or its default.
func (o *LoadOptions) world() func() *ecs.World {
	if o.NewWorld == nil {
		return scene.NewWorld
	}
	return o.NewWorld
}

// LoadFile loads the scene file at path ("-": standard input) into a new
// world. See [Load].
func LoadFile(ctx context.Context, path string, opts LoadOptions) (*Scene, error) {
	in, err := OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return Load(ctx, in, opts)
}

// Load loads a scene from r into a new world and returns it. On failure it
// returns a *[Error] listing the problems found (the first
// Limits.MaxProblems, and how many more) as "file:line:col: path:
// message", and nothing else is changed. Warnings of a successful load are
// in Scene.Warnings.
//
// A file of an older version is migrated on the way in; a file of a newer
// version is refused. r is read once, as a stream, within
// Limits.MaxFileSize (an [*Input] made by OpenInput knows a file's size and
// refuses a file over the limit before reading it). Only a file that lists
// its entities before saying its version needs more: an input that can seek
// (a file) is read again from the start, and from a stream the entities are
// kept in memory (up to Limits.MaxBuffered) until the version is known.
// Cancelling ctx stops the load with ctx's error.
func Load(ctx context.Context, r io.Reader, opts LoadOptions) (*Scene, error) {
	in := NewInput(r, opts.File)
	if opts.File == "" {
		opts.File = in.Name
	}
	return load(ctx, in, opts)
}

func load(ctx context.Context, in *Input, opts LoadOptions) (*Scene, error) {
	if s, done, err := loadInPieces(ctx, in, opts); done || err != nil {
		return s, err
	}
	b, r := startLoad(ctx, in, opts)
	r.alternate = opts.Alternate
	r.expect = b.expect
	h, err := r.read()
	if err != nil {
		return nil, loadError(ctx, opts, err)
	}
	var s *Scene
	if h != nil {
		s = b.finish(h)
	}
	if opts.overMemory != nil {
		*opts.overMemory = b.ds.overData
	}
	return b.done(s, r, in, opts)
}

// startLoad makes the binder of a load into a new world and the reader that hands it the file's entities.
func startLoad(ctx context.Context, in *Input, opts LoadOptions) (*binder, *sceneReader) {
	b := newBinder(opts.world()())
	b.ctx = ctx
	b.setPrefabs(&opts, in)
	b.maxEntities = opts.Limits.resolved().MaxEntities
	b.checkWorld = opts.CheckWorldMatrices
	b.options(opts)
	r := newSceneReader(ctx, in, opts.File, opts.Limits, opts.Progress, b.entity)
	r.stop = func() bool { return b.ds.overData }
	b.probs, b.ds.probs, b.ds.path = r.probs, r.probs, &r.path
	return b, r
}

// options sets what opts says about checking each entity.
func (b *binder) options(opts LoadOptions) {
	b.strict = opts.Strict
	b.refuseConflicts = opts.RefuseConflicts
	b.ds.strict, b.ds.checkAsset = opts.Strict, opts.CheckAsset
	b.ds.lossy = opts.Lossy
	b.ds.maxData = opts.Limits.resolved().MaxWorldBytes
}

// loadError is err of a load that stopped (ctx's, named after the file, when it was cancelled).
func loadError(ctx context.Context, opts LoadOptions, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return fmt.Errorf("loading %s: %w", displayName(opts.File), err)
	}
	return err
}

// done returns the scene s that finish made of what r read, or the load's error.
func (b *binder) done(s *Scene, r *sceneReader, in *Input, opts LoadOptions) (*Scene, error) {
	probs := r.probs
	if err := probs.Err(); err != nil {
		return nil, err
	}
	if s == nil { // reading stopped without an error (cannot happen, but never return nil, nil)
		return nil, &Error{Problems: []Problem{{File: opts.File, Msg: "scene could not be read"}}}
	}
	if opts.Progress != nil {
		opts.Progress(in.Size(), in.Size())
	}
	s.Warnings = probs.Warnings()
	s.Prefabs, s.Dir, s.Broken, s.used = b.prefabs, b.dir, b.broken, b.templates
	s.data = b.ds.data - b.tplCharged
	return s, nil
}

func displayName(file string) string {
	if file == "" {
		return "scene"
	}
	return file
}

// Bookkeeping counted as world memory (Limits.MaxWorldBytes) per entity
// (the loader's record, the world's slot, hierarchy links, SceneID and
// GlobalTransform) and per component (change ticks, table slack).
const (
	entityOverhead    = 192
	componentOverhead = 16
)

// entRec is what the binder remembers of each entity until the end of the
// load, to check ids and parents and to link the hierarchy.
type entRec struct {
	id, parent     int64
	order          float64
	e              ecs.Entity // zero once any error was found (nothing is spawned then)
	idLine, idCol  int32
	parLine, parCo int32
}

// recList is a list of entRecs stored in fixed-size chunks, so that a
// million of them grow without copying (and without the garbage of a
// doubling slice).
type recList struct {
	chunks [][]entRec
	n      int
}

const recChunk = 4096

func (l *recList) push(r entRec) {
	if l.n%recChunk == 0 {
		l.chunks = append(l.chunks, make([]entRec, 0, recChunk))
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, r)
	l.n++
}

func (l *recList) at(i int32) *entRec { return &l.chunks[i/recChunk][i%recChunk] }

// refRec is an entity reference inside a component, resolved at the end.
type refRec struct {
	rec  int32
	comp ecs.ComponentID
	ref  entityRef
}

// binding is how one component name of the file is loaded.
type binding struct {
	id      ecs.ComponentID
	codec   *codec
	scratch reflect.Value // *T, reused for every entity
	ptr     unsafe.Pointer
	def     reflect.Value // the schema default (T)
	deepDef bool          // the default holds slices, maps or pointers: each value gets a copy
	held    int64         // what the default's lists and strings hold, counted for each value (a copy)
	refuse  string        // non-empty: the name may not appear in files, and why
}

// reset sets the scratch value to the default (a copy of it where values
// could otherwise share memory with the default and with each other).
func (bd *binding) reset() {
	if bd.deepDef {
		bd.scratch.Elem().Set(ecs.DeepCopy(bd.def))
		return
	}
	bd.scratch.Elem().Set(bd.def)
}

// binder turns the entities the reader hands it into a world.
type binder struct {
	w          *ecs.World
	lastE      ecs.Entity // the entity spawned last
	alike      int        // how many entities before lastE, in a row, have its components
	ds         decodeState
	rawBuf     []byte // unknown components' JSON, before it is copied into the world
	checkWorld bool   // LoadOptions.CheckWorldMatrices
	// meshID and transformID tell a Mesh without a Transform (not drawn: a warning).
	meshID, transformID ecs.ComponentID
	probs               *diag.List
	byNm                map[string]*binding
	recs                recList
	refs                []refRec
	vals                []any

	name    scene.Name
	sid     scene.SceneID
	unknown scene.Unknown
	// unknownSeen counts entities per unknown component name (for the
	// warning) and remembers where the name first appeared.
	unknownSeen map[string]*unknownUse
	sawUnknown  []string
	strict      bool
	// refuseConflicts: MergeConflicts components and scene-level conflicts are errors.
	refuseConflicts bool
	// known lists the names components can be stored under, for suggestions.
	known []string
	// used holds the bindings of the current entity's components when one
	// could appear under two names (current and former).
	used []*binding
	// hasFormer is set when some component has former names.
	hasFormer bool
	// check, if set, keeps what validation needs of each entity instead of spawning it (checkInPieces).
	check *checkRecs
	// inPiece: the binder reads a piece of a load in pieces, which bailed once it met what only a load in turn
	// reads (a prefab instance).
	inPiece, bailed bool
	fastN           int // entities read straight from the input (fastEntity)

	prefabState
}

type unknownUse struct {
	count     int
	line, col int
	path      string
	suggest   string // the registered name it is probably a misspelling of
}

func newBinder(w *ecs.World) *binder {
	if _, ok := ecs.ComponentIDOf[scene.SceneID](w); !ok {
		panic("serialize: LoadOptions.NewWorld returned a world without the scene components; call scene.Register(w) in it")
	}
	b := &binder{w: w, byNm: map[string]*binding{}, unknownSeen: map[string]*unknownUse{}}
	b.ds.intern = map[string]string{}
	b.meshID, _ = ecs.ComponentIDOf[scene.Mesh](w)
	b.transformID, _ = ecs.ComponentIDOf[ecs.Transform](w)
	for _, id := range w.ComponentIDs() {
		info := w.ComponentInfo(id)
		bd := &binding{id: id}
		switch {
		case info.Type == reflect.TypeFor[scene.Name]():
			bd.refuse = "the name is the entity's \"name\", not a component"
		case info.Type == reflect.TypeFor[scene.SceneID]():
			bd.refuse = "the id is the entity's \"id\", not a component"
		case info.Type == reflect.TypeFor[scene.Unknown]():
			bd.refuse = "Unknown is reserved for components this build does not know"
		case info.Type == reflect.TypeFor[scene.Prefab]():
			bd.refuse = "an instance names its prefab with the entity's \"prefab\" key, not a component"
		case info.Type == reflect.TypeFor[scene.PrefabPart](), info.Type == reflect.TypeFor[scene.PrefabKept]():
			bd.refuse = "entities of prefab instances are the entities with \"instance\" and \"source\" keys"
		case info.Computed:
			bd.refuse = "it is computed from the hierarchy and never stored"
		case scene.IsTransient(info):
			bd.refuse = "it is transient (never stored in files)"
		default:
			c, err := newCodec(info)
			if err != nil {
				bd.refuse = err.Error()
				break
			}
			bd.codec = c
			bd.scratch = reflect.New(info.Type)
			bd.ptr = bd.scratch.UnsafePointer()
			bd.def = reflect.ValueOf(info.Schema.Default)
			bd.deepDef = info.SharesMemory
			if bd.deepDef {
				bd.held = int64(ecs.HeldBytes(bd.def))
			}
		}
		b.byNm[info.Name] = bd
		if bd.refuse == "" {
			b.known = append(b.known, info.Name)
		}
	}
	for _, id := range w.ComponentIDs() { // former names, unless a registered name took them
		info := w.ComponentInfo(id)
		for _, f := range info.FormerNames {
			if _, taken := b.byNm[f]; !taken {
				b.byNm[f] = b.byNm[info.Name]
				b.hasFormer = true
			}
		}
	}
	return b
}

// entity binds one entity; the reader's path is at entities[i].
func (b *binder) entity(doc *entityDoc) {
	probs := b.ds.probs
	rec := entRec{id: doc.id, parent: doc.parent, order: doc.order}
	rec.idLine, rec.idCol = int32(doc.idPos.Line), int32(doc.idPos.Col)
	rec.parLine, rec.parCo = int32(doc.parentPos.Line), int32(doc.parentPos.Col)
	if b.check != nil && (doc.isRecord || doc.prefab != nil) {
		b.check.bail = true // prefab instances are made in a world: the load checks them
		return
	}
	if b.inPiece && (doc.isRecord || doc.prefab != nil) {
		b.bailed = true // a load in pieces leaves prefab instances to a load in turn
		return
	}
	if doc.isRecord {
		b.record(doc)
		b.recs.push(rec)
		return
	}
	recIndex := int32(b.recs.n)
	if b.check != nil {
		recIndex = int32(len(b.check.ids))
	}
	vals := b.vals[:0]
	var unknown []scene.RawComponent
	var meshKey *jsonpos.Value // the entity's Mesh, to warn if it has no Transform
	hasTransform := false
	if c := doc.components; c != nil {
		cmark := b.ds.path.Key("components")
		keys := jsonpos.NewKeyIndex(c)
		b.used = b.used[:0]
		for i := range c.Len() {
			m := c.Index(i)
			if duplicateKey(probs, b.ds.path, keys, c, i) {
				continue
			}
			bd := b.byNm[string(m.KeyBytes())]
			if bd == nil {
				if raw, ok := b.unknownComponent(m); ok {
					unknown = append(unknown, raw)
				}
				continue
			}
			mark := b.ds.path.Key(m.Key())
			if b.hasFormer {
				if slices.Contains(b.used, bd) {
					kp := m.KeyPos()
					probs.Errorf(kp.Line, kp.Col, b.ds.path.String(), "%s is here twice, under its current and a former name; keep one",
						b.w.ComponentInfo(bd.id).Name)
					b.ds.path.Truncate(mark)
					continue
				}
				b.used = append(b.used, bd)
			}
			if bd.refuse != "" {
				kp := m.KeyPos()
				probs.Errorf(kp.Line, kp.Col, b.ds.path.String(), "%s cannot be stored here: %s", m.Key(), bd.refuse)
				b.ds.path.Truncate(mark)
				continue
			}
			switch bd.id {
			case b.meshID:
				meshKey = m
			case b.transformID:
				hasTransform = true
			}
			bd.reset()
			b.ds.failed = false
			bd.codec.decode(&b.ds, m, bd.ptr)
			if bd.id == b.transformID && b.check != nil {
				b.check.bound = matrixBound((*ecs.Transform)(bd.ptr))
			}
			b.ds.path.Truncate(mark)
			for _, r := range b.ds.refs {
				b.refs = append(b.refs, refRec{rec: recIndex, comp: bd.id, ref: r})
				b.ds.use(2*int64(unsafe.Sizeof(refRec{}))+int64(len(r.path)+16), m.Pos()) // the list grows by copying
			}
			b.ds.refs = b.ds.refs[:0]
			if !b.ds.failed && b.ds.use(int64(bd.scratch.Elem().Type().Size())+componentOverhead+bd.held, m.Pos()) {
				vals = append(vals, bd.scratch.Interface())
				if b.refuseConflicts {
					b.refuseConflict(m, bd)
				}
			}
		}
		if meshKey != nil && !hasTransform {
			kp := meshKey.KeyPos()
			mark := b.ds.path.Key("Mesh")
			probs.Warnf(kp.Line, kp.Col, b.ds.path.String(), "a Mesh without a Transform is not drawn (in the editor, "+
				"render or a game: its export has no mesh); give the entity a Transform")
			b.ds.path.Truncate(mark)
		}
		b.ds.path.Truncate(cmark)
	}
	if doc.name != nil {
		b.ds.use(int64(len(doc.name.Text())), doc.name.Pos())
	}
	for _, u := range unknown {
		b.ds.use(int64(len(u.JSON)+len(u.Name))+componentOverhead, doc.pos)
	}
	b.ds.use(entityOverhead, doc.pos)
	if b.check != nil {
		b.check.add(doc, hasTransform)
		clear(vals)
		b.vals = vals[:0]
		return
	}
	if !probs.HasErrors() {
		if doc.name != nil {
			b.name.Value = string(doc.name.Text())
			vals = append(vals, &b.name)
		}
		if doc.id > 0 {
			b.sid = scene.SceneID{ID: uint64(doc.id), Order: doc.order}
			vals = append(vals, &b.sid)
		}
		if len(unknown) > 0 {
			slices.SortFunc(unknown, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
			b.unknown.Components = unknown
			vals = append(vals, &b.unknown)
		}
		if doc.prefab != nil {
			b.prefab = scene.Prefab{Path: doc.prefab.Str()}
			vals = append(vals, &b.prefab)
		}
		b.spawnRec(&rec, vals)
	}
	clear(vals)
	b.vals = vals[:0]
	if doc.prefab != nil {
		b.insts = append(b.insts, instRec{rec: int32(b.recs.n), path: doc.prefab.Str(), pos: doc.prefab.Pos(), index: doc.index})
	}
	b.recs.push(rec)
}

// spawnRec spawns the entity of rec with vals.
func (b *binder) spawnRec(rec *entRec, vals []any) {
	rec.e = b.w.Spawn(vals...)
	if b.w.SameComponents(b.lastE, rec.e) {
		b.alike++
	} else {
		b.alike = 0
	}
	b.lastE = rec.e
}

// expect is told about how many entities follow (sceneReader.expect): when the last ones spawned were alike (a
// grid's cubes), their table is made room for that many at once instead of growing a quarter at a time (at a
// million cubes the growing was half of the load: columns copied into fresh pages again and again).
// The room is never more than the world-memory limit (Limits.MaxWorldBytes) leaves at the memory the entities
// so far took each: a file whose first entities are small and whose rest is one huge value reserves no more than a
// file of alike entities could load. (The room itself is not counted against the limit: with small entities first
// and big ones after, the estimate is too high and the world may take up to about twice the limit's memory.)
// The room is an eighth more than the estimate: a first spawn after the load (a grid a tenth of the scene's size)
// fits in it, and so in the arrays kept by entity index beside the world, which grow to its room
// (ecs.World.IndexCap); unused, it costs address space only.
func (b *binder) expect(n int) {
	if b.alike < expectAfter/2 {
		return
	}
	n += n / 8
	if d := &b.ds; d.maxData > 0 && b.recs.n > 0 {
		per := max(d.data/int64(b.recs.n), 1)
		n = min(n, int(max(d.maxData-d.data, 0)/per))
	}
	b.w.ReserveLike(b.lastE, n)
}

// refuseConflict reports a MergeConflicts component (just decoded into bd)
// as an error.
func (b *binder) refuseConflict(m *jsonpos.Value, bd *binding) {
	mc, ok := bd.scratch.Interface().(*scene.MergeConflicts)
	if !ok || len(mc.Items) == 0 {
		return
	}
	kp := m.KeyPos()
	mark := b.ds.path.Key(m.Key())
	b.probs.Errorf(kp.Line, kp.Col, b.ds.path.String(), "%s", conflictMessage(mc.Items))
	b.ds.path.Truncate(mark)
}

// conflictMessage says which conflicts are unresolved.
func conflictMessage(items []scene.MergeConflict) string {
	paths := make([]string, len(items))
	for i, c := range items {
		paths[i] = c.Path
	}
	word := "conflicts"
	if len(items) == 1 {
		word = "conflict"
	}
	return fmt.Sprintf("unresolved merge %s: %s; open the scene in the editor and choose (Use ours / Use theirs), or edit the file",
		word, strings.Join(paths, ", "))
}

// unknownComponent keeps a component this build does not know, verbatim;
// a name close to a known one, or any unknown name in strict mode, is an
// error instead (ok false).
func (b *binder) unknownComponent(m *jsonpos.Value) (raw scene.RawComponent, ok bool) {
	name := m.Key()
	u := b.unknownSeen[name]
	if u == nil {
		kp := m.KeyPos()
		mark := b.ds.path.Key(name)
		u = &unknownUse{line: kp.Line, col: kp.Col, path: b.ds.path.String(), suggest: diag.Closest(name, b.known)}
		b.ds.path.Truncate(mark)
		b.unknownSeen[name] = u
		if u.suggest == "" && !b.strict || b.ds.lossy {
			b.sawUnknown = append(b.sawUnknown, name)
		}
	}
	u.count++
	if (u.suggest != "" || b.strict) && !b.ds.lossy {
		kp := m.KeyPos()
		mark := b.ds.path.Key(name)
		if u.suggest != "" {
			b.ds.probs.Errorf(kp.Line, kp.Col, b.ds.path.String(), "unknown component %q (did you mean %q?)", name, u.suggest)
		} else {
			b.ds.probs.Errorf(kp.Line, kp.Col, b.ds.path.String(), "unknown component %q: no registered type or project file declares it", name)
		}
		b.ds.path.Truncate(mark)
		return scene.RawComponent{}, false
	}
	if m.Kind() != jsonpos.Object {
		p := m.Pos()
		mark := b.ds.path.Key(name)
		b.ds.probs.Errorf(p.Line, p.Col, b.ds.path.String(), "a component must be an object, not %s", describeValue(m))
		b.ds.path.Truncate(mark)
	}
	b.rawBuf = jsonpos.AppendInline(b.rawBuf[:0], m) // reused: one copy per component, no growth garbage
	return scene.RawComponent{Name: name, JSON: string(b.rawBuf)}, true
}

// finish checks what needs every entity (ids, parents, references, the
// editor section), links the hierarchy and returns the scene; problems go
// to b.probs.
func (b *binder) finish(h *header) *Scene {
	probs := b.probs
	for _, name := range b.sawUnknown {
		u := b.unknownSeen[name]
		probs.Add(Problem{Line: u.line, Col: u.col, Path: u.path, Warning: true,
			Msg: fmt.Sprintf("unknown component %q (%s): kept as it is and written back on save", name, plural(u.count, "entity", "entities"))})
	}
	if len(b.insts) > 0 || len(b.ovrs) > 0 {
		b.instantiate()
		if b.tooMany {
			return nil // the instances were not built: what refers to their entities cannot be checked
		}
	}
	// Ids: sorted order, duplicates.
	recs := &b.recs
	byID := make([]int32, 0, recs.n)
	sorted := true
	for i := range int32(recs.n) {
		if recs.at(i).id <= 0 {
			continue
		}
		if n := len(byID); n > 0 && recs.at(byID[n-1]).id >= recs.at(i).id {
			sorted = false
		}
		byID = append(byID, i)
	}
	if !sorted {
		radix.SortFunc(byID, func(i int32) uint64 { return idSortKey(recs.at(i).id) })
	}
	for k := 1; k < len(byID); k++ {
		a, c := recs.at(byID[k-1]), recs.at(byID[k])
		if a.id == c.id {
			probs.Errorf(int(c.idLine), int(c.idCol), entPath(byID[k], "id"), "duplicate id %d (also at %d:%d)", c.id, a.idLine, a.idCol)
		}
	}
	find := func(id int64) int32 {
		k, ok := slices.BinarySearchFunc(byID, id, func(i int32, id int64) int { return cmp.Compare(recs.at(i).id, id) })
		if !ok {
			return -1
		}
		return byID[k]
	}
	sibling := b.siblingOrderBeside(h, byID)
	// Parents.
	parentOf := make([]int32, recs.n)
	for i := range int32(recs.n) {
		parentOf[i] = -1
		r := recs.at(i)
		if r.parent == 0 {
			continue
		}
		_, removed := b.removedIDs[r.parent]
		switch p := find(r.parent); {
		case removed:
			b.removedParent(i, r)
		case p < 0:
			probs.Errorf(int(r.parLine), int(r.parCo), entPath(i, "parent"), "parent %d does not exist", r.parent)
		case r.parent == r.id:
			probs.Errorf(int(r.parLine), int(r.parCo), entPath(i, "parent"), "entity %d is its own parent", r.id)
		case !b.partCheck(i, p, int(r.parLine), int(r.parCo), entPath(i, "parent"), "parent"):
		default:
			parentOf[i] = p
		}
	}
	b.checkCycles(parentOf)
	// Entity references.
	targets := make([]ecs.Entity, len(b.refs))
	for i, r := range b.refs {
		p := find(r.ref.id)
		_, removed := b.removedIDs[r.ref.id]
		if p < 0 || removed {
			jp := r.ref.jsonPath(r.rec, b.w.ComponentInfo(r.comp).Name)
			if removed {
				probs.Errorf(int(r.ref.line), int(r.ref.col), jp, "entity %d is removed from its prefab instance", r.ref.id)
			} else {
				probs.Errorf(int(r.ref.line), int(r.ref.col), jp, "entity %d does not exist", r.ref.id)
			}
			continue
		}
		if !b.partCheck(r.rec, p, int(r.ref.line), int(r.ref.col), r.ref.jsonPath(r.rec, b.w.ComponentInfo(r.comp).Name), "entity") {
			continue
		}
		targets[i] = recs.at(p).e
	}
	s := &Scene{Name: h.name}
	var selection []int64
	var selPos []jsonpos.Pos
	if h.editor != nil {
		s.Camera, selection, selPos, s.Conflicts = b.editorSection(h.editor)
	}
	if probs.HasErrors() {
		return nil
	}
	w := b.w
	if h.version < 2 {
		b.orderV1(byID, parentOf)
	}
	var links []ecs.ParentLink
	roots := len(b.insts) == 0 && len(b.ovrs) == 0 // every record is an entity, its parent its record's
	if roots {
		n := 0
		for _, p := range parentOf {
			if p < 0 {
				n++
			}
		}
		s.Roots = make([]ecs.Entity, 0, n)
		s.ByID, s.ByIDIDs = b.idOrder(byID)
	}
	for _, i := range sibling() { // children attach in sibling order
		if p := parentOf[i]; p >= 0 {
			links = append(links, ecs.ParentLink{Child: recs.at(i).e, Parent: recs.at(p).e})
		} else if roots {
			s.Roots = append(s.Roots, recs.at(i).e)
		}
	}
	if err := w.SetParents(links); err != nil { // checked above: cannot fail
		probs.Errorf(0, 0, "", "linking the hierarchy: %v", err)
	}
	if b.checkWorld {
		b.checkWorldMatrices()
	}
	for i, r := range b.refs {
		if err := w.SetField(recs.at(r.rec).e, r.comp, r.ref.path, targets[i]); err != nil {
			probs.Errorf(int(r.ref.line), int(r.ref.col), r.ref.jsonPath(r.rec, b.w.ComponentInfo(r.comp).Name), "%v", err)
		}
	}
	for k, id := range selection {
		if p := find(id); p >= 0 {
			s.Selection = append(s.Selection, recs.at(p).e)
		} else {
			probs.Add(Problem{Line: selPos[k].Line, Col: selPos[k].Col, Path: "editor.selection[" + strconv.Itoa(k) + "]",
				Msg: fmt.Sprintf("entity %d does not exist; left out of the selection", id), Warning: true})
		}
	}
	s.World = w
	return s
}

// idOrder returns the entities of the records byID lists and their ids (Scene.ByID).
func (b *binder) idOrder(byID []int32) ([]ecs.Entity, []uint64) {
	es, ids := make([]ecs.Entity, len(byID)), make([]uint64, len(byID))
	for k, i := range byID {
		r := b.recs.at(i)
		es[k], ids[k] = r.e, uint64(r.id)
	}
	return es, ids
}

// orderV1 gives the entities of a version 1 file their order keys: v1
// listed siblings by id, so each gets its place (1, 2, …) among its
// siblings in id order.
func (b *binder) orderV1(byID []int32, parentOf []int32) {
	next := make(map[int32]float64)
	sids := ecs.NewMap[scene.SceneID](b.w)
	for _, i := range byID {
		r := b.recs.at(i)
		k := next[parentOf[i]] + 1
		next[parentOf[i]] = k
		r.order = k
		sids.Mut(r.e).Order = k
	}
}

// siblingOrder returns the records of byID sorted by (order, id): the order
// in which attaching children makes every parent's list its sibling order.
func (b *binder) siblingOrder(byID []int32) []int32 {
	recs := &b.recs
	for k := 1; k < len(byID); k++ {
		if recs.at(byID[k-1]).order > recs.at(byID[k]).order {
			sorted := slices.Clone(byID)
			radix.SortFunc(sorted, func(i int32) uint64 { return scene.OrderBits(recs.at(i).order) })
			return sorted
		}
	}
	return byID
}

// siblingOrderBeside starts siblingOrder of byID on a goroutine, beside the checks of finish, which only read the
// records, and returns what waits for it; in turn where the records may change first (a version 1 file's orders
// come from orderV1, prefab instances' records from their instantiation).
func (b *binder) siblingOrderBeside(h *header, byID []int32) func() []int32 {
	if h.version < 2 || len(b.insts) > 0 || len(b.ovrs) > 0 {
		return func() []int32 { return b.siblingOrder(byID) }
	}
	done := make(chan []int32, 1)
	go func() { done <- b.siblingOrder(byID) }()
	return func() []int32 { return <-done }
}

// idSortKey maps ids to unsigned keys in the same order (order keys: scene.OrderBits).
func idSortKey(id int64) uint64 { return uint64(id) ^ 1<<63 }

// checkWorldMatrices warns, at their "id", about entities whose world matrix
// is not finite (their Transform, or a parent's, overflows): they cannot be
// drawn, and exporting the scene fails on them.
func (b *binder) checkWorldMatrices() {
	w := b.w
	w.PropagateTransforms()
	gt := ecs.NewMap[ecs.GlobalTransform](w)
	for i := range int32(b.recs.n) {
		r := b.recs.at(i)
		if g, ok := gt.TryGet(r.e); ok && !allFinite(g.Matrix[:]) {
			b.probs.Warnf(int(r.idLine), int(r.idCol), entPath(i, "id"), "entity %d: its world matrix is not finite "+
				"(its Transform, or a parent's, overflows a 32-bit float): it cannot be drawn, and exporting the scene fails", r.id)
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// entPath returns "entities[i].key" (entity i of the file is b.recs.at(i)).
func entPath(i int32, key string) string {
	return "entities[" + strconv.Itoa(int(i)) + "]." + key
}

// checkCycles reports every parent cycle once.
func (b *binder) checkCycles(parentOf []int32) {
	eachParentPath(parentOf, func(path []int32, j int32) bool {
		if j < 0 {
			return true
		}
		k := slices.Index(path, j) // a new cycle starting at j
		cycle := path[k:]
		id := func(m int32) string { return strconv.FormatInt(b.recs.at(m).id, 10) }
		// A long cycle is shown by its ends: a 100,000-entity cycle is one short line.
		var ids []string
		if len(cycle) <= 12 {
			for _, m := range cycle {
				ids = append(ids, id(m))
			}
		} else {
			for _, m := range cycle[:6] {
				ids = append(ids, id(m))
			}
			ids = append(ids, "… "+words.Thousands(int64(len(cycle)-9))+" more …")
			for _, m := range cycle[len(cycle)-3:] {
				ids = append(ids, id(m))
			}
		}
		ids = append(ids, id(j))
		last := path[len(path)-1]
		r := b.recs.at(last)
		what := "parent cycle"
		if len(cycle) > 12 {
			what += " of " + words.Thousands(int64(len(cycle))) + " entities"
		}
		b.probs.Errorf(int(r.parLine), int(r.parCo), entPath(last, "parent"), "%s: %s (each is the parent of the one before)",
			what, strings.Join(ids, " → "))
		return true
	})
}

// eachParentPath walks from every entity up its parents (parentOf; -1: none) until an entity walked
// before or a root, and calls fn with the entities walked for the first time (from the first up) and,
// if the last one's parent leads back into them, the entity where that cycle starts (else -1). fn
// returning false stops the walk.
func eachParentPath(parentOf []int32, fn func(path []int32, cycleAt int32) bool) {
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, len(parentOf))
	var path []int32
	for i := range parentOf {
		if state[i] != unseen {
			continue
		}
		path = path[:0]
		j := int32(i)
		for j >= 0 && state[j] == unseen {
			state[j] = onPath
			path = append(path, j)
			j = parentOf[j]
		}
		if j < 0 || state[j] != onPath {
			j = -1
		}
		if !fn(path, j) {
			return
		}
		for _, m := range path {
			state[m] = done
		}
	}
}

// editorSection reads the "editor" object.
func (b *binder) editorSection(v *jsonpos.Value) (cam *scene.EditorCamera, sel []int64, selPos []jsonpos.Pos, conflicts []scene.MergeConflict) {
	path := b.ds.path
	mark := path.Key("editor")
	defer path.Truncate(mark)
	probs := b.probs
	members(probs, path, v, func(m *jsonpos.Value) {
		switch m.Key() {
		case "camera":
			cam = b.editorCamera(m)
		case "selection":
			if m.Kind() != jsonpos.Array {
				errAtValue(probs, path, m, "expected an array of entity ids, got %s", describeValue(m))
				return
			}
			for k := range m.Len() {
				x := m.Index(k)
				n, err := x.Int()
				if x.Kind() != jsonpos.Number || err != nil || n <= 0 {
					im := path.Index(k)
					errAtValue(probs, path, x, "expected a positive integer id, got %s", describeValue(x))
					path.Truncate(im)
					continue
				}
				sel = append(sel, n)
				selPos = append(selPos, x.Pos())
			}
		case "conflicts":
			conflicts = readConflicts(probs, path, m)
			if b.refuseConflicts && len(conflicts) > 0 {
				errAtValue(probs, path, m, "%s", conflictMessage(conflicts))
			}
		default:
			kp := m.KeyPos()
			probs.Errorf(kp.Line, kp.Col, path.String(), "unknown key (the editor section has camera, selection and conflicts)")
		}
	})
	return cam, sel, selPos, conflicts
}

// readConflicts reads an array of merge conflict records: objects with the
// strings path, base, ours and theirs.
func readConflicts(probs *diag.List, path *diag.Path, v *jsonpos.Value) []scene.MergeConflict {
	if v.Kind() != jsonpos.Array {
		errAtValue(probs, path, v, "expected an array of conflicts, got %s", describeValue(v))
		return nil
	}
	var out []scene.MergeConflict
	for k := range v.Len() {
		im := path.Index(k)
		x := v.Index(k)
		if x.Kind() != jsonpos.Object {
			errAtValue(probs, path, x, "expected a conflict object (path, base, ours, theirs), got %s", describeValue(x))
			path.Truncate(im)
			continue
		}
		var c scene.MergeConflict
		members(probs, path, x, func(m *jsonpos.Value) {
			var dst *string
			switch m.Key() {
			case "path":
				dst = &c.Path
			case "base":
				dst = &c.Base
			case "ours":
				dst = &c.Ours
			case "theirs":
				dst = &c.Theirs
			default:
				kp := m.KeyPos()
				probs.Errorf(kp.Line, kp.Col, path.String(), "unknown key (a conflict has path, base, ours and theirs)")
				return
			}
			if m.Kind() != jsonpos.String {
				errAtValue(probs, path, m, "expected a string, got %s", describeValue(m))
				return
			}
			*dst = m.Str()
		})
		out = append(out, c)
		path.Truncate(im)
	}
	return out
}

func (b *binder) editorCamera(v *jsonpos.Value) *scene.EditorCamera {
	path, probs := b.ds.path, b.probs
	if v.Kind() != jsonpos.Object {
		errAtValue(probs, path, v, "expected an object, got %s", describeValue(v))
		return nil
	}
	cam := &scene.EditorCamera{Distance: 40}
	num := func(x *jsonpos.Value, dst *float32) {
		f, err := x.Float(32)
		if x.Kind() != jsonpos.Number || err != nil {
			errAtValue(probs, path, x, "expected a number, got %s", describeValue(x))
			return
		}
		*dst = float32(f)
	}
	members(probs, path, v, func(m *jsonpos.Value) {
		switch m.Key() {
		case "pivot":
			if m.Kind() != jsonpos.Array || m.Len() != 3 {
				errAtValue(probs, path, m, "expected an array of 3 numbers, got %s", describeValue(m))
				return
			}
			for k := range 3 {
				im := path.Index(k)
				num(m.Index(k), &cam.Pivot[k])
				path.Truncate(im)
			}
		case "yaw":
			num(m, &cam.Yaw)
		case "pitch":
			num(m, &cam.Pitch)
		case "distance":
			num(m, &cam.Distance)
		default:
			kp := m.KeyPos()
			probs.Errorf(kp.Line, kp.Col, path.String(), "unknown key (the camera has pivot, yaw, pitch and distance)")
		}
	})
	return cam
}

func errAtValue(probs *diag.List, path *diag.Path, v *jsonpos.Value, format string, args ...any) {
	p := v.Pos()
	probs.Errorf(p.Line, p.Col, path.String(), format, args...)
}

// finite64 reports whether f is a finite number.
func finite64(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// finite32 reports whether f is a finite float32.
func finite32(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }
