package workspace

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The Assets panel lists the scene files of the scene's folder by their first bytes. Only regular
// files (also through symlinks) are read: opening a named pipe called .json (or a symlink to one)
// would block the editor's loop thread forever, and a symlink to a device is not a scene.
func TestPrefabListSkipsWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	scene := `{"format": "voltex.scene", "version": 2, "entities": []}`
	must(t, os.WriteFile(filepath.Join(dir, "tree.json"), []byte(scene), 0o644))
	must(t, os.Symlink("tree.json", filepath.Join(dir, "link.json")))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	must(t, os.Symlink("pipe.json", filepath.Join(dir, "pipelink.json")))
	must(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")))
	done := make(chan []string, 1)
	go func() {
		var p prefabFiles
		done <- p.list(dir, "")
	}()
	select {
	case got := <-done:
		want := []string{filepath.Join(dir, "link.json"), filepath.Join(dir, "tree.json")}
		if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("listed %q, want %q", got, want)
		}
	case <-time.After(time.Minute):
		for _, name := range []string{"pipe.json", "pipe.json"} { // unblock the listing (the pipe may be opened twice)
			if f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				_ = f.Close() // only opened to unblock the reader
			}
		}
		t.Fatal("listing a folder with a named pipe blocked")
	}
}

// must fails the test on a setup error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
