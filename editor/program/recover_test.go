package program

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
)

// TestRecoverCommand: `recover SCENE` prints what a killed session's journal holds as a diff
// against the file (exit 1), --apply -o writes the recovered scene, and a scene without a journal
// has nothing to recover (exit 0).
func TestRecoverCommand(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := t.TempDir()
	path := filepath.Join(dir, "level.json")
	d := doc.New("Level", doc.Options{})
	cube, err := d.SpawnCube(ecs.Entity{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SaveAs(context.Background(), path, nil); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI("recover", path); code != 0 || !strings.Contains(errOut, "nothing to recover") {
		t.Fatalf("no journal: code %d, stderr %q", code, errOut)
	}
	jpath, err := doc.JournalPath(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.StartJournal(jpath, doc.JournalOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := d.Rename([]ecs.Entity{cube}, "Recovered Cube"); err != nil {
		t.Fatal(err)
	}
	if err := d.Journal().Flush(); err != nil { // then the session is killed
		t.Fatal(err)
	}
	code, out, errOut := runCLI("recover", path)
	if code != 1 || !strings.Contains(out, `"Recovered Cube"`) {
		t.Fatalf("recover: code %d, stdout %q, stderr %q", code, out, errOut)
	}
	dst := filepath.Join(dir, "out.json")
	if code, _, errOut := runCLI("recover", "--apply", "-o", dst, path); code != 1 {
		t.Fatalf("recover --apply: code %d, stderr %q", code, errOut)
	}
	r, err := doc.Open(context.Background(), dst, doc.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := r.Entity(d.ID(cube))
	if n := r.Name(e); n != "Recovered Cube" {
		t.Errorf("the recovered file has the cube named %q", n)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "Recovered Cube") {
		t.Error("recover changed the scene file")
	}
	if code, _, _ := runCLI("recover", "--apply", path); code != 2 {
		t.Errorf("--apply without -o: code %d, want 2", code)
	}
	if err := d.CloseJournal(true); err != nil {
		t.Fatal(err)
	}
}
