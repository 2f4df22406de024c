package workspace

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// TestWatchLeavesTheFileBeingSavedOut: while a save writes the scene file (pauseWatch … resumeWatch), a sync of the
// watched set — an edit made during a background save brings one — leaves that file out: watching it again then
// would take the old content as known and report the editor's own save as a change on disk. After the save it is
// watched again.
func TestWatchLeavesTheFileBeingSavedOut(t *testing.T) {
	w, _ := newTestWorkspace(t, 0)
	w.StartWatcher()
	if w.watcher == nil {
		t.Fatal("the workspace has no watcher")
	}
	t.Cleanup(func() { _ = w.watcher.Close() }) // the test is over
	path := filepath.Join(t.TempDir(), "scene.json")
	if err := w.doc.SaveAs(context.Background(), path, nil); err != nil {
		t.Fatal(err)
	}
	watched := func() bool {
		w.watched = nil
		w.syncWatched()
		return slices.Contains(w.watcher.Watched(), path)
	}
	if !watched() {
		t.Fatalf("the scene file is not watched: %v", w.watcher.Watched())
	}
	w.pauseWatch(path)
	if watched() {
		t.Fatal("a sync during the save watches the file being saved again")
	}
	w.resumeWatch()
	if !slices.Contains(w.watcher.Watched(), path) {
		t.Fatalf("after the save the scene file is not watched: %v", w.watcher.Watched())
	}
}
