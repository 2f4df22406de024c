//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A read-only file is refused with a clear message and left as it was, even for root (who could
// write it): editors treat 0444 as "do not change".
func TestSaveRefusesReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scene.json")
	if err := os.WriteFile(path, []byte("old"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, []byte("new"))
	want := path + " is read-only (-r--r--r--): make it writable, or save under another name"
	if !errors.Is(err, ErrReadOnly) || err.Error() != want { // it said "…: the file is read-only" again
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if readFile(t, path) != "old" {
		t.Fatal("the read-only file changed")
	}
	if _, err := os.Stat(path + ".bak"); err == nil {
		t.Fatal("a backup was made of a refused save")
	}
	if err := ReplaceFile(path, []byte("new")); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("ReplaceFile: %v", err)
	}
}

// A save through a symlink writes the target and keeps the link (fmt -w link.json replaced the
// link with a regular file and left the target old).
func TestSaveWritesThroughSymlinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "real", "scene.json")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Join("real", "scene.json"), link); err != nil {
		t.Skip(err)
	}
	if err := WriteFile(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if readFile(t, target) != "new" || readFile(t, target+".bak") != "old" {
		t.Fatalf("target %q, backup beside it %q", readFile(t, target), readFile(t, target+".bak"))
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", fi.Mode())
	}
	// A link to a file that does not exist yet creates it.
	if err := os.Symlink(filepath.Join("real", "new.json"), filepath.Join(dir, "dangling.json")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(filepath.Join(dir, "dangling.json"), []byte("x")); err != nil || readFile(t, filepath.Join(dir, "real", "new.json")) != "x" {
		t.Fatalf("dangling link: %v", err)
	}
}

// No .bak appears (and an older one stays as it was) when the save fails, and the error names the
// user's file, not the temporary one.
func TestFailedSaveKeepsTheBackup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "scene.json")
	if err := os.WriteFile(path, []byte("v1"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".bak", []byte("v0"), 0o644); err != nil {
		t.Fatal(err)
	}
	renameFile = func(string, string) error {
		return &os.LinkError{Op: "rename", Old: "x.tmp-1", New: path, Err: syscall.ENOSPC}
	}
	defer func() { renameFile = os.Rename }()
	err := WriteFile(path, []byte("v2"))
	if err == nil || err.Error() != "saving "+path+": no space left on device" {
		t.Fatalf("got %v", err)
	}
	if readFile(t, path) != "v1" || readFile(t, path+".bak") != "v0" {
		t.Fatalf("file %q, backup %q", readFile(t, path), readFile(t, path+".bak"))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".scene.json.tmp-*")); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
	// A folder nobody may write: the message names the file and the folder.
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		err := WriteFile(filepath.Join(ro, "x.json"), []byte("x"))
		if err == nil || strings.Contains(err.Error(), "tmp-") || !strings.Contains(err.Error(), "x.json") {
			t.Fatalf("read-only folder: %v", err)
		}
	}
}

// Temporary files left by killed saves are removed by the next save of the same file; those of
// running processes, and other files, are not.
func TestStaleTempFilesRemoved(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "scene.json")
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := cmd.Process.Pid
	stale := filepath.Join(dir, fmt.Sprintf(".scene.json.tmp-%d-123", dead))
	live := filepath.Join(dir, ".scene.json.tmp-1-456") // pid 1 runs
	other := filepath.Join(dir, ".other.json.tmp-"+strconv.Itoa(dead)+"-7")
	for _, f := range []string{stale, live, other} {
		if err := os.WriteFile(f, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFile(path, []byte("x")); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{stale: false, live: true, other: true} {
		if _, err := os.Stat(f); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(f), err == nil, want)
		}
	}
}

// A file another user owns keeps its owner and group when root saves it (as root can).
func TestSaveKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file another owner (the CI runs as root)")
	}
	path := filepath.Join(t.TempDir(), "scene.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 65534 || st.Gid != 65534 || readFile(t, path) != "new" {
		t.Fatalf("owner %d:%d", st.Uid, st.Gid)
	}
}

// The owner of a read-only file who is not root gets the same refusal: run as nobody.
func TestSaveRefusesReadOnlyForOwner(t *testing.T) {
	if os.Getenv("VOLTEX_RO_CHILD") != "" {
		err := WriteFile(os.Getenv("VOLTEX_RO_CHILD"), []byte("new"))
		fmt.Println("child:", err)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the check as another user (the CI runs as root)")
	}
	dir := t.TempDir()
	if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil { // t.TempDir's parent is private
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "scene.json")
	if err := os.WriteFile(path, []byte("old"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "child.test") // the go build cache is not open to other users
	data, err := os.ReadFile(os.Args[0])
	if err != nil || os.WriteFile(bin, data, 0o755) != nil {
		t.Fatal("copying the test binary:", err)
	}
	cmd := exec.Command(bin, "-test.run=^TestSaveRefusesReadOnlyForOwner$")
	cmd.Env = append(os.Environ(), "VOLTEX_RO_CHILD="+path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running as nobody: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "child: "+path+" is read-only") || readFile(t, path) != "old" {
		t.Fatalf("%s", out)
	}
}

// A directory where the backup goes is not moved aside with the backups a save replaces: the save says the
// previous version could not be kept, and the directory stays where it was, with what it holds.
func TestBackupPlaceTakenByADirectory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "scene.json")
	if err := os.WriteFile(path, []byte("v1"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path+".bak", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path+".bak", "mine.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, []byte("v2"))
	if err == nil || !strings.Contains(err.Error(), "could not be kept") {
		t.Fatalf("got %v, want the previous version not kept", err)
	}
	removals.Wait()
	if readFile(t, path) != "v2" || readFile(t, filepath.Join(path+".bak", "mine.txt")) != "keep" {
		t.Fatalf("file %q; the directory's file %q", readFile(t, path), readFile(t, filepath.Join(path+".bak", "mine.txt")))
	}
}
