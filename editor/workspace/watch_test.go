package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWatchLeavesTheFileBeingSavedOut: while a save writes the scene file (Watcher.pause … resume), a sync of the
// watched set — an edit made during a background save brings one — leaves that file out: watching it again then
// would take the old content as known and report the editor's own save as a change on disk. After the save it is
// watched again.
func TestWatchLeavesTheFileBeingSavedOut(t *testing.T) {
	w, _ := newTestWorkspace(t, 0)
	w.Watcher().Start()
	if w.watcher.wt == nil {
		t.Fatal("the workspace has no watcher")
	}
	t.Cleanup(func() { _ = w.watcher.wt.Close() }) // the test is over
	path := filepath.Join(t.TempDir(), "scene.json")
	if err := w.doc.SaveAs(context.Background(), path, nil); err != nil {
		t.Fatal(err)
	}
	watched := func() bool {
		w.watcher.watched = nil
		w.watcher.sync()
		return slices.Contains(w.watcher.wt.Watched(), path)
	}
	if !watched() {
		t.Fatalf("the scene file is not watched: %v", w.watcher.wt.Watched())
	}
	w.watcher.pause(path)
	if watched() {
		t.Fatal("a sync during the save watches the file being saved again")
	}
	w.watcher.resume()
	if !slices.Contains(w.watcher.wt.Watched(), path) {
		t.Fatalf("after the save the scene file is not watched: %v", w.watcher.wt.Watched())
	}
}

// A scene opened in the background is known to the watcher as the load read it (not read again on the loop
// thread), also when the open began before the watcher (a scene named on the command line): the file saved again
// with the same bytes is no change on disk, with other bytes it is.
func TestOpenedSceneIsKnownAsLoaded(t *testing.T) {
	w, _ := newTestWorkspace(t, 0)
	path := filepath.Join(t.TempDir(), "scene.json")
	const text = `{"format": "voltex.scene", "version": 2, "entities": [{"id": 1, "name": "a"}]}`
	save := func(content string) {
		t.Helper()
		if err := os.WriteFile(path+".tmp~", []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+".tmp~", path); err != nil {
			t.Fatal(err)
		}
	}
	save(text)
	w.openPath(path)
	w.Watcher().Start()
	if w.watcher.wt == nil {
		t.Fatal("the workspace has no watcher")
	}
	t.Cleanup(func() { _ = w.watcher.wt.Close() }) // the test is over
	waitJob(t, w)
	if w.doc.Path() != path || !slices.Contains(w.watcher.wt.Watched(), path) {
		t.Fatalf("open %q, watched %v", w.doc.Path(), w.watcher.wt.Watched())
	}
	events := func(wait time.Duration) (n int) {
		deadline := time.Now().Add(wait)
		for time.Now().Before(deadline) {
			for _, ev := range w.watcher.wt.Poll() {
				if ev.Path == path {
					n++
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
		return n
	}
	save(text)
	if n := events(time.Second); n != 0 {
		t.Fatalf("the scene saved again unchanged: %d events", n)
	}
	save(strings.Replace(text, `"a"`, `"b"`, 1))
	if n := events(3 * time.Second); n == 0 {
		t.Fatal("the scene changed on disk: no event")
	}
}
