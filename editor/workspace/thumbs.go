package workspace

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/viewport"
)

// ThumbnailSize is the side in pixels of the Assets panel's thumbnails.
const ThumbnailSize = 64

// thumbMaxPrefab is the size of the biggest prefab (scene file) that gets a picture: drawing one loads all of it,
// and a file this big is a level rather than a part (the Assets panel shows its name alone).
const thumbMaxPrefab = 8 << 20

// thumbRecheck is how often a thumbnail's file is looked at again for a change (its time and size).
const thumbRecheck = 2 * time.Second

// thumbnails makes the Assets panel's pictures of meshes, models and prefabs on a goroutine of its own, one at a
// time, and keeps them by file, time and size: asking for one never waits; the picture comes in a later frame
// (the loop is woken) and is made again when the file changes.
type thumbnails struct {
	wake func()
	// make draws the picture of a thumbnail's source (renderThumbnail; tests replace it).
	make func(src thumbSource) (*image.RGBA, error)

	mu      sync.Mutex
	entries map[thumbSource]*thumbEntry
	queue   []thumbSource
	running bool   // the goroutine is working through the queue
	made    uint64 // pictures made: each has its own version
	// held: requests wait in the queue until release (the editor holds them until it first goes idle, so that
	// drawing them does not take the CPU from opening the scene).
	held bool
}

// release lets the queued requests be made, and any later ones as they come.
func (t *thumbnails) release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.held = false
	t.startLocked()
}

// busy reports whether pictures are being made (the goroutine runs while the queue, not held, has any).
func (t *thumbnails) busy() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.running
}

// startLocked starts the goroutine if there is work and it may run; t.mu is held.
func (t *thumbnails) startLocked() {
	if !t.running && !t.held && len(t.queue) > 0 {
		t.running = true
		go t.work()
	}
}

// thumbSource is what a thumbnail shows: a mesh reference of the registry rooted at root, or a scene file (a
// prefab) at an absolute path.
type thumbSource struct {
	root   string
	ref    string
	prefab bool
}

// thumbEntry is a thumbnail and the state of its file it shows.
type thumbEntry struct {
	stamp   fileStamp // of the file the picture (or the one being made) is of
	checked time.Time
	queued  bool
	img     *image.RGBA
	version uint64
}

// fileStamp is a file's modification time and size (zero for built-ins and missing files).
type fileStamp struct {
	mod  int64
	size int64
}

func (t *thumbnails) stampOf(src thumbSource) fileStamp {
	path := src.ref
	if !src.prefab {
		if strings.HasPrefix(path, "builtin:") {
			return fileStamp{}
		}
		path = filepath.Join(src.root, filepath.FromSlash(path))
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{fi.ModTime().UnixNano(), fi.Size()}
}

// get returns src's picture (nil: none yet, or it cannot be drawn) and its version, and asks for a new one if
// there is none or the file changed since. It only looks at the file every thumbRecheck.
func (t *thumbnails) get(src thumbSource, now time.Time) (*image.RGBA, uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.entries == nil {
		t.entries = map[thumbSource]*thumbEntry{}
	}
	e := t.entries[src]
	if e == nil {
		e = &thumbEntry{stamp: t.stampOf(src), checked: now}
		t.entries[src] = e
		t.enqueue(src, e)
	} else if !e.queued && now.Sub(e.checked) >= thumbRecheck {
		e.checked = now
		if s := t.stampOf(src); s != e.stamp {
			e.stamp = s
			t.enqueue(src, e)
		}
	}
	return e.img, e.version
}

// enqueue adds src to the queue and starts the goroutine if it is not running; t.mu is held. A prefab over
// thumbMaxPrefab is not queued: it has no picture.
func (t *thumbnails) enqueue(src thumbSource, e *thumbEntry) {
	if src.prefab && e.stamp.size > thumbMaxPrefab {
		t.made++
		e.img, e.version = nil, t.made
		return
	}
	e.queued = true
	t.queue = append(t.queue, src)
	t.startLocked()
}

// work makes the queued pictures, newest requests last, until the queue is empty.
func (t *thumbnails) work() {
	for {
		t.mu.Lock()
		if len(t.queue) == 0 {
			t.running = false
			t.mu.Unlock()
			return
		}
		src := t.queue[0]
		t.queue = t.queue[1:]
		t.mu.Unlock()
		img, err := t.make(src)
		if err != nil {
			img = nil // no picture: the panel shows the name alone
		}
		t.mu.Lock()
		e := t.entries[src]
		e.queued = false
		t.made++
		e.img, e.version = img, t.made
		t.mu.Unlock()
		if t.wake != nil {
			t.wake()
		}
	}
}

// renderThumbnail draws src as the viewport would place it, on the CPU: a scene of one entity with the mesh, or
// an instance of the prefab or model (with its materials), loaded as the editor loads scenes.
func renderThumbnail(src thumbSource, newWorld func() *ecs.World) (*image.RGBA, error) {
	dir := src.root
	var entity string
	switch {
	case src.prefab:
		dir = filepath.Dir(src.ref)
		entity = `"prefab": ` + strconv.Quote(filepath.Base(src.ref)) + `, "components": { "Transform": {} }`
	case isModel(src.ref):
		entity = `"prefab": ` + strconv.Quote(src.ref) + `, "components": { "Transform": {} }`
	default:
		entity = `"components": { "Mesh": { "asset": ` + strconv.Quote(src.ref) + ` }, "Transform": {} }`
	}
	text := fmt.Sprintf(`{ "format": "voltex.scene", "version": 2, "name": "thumbnail", "entities": [ { "id": 1, "name": "Thumbnail", "order": 1, %s } ] }`, entity)
	s, err := serialize.Load(context.Background(), strings.NewReader(text),
		serialize.LoadOptions{File: src.ref, Dir: dir, NewWorld: newWorld})
	if err != nil {
		return nil, err
	}
	b := viewport.NewBuilder(s.World, assets.NewRegistry(dir, assets.DefaultLimits()))
	b.Update()
	return viewport.Thumbnail(b.DrawList(), ThumbnailSize), nil
}

// MeshThumbnail returns a picture of the registry's mesh ref (a glTF model with its materials) and its version
// (a new version: a new picture), or nil while it is being made or when it cannot be drawn. It never waits.
func (w *Workspace) MeshThumbnail(ref string) (*image.RGBA, uint64) {
	return w.thumbs.get(thumbSource{root: w.assets.Root(), ref: ref}, time.Now())
}

// StartThumbnails lets the thumbnails asked for be made: the editor calls it when it first goes idle (until then
// they wait, so that opening the scene has the CPU). Calling it again does nothing.
func (w *Workspace) StartThumbnails() { w.thumbs.release() }

// ThumbnailsBusy reports whether thumbnails are being made (the probe does not call the editor idle meanwhile).
func (w *Workspace) ThumbnailsBusy() bool { return w.thumbs.busy() }

// PrefabThumbnail is MeshThumbnail for the prefab (scene file) at path.
func (w *Workspace) PrefabThumbnail(path string) (*image.RGBA, uint64) {
	return w.thumbs.get(thumbSource{ref: path, prefab: true}, time.Now())
}
