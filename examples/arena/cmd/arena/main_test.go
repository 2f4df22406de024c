package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"example.com/arena/components"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

var update = flag.Bool("update", false, "rewrite testdata/arena.golden")

// The game runs the arena level as the editor exports it: the printed fight is testdata/arena.golden.
func TestArenaLevel(t *testing.T) {
	exp := filepath.Join(t.TempDir(), "arena.export.json")
	newWorld := func() *ecs.World {
		w := scene.NewWorld()
		components.Register(w)
		return w
	}
	if err := serialize.ExportFile(context.Background(), "testdata/arena.json", exp, serialize.LoadOptions{NewWorld: newWorld}); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{exp}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if *update {
		if err := os.WriteFile("testdata/arena.golden", out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/arena.golden")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("the fight went differently:\n%s\nwant:\n%s", out.Bytes(), want)
	}
}

func TestBadExport(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format": "voltex.export", "version": 1, "entities": [{"name": 3}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{bad}, &out, &errOut); code != 1 || !bytes.Contains(errOut.Bytes(), []byte("bad.json:1:")) {
		t.Fatalf("exit %d, stderr %s", code, errOut.String())
	}
}

// The game also runs a level from its scene file: the same fight as from the export (units listed
// in the scene file's id order), and a broken scene file is an error at its position.
func TestArenaLevelFromSceneFile(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"testdata/arena.json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	want, err := os.ReadFile("testdata/arena.golden")
	if err != nil {
		t.Fatal(err)
	}
	sorted := func(b []byte) string {
		lines := strings.Split(string(b), "\n")
		slices.Sort(lines)
		return strings.Join(lines, "\n")
	}
	if sorted(out.Bytes()) != sorted(want) {
		t.Fatalf("the fight from the scene file went differently:\n%s\nwant (in any order):\n%s", out.Bytes(), want)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format": "voltex.scene", "version": 2, "entities": [{"id": "x"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{bad}, &out, &errOut); code != 1 || !bytes.Contains(errOut.Bytes(), []byte("bad.json:1:")) {
		t.Fatalf("a broken scene file: exit %d, stderr %s", code, errOut.String())
	}
}
