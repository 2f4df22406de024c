package editor

import (
	"path/filepath"
	"slices"

	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/assets/watch"
)

// startWatcher follows the open scene file and the asset files it uses. Events reach the loop through the watcher's
// queue (drained in pollWatcher); giu.Update wakes an idle loop.
func (a *App) startWatcher() {
	w, err := watch.New(watch.Options{Wake: g.Update})
	if err != nil {
		a.console.Warnf("file watching is off: %v", err)
		return
	}
	a.watcher = w
	a.syncWatched()
}

// syncWatched makes the watched set the scene file plus the registry's asset files, if that changed.
func (a *App) syncWatched() {
	if a.watcher == nil {
		return
	}
	want := a.assets.Files()
	if p := a.doc.Path(); p != "" {
		if abs, err := filepath.Abs(p); err == nil {
			want = append(want, abs)
		}
	}
	if a.project.path != "" {
		want = append(want, a.project.path)
	}
	want = append(want, a.doc.PrefabFiles()...) // prefab files: their instances follow them (prefab.go)
	slices.Sort(want)
	if slices.Equal(want, a.watched) {
		return
	}
	a.watched = want
	if err := a.watcher.Set(want); err != nil {
		a.console.Warnf("watching files: %v", err)
	}
}

// pollWatcher handles the file events queued since the last frame: a changed OBJ is re-parsed and its mesh
// replaced (a broken one keeps the previous mesh and says why); the scene file goes to onSceneFileEvent.
func (a *App) pollWatcher() {
	if a.watcher == nil {
		return
	}
	for _, ev := range a.watcher.Poll() {
		switch {
		case ev.Kind == watch.Error:
			a.console.Warnf("file watching: %v", ev.Err)
		case a.isScenePath(ev.Path):
			a.onSceneFileEvent(ev)
		case a.isProjectPath(ev.Path):
			a.onProjectFileEvent()
		case a.isPrefabPath(ev.Path):
			a.onPrefabFileEvent(ev.Path)
		default:
			ref, ok := a.assets.RefForPath(ev.Path)
			if !ok {
				continue
			}
			if ev.Kind == watch.Missing {
				a.console.Warnf("%s was deleted; keeping the mesh already loaded", ref)
				continue
			}
			if _, err := a.assets.Reload(ref); err != nil {
				a.console.Errorf("reloading %s: %v (keeping the previous mesh)", ref, err)
				continue
			}
			a.console.Infof("reloaded %s", ref)
			a.vp.reloadMeshes()
		}
	}
	// Meshes come into use when the viewport draws them: follow the files then.
	if v := a.vp.sceneVersion(); v != a.watchedAt {
		a.watchedAt = v
		a.syncWatched()
	}
}

func (a *App) isScenePath(p string) bool {
	if a.doc.Path() == "" {
		return false
	}
	abs, err := filepath.Abs(a.doc.Path())
	return err == nil && abs == p
}
