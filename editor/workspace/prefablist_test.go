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
	os.WriteFile(filepath.Join(dir, "tree.json"), []byte(scene), 0o644)
	os.Symlink("tree.json", filepath.Join(dir, "link.json"))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Symlink("pipe.json", filepath.Join(dir, "pipelink.json"))
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.json"))
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
				f.Close()
			}
		}
		t.Fatal("listing a folder with a named pipe blocked")
	}
}
