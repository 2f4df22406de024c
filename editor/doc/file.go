package doc

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/atomicfile"
	"github.com/voltex-editor/voltex/serialize"
)

// Save writes the scene to its file atomically (serialize.SaveFile: temporary file, fsync,
// rename, previous version kept as .bak) with the editor camera — not the selection, so that clicking
// around never changes the file — and makes the document clean. It returns ErrNoPath for a scene that was never saved. An open transaction is
// committed first. While playing, the edit world is saved (not the play world). progress gets the
// entities written and their total; cancelling ctx stops the save, leaves the old file in place and
// the document as it was.
func (d *Document) Save(ctx context.Context, progress func(done, total int64)) error {
	if d.path == "" {
		return ErrNoPath
	}
	return d.SaveAs(ctx, d.path, progress)
}

// SaveAs saves the scene to path (see Save) and makes path the document's file. A scene that never
// had a file and still has the default name takes its name from the file name ("level1.json" →
// "level1").
func (d *Document) SaveAs(ctx context.Context, path string, progress func(done, total int64)) error {
	j := d.prepare(path, noCopy) // Run returns before the world can change: no copy needed
	err := j.Run(ctx, progress)
	d.Finish(j, err)
	return err
}

// WriteJob is a save or an export prepared on the loop thread and run anywhere (see PrepareSave).
type WriteJob struct {
	// Also, if set before Run, gets every byte a save writes (serialize.SaveOptions.Also): the editor hashes the
	// file as it is written, so that its watcher need not read it back.
	Also io.Writer

	path   string
	export bool
	scene  *serialize.Scene
	pos    int
	ver    uint64 // the document's Version when prepared
	doc    *Document
	// A save to another folder: the instances' prefab paths as they were (restored if it fails), or
	// why they cannot be named from there.
	rebased  []rebasedPath
	rebaseEr error
	// journaled, if set, waits until the document's journal has synced the record that this save
	// began: Run calls it before the file is replaced, on its own goroutine, not the loop thread.
	journaled func()
	// written is the file as the save left it (its size and time, for the journal's base); nil if unknown.
	written *fileID

	// A save that reads the edit world itself, lent to it (ecs.World.Lend) rather than copied on the loop thread:
	// endLoan gives it back once the entities are encoded. mu guards started and scene.World, which the
	// document's first write before Run replaces with a copy (reclaim).
	endLoan func()
	mu      sync.Mutex
	started bool
}

// Path returns the file the job writes.
func (j *WriteJob) Path() string { return j.path }

// PrepareSave takes what a save of the scene to path ("" = the document's path) needs — the edit world to read,
// the name, camera and selection — so that the job can Run on a background goroutine while the loop thread keeps
// going. Pass the job to Finish afterwards. An open transaction is committed first.
//
// The world is not copied: it is lent to the job (ecs.World.Lend) until its entities are encoded, and the
// document's first write meanwhile waits for that — or, before Run started, hands the job a copy
// (ecs.World.ReadCopy: what a save writes, without change ticks and computed matrices) and goes on. A scene with
// prefab instances, whose writer iterates queries, is copied at once.
func (d *Document) PrepareSave(path string) *WriteJob { return d.prepare(path, copyToRead) }

// How prepare gives the world to a job that runs on another goroutine.
const (
	noCopy     = iota // the job runs before the world can change
	copyToRead        // a save: the world lent, or ecs.World.ReadCopy
	copyWhole         // an export, which bakes the world matrices: ecs.World.Clone
)

func (d *Document) prepare(path string, copying int) *WriteJob {
	d.EndEdit()
	if path == "" {
		path = d.path
	}
	var rebased []rebasedPath
	var rebaseErr error
	if path != "" && path != d.path {
		rebased, rebaseErr = d.rebasePrefabs(filepath.Dir(path)) // prefab paths are relative to the scene's folder
	}
	s := d.fileScene() // the selection is editor state: saving it would change the file on every click
	if d.path == "" && path != "" && (d.name == DefaultName || d.name == "") {
		s.Name = nameFromPath(path)
	}
	j := &WriteJob{path: path, scene: s, pos: d.hist.pos, ver: d.version, doc: d, rebased: rebased, rebaseEr: rebaseErr}
	if copying != noCopy { // same entity handles: the selection stays valid
		switch {
		case copying == copyWhole:
			s.World = forJob(d.world.Clone())
		case d.lendable():
			j.endLoan = d.world.Lend(j.reclaim)
		default:
			s.World = forJob(d.world.ReadCopy())
		}
		s.Prefabs = d.prefabSet.Snapshot()
	}
	if d.jr != nil && copying != copyWhole {
		j.journaled = d.jr.saving(&d.hist)
	}
	return j
}

// lendable reports whether a save may read the edit world itself (see PrepareSave): it has no prefab instances
// and, once indexed again if need be, every entity has its own scene id (the save then writes nothing to it).
func (d *core) lendable() bool {
	if _, ok := ecs.ComponentIDOf[scene.Prefab](d.world); ok && ecs.NewQuery1[scene.Prefab](d.world).Count() > 0 {
		return false
	}
	if len(d.byID()) != d.world.Len() {
		d.reindex()
	}
	return len(d.byID()) == d.world.Len()
}

// reclaim is the lent world's reclaim (ecs.World.Lend): before Run, the job gets a copy of the world and the
// document writes at once; once it runs, the document waits for it.
func (j *WriteJob) reclaim() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.started {
		return false
	}
	j.scene.World = forJob(j.scene.World.ReadCopy())
	return true
}

// giveBack ends the job's loan of the world, if any (more than once is fine).
func (j *WriteJob) giveBack() {
	if j.endLoan != nil {
		j.endLoan()
	}
}

// PrepareExport is PrepareSave for a game export (serialize.Export) to path.
func (d *Document) PrepareExport(path string) *WriteJob {
	j := d.prepare(path, copyWhole)
	j.export = true
	return j
}

// Run writes the file atomically. It may run on any goroutine; it touches only the job. progress
// (saves only; may be nil) gets the entities written and their total.
func (j *WriteJob) Run(ctx context.Context, progress func(done, total int64)) error {
	if j.path == "" {
		return ErrNoPath
	}
	if j.rebaseEr != nil {
		return j.rebaseEr
	}
	if j.export {
		return atomicfile.WriteFileFunc(j.path, func(w io.Writer) error { return serialize.Export(ctx, w, j.scene) })
	}
	j.mu.Lock()
	j.started = true
	j.mu.Unlock()
	defer j.giveBack()
	// serialize.SaveFile, giving the world back as soon as it is encoded (the file's sync and rename need not hold
	// the document's writes), with the journal knowing of this save before the file is it: its sync, asked for
	// when the save was prepared, runs beside the save's own writing and syncing.
	err := atomicfile.WriteFileFuncReady(j.path, func(w io.Writer) error {
		defer j.giveBack()
		return serialize.Save(ctx, w, j.scene, serialize.SaveOptions{Progress: progress, Also: j.Also})
	}, j.journaled)
	if err == nil {
		if st, serr := os.Stat(j.path); serr == nil {
			j.written = &fileID{size: st.Size(), mtime: st.ModTime()}
		}
	}
	return err
}

// Finish records the outcome of a job on the loop thread: after a successful save the document's
// file is the job's path, its name the saved one, and the state it was prepared from counts as
// saved (edits made while the job ran keep the document dirty). Exports and failed jobs change
// nothing.
func (d *Document) Finish(j *WriteJob, err error) {
	if j.doc != d {
		panic("doc.Finish: the job was prepared by another document; pass it to the document whose PrepareSave made it")
	}
	j.giveBack() // a job that never ran
	if err != nil || j.export {
		d.restorePrefabPaths(j.rebased)
		return
	}
	// A save of the document's own file under its own name changes only the dirty state: Version stays, so the
	// panels keyed by it (the hierarchy's rows, the Inspector's override marks) rebuild nothing — at 1,000,000
	// entities that rebuild took longer than the save itself. A new path or name, or prefab paths rebased for
	// another folder, change what is shown.
	if d.path != j.path || d.name != j.scene.Name || len(j.rebased) > 0 {
		d.version++
	}
	d.path = j.path
	d.name = j.scene.Name
	d.hist.saved = j.pos
	d.missing = false
	d.cameraInFile = true
	if d.jr != nil {
		d.jr.saved(&d.hist, j.path, d.version != j.ver, j.written)
	}
}

// Export writes the scene for games (serialize.Export: world matrices baked, editor data left out)
// to path atomically. It does not change the document.
func (d *Document) Export(ctx context.Context, path string) error {
	j := d.prepare(path, noCopy)
	j.export = true
	return j.Run(ctx, nil)
}
