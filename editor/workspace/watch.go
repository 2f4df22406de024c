package workspace

import (
	"hash"
	"hash/maphash"
	"path/filepath"
	"slices"

	"github.com/voltex-editor/voltex/assets/watch"
)

// Watcher follows the open scene's files on disk (a Workspace has one: Workspace.Watcher): the scene file, its
// project file, the asset files and prefab files it uses and the asset folder's list of files. It hands their
// changes to the workspace's flows (outside edits, project file changes, prefab files, meshes) and leaves out the
// file a save is writing. It reaches the document, the assets and the window through its workspace.
type Watcher struct {
	w *Workspace
	// seed seeds the file watcher's content hashes: a scene opened before the watcher starts is hashed for it as
	// it is loaded.
	seed     maphash.Seed
	wt       *watch.Watcher // nil until Start, or when watching is off
	watched  []string
	saving   string // the file a save is writing, left out of the watched set until it is done (pause)
	syncedAt uint64 // viewport draw-list version the watched set was last synced at
}

// Start follows the open scene file and the asset files it uses. Events reach the loop through the watcher's
// queue (drained in poll); Options.Wake wakes an idle loop.
func (fw *Watcher) Start() {
	nw, err := watch.New(watch.Options{Wake: fw.w.jobs.wake, Seed: fw.seed})
	if err != nil {
		fw.w.log.Warnf("file watching is off: %v", err)
		return
	}
	fw.wt = nw
	fw.sync()
}

// sync makes the watched set the scene file, the registry's asset files and the asset folder's list of
// files (new mesh and prefab files appear in the Assets panel), if that changed.
func (fw *Watcher) sync() {
	if fw.wt == nil {
		return
	}
	want := fw.w.assets.Files()
	if dir := fw.assetDir(); dir != "" {
		want = append(want, dir)
	}
	if p := fw.w.doc.Path(); p != "" {
		if abs, err := filepath.Abs(p); err == nil {
			want = append(want, abs)
		}
	}
	if fw.w.project.path != "" {
		want = append(want, fw.w.project.path)
	} else if c := fw.w.projectCandidate(); c != "" {
		want = append(want, c) // a project file written while the scene is open is picked up
	}
	want = append(want, fw.w.doc.Prefabs().Files()...) // prefab files: their instances follow them (Prefabs)
	if fw.saving != "" {
		want = slices.DeleteFunc(want, func(p string) bool { return p == fw.saving }) // being saved: pause
	}
	slices.Sort(want)
	if slices.Equal(want, fw.watched) {
		return
	}
	fw.watched = want
	if err := fw.wt.Set(want); err != nil {
		fw.w.log.Warnf("watching files: %v", err)
	}
}

// poll handles the file events queued since the last frame: a changed mesh file is re-read and its mesh
// replaced (a broken one keeps the previous mesh and says why); the scene file goes to onSceneFileEvent.
func (fw *Watcher) poll() {
	if fw.wt == nil {
		return
	}
	for _, ev := range fw.wt.Poll() {
		switch {
		case ev.Kind == watch.Error:
			fw.w.log.Warnf("file watching: %v", ev.Err)
		case fw.isScenePath(ev.Path):
			fw.w.onSceneFileEvent(ev)
		case fw.w.isProjectPath(ev.Path):
			fw.w.onProjectFileEvent()
		case fw.w.prefabs.isFile(ev.Path):
			fw.w.prefabs.onFileEvent(ev.Path)
		case ev.Path == fw.assetDir():
			fw.onAssetDirEvent()
		default:
			ref, ok := fw.w.assets.RefForPath(ev.Path)
			if !ok {
				continue
			}
			if ev.Kind == watch.Missing {
				fw.w.log.Warnf("%s was deleted; keeping the mesh already loaded", ref)
				continue
			}
			if _, err := fw.w.assets.Reload(ref); err != nil {
				fw.w.log.Errorf("reloading %s: %v (keeping the previous mesh)", ref, err)
				continue
			}
			fw.w.log.Infof("reloaded %s", ref)
			fw.w.ui.ReloadMeshes()
		}
	}
	// Meshes come into use when the viewport draws them: follow the files then.
	if v := fw.w.ui.SceneVersion(); v != fw.syncedAt {
		fw.syncedAt = v
		fw.sync()
	}
}

// assetDir is the absolute path of the folder the Assets panel lists ("" if unknown).
func (fw *Watcher) assetDir() string {
	abs, err := filepath.Abs(fw.w.assets.Root())
	if err != nil {
		return ""
	}
	return abs
}

// onAssetDirEvent lists the asset folder's files again: files added, removed or renamed there appear in (or
// leave) the Assets panel without Rescan.
func (fw *Watcher) onAssetDirEvent() {
	if err := fw.w.assets.Scan(); err != nil {
		fw.w.log.Warnf("scanning %s: %v", fw.w.assets.Root(), err)
	}
	fw.w.prefabs.files.forget()
	fw.sync()
}

func (fw *Watcher) isScenePath(p string) bool {
	if fw.w.doc.Path() == "" {
		return false
	}
	abs, err := filepath.Abs(fw.w.doc.Path())
	return err == nil && abs == p
}

// pause stops watching path while the editor writes it, until resume: the watched set leaves it out
// meanwhile (an edit during a background save syncs the set, and watching the file again then would take the old
// content as known and report the save as a change on disk). resume watches it again, taking the file as it
// is now as known (or as the save hashed it: AddKnown, before resume), so the editor's own save produces no
// event.
func (fw *Watcher) pause(path string) {
	if fw.wt != nil {
		_ = fw.wt.Remove(path)
		fw.saving, _ = filepath.Abs(path)
		fw.watched = nil
	}
}

func (fw *Watcher) resume() {
	if fw.wt != nil {
		fw.saving = ""
		fw.watched = nil
		fw.sync()
	}
}

// addKnown takes sum as the content hash of the file at path as it is now (the editor read or wrote it), so that
// it brings no event.
func (fw *Watcher) addKnown(path string, sum uint64) {
	if fw.wt == nil {
		return
	}
	if err := fw.wt.AddKnown(path, sum); err != nil {
		fw.w.log.Warnf("watching %s: %v", path, err)
	}
}

// contentHash returns a hash of a file's content as the watcher hashes it (for addKnown), nil when not watching.
func (fw *Watcher) contentHash() hash.Hash64 {
	if fw.wt == nil {
		return nil
	}
	return fw.wt.ContentHash()
}

// close stops watching files.
func (fw *Watcher) close() {
	if fw.wt == nil {
		return
	}
	if err := fw.wt.Close(); err != nil {
		fw.w.log.Warnf("stop watching files: %v", err)
	}
}
