package program

import (
	"bytes"
	"fmt"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/serialize/game"
)

// gameDir copies serialize's declared-components test data (a project file and a level) into a
// fresh folder and returns it.
func gameDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"voltex.project.json", "level.json"} {
		data, err := os.ReadFile(repoFile("serialize/testdata/declared/" + name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestValidateWithProjectFile(t *testing.T) {
	dir := gameDir(t)
	level := filepath.Join(dir, "level.json")
	code, out, errOut := runCLI("validate", level, filepath.Join(dir, "voltex.project.json"))
	if code != 0 || !strings.Contains(out, `level.json: ok: scene "Level", 3 entities`) ||
		!strings.Contains(out, "voltex.project.json: ok: project file, 4 components") {
		t.Fatalf("code %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	// A scene in a sub-folder finds the project file above it.
	sub := filepath.Join(dir, "levels", "misspelt.json")
	writeFile(t, sub, `{"format": "voltex.scene", "version": 1, "entities": [{"id": 1, "components": {"Helth": {}}}]}`)
	code, _, errOut = runCLI("validate", sub)
	if code != 1 || !strings.Contains(errOut, sub+`:1:80: entities[0].components.Helth: unknown component "Helth" (did you mean "Health"?)`) {
		t.Fatalf("misspelt: code %d, stderr %s", code, errOut)
	}
	unknown := filepath.Join(dir, "levels", "unknown.json")
	writeFile(t, unknown, `{"format": "voltex.scene", "version": 1, "entities": [{"id": 1, "components": {"Spawner": {}}}]}`)
	if code, _, errOut := runCLI("validate", unknown); code != 0 || !strings.Contains(errOut, `warning: entities[0].components.Spawner: unknown component "Spawner"`) {
		t.Fatalf("unknown: code %d, stderr %s", code, errOut)
	}
	if code, _, errOut := runCLI("validate", "--strict", unknown); code != 1 || !strings.Contains(errOut, `unknown component "Spawner": no registered type or project file declares it`) {
		t.Fatalf("strict: code %d, stderr %s", code, errOut)
	}
	// A misspelt field is an error with a suggestion.
	field := filepath.Join(dir, "field.json")
	writeFile(t, field, `{"format": "voltex.scene", "version": 1, "entities": [{"id": 1, "components": {"Health": {"maxx": 3}}}]}`)
	if code, _, errOut := runCLI("validate", field); code != 1 || !strings.Contains(errOut, `unknown field; did you mean "max"?`) {
		t.Fatalf("field: code %d, stderr %s", code, errOut)
	}
	// Without the project file the same level's components are unknown (kept, warned).
	plain := filepath.Join(t.TempDir(), "level.json")
	data, _ := os.ReadFile(level)
	writeFile(t, plain, string(data))
	if code, _, errOut := runCLI("validate", plain); code != 0 || !strings.Contains(errOut, `unknown component "Enemy"`) {
		t.Fatalf("no project: code %d, stderr %s", code, errOut)
	}
}

func TestBrokenProjectFile(t *testing.T) {
	dir := gameDir(t)
	pf := filepath.Join(dir, "voltex.project.json")
	writeFile(t, pf, `{"format": "voltex.project", "version": 1, "components": [
  {"name": "Health", "fields": [{"name": "hp", "type": "flaot"}]}]}`)
	level := filepath.Join(dir, "level.json")
	for _, args := range [][]string{{"validate", level, level}, {"export", level, "-o", filepath.Join(dir, "x.json")},
		{"fmt", level}, {"validate", pf}} {
		code, _, errOut := runCLI(args...)
		want := pf + `:2:56: components[0].fields[0].type: unknown type "flaot" (did you mean "float"?)`
		if code != 1 || strings.Count(errOut, want) != 1 {
			t.Errorf("%v: code %d, stderr:\n%s\nwant once: %s", args, code, errOut, want)
		}
	}
}

func TestExportWithProjectFile(t *testing.T) {
	dir := gameDir(t)
	out := filepath.Join(dir, "level.export.json")
	if code, _, errOut := runCLI("export", filepath.Join(dir, "level.json"), "-o", out); code != 0 {
		t.Fatalf("export: %d %s", code, errOut)
	}
	s, err := game.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var e struct {
		Target int `json:"target"`
	}
	if err := s.Entities[1].Decode("Enemy", &e); err != nil || s.Entities[1].Name != "Grunt" || e.Target != 0 {
		t.Fatalf("Grunt %+v targets %d (%v); want the Player, index 0", s.Entities[1], e.Target, err)
	}
}

// fmt -w DIR rewrites every scene below DIR: renamed components and fields get their new names;
// exports, project files and other JSON are left alone.
func TestFmtFolderRenames(t *testing.T) {
	dir := gameDir(t)
	old := `{"format": "voltex.scene", "version": 1, "entities": [{"id": 1, "components": {"HP": {"current": 3, "maximum": 9}}}]}`
	writeFile(t, filepath.Join(dir, "a", "one.json"), old)
	writeFile(t, filepath.Join(dir, "a", "b", "two.json"), old)
	other := `{"name": "not a scene"}`
	writeFile(t, filepath.Join(dir, "a", "package.json"), other)
	if code, _, errOut := runCLI("export", filepath.Join(dir, "level.json"), "-o", filepath.Join(dir, "a", "level.export.json")); code != 0 {
		t.Fatal(errOut)
	}
	exp, _ := os.ReadFile(filepath.Join(dir, "a", "level.export.json"))
	proj, _ := os.ReadFile(filepath.Join(dir, "voltex.project.json"))
	code, out, errOut := runCLI("fmt", "-l", dir)
	if code != 0 || !strings.Contains(out, filepath.Join(dir, "a", "one.json")) || !strings.Contains(out, filepath.Join(dir, "a", "b", "two.json")) ||
		strings.Contains(out, "level.json") || strings.Contains(out, "package.json") {
		t.Fatalf("fmt -l: code %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if code, _, errOut := runCLI("fmt", "-w", dir); code != 0 {
		t.Fatalf("fmt -w: %d %s", code, errOut)
	}
	for _, p := range []string{filepath.Join(dir, "a", "one.json"), filepath.Join(dir, "a", "b", "two.json")} {
		got, _ := os.ReadFile(p)
		if !strings.Contains(string(got), `"Health": { "current": 3, "max": 9 }`) {
			t.Errorf("%s:\n%s", p, got)
		}
	}
	for p, want := range map[string][]byte{filepath.Join(dir, "a", "package.json"): []byte(other),
		filepath.Join(dir, "a", "level.export.json"): exp, filepath.Join(dir, "voltex.project.json"): proj} {
		if got, _ := os.ReadFile(p); string(got) != string(want) {
			t.Errorf("%s was changed", p)
		}
	}
	if code, out, _ := runCLI("fmt", "-l", dir); code != 0 || out != "" {
		t.Fatalf("after fmt -w, fmt -l lists %q", out)
	}
}

func TestGen(t *testing.T) {
	dir := gameDir(t)
	code, out, errOut := runCLI("gen", "-pkg", "mygame", filepath.Join(dir, "voltex.project.json"))
	if code != 0 || !strings.Contains(out, "package mygame") || !strings.Contains(out, "type Enemy struct {") ||
		!strings.Contains(out, "func Register(w *ecs.World) {") {
		t.Fatalf("gen: code %d\n%s\n%s", code, out, errOut)
	}
	dst := filepath.Join(dir, "components_gen.go")
	if code, out, _ := runCLI("gen", "-o", dst, filepath.Join(dir, "voltex.project.json")); code != 0 || !strings.Contains(out, "4 components") {
		t.Fatalf("gen -o: %d %s", code, out)
	}
	if data, _ := os.ReadFile(dst); !strings.Contains(string(data), "package components") {
		t.Fatalf("gen -o wrote %s", data)
	}
	if code, _, errOut := runCLI("gen", filepath.Join(dir, "level.json")); code != 1 || !strings.Contains(errOut, "level.json:") {
		t.Fatalf("gen of a scene: %d %s", code, errOut)
	}
}

// A game's Go components are known to every subcommand, and a project file that declares one of
// them differently is an error that says so.
func TestGameComponents(t *testing.T) {
	type Loot struct {
		Gold int32 `json:"gold" voltex:"min=0"`
	}
	g := Game{Register: func(w *ecs.World) { ecs.Register[Loot](w) }}
	dir := t.TempDir()
	level := filepath.Join(dir, "level.json")
	writeFile(t, level, `{"format": "voltex.scene", "version": 1, "entities": [{"id": 1, "components": {"Loot": {"gold": 5}}}]}`)
	var out, errOut bytes.Buffer
	if code := Run(g, []string{"validate", level}, &out, &errOut); code != 0 || errOut.Len() != 0 {
		t.Fatalf("with the game's types: code %d, stderr %s", code, errOut.String())
	}
	if code, _, errOut := runCLI("validate", level); code != 0 || !strings.Contains(errOut, `unknown component "Loot"`) {
		t.Fatalf("the stock program: code %d, stderr %s", code, errOut)
	}
	writeFile(t, filepath.Join(dir, "voltex.project.json"), `{"format": "voltex.project", "version": 1,
  "components": [{"name": "Loot", "fields": [{"name": "gold", "type": "float"}]}]}`)
	out.Reset()
	errOut.Reset()
	if code := Run(g, []string{"validate", level}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), `component Loot is also registered in Go (program.Loot), differently: field "gold": the file makes it float32, Go has int32`) {
		t.Fatalf("a disagreeing declaration: code %d, stderr %s", code, errOut.String())
	}
}

// validate checks an export's game components the way the game will decode them (serialize.SpawnExport with the
// project file's components): a value the game would refuse fails validation, naming the file and the field.
func TestValidateExportWithProjectFile(t *testing.T) {
	dir := gameDir(t)
	out := filepath.Join(dir, "level.export.json")
	if code, _, errOut := runCLI("export", filepath.Join(dir, "level.json"), "-o", out); code != 0 {
		t.Fatalf("export: %d %s", code, errOut)
	}
	if code, stdout, errOut := runCLI("validate", out); code != 0 || !strings.Contains(stdout, "level.export.json: ok: export, 3 entities") {
		t.Fatalf("a good export: code %d\n%s%s", code, stdout, errOut)
	}
	data, _ := os.ReadFile(out)
	bad := strings.Replace(string(data), `"team": 2`, `"team": 7`, 1)
	if bad == string(data) {
		t.Fatalf("no team 2 in the export:\n%s", data)
	}
	writeFile(t, out, bad)
	// At the file:line:col of the 7 (before, the game loader had lost the positions of component values).
	at := strings.Index(bad, `"team": 7`)
	if at < 0 {
		t.Fatalf("no team 7 in the broken export:\n%s", bad)
	}
	line := strings.Count(bad[:at], "\n") + 1
	col := at - strings.LastIndex(bad[:at], "\n") + len(`"team": `)
	if code, _, errOut := runCLI("validate", out); code != 1 || !strings.Contains(errOut, fmt.Sprintf("%s:%d:%d: entities[", out, line, col)) ||
		!strings.Contains(errOut, ".team: 7 is not a value of") {
		t.Fatalf("an enum value the game refuses: code %d, stderr:\n%s", code, errOut)
	}
}
