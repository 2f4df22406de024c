package serialize

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/assetref"
)

// checkPrefabPath checks a "prefab" path: a relative path that stays in the scene's folder (the
// rule of asset paths), not a built-in mesh. It returns the path cleaned (forward slashes).
func checkPrefabPath(ref string) (string, error) {
	if ref == "" {
		return "", errors.New("empty prefab path: a prefab is named by its path relative to this scene's folder")
	}
	if assetref.IsBuiltin(ref) {
		return "", fmt.Errorf("%q is a built-in mesh; a prefab is a scene file, named by its path relative to this scene's folder", ref)
	}
	c, err := assetref.Check(ref)
	if err != nil {
		return "", fmt.Errorf("prefab %w", err)
	}
	return c, nil
}

// tplEntryOverhead is what a template entity takes besides its tplEnt: its entries in the
// template's two maps.
const tplEntryOverhead = 96

// cannotBeUsed ends the message of an instance whose prefab cannot be used, before the reason.
const cannotBeUsed = " cannot be used: "

// PrefabOptions configure a [Prefabs] set.
type PrefabOptions struct {
	// NewWorld makes the worlds prefabs are loaded into; it must make the same component types as
	// the worlds of the scenes that instance them. Default: scene.NewWorld.
	NewWorld func() *ecs.World
	// Limits are the loader limits for each prefab file.
	Limits Limits
	// Strict is LoadOptions.Strict for prefab files.
	Strict bool
	// CheckAsset, if set, is asked about each asset reference of a prefab file and each prefab
	// path, with the folder the reference is relative to (assets.CheckRef fits): see
	// LoadOptions.CheckAsset. A prefab path it reports missing (ErrAssetMissing) is a missing
	// prefab; other errors (a symlink out of the folder) are errors.
	CheckAsset func(dir, ref string) error
}

// Prefabs finds, loads and keeps the prefabs that scenes instance: each prefab file is read once
// and becomes a [Template], which every instance of it is built from (entities with a "prefab"
// key in a scene file). Pass one set to every load of a document (LoadOptions.Prefabs) and keep it
// with the scene (Scene.Prefabs: saving compares each instance with its prefab to write only the
// differences). [Prefabs.Reload] reads changed files again for live updates ([UpdateInstances]).
//
// A Prefabs is safe for concurrent use; templates never change once made.
type Prefabs struct {
	opts  PrefabOptions
	mu    sync.Mutex
	byAbs map[string]*Template
	// shapes holds the shapes of the prefab files read for counting nests (by absolute path).
	shapes map[string]*prefabShape
}

// NewPrefabs returns an empty set.
func NewPrefabs(opts PrefabOptions) *Prefabs {
	return &Prefabs{opts: opts, byAbs: map[string]*Template{}}
}

// Template is a prefab as its instances are built from it: the prefab file loaded (with its own
// instances of other prefabs flattened into it), its entities in hierarchy order with their
// component values and their canonical JSON. A template that could not be made (no such file, a
// broken file, a cycle of prefabs) has an error ([Template.Err]); its instances are placeholders.
type Template struct {
	file string // the path as the loads name it (the scene's folder joined with the prefab path)
	abs  string
	deps []string // absolute paths of the prefab files it read (itself first)
	err  error
	// problem is the first error in one line, "file:line:col: message", for placeholders.
	problem  string
	warnings []Problem
	ents     []tplEnt
	byID     map[uint64]int32
	codecs   map[string]*codec // by component name, for the components it holds
	world    *ecs.World        // the loaded prefab (values refer to its entities)
	index    map[ecs.Entity]int32
	bytes    int64 // world memory an instance takes (Limits.MaxWorldBytes), estimated as loads do
	// own is the memory the template itself holds (its world and entries), counted once by each
	// load that instances it; overMemory marks a prefab that did not fit in what was left of the
	// memory limit of the load that read it (such a template is not kept).
	own        int64
	overMemory bool
	enc        encodeState // writes references as template ids
	mu         sync.Mutex
	views      map[string][]tplEnt // by asset prefix (ents with asset references rebased)
}

// tplEnt is one entity of a template.
type tplEnt struct {
	id      uint64
	parent  int32 // index in the template; -1 for the prefab's roots
	order   float64
	name    string
	hasName bool
	comps   []tplComp // sorted by name
	unknown []scene.RawComponent
	// prefab is the path of the nested instance this entity is the root of ("" for others),
	// relative to the folder of the template.
	prefab string
	// nestRoot and nestSrc say where an entity of a nested instance comes from: the id (in the
	// template) of the nested instance's root and its id in that prefab. Zero for the prefab's own
	// entities.
	nestRoot, nestSrc uint64
}

// tplComp is one component value of a template entity.
type tplComp struct {
	name  string
	codec *codec
	val   any    // the value (the component's type, not a pointer)
	json  string // canonical inline JSON; entity references as template ids
	refs  bool   // the value's type can hold entity references
	deep  bool   // the value shares memory (slices, maps): each instance gets a copy
}

// File returns the prefab's path as loads name it.
func (t *Template) File() string { return t.file }

// Err returns why the prefab cannot be instanced (nil if it can): an *[Error] listing the
// problems of its file (or of the files it instances), or a missing file.
func (t *Template) Err() error { return t.err }

// Problem returns Err as one line ("" without error): the first problem, with its position.
func (t *Template) Problem() string { return t.problem }

// Files returns the absolute paths of the files the template was made from: the prefab file and
// every prefab it instances (directly or through others).
func (t *Template) Files() []string { return slices.Clone(t.deps) }

// Len returns the number of entities an instance of the template has.
func (t *Template) Len() int { return len(t.ents) }

// Template returns the template of the prefab at path (relative to dir, the folder of the scene
// that instances it, as the "prefab" key says), loading it if needed. It never returns nil: a
// prefab that cannot be used comes back with an error (see [Template.Err]).
func (p *Prefabs) Template(ctx context.Context, dir, path string) *Template {
	return p.template(ctx, dir, path, nil, 0)
}

// loaded returns the template of the prefab file at abs (an absolute path) if the set holds it.
func (p *Prefabs) loaded(abs string) *Template {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.byAbs[abs]
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// template loads the prefab at rel (relative to dir); chain lists the absolute paths of the files
// being loaded that lead here (for cycles). A prefab not loaded yet is read with at most room bytes
// of world memory (0: the set's limit); one that does not fit comes back marked overMemory, and is
// not kept.
func (p *Prefabs) template(ctx context.Context, dir, rel string, chain []string, room int64) *Template {
	file := filepath.Join(dir, filepath.FromSlash(rel))
	abs := absPath(file)
	if i := slices.Index(chain, abs); i >= 0 {
		names := make([]string, 0, len(chain)-i+1)
		for _, c := range chain[i:] {
			names = append(names, filepath.Base(c))
		}
		names = append(names, filepath.Base(abs))
		err := fmt.Errorf("prefab cycle: %s (each contains the next)", strings.Join(names, " → "))
		return &Template{file: file, abs: abs, deps: []string{abs}, err: err, problem: err.Error()}
	}
	p.mu.Lock()
	t := p.byAbs[abs]
	p.mu.Unlock()
	if t != nil {
		return t
	}
	t = p.load(ctx, dir, rel, file, abs, chain, room)
	if ctx.Err() != nil && errors.Is(t.err, ctx.Err()) || t.overMemory {
		return t // not kept: a cancelled load, or one short of memory, says nothing about the file
	}
	p.mu.Lock()
	if old := p.byAbs[abs]; old != nil {
		t = old // loaded meanwhile by another goroutine
	} else {
		p.byAbs[abs] = t
	}
	p.mu.Unlock()
	return t
}

// load reads one prefab file into a template.
func (p *Prefabs) load(ctx context.Context, dir, rel, file, abs string, chain []string, room int64) *Template {
	t := &Template{file: file, abs: abs, deps: []string{abs}}
	fail := func(err error) *Template {
		t.err = err
		t.problem = err.Error()
		var le *Error
		if errors.As(err, &le) {
			for _, pr := range le.Problems {
				if !pr.Warning {
					t.problem = pr.String()
					break
				}
			}
			// A prefab that fails because a prefab it instances does: say what is wrong there.
			if i := strings.LastIndex(t.problem, cannotBeUsed); i >= 0 {
				t.problem = t.problem[i+len(cannotBeUsed):]
			}
		}
		return t
	}
	if load, ok := modelLoader(rel); ok {
		return p.loadModel(ctx, t, dir, rel, file, load, room, fail)
	}
	in, err := p.openPrefab(dir, rel, file)
	if err != nil {
		return fail(err)
	}
	defer in.Close()
	pdir := filepath.Dir(file)
	var over bool
	var counted []string
	opts := LoadOptions{File: file, NewWorld: p.opts.NewWorld, Limits: p.opts.Limits, Strict: p.opts.Strict, RefuseConflicts: true,
		Prefabs: p, Dir: pdir, chain: append(slices.Clip(chain), abs), overMemory: &over, counted: &counted}
	if lim := opts.Limits.resolved().MaxWorldBytes; room > 0 && (lim <= 0 || room < lim) {
		opts.Limits.MaxWorldBytes = room
	}
	if ca := p.opts.CheckAsset; ca != nil {
		opts.CheckAsset = func(ref string) error { return ca(pdir, ref) }
	}
	s, err := Load(ctx, in, opts)
	if err != nil {
		t.overMemory = over && opts.Limits.MaxWorldBytes != p.opts.Limits.MaxWorldBytes
		for _, d := range counted { // a refused nest follows every file of it (Files, Reload)
			if !slices.Contains(t.deps, d) {
				t.deps = append(t.deps, d)
			}
		}
		return fail(err)
	}
	t.warnings = s.Warnings
	t.own = s.data
	for _, u := range s.used {
		for _, d := range u.deps {
			if !slices.Contains(t.deps, d) {
				t.deps = append(t.deps, d)
			}
		}
	}
	if err := t.build(s.World); err != nil {
		return fail(fmt.Errorf("%s: %w", file, err))
	}
	return t
}

// openPrefab opens the prefab file at rel (relative to dir; file is the two joined) after the
// checks every read of a prefab file makes.
func (p *Prefabs) openPrefab(dir, rel, file string) (*Input, error) {
	if p.opts.CheckAsset != nil {
		if err := p.opts.CheckAsset(dir, rel); err != nil {
			if errors.Is(err, assetref.ErrMissing) {
				return nil, fmt.Errorf("%s: no such prefab file", file)
			}
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	// Without CheckAsset too, a named pipe or a device is refused before it is opened (opening a
	// pipe that nothing writes blocks).
	if st, err := os.Stat(file); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", file, st.Mode().Type())
	}
	in, err := OpenInput(file)
	if err != nil {
		var pe *Error
		if !errors.As(err, &pe) && errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such prefab file", file)
		}
		return nil, err
	}
	return in, nil
}

// build fills the template from the loaded prefab world.
func (t *Template) build(w *ecs.World) error {
	sw := newSceneWriter(w)
	order := exportOrder(w, scene.EnsureIDs(w))
	index := make(map[ecs.Entity]int32, len(order))
	sids := ecs.NewMap[scene.SceneID](w)
	sw.enc.refID = func(e ecs.Entity) int64 {
		if e.IsZero() || !w.Alive(e) {
			return 0
		}
		return int64(sids.Get(e).ID)
	}
	t.world, t.enc = w, sw.enc
	names := ecs.NewMap[scene.Name](w)
	prefabs := ecs.NewMap[scene.Prefab](w)
	parts := ecs.NewMap[scene.PrefabPart](w)
	kept := ecs.NewMap[scene.PrefabKept](w)
	t.byID = make(map[uint64]int32, len(order))
	t.codecs = map[string]*codec{}
	t.ents = make([]tplEnt, 0, len(order))
	var buf []byte
	for _, e := range order {
		if k, ok := kept.TryGet(e); ok && k.Orphan {
			continue // a placeholder for what the prefab's file says about a missing entity: not content
		}
		pe, ok := index[w.Parent(e)]
		if !ok {
			pe = -1
			if !w.Parent(e).IsZero() {
				continue // under a placeholder
			}
		}
		sid := sids.Get(e)
		te := tplEnt{id: sid.ID, parent: pe, order: sid.Order}
		if n, ok := names.TryGet(e); ok {
			te.name, te.hasName = n.Value, true
		}
		if pf, ok := prefabs.TryGet(e); ok {
			te.prefab = pf.Path
		}
		if pp, ok := parts.TryGet(e); ok {
			te.nestRoot, te.nestSrc = pp.Instance, pp.Source
		}
		if u, ok := sw.unknown.TryGet(e); ok {
			te.unknown = slices.Clone(u.Components)
		}
		for i := range sw.comps {
			c := &sw.comps[i]
			if !w.Has(e, c.id) {
				continue
			}
			if c.codec == nil {
				_, err := newCodec(w.ComponentInfo(c.id))
				return err
			}
			v, _ := w.Get(e, c.id)
			var err error
			buf, err = c.codec.encode(&sw.enc, buf[:0], c.get(e))
			if err != nil {
				return sw.valueError(e, c.name, err)
			}
			info := w.ComponentInfo(c.id)
			te.comps = append(te.comps, tplComp{name: c.name, codec: c.codec, val: v, json: string(buf),
				refs: c.codec.hasRefs(), deep: info.SharesMemory})
			t.bytes += int64(info.Type.Size()) + componentOverhead
			t.own += int64(unsafe.Sizeof(tplComp{})) + int64(info.Type.Size()) + int64(len(buf))
			t.codecs[c.name] = c.codec
		}
		t.bytes += entityOverhead
		t.own += int64(unsafe.Sizeof(tplEnt{})) + tplEntryOverhead + int64(len(te.unknown))*int64(unsafe.Sizeof(scene.RawComponent{}))
		index[e] = int32(len(t.ents))
		t.byID[te.id] = int32(len(t.ents))
		t.ents = append(t.ents, te)
	}
	t.index = index
	return nil
}

// view returns the template's entities with asset references (and nested prefab paths) made
// relative to a scene folder that holds the prefab at prefix ("" for the same folder, "props" for
// a prefab at props/tree.json).
func (t *Template) view(prefix string) []tplEnt {
	if prefix == "" || prefix == "." {
		return t.ents
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if v, ok := t.views[prefix]; ok {
		return v
	}
	out := make([]tplEnt, len(t.ents))
	for i, te := range t.ents {
		out[i] = te
		if te.prefab != "" {
			out[i].prefab = path.Join(prefix, te.prefab)
		}
		cloned := false
		for j, c := range te.comps {
			if !c.codec.hasAssets() {
				continue
			}
			if !cloned {
				out[i].comps, cloned = slices.Clone(te.comps), true
			}
			pv := reflect.New(reflect.TypeOf(c.val))
			pv.Elem().Set(ecs.DeepCopy(reflect.ValueOf(c.val)))
			c.codec.rebaseAssets(pv.UnsafePointer(), prefix)
			nc := c
			nc.val = pv.Elem().Interface()
			if b, err := c.codec.encode(&t.enc, nil, pv.UnsafePointer()); err == nil {
				nc.json = string(b)
			}
			out[i].comps[j] = nc
		}
	}
	if t.views == nil {
		t.views = map[string][]tplEnt{}
	}
	t.views[prefix] = out
	return out
}

// hasAssets reports whether values of c can hold asset references.
func (c *codec) hasAssets() bool {
	switch c.kind {
	case kString:
		return c.asset
	case kArray, kSlice:
		return c.elem.hasAssets()
	case kStruct:
		for i := range c.fields {
			if c.fields[i].hasAssets() {
				return true
			}
		}
	}
	return false
}

// rebaseAssets prefixes the file asset references in the value at p with prefix.
func (c *codec) rebaseAssets(p unsafe.Pointer, prefix string) {
	switch c.kind {
	case kString:
		if s := *(*string)(p); c.asset && s != "" && !assetref.IsBuiltin(s) {
			*(*string)(p) = path.Join(prefix, s)
		}
	case kArray, kSlice:
		n, base := c.items(p)
		for i := range n {
			c.elem.rebaseAssets(unsafe.Add(base, uintptr(i)*c.elem.size), prefix)
		}
	case kStruct:
		for i := range c.fields {
			f := &c.fields[i]
			f.rebaseAssets(unsafe.Add(p, f.offset), prefix)
		}
	}
}

// unbaseAssets is the inverse of rebaseAssets, for values going back into the prefab (Apply):
// it reports false if a file reference is not inside prefix (the prefab could not name it).
func (c *codec) unbaseAssets(p unsafe.Pointer, prefix string) bool {
	ok := true
	switch c.kind {
	case kString:
		if s := *(*string)(p); c.asset && s != "" && !assetref.IsBuiltin(s) {
			if r, in := strings.CutPrefix(s, prefix+"/"); in {
				*(*string)(p) = r
			} else {
				ok = false
			}
		}
	case kArray, kSlice:
		n, base := c.items(p)
		for i := range n {
			ok = c.elem.unbaseAssets(unsafe.Add(base, uintptr(i)*c.elem.size), prefix) && ok
		}
	case kStruct:
		for i := range c.fields {
			f := &c.fields[i]
			ok = f.unbaseAssets(unsafe.Add(p, f.offset), prefix) && ok
		}
	}
	return ok
}

// Files returns the absolute paths of every prefab file the set has read or tried to read (for a
// watcher: missing ones too, so that their appearance is noticed).
func (p *Prefabs) Files() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, t := range p.byAbs {
		for _, d := range t.deps {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TemplateChange is a prefab whose template [Prefabs.Reload] replaced: instances built from Old
// are brought up to New by [UpdateInstances].
type TemplateChange struct {
	Old, New *Template
}

// Reload forgets the templates made from any of the given files (absolute or relative to the
// working folder) — the files themselves and the prefabs that instance them — and loads them
// again. It returns, by absolute path, each template that was replaced with its new version.
func (p *Prefabs) Reload(ctx context.Context, files ...string) map[string]TemplateChange {
	changed := map[string]bool{}
	for _, f := range files {
		changed[absPath(f)] = true
	}
	p.mu.Lock()
	for f := range changed {
		delete(p.shapes, f)
	}
	old := map[string]*Template{}
	for abs, t := range p.byAbs {
		for _, d := range t.deps {
			if changed[d] {
				old[abs] = t
				delete(p.byAbs, abs)
				break
			}
		}
	}
	p.mu.Unlock()
	out := make(map[string]TemplateChange, len(old))
	for abs, t := range old {
		dir, base := filepath.Split(t.file)
		if dir == "" {
			dir = "."
		}
		nt := p.template(ctx, dir, base, nil, 0)
		out[abs] = TemplateChange{Old: t, New: nt}
	}
	return out
}

// Snapshot returns a set that holds the templates p holds now and loads further ones itself: a
// background save of a world cloned now compares it with the prefabs as they were, whatever
// reloads happen meanwhile.
func (p *Prefabs) Snapshot() *Prefabs {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := NewPrefabs(p.opts)
	for k, v := range p.byAbs {
		q.byAbs[k] = v
	}
	q.shapes = maps.Clone(p.shapes)
	return q
}

// remapRefs replaces the entity references in the value at p by fn's.
func (c *codec) remapRefs(p unsafe.Pointer, fn func(ecs.Entity) ecs.Entity) {
	switch c.kind {
	case kEntity:
		if e := *(*ecs.Entity)(p); !e.IsZero() {
			*(*ecs.Entity)(p) = fn(e)
		}
	case kArray, kSlice:
		n, base := c.items(p)
		for i := range n {
			c.elem.remapRefs(unsafe.Add(base, uintptr(i)*c.elem.size), fn)
		}
	case kStruct:
		for i := range c.fields {
			f := &c.fields[i]
			if f.hasRefs() {
				f.remapRefs(unsafe.Add(p, f.offset), fn)
			}
		}
	}
}
