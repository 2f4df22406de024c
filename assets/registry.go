package assets

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Registry resolves mesh references to meshes for one scene folder and keeps them loaded.
//
// Loading is lazy: the first [Registry.Mesh] for a file reference reads and parses the file on
// the calling goroutine; later calls are a map lookup. A reference that is refused or fails to
// load yields a copy of the [Placeholder] mesh and the reason, every time, without touching the
// disk again until [Registry.Reload].
//
// All methods are safe for concurrent use (one mutex, held while loading). The intended use is
// from the GUI loop only: file watchers report changes, and the loop calls Reload.
type Registry struct {
	mu      sync.Mutex
	root    string
	lim     Limits
	entries map[string]*entry     // normalized reference → entry
	alias   map[string]*entry     // reference as written → entry (no normalization per lookup)
	known   map[string]struct{}   // file references found by Scan, not necessarily loaded
	version uint64                // last Version handed out
	images  map[string]imageEntry // image reference as written → decoded image (Image)
}

type entry struct {
	ref  string // normalized, or as written when refused
	path string // file path for file references ("" for built-ins and refused references)
	mesh *Mesh
	err  error // why mesh is the placeholder; nil when mesh is real
}

// NewRegistry returns a registry for the scene folder root (made absolute). An empty root
// means the scene has not been saved yet: file references then fail with a clear error.
// lim bounds the mesh files it loads (zero fields mean the defaults).
func NewRegistry(root string, lim Limits) *Registry {
	r := &Registry{lim: lim.WithDefaults(), version: builtinVersion}
	r.reset(root)
	return r
}

func (r *Registry) reset(root string) {
	if root != "" {
		if abs, err := filepath.Abs(root); err == nil {
			root = abs
		}
	}
	r.root = root
	r.entries = make(map[string]*entry)
	r.alias = make(map[string]*entry)
	r.known = make(map[string]struct{})
	r.images = make(map[string]imageEntry)
}

// Root returns the absolute scene folder ("" when none).
func (r *Registry) Root() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.root
}

// SetRoot switches to another scene folder and forgets every loaded or scanned file mesh.
// Versions keep increasing, so a renderer never confuses an old mesh with a new one.
func (r *Registry) SetRoot(root string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reset(root)
}

// Mesh returns the mesh for ref, loading it on first use. When ref is refused (unsafe path,
// unknown built-in, empty) or its file cannot be read or parsed, it returns a placeholder mesh
// (Placeholder true) together with the reason; the error says which reference and why, ready
// for the console. The mesh is never nil.
func (r *Registry) Mesh(ref string) (*Mesh, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.lookup(ref)
	return e.mesh, e.err
}

// lookup finds or creates (and loads) the entry for ref. r.mu must be held.
func (r *Registry) lookup(ref string) *entry {
	if e, ok := r.alias[ref]; ok {
		return e
	}
	norm, err := NormalizeRef(ref)
	if err != nil {
		e := &entry{ref: ref}
		r.fail(e, err)
		r.alias[ref] = e
		return e
	}
	if e, ok := r.entries[norm]; ok {
		r.alias[ref] = e
		return e
	}
	e := &entry{ref: norm}
	if IsBuiltinRef(norm) {
		if m, ok := Builtin(norm); ok {
			e.mesh = m
		} else {
			r.fail(e, fmt.Errorf("%w %q (known: %s)", ErrUnknownBuiltin, norm, strings.Join(BuiltinRefs(), ", ")))
		}
	} else {
		if r.root != "" {
			file, _, _ := SplitRef(norm)
			e.path = filepath.Join(r.root, filepath.FromSlash(file))
		}
		if m, err := r.load(norm); err != nil {
			r.fail(e, err)
		} else {
			e.mesh = m
		}
	}
	r.entries[norm] = e
	r.alias[ref] = e
	return e
}

// fail gives e a fresh placeholder and the reason. r.mu must be held.
func (r *Registry) fail(e *entry, err error) {
	e.mesh = Placeholder().withVersion(e.ref, r.nextVersion())
	e.err = refError(e.ref, err)
}

func (r *Registry) nextVersion() uint64 {
	r.version++
	return r.version
}

// load checks the path of the file reference norm and parses the file. r.mu must be held.
func (r *Registry) load(norm string) (*Mesh, error) {
	file, part, isPart := SplitRef(norm)
	ext := path.Ext(file)
	loadFile, ok := meshLoader(ext)
	if !ok {
		return nil, fmt.Errorf("unsupported mesh file type %q: only %s files can be loaded", ext, strings.Join(MeshExtensions(), ", "))
	}
	p, err := ResolvePath(r.root, norm)
	if err != nil {
		return nil, err
	}
	if isPart {
		loadPart, ok := partLoader(ext)
		if !ok {
			return nil, fmt.Errorf("%s files have no parts to name after \"#\"", ext)
		}
		loadFile = func(p string, lim Limits) (*Mesh, error) { return loadPart(p, part, lim) }
	}
	m, err := loadFile(p, r.lim)
	if err != nil {
		return nil, err
	}
	m.Ref = norm
	m.Version = r.nextVersion()
	return m, nil
}

// Reload re-reads the file behind ref (after a watcher reported a change) and returns the
// new mesh, whose Version is larger than any before. If the file is now missing, refused or
// broken, the previous mesh stays in place and is returned with the error, so the viewport
// keeps showing the last good geometry. Built-in and refused references have nothing to
// reload and return what [Registry.Mesh] returns. Reloading a reference not loaded yet loads it.
// Every other reference loaded from the same file (the parts of one glTF model, and the model as
// one mesh) is reloaded too.
func (r *Registry) Reload(ref string) (*Mesh, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, seen := r.alias[ref]
	if !seen {
		if norm, err := NormalizeRef(ref); err == nil {
			e, seen = r.entries[norm]
		}
	}
	if !seen { // first use: a plain load
		e = r.lookup(ref)
		return e.mesh, e.err
	}
	r.alias[ref] = e
	clear(r.images) // decoded again on next use: the file may be a model holding images
	if e.path == "" {
		return e.mesh, e.err
	}
	for _, o := range r.entries { // the other references to the same file: parts of one model
		if o != e && o.path == e.path {
			_, _ = r.reload(o) // each reports its own error when drawn (Err)
		}
	}
	return r.reload(e)
}

// reload re-reads the file of e. r.mu must be held.
func (r *Registry) reload(e *entry) (*Mesh, error) {
	m, err := r.load(e.ref)
	if err != nil {
		err = refError(e.ref, err)
		if e.mesh.Placeholder {
			e.err = err // still nothing good to show: the newest reason is the one to report
		}
		return e.mesh, err
	}
	e.mesh, e.err = m, nil
	return m, nil
}

// Err returns the reason ref currently shows the placeholder, or nil (also for references
// never asked for).
func (r *Registry) Err(ref string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.alias[ref]; ok {
		return e.err
	}
	return nil
}

// List returns the references to offer in an asset picker: the built-ins, then every file
// reference in use or found by [Registry.Scan], sorted. References refused for their spelling
// ("..", absolute paths, empty) are not listed.
func (r *Registry) List() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	files := maps.Clone(r.known)
	for norm, e := range r.entries {
		if e.path != "" {
			files[norm] = struct{}{}
		}
	}
	return append(BuiltinRefs(), slices.Sorted(maps.Keys(files))...)
}

// Files returns the paths of the files behind the file references in use (loaded or failed
// to load, but not refused as unsafe), sorted: the set of files to watch.
func (r *Registry) Files() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.entries {
		if e.path != "" && !errors.Is(e.err, ErrUnsafePath) {
			out = append(out, e.path)
		}
	}
	slices.Sort(out)
	return out
}

// RefForPath returns the normalized reference whose file is path (as returned by
// [Registry.Files] or reported by a watcher), and whether there is one.
func (r *Registry) RefForPath(path string) (string, bool) {
	path = filepath.Clean(path)
	r.mu.Lock()
	defer r.mu.Unlock()
	for norm, e := range r.entries {
		if e.path == path {
			return norm, true
		}
	}
	return "", false
}

// Scan limits: how deep and how many files Scan looks at.
const (
	scanMaxDepth = 8
	scanMaxFiles = 1000
)

// Scan walks the scene folder for mesh files (.obj and the formats added with
// [RegisterMeshFormat]; extensions case-insensitive; at most 8 folders deep and
// 1000 files; hidden folders and symlinked folders skipped) and adds them to [Registry.List]
// without loading them.
func (r *Registry) Scan() error {
	root := r.Root()
	if root == "" {
		return nil
	}
	var found []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // unreadable sub-folder: skip it
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || strings.Count(rel, string(filepath.Separator)) >= scanMaxDepth) {
				return filepath.SkipDir
			}
			return nil
		}
		if _, mesh := meshLoader(filepath.Ext(p)); mesh && d.Type().IsRegular() {
			found = append(found, filepath.ToSlash(rel))
			if len(found) >= scanMaxFiles {
				return filepath.SkipAll
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("assets: scanning %s: %w", root, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.root == root {
		for _, ref := range found {
			r.known[ref] = struct{}{}
		}
	}
	return nil
}
