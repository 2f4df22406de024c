package workspace

import (
	"path/filepath"
	"slices"

	"github.com/voltex-editor/voltex/assets/watch"
)

// StartWatcher follows the open scene file and the asset files it uses. Events reach the loop through the watcher's
// queue (drained in pollWatcher); Options.Wake wakes an idle loop.
func (w *Workspace) StartWatcher() {
	wt, err := watch.New(watch.Options{Wake: w.jobs.wake, Seed: w.watchSeed})
	if err != nil {
		w.log.Warnf("file watching is off: %v", err)
		return
	}
	w.watcher = wt
	w.syncWatched()
}

// syncWatched makes the watched set the scene file, the registry's asset files and the asset folder's list of
// files (new mesh and prefab files appear in the Assets panel), if that changed.
func (w *Workspace) syncWatched() {
	if w.watcher == nil {
		return
	}
	want := w.assets.Files()
	if dir := w.assetDir(); dir != "" {
		want = append(want, dir)
	}
	if p := w.doc.Path(); p != "" {
		if abs, err := filepath.Abs(p); err == nil {
			want = append(want, abs)
		}
	}
	if w.project.path != "" {
		want = append(want, w.project.path)
	} else if c := w.projectCandidate(); c != "" {
		want = append(want, c) // a project file written while the scene is open is picked up
	}
	want = append(want, w.doc.Prefabs().Files()...) // prefab files: their instances follow them (Prefabs)
	if w.saving != "" {
		want = slices.DeleteFunc(want, func(p string) bool { return p == w.saving }) // being saved: pauseWatch
	}
	slices.Sort(want)
	if slices.Equal(want, w.watched) {
		return
	}
	w.watched = want
	if err := w.watcher.Set(want); err != nil {
		w.log.Warnf("watching files: %v", err)
	}
}

// pollWatcher handles the file events queued since the last frame: a changed mesh file is re-read and its mesh
// replaced (a broken one keeps the previous mesh and says why); the scene file goes to onSceneFileEvent.
func (w *Workspace) pollWatcher() {
	if w.watcher == nil {
		return
	}
	for _, ev := range w.watcher.Poll() {
		switch {
		case ev.Kind == watch.Error:
			w.log.Warnf("file watching: %v", ev.Err)
		case w.isScenePath(ev.Path):
			w.onSceneFileEvent(ev)
		case w.isProjectPath(ev.Path):
			w.onProjectFileEvent()
		case w.prefabs.isFile(ev.Path):
			w.prefabs.onFileEvent(ev.Path)
		case ev.Path == w.assetDir():
			w.onAssetDirEvent()
		default:
			ref, ok := w.assets.RefForPath(ev.Path)
			if !ok {
				continue
			}
			if ev.Kind == watch.Missing {
				w.log.Warnf("%s was deleted; keeping the mesh already loaded", ref)
				continue
			}
			if _, err := w.assets.Reload(ref); err != nil {
				w.log.Errorf("reloading %s: %v (keeping the previous mesh)", ref, err)
				continue
			}
			w.log.Infof("reloaded %s", ref)
			w.ui.ReloadMeshes()
		}
	}
	// Meshes come into use when the viewport draws them: follow the files then.
	if v := w.ui.SceneVersion(); v != w.watchedAt {
		w.watchedAt = v
		w.syncWatched()
	}
}

// assetDir is the absolute path of the folder the Assets panel lists ("" if unknown).
func (w *Workspace) assetDir() string {
	abs, err := filepath.Abs(w.assets.Root())
	if err != nil {
		return ""
	}
	return abs
}

// onAssetDirEvent lists the asset folder's files again: files added, removed or renamed there appear in (or
// leave) the Assets panel without Rescan.
func (w *Workspace) onAssetDirEvent() {
	if err := w.assets.Scan(); err != nil {
		w.log.Warnf("scanning %s: %v", w.assets.Root(), err)
	}
	w.prefabs.files.forget()
	w.syncWatched()
}

func (w *Workspace) isScenePath(p string) bool {
	if w.doc.Path() == "" {
		return false
	}
	abs, err := filepath.Abs(w.doc.Path())
	return err == nil && abs == p
}

// pauseWatch stops watching path while the editor writes it, until resumeWatch: the watched set leaves it out
// meanwhile (an edit during a background save syncs the set, and watching the file again then would take the old
// content as known and report the save as a change on disk). resumeWatch watches it again, taking the file as it
// is now as known (or as the save hashed it: AddKnown, before resumeWatch), so the editor's own save produces no
// event.
func (w *Workspace) pauseWatch(path string) {
	if w.watcher != nil {
		_ = w.watcher.Remove(path)
		w.saving, _ = filepath.Abs(path)
		w.watched = nil
	}
}

func (w *Workspace) resumeWatch() {
	if w.watcher != nil {
		w.saving = ""
		w.watched = nil
		w.syncWatched()
	}
}
