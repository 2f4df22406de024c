package doc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/viewport"
)

// Errors returned by document operations (test with errors.Is).
var (
	// ErrPlaying: the scene is playing; edits are refused until Stop.
	ErrPlaying = errors.New("the scene is playing: stop it to edit")
	// ErrCycle: a reparent would make an entity its own ancestor.
	ErrCycle = errors.New("an entity cannot become a child of itself or of its descendants")
	// ErrNoEntity: an entity handle or scene id names no entity of the document.
	ErrNoEntity = errors.New("no such entity")
	// ErrNoPath: Save was called on a document that was never saved (use SaveAs).
	ErrNoPath = errors.New("the scene has no file yet: use Save As")
	// ErrComponent: the component cannot be changed that way (SceneID, computed components, a
	// component the entity lacks or already has, a value of the wrong type).
	ErrComponent = errors.New("component cannot be changed that way")
)

// Options configure a Document. The zero value is ready to use.
type Options struct {
	// NewWorld makes the worlds of the document (new scenes, loads, the clipboard). It must
	// register the scene components (scene.Register) and may register more. Default:
	// scene.NewWorld.
	NewWorld func() *ecs.World
	// Limits are the loader limits for Open, Reload and Paste.
	Limits serialize.Limits
	// Systems make the play-mode systems, one call per Play on the play world. Default:
	// scene.SpinSystem.
	Systems []func(*ecs.World) ecs.System
	// MaxHistory bounds the undo history (the oldest steps are dropped). Default 1000; negative
	// means unlimited.
	MaxHistory int
	// MaxHistoryBytes bounds the memory of the undo history, in bytes (what its steps keep of
	// deleted and spawned entities, values and selections): the oldest steps are dropped, never
	// the newest done one nor those that can be redone. Default DefaultMaxHistoryBytes (384 MiB);
	// negative means unlimited.
	MaxHistoryBytes int
	// Alternate, if not nil, keeps Open to about one core until it is closed: the load's parse and binding take
	// turns (serialize.LoadOptions.Alternate), and the hash of the file's bytes (what a session journal's base is
	// checked by) waits; Open waits for the hash before it returns. The editor opens the scene named on the
	// command line while its window opens, which on two cores needs the other.
	Alternate <-chan struct{}
}

func (o Options) newWorld() *ecs.World {
	if o.NewWorld != nil {
		return o.NewWorld()
	}
	return scene.NewWorld()
}

// DefaultName is the name of a new, never saved scene.
const DefaultName = "Untitled"

// Document is one open scene in the editor: the ECS world being edited, its file path and scene
// name, the editor camera saved with it, and the sub-objects it composes: the Selection, the
// History, Play mode, the merge Conflicts and the Prefabs.
//
// Every change to the scene goes through a method of the Document or of a sub-object, which
// records it as a command in the history (see the package documentation). A Document is not safe for concurrent use: only the GUI
// loop thread touches it (Open and WriteJob.Run are the exceptions documented as such).
type Document struct {
	// scope points at the scene state (core) and at sel and hist below, as it does for Conflicts and
	// Prefabs: the steps of all of them go through the same selection and history.
	scope
	// camera is the editor camera: the one copy of the view. The viewport panel moves it in place (Camera); saves
	// write it; reloads and retypes keep it.
	camera       viewport.Camera
	cameraInFile bool // the file had a camera (a scene without one is framed when it opens)
	warnings     []serialize.Problem
	missing      bool // the file was deleted on disk since it was loaded or saved
	// opened is the file as Open read it (its size, time and hash), for the base of a journal started
	// on the scene (StartJournal takes it): the journal reads the file again when it writes its base,
	// and only if the file is still the one loaded.
	opened *fileID

	sel       Selection
	hist      History
	play      Play
	conflicts Conflicts
	prefabs   Prefabs
}

// New returns an empty, clean document named name (DefaultName if empty) without a file.
func New(name string, opts Options) *Document {
	if name == "" {
		name = DefaultName
	}
	d := &Document{camera: viewport.DefaultCamera()}
	d.wire(&core{opts: opts, prefabSet: opts.newPrefabs()})
	d.setWorld(opts.newWorld())
	d.name = name
	return d
}

// Open loads the scene file at path into a new document (see serialize.LoadFile; progress, if not
// nil, gets bytes read and the file size). Open touches nothing shared, so it may run on a
// background goroutine; cancelling ctx stops it with ctx's error. The selection and editor camera
// saved in the file are restored; load warnings are in Warnings.
func Open(ctx context.Context, path string, opts Options, progress func(done, total int64)) (*Document, error) {
	d, _, err := openSeen(ctx, path, nil, opts, progress, nil)
	return d, err
}

// OpenSeen is Open that also hands every byte of the file it loads to seen (a file watcher's hash: the
// watcher need not read a file of hundreds of MB again, on the loop thread, to know it). whole reports
// whether seen got the file once from its start to its end, as loaded.
func OpenSeen(ctx context.Context, path string, opts Options, progress func(done, total int64), seen hash.Hash) (d *Document, whole bool, err error) {
	return openSeen(ctx, path, nil, opts, progress, seen)
}

// openFrom is Open of the file at path, or of data (scene JSON) as if it were that file's.
func openFrom(ctx context.Context, path string, data []byte, opts Options, progress func(done, total int64)) (*Document, error) {
	d, _, err := openSeen(ctx, path, data, opts, progress, nil)
	return d, err
}

// openSeen is OpenSeen of the file at path, or of data (scene JSON) as if it were that file's (seen nil).
func openSeen(ctx context.Context, path string, data []byte, opts Options, progress func(done, total int64),
	seen hash.Hash) (*Document, bool, error) {
	dir := filepath.Dir(path) // missing meshes are warnings at their reference, symlinks out of the folder errors
	prefabs := opts.newPrefabs()
	lo := serialize.LoadOptions{Limits: opts.Limits, NewWorld: opts.NewWorld, Progress: progress, Alternate: opts.Alternate,
		CheckAsset: func(ref string) error { return assets.CheckRef(dir, ref) }, Prefabs: prefabs, KeepBroken: true}
	var s *serialize.Scene
	var err error
	var opened *fileID
	var hashed chan string
	var sf *seenFile
	if data == nil {
		if data, opened, err = readOpened(path); err != nil {
			return nil, false, err
		}
		if data != nil { // hashed beside the load, which it does not slow: the bytes are let go after it
			hashed = make(chan string, 1)
			go func(b []byte) {
				if opts.Alternate != nil {
					select {
					case <-opts.Alternate:
					case <-ctx.Done():
					}
				}
				hashed <- fileHashOf(b)
			}(data)
			if seen != nil {
				seen.Write(data)
			}
		} else if seen != nil {
			if sf = openSeenFile(path, seen); sf != nil {
				sf.hash(ctx, opts.Alternate)
			}
		}
	}
	whole := seen != nil
	switch {
	case sf != nil:
		lo.File = path
		s, err = serialize.Load(ctx, serialize.NewInput(sf, path), lo)
		whole = sf.whole()
		_ = sf.f.Close() // read only
	case data == nil:
		s, err = serialize.LoadFile(ctx, path, lo)
	default:
		lo.File = path
		s, err = serialize.Load(ctx, bytes.NewReader(data), lo)
	}
	if hashed != nil {
		opened.hash = <-hashed
	}
	if err != nil {
		return nil, false, err
	}
	// The world matrices are computed here, on the goroutine that loaded the scene, not in the frame that first
	// shows it (at a million cubes 0.4 s of that frame).
	s.World.PropagateTransforms()
	d := &Document{camera: viewport.DefaultCamera()}
	d.wire(&core{opts: opts, prefabSet: prefabs, dir: s.Dir})
	d.prefabs.broken = s.Broken
	d.setWorldByID(s.World, s.ByID, s.ByIDIDs)
	d.path = path
	d.opened = opened
	if s.Roots != nil {
		d.roots = &loadedRoots{w: s.World, shape: s.World.ShapeVersion(), version: d.version, es: s.Roots}
	}
	d.name = s.Name
	if s.Camera != nil {
		d.camera, d.cameraInFile = d.camera.WithSaved(*s.Camera), true
	}
	d.warnings = s.Warnings
	d.sceneConflicts = s.Conflicts
	ids := make([]uint64, 0, len(s.Selection))
	for _, e := range s.Selection {
		if id := d.idOf(e); id != 0 {
			ids = append(ids, id)
		}
	}
	d.sel.set(ids)
	return d, whole, nil
}

// seenFile is a regular file opened for a load, which a goroutine of its own hands to a hash meanwhile (hash),
// reading it in order from its start: the load reads it in pieces on every core (serialize reads a big file so).
type seenFile struct {
	f      *os.File
	seen   hash.Hash
	opened os.FileInfo
	hashed chan bool // whether the hash got the file whole
}

// openSeenFile opens the regular file at path to hash into seen (nil if it is not one: LoadFile says what is
// wrong with it).
func openSeenFile(path string, seen hash.Hash) *seenFile {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		_ = f.Close() // read only
		return nil
	}
	seen.Reset()
	return &seenFile{f: f, seen: seen, opened: st, hashed: make(chan bool, 1)}
}

func (s *seenFile) Read(p []byte) (int, error)                   { return s.f.Read(p) }
func (s *seenFile) ReadAt(p []byte, off int64) (int, error)      { return s.f.ReadAt(p, off) }
func (s *seenFile) Seek(offset int64, whence int) (int64, error) { return s.f.Seek(offset, whence) }

// hash hands the file to the hash on a goroutine, once after is closed (nil: at once) unless ctx is done first.
func (s *seenFile) hash(ctx context.Context, after <-chan struct{}) {
	go func() {
		if after != nil {
			select {
			case <-after:
			case <-ctx.Done():
				s.hashed <- false
				return
			}
		}
		buf := make([]byte, 1<<20)
		var off int64
		for ctx.Err() == nil {
			n, err := s.f.ReadAt(buf, off)
			s.seen.Write(buf[:n])
			off += int64(n)
			if err != nil {
				s.hashed <- err == io.EOF && off == s.opened.Size()
				return
			}
		}
		s.hashed <- false
	}()
}

// whole waits for the hash and reports whether it got the whole file, which the load read as it was (neither
// its size nor its modification time changed since it was opened: a file replaced by a rename is still read
// through the file opened). Called once, after the load.
func (s *seenFile) whole() bool {
	ok := <-s.hashed
	st, err := s.f.Stat()
	return ok && err == nil && st.Size() == s.opened.Size() && st.ModTime().Equal(s.opened.ModTime())
}

// keepOpened bounds the files Open reads whole (and hashes, for a journal's base); a bigger one is
// loaded as a stream, and a journal on it starts from the file as it is then.
const keepOpened = 256 << 20

// fileID is what a journal knows of the scene file as it was opened: the bytes it had, by their
// size, modification time and hash (fileHashOf), and the file itself, kept open where the system
// lets another file take its name meanwhile, so that its bytes can be read again even then.
type fileID struct {
	size  int64
	mtime time.Time
	hash  string

	mu sync.Mutex
	f  *os.File
}

// kept returns the opened file, if it is still kept (nil: read the file by its name).
func (id *fileID) kept() *os.File {
	if id == nil {
		return nil
	}
	id.mu.Lock()
	defer id.mu.Unlock()
	return id.f
}

// stat returns the file's information: the kept file's, or that of the file named path.
func (id *fileID) stat(path string) (os.FileInfo, error) {
	if f := id.kept(); f != nil {
		return f.Stat()
	}
	return os.Stat(path)
}

// release closes the kept file (nil: nothing to do), on a goroutine of its own: closing the last
// reference to a replaced file frees its blocks.
func (id *fileID) release() {
	if id == nil {
		return
	}
	id.mu.Lock()
	f := id.f
	id.f = nil
	id.mu.Unlock()
	if f != nil {
		go func() { _ = f.Close() }() // read only
	}
}

// readOpened reads the regular file at path whole if it is at most keepOpened bytes (nil if not),
// and returns its bytes and what identifies them (the hash still to fill in).
func readOpened(path string) ([]byte, *fileID, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil // LoadFile says what is wrong
	}
	keep := false
	defer func() {
		if !keep {
			_ = f.Close() // read only
		}
	}()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > keepOpened {
		return nil, nil, nil
	}
	b := make([]byte, st.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, err
	}
	if n, _ := f.Read(make([]byte, 1)); n > 0 { // grew while read: loaded as a stream
		return nil, nil, nil
	}
	id := &fileID{size: st.Size(), mtime: st.ModTime()}
	if keepOpenedFile {
		// Closed once a journal wrote its base, or let it go; a document never journaled leaves it to
		// the collector.
		id.f, keep = f, true
	}
	return b, id, nil
}

// wire points the sub-objects at the document's core and at each other.
func (d *Document) wire(c *core) {
	d.scope = scope{c, &d.sel, &d.hist}
	d.sel.c = c
	d.hist = History{c: c, sel: &d.sel, play: &d.play}
	d.play = Play{c: c, h: &d.hist}
	d.conflicts = Conflicts{scope{c, &d.sel, &d.hist}}
	d.prefabs = Prefabs{scope: scope{c, &d.sel, &d.hist}}
}

// Selection returns the document's selection.
func (d *Document) Selection() *Selection { return &d.sel }

// History returns the document's undo/redo history.
func (d *Document) History() *History { return &d.hist }

// PlayMode returns the document's play mode.
func (d *Document) PlayMode() *Play { return &d.play }

// Conflicts returns the document's merge conflicts.
func (d *Document) Conflicts() *Conflicts { return &d.conflicts }

// Prefabs returns the document's prefab instances and the prefab files they are built from.
func (d *Document) Prefabs() *Prefabs { return &d.prefabs }

// Reindex rebuilds the scene-id index of the edit world. Call it only if the world was changed
// structurally without going through the document (which keeps the index up to date itself);
// entities without a scene id get one.
func (d *Document) Reindex() { d.reindex() }

// World returns the world to show: the play world while playing, else the edit world.
func (d *Document) World() *ecs.World {
	if d.play.Playing() {
		return d.play.world
	}
	return d.world
}

// EditWorld returns the world being edited (unchanged by play mode). Change it only through the
// document's methods.
func (d *Document) EditWorld() *ecs.World { return d.world }

// Options returns the options the document was made with (for a background Open of its file
// before ReloadFrom).
func (d *Document) Options() Options { return d.opts }

// Path returns the scene file's path ("" for a new scene never saved).
func (d *Document) Path() string { return d.path }

// SceneName returns the scene's name (the file's "name").
func (d *Document) SceneName() string { return d.name }

// Title returns the window title for the document: "name — file.json", with a leading "*" when
// dirty.
func (d *Document) Title() string {
	t := d.name
	if d.path != "" {
		t += " — " + filepath.Base(d.path)
	}
	if d.Dirty() {
		t = "*" + t
	}
	return t
}

// Camera returns the editor camera, the one copy of the view the scene is shown with: the viewport
// moves it in place (moving the view is not an edit: the document stays clean), saves write it,
// Reload and Retype keep it. It starts as the file's camera, else viewport.DefaultCamera.
func (d *Document) Camera() *viewport.Camera { return &d.camera }

// CameraInFile reports whether the scene's file stored an editor camera when it was opened (a scene
// without one is best framed when it is first shown) or the scene has been saved since.
func (d *Document) CameraInFile() bool { return d.cameraInFile }

// Warnings returns the problems the last load or reload reported without failing.
func (d *Document) Warnings() []serialize.Problem { return d.warnings }

// FitRoom gives up the room the edit world's tables keep beyond their rows after most of them went (the undo of a
// spawn that doubled the scene: ecs.World.FitRoom), and reports the rows of room given up. Nothing else changes.
func (d *Document) FitRoom() int { return d.world.FitRoom() }

// Version is a counter that changes whenever the scene's content changes (commands, undo, redo,
// edits inside a transaction, reload) or its file or name does (Save As); the UI compares it with the
// value it last saw to know when to rebuild what it shows. A save to the document's own file, which
// changes only Dirty, leaves it as it is.
func (d *Document) Version() uint64 { return d.version }

// Len returns the number of entities in the edit world.
func (d *Document) Len() int { return d.world.Len() }

// Entity returns the entity carrying scene id id in the world shown (see World).
func (d *Document) Entity(id uint64) (ecs.Entity, bool) { return d.shown().entity(id) }

// ID returns the scene id of entity e of the world shown (0 if e is dead or has none).
func (d *Document) ID(e ecs.Entity) uint64 { return d.shown().idOf(e) }

// shown is the scene state of the world shown: while playing, the play world's.
func (d *Document) shown() *core {
	if d.play.Playing() {
		return d.play.pc
	}
	return d.core
}

func (d *core) entity(id uint64) (ecs.Entity, bool) {
	e, ok := d.byID()[id]
	if !ok || !d.world.Alive(e) {
		return ecs.Entity{}, false
	}
	return e, true
}

func (d *core) idOf(e ecs.Entity) uint64 {
	v, _ := d.sids.TryGet(e)
	return v.ID
}

// Name returns entity e's name in the world shown ("" if it has none): while playing, the play
// world's, which Rename changes. (With it the document implements the inspector's Names interface.)
func (d *Document) Name(e ecs.Entity) string {
	if d.play.Playing() {
		n, _ := d.play.world.Get(e, d.names.ID())
		v, _ := n.(scene.Name)
		return v.Value
	}
	return d.nameOf(e)
}

// IDs returns the scene ids of all entities of the world shown in ascending order.
func (d *Document) IDs() []uint64 {
	c := d.shown()
	ids := make([]uint64, 0, len(c.byID()))
	for id := range c.byID() {
		if _, ok := c.entity(id); ok || !c.play {
			ids = append(ids, id)
		}
	}
	sortIDs(ids)
	return ids
}

// checkEditable returns ErrPlaying while playing.
func (d *Document) checkEditable() error {
	if d.play.Playing() {
		return ErrPlaying
	}
	return nil
}

// resolve maps handles of the edit world to scene ids, refusing dead ones.
func (d *core) resolve(es []ecs.Entity) ([]uint64, error) {
	ids := make([]uint64, len(es))
	for i, e := range es {
		id := d.idFor(e)
		if id == 0 {
			return nil, fmt.Errorf("%w: %v", ErrNoEntity, e)
		}
		ids[i] = id
	}
	return ids, nil
}

// Dirty reports whether the scene differs from its file: the history position is not the one of the
// last save (undoing back to it makes the document clean again), or the file was deleted on disk
// (OnDisk), or the user kept their version over a changed file (KeepMine). A new scene is clean
// until its first edit.
func (d *Document) Dirty() bool {
	return d.hist.pos != d.hist.saved || d.missing
}

// fileScene returns the serialize view of the edit world with the editor camera (what a save writes).
func (d *Document) fileScene() *serialize.Scene {
	s := d.scene()
	c := d.camera.Saved()
	s.Camera = &c
	return s
}

// nameFromPath is the scene name given to a never-saved scene by its first SaveAs.
func nameFromPath(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}
