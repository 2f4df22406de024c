package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestReplaceFileKeepsNoBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.png")
	for _, content := range []string{"first", "second"} {
		if err := ReplaceFile(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Fatalf("file holds %q, want %q", got, content)
		}
	}
	if _, err := os.Stat(path + ".bak"); err == nil {
		t.Fatal("ReplaceFile left a .bak")
	}
	if err := WriteFile(path, []byte("third")); err != nil {
		t.Fatal(err)
	}
	if bak, _ := os.ReadFile(path + ".bak"); string(bak) != "second" {
		t.Fatalf("WriteFile's backup holds %q, want second", bak)
	}
}

func TestAtomicWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "scene.json")
	if err := WriteFile(path, []byte("v1")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".bak"); !errors.Is(err, os.ErrNotExist) {
		t.Error("a .bak of nothing")
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("v2")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("v3")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	bak, _ := os.ReadFile(path + ".bak")
	if string(got) != "v3" || string(bak) != "v2" {
		t.Errorf("file %q, backup %q", got, bak)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("permissions %v not kept", st.Mode())
	}
	// A failing writer leaves everything as it was, with no temporary file.
	err := WriteFileFunc(path, func(w io.Writer) error {
		if _, err := w.Write([]byte("half")); err != nil {
			t.Fatal(err)
		}
		return errors.New("boom")
	})
	if err == nil || err.Error() != "boom" {
		t.Errorf("err %v", err)
	}
	got, _ = os.ReadFile(path)
	bak, _ = os.ReadFile(path + ".bak")
	removals.Wait() // the backups replaced are removed after the saves
	entries, _ := os.ReadDir(dir)
	if string(got) != "v3" || string(bak) != "v2" || len(entries) != 2 {
		t.Errorf("after a failed write: file %q, backup %q, %d entries", got, bak, len(entries))
	}
	if err := WriteFile(dir, []byte("x")); err == nil {
		t.Error("wrote over a directory")
	}
}

// TestWriteFileFuncReadyBeforeTheReplace: ready is called once, with the new contents written and
// the old still in place.
func TestWriteFileFuncReadyBeforeTheReplace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scene.json")
	if err := WriteFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	calls := 0
	err := WriteFileFuncReady(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "new")
		return err
	}, func() {
		calls++
		if got, _ := os.ReadFile(path); string(got) != "old" {
			t.Errorf("when ready, the file holds %q, want old", got)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); calls != 1 || string(got) != "new" {
		t.Errorf("ready called %d times, file %q; want once, new", calls, got)
	}
}
