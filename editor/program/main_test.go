package program

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/serialize/game"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Run(Game{}, args, &o, &e)
	return code, o.String(), e.String()
}

func TestHelpExitsZero(t *testing.T) {
	for _, flag := range []string{"--help", "-h", "-help"} {
		code, out, _ := runCLI(flag)
		if code != 0 || !strings.Contains(out, "usage:") || !strings.Contains(out, "-size") {
			t.Errorf("%s: code %d, stdout %q", flag, code, out)
		}
	}
}

// The shipped program has no test-only flag: --test-components exists only in the e2e tests' build
// (-tags voltextest), and the program does not link the inspector's test fixtures.
func TestHelpListsNoTestFlag(t *testing.T) {
	_, out, _ := runCLI("--help")
	if strings.Contains(out, "test-components") {
		t.Errorf("--help lists the internal flag:\n%s", out)
	}
	if code, _, errOut := runCLI("--test-components"); code != 2 || !strings.Contains(errOut, "test-components") {
		t.Errorf("--test-components: code %d, stderr %q; want the unknown-flag error", code, errOut)
	}
	cmd := exec.Command("go", "list", "-deps", "../../cmd/voltex-editor")
	out2, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out2)
	}
	if strings.Contains(string(out2), "fieldstest") || !strings.Contains(string(out2), "voltex/editor\n") {
		t.Errorf("the shipped program's dependencies include the test fixtures (or go list printed nonsense):\n%s", out2)
	}
}

func TestUnknownFlagExitsTwo(t *testing.T) {
	code, out, errOut := runCLI("--no-such-flag")
	if code != 2 || out != "" || !strings.Contains(errOut, "no-such-flag") || !strings.Contains(errOut, "usage:") {
		t.Errorf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestMissingSceneExitsOne(t *testing.T) {
	code, _, errOut := runCLI("/nonexistent/scene.json")
	if code != 1 || !strings.Contains(errOut, "/nonexistent/scene.json") {
		t.Errorf("code %d, stderr %q", code, errOut)
	}
}

func TestBadSizeExitsTwo(t *testing.T) {
	for _, s := range []string{"big", "10x10", "100x", "x100"} {
		if code, _, _ := runCLI("--size", s); code != 2 {
			t.Errorf("--size %s: code %d, want 2", s, code)
		}
	}
}

func repoFile(rel string) string { return filepath.Join("..", "..", rel) }

func TestValidateGoodAndBadFiles(t *testing.T) {
	scenes, _ := filepath.Glob("testdata/*.json")
	if len(scenes) < 4 {
		t.Fatalf("want the example scenes (copies in testdata/), found %v", scenes)
	}
	code, out, errOut := runCLI(append([]string{"validate"}, scenes...)...)
	if code != 0 || strings.Count(out, ": ok: ") != len(scenes) {
		t.Fatalf("validate scenes: code %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	src := "{\n  \"format\": \"voltex.scene\",\n  \"version\": 1,\n  \"entities\": [\n" +
		"    {\"id\": 1, \"components\": {\"Transform\": {\"position\": [0, \"a\", 0], \"scale\": [1, 1]}}},\n" +
		"    {\"id\": 1, \"parent\": 9}\n  ]\n}\n"
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI("validate", scenes[0], bad)
	if code != 1 {
		t.Fatalf("validate with a bad file: code %d, want 1", code)
	}
	// Each problem is reported at the value it is about: the column is where that text starts on its line.
	lines := strings.Split(src, "\n")
	col := func(line int, text string) int { return strings.Index(lines[line-1], text) + 1 }
	for _, want := range []string{
		fmt.Sprintf("%s:5:%d: entities[0].components.Transform.position[1]", bad, col(5, `"a"`)),
		fmt.Sprintf("%s:5:%d: entities[0].components.Transform.scale", bad, col(5, "[1, 1]")),
		fmt.Sprintf("%s:6:%d: entities[1].id", bad, col(6, "1,")),
		fmt.Sprintf("%s:6:%d: entities[1].parent", bad, col(6, "9}")),
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestValidateOBJ(t *testing.T) {
	obj := repoFile("../shared/testdata/obj/box.obj")
	if _, err := os.Stat(obj); err != nil {
		t.Skip("../shared/testdata is not beside this checkout")
	}
	code, out, _ := runCLI("validate", obj)
	if code != 0 || !strings.Contains(out, "triangles 12") {
		t.Fatalf("code %d, out %q", code, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.obj")
	if err := os.WriteFile(bad, []byte("v 0 0 0\nv 1 0 0\nf 1 2 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI("validate", bad)
	if code != 1 || !strings.Contains(errOut, bad+":3:") {
		t.Fatalf("bad obj: code %d, stderr %q", code, errOut)
	}
}

func TestGridExportFmtRoundTrip(t *testing.T) {
	dir := t.TempDir()
	grid := filepath.Join(dir, "grid.json")
	code, _, errOut := runCLI("grid", "--nx", "4", "--ny", "1", "--nz", "3", "--spacing", "2",
		"--color-from", "#ff0000", "--color-to", "0,0,1", "-o", grid)
	if code != 0 {
		t.Fatalf("grid: %d %s", code, errOut)
	}
	// What grid writes is canonical.
	if code, out, _ := runCLI("fmt", "-l", grid); code != 0 || out != "" {
		t.Fatalf("fmt -l on grid output: code %d, listed %q", code, out)
	}
	exp := filepath.Join(dir, "grid.export.json")
	if code, _, errOut := runCLI("export", grid, "-o", exp); code != 0 {
		t.Fatalf("export: %s", errOut)
	}
	s, err := game.LoadFile(exp)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entities) != 12 || len(s.Meshes) != 1 {
		t.Fatalf("export has %d entities, %d meshes; want 12, 1", len(s.Entities), len(s.Meshes))
	}
	// fmt -w normalises a hand-edited file atomically; -l lists it first.
	data, _ := os.ReadFile(grid)
	messy := strings.ReplaceAll(string(data), "\n  ", "\n      ")
	if err := os.WriteFile(grid, []byte(messy), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := runCLI("fmt", "-l", grid); strings.TrimSpace(out) != grid {
		t.Fatalf("fmt -l did not list the messy file: %q", out)
	}
	if code, _, errOut := runCLI("fmt", "-w", grid); code != 0 {
		t.Fatal(errOut)
	}
	if again, _ := os.ReadFile(grid); string(again) != string(data) {
		t.Fatal("fmt -w did not restore the canonical form")
	}
	if code, _, _ := runCLI("grid", "--nx", "0", "-o", grid); code != 1 {
		t.Fatal("grid --nx 0 accepted")
	}
}

func TestRenderWritesPNG(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cubes.png")
	code, _, errOut := runCLI("render", "testdata/cubes.json", "-o", out, "--size", "320x200")
	if code != 0 {
		t.Fatalf("render: %d %s", code, errOut)
	}
	img := readPNG(t, out)
	if b := img.Bounds(); b.Dx() != 320 || b.Dy() != 200 {
		t.Fatalf("size %v", b)
	}
	// The cubes are saturated colours, the grid and sky grey: count cube pixels.
	n := 0
	for y := range 200 {
		for x := range 320 {
			r, g, b, _ := img.At(x, y).RGBA()
			hi, lo := max(r, g, b)>>8, min(r, g, b)>>8
			if hi-lo > 70 {
				n++
			}
		}
	}
	if n < 320*200/20 {
		t.Fatalf("only %d cube pixels in the render", n)
	}
}

func TestNoDisplayIsAClearError(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	code, _, errOut := runCLI("--settings", t.TempDir(), "testdata/empty.json")
	if code != 1 || !strings.Contains(errOut, "no display") {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
}

// TestValidateBigGrid: a grid big enough to be checked in pieces (4 MiB or more) is valid, and a problem
// in its last entities is reported at its line and column, as in a small file.
func TestValidateBigGrid(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "grid.json")
	if code, _, errOut := runCLI("grid", "--nx", "100", "--ny", "100", "--nz", "2", "--seed", "3", "-o", path); code != 0 {
		t.Fatalf("grid: %s", errOut)
	}
	if code, out, errOut := runCLI("validate", path); code != 0 || !strings.Contains(out, `ok: scene "Cubes", 20000 entities`) {
		t.Fatalf("validate: code %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(src) < 4<<20 {
		t.Fatalf("the grid is %d bytes, too small to be read in pieces", len(src))
	}
	at := bytes.LastIndex(src, []byte(`"rgba": [`))
	bad := slices.Concat(src[:at], []byte(`"rgba": ["red"`), src[at+len(`"rgba": [1`):])
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	line := bytes.Count(bad[:at], []byte("\n")) + 1
	col := at - bytes.LastIndexByte(bad[:at], '\n') + len(`"rgba": [`)
	want := fmt.Sprintf("%s:%d:%d: entities[19999].components.Color.rgba[0]: expected a number, got the string \"red\"", path, line, col)
	if code, _, errOut := runCLI("validate", path); code != 1 || !strings.Contains(errOut, want) {
		t.Fatalf("validate of the broken grid: code %d\nstderr %s\nwant %s", code, errOut, want)
	}
}
