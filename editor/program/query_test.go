package program

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// copyCubes copies testdata/cubes.json (a 20×20 grid of cubes named "Cube X,Z") into a folder of the
// test's own and returns its path.
func copyCubes(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/cubes.json")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "cubes.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// positions loads a scene and returns its entities' positions by name.
func positions(t *testing.T, path string) map[string][3]float32 {
	t.Helper()
	s, err := serialize.LoadFile(context.Background(), path, serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][3]float32{}
	names, tr := ecs.NewMap[scene.Name](s.World), ecs.NewMap[ecs.Transform](s.World)
	s.World.EachEntity(func(e ecs.Entity) bool {
		out[names.Get(e).Value] = tr.Get(e).Position
		return true
	})
	return out
}

func TestQueryCommand(t *testing.T) {
	path := copyCubes(t)
	code, out, errOut := runCLI("query", path, `name~"Cube 1,*" Transform.position.y<1`)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 20 || errOut != "" {
		t.Fatalf("exit %d, %d lines, stderr %q:\n%s", code, len(lines), errOut, out)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, path+": ") || !strings.Contains(l, `"Cube 1,`) || !strings.HasSuffix(l, "Transform.position.y=0") {
			t.Fatalf("line %q: want file, id, name and the compared value", l)
		}
	}
	code, out, _ = runCLI("query", "--json", filepath.Dir(path), `name="Cube 1,1?"`)
	var got []struct {
		File string `json:"file"`
		ID   uint64 `json:"id"`
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || len(got) != 10 {
		t.Fatalf("--json: exit %d, %v, %d objects:\n%s", code, err, len(got), out)
	}
	for _, m := range got {
		if m.File != path || m.ID == 0 || !strings.HasPrefix(m.Name, "Cube 1,1") {
			t.Fatalf("--json object %+v", m)
		}
	}
	if code, out, _ := runCLI("query", "--json", path, "Camera"); code != 1 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("no match: exit %d, %q; want 1 and []", code, out)
	}
	code, _, errOut = runCLI("query", path, "Transfrom.position.y>1")
	if code != 2 || !strings.Contains(errOut, `col 1: no component "Transfrom": did you mean Transform?`) || !strings.Contains(errOut, "\n  ^\n") {
		t.Fatalf("a misspelt component: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCLI("query", filepath.Join(t.TempDir(), "none.json"), "Spin"); code != 2 || !strings.Contains(errOut, "none.json") {
		t.Fatalf("a missing file: exit %d, stderr %q", code, errOut)
	}
	if code, _, _ := runCLI("query", path); code != 2 {
		t.Fatalf("no query: exit %d, want 2", code)
	}
}

// TestSetMovesExactlyTheMatches: the 20 cubes of row 1 move up by one; no other value and no other
// byte of the file changes.
func TestSetMovesExactlyTheMatches(t *testing.T) {
	path := copyCubes(t)
	before, _ := os.ReadFile(path)
	was := positions(t, path)
	code, out, errOut := runCLI("set", path, `name~"Cube 1,*"`, "Transform.position.y+=1")
	if code != 0 || out != path+": Transform.position.y of 20 entities\n" || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	now := positions(t, path)
	moved := 0
	for name, p := range was {
		want := p
		if strings.HasPrefix(name, "Cube 1,") {
			want[1]++
			moved++
		}
		if now[name] != want {
			t.Errorf("%s: %v, want %v", name, now[name], want)
		}
	}
	if moved != 20 {
		t.Fatalf("%d cubes in row 1, want 20", moved)
	}
	after, _ := os.ReadFile(path)
	bl, al := strings.Split(string(before), "\n"), strings.Split(string(after), "\n")
	if len(bl) != len(al) {
		t.Fatalf("%d lines before, %d after", len(bl), len(al))
	}
	changed := 0
	for i := range bl {
		if bl[i] == al[i] {
			continue
		}
		changed++
		if strings.Replace(bl[i], "[", "", 1) == strings.Replace(al[i], "[", "", 1) ||
			strings.Replace(bl[i], ", 0, ", ", 1, ", 1) != al[i] {
			t.Errorf("line %d changed more than the y value:\n%s\n%s", i+1, bl[i], al[i])
		}
	}
	if changed != 20 {
		t.Fatalf("%d lines changed, want 20", changed)
	}
}

// TestSetRoundTrips: an edit undone by its inverse edit, or by git applying its diff in reverse,
// leaves the file byte for byte as it was.
func TestSetRoundTrips(t *testing.T) {
	path := copyCubes(t)
	orig, _ := os.ReadFile(path)
	for _, e := range [][2]string{{"Transform.scale*=2", "Transform.scale/=2"}, {"Spin.speed+=10.5", "Spin.speed-=10.5"},
		{"Transform.position.x=x*4", "Transform.position.x=x/4"}} {
		if code, _, errOut := runCLI("set", path, `name~"Cube 1?,*" or name~"Cube 3,*"`, e[0]); code != 0 {
			t.Fatalf("%s: exit %d: %s", e[0], code, errOut)
		}
		if code, _, errOut := runCLI("set", path, `name~"Cube 1?,*" or name~"Cube 3,*"`, e[1]); code != 0 {
			t.Fatalf("%s: exit %d: %s", e[1], code, errOut)
		}
		if now, _ := os.ReadFile(path); !bytes.Equal(now, orig) {
			t.Fatalf("%s then %s: the file is not as it was", e[0], e[1])
		}
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git: the reverse-diff half is not checked")
	}
	dir := filepath.Dir(path)
	run := func(args ...string) string {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("init", "-q")
	run("add", "cubes.json")
	run("commit", "-qm", "cubes")
	if code, _, errOut := runCLI("set", "--seed", "3", path, "Spin", "Transform.rotation.y=rand(0, 360)"); code != 0 {
		t.Fatalf("rand: exit %d: %s", code, errOut)
	}
	diff := run("diff", "--no-ext-diff", "cubes.json")
	if n := strings.Count(diff, "\n+  "); n != 400 {
		t.Fatalf("the diff adds %d lines, want 400 (one per cube)", n)
	}
	if err := os.WriteFile(filepath.Join(dir, "edit.patch"), []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	run("apply", "-R", "edit.patch")
	if now, _ := os.ReadFile(path); !bytes.Equal(now, orig) {
		t.Fatal("the edit's diff applied in reverse does not give the file back")
	}
}

func TestSetDryRunPrintsTheDiff(t *testing.T) {
	path := copyCubes(t)
	orig, _ := os.ReadFile(path)
	code, out, errOut := runCLI("set", "--dry-run", path, `name="Cube 1,2"`, "Transform.scale=[1, 2, 1]")
	want := "--- " + path + "\n~ entity "
	if code != 0 || !strings.HasPrefix(out, want) || !strings.Contains(out, `"Cube 1,2"`) ||
		!strings.HasSuffix(out, "\n    Transform.scale: [1, 1, 1] → [1, 2, 1]\n") || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, orig) {
		t.Fatal("--dry-run wrote the file")
	}
}

// TestSetRefusals: trouble writes nothing, in no file.
func TestSetRefusals(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.json": `{"format": "voltex.scene", "version": 2, "entities": [
 {"id": 1, "name": "A", "components": {"Transform": {"position": [1, 0, 0]}, "Spin": {"speed": 5}}}]}`,
		"b.json": vcsBase,
	})
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	origA, _ := os.ReadFile(a)
	origB, _ := os.ReadFile(b)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{b, a, "Transform", "Transform.scale*=2"}, 2, "Transform.scale[0] is not written in the file"},
		{[]string{b, "Transform", "Transform.position.y/=0"}, 2, "a division by zero"},
		{[]string{b, "Transform", "Transform.position.y+="}, 2, "col 23: the edit ends before its value"},
		{[]string{b, "Transfrm", "Transform.position.y+=1"}, 2, "did you mean Transform?"},
		{[]string{b, "Camera", "Transform.position.y+=1"}, 1, "no entity matches"},
		{[]string{"-", "Spin", "Spin.speed=1"}, 2, "standard input"},
		{[]string{b, "Spin"}, 2, "need scene files"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(append([]string{"set"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("set %q: exit %d, stderr %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
	if nowA, _ := os.ReadFile(a); !bytes.Equal(nowA, origA) {
		t.Error("a.json was written")
	}
	if nowB, _ := os.ReadFile(b); !bytes.Equal(nowB, origB) {
		t.Error("b.json was written")
	}
	// A value the file holds is changed even where others are left out for their defaults.
	if code, _, errOut := runCLI("set", a, "Spin", "Spin.speed*=2"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if now, _ := os.ReadFile(a); string(now) != strings.Replace(string(origA), `"speed": 5`, `"speed": 10`, 1) {
		t.Fatalf("got\n%s", now)
	}
}

// TestQueryAndSetProjectComponents: the components a project file declares are queried and edited
// by their names, enum values and references; names are written where the file keeps them.
func TestQueryAndSetProjectComponents(t *testing.T) {
	dir := gameDir(t)
	level := filepath.Join(dir, "level.json")
	for q, want := range map[string]string{
		`Enemy.team=Enemy Health.current<50`: `"Grunt" Enemy.team=Enemy Health.current=30`,
		`Enemy.target="Play*"`:               `"Grunt" Enemy.target=1`,
		`HP.current>=100 parent:2`:           `"Scout" Health.current=100`,
	} {
		code, out, errOut := runCLI("query", level, q)
		if code != 0 || !strings.HasSuffix(out, want+"\n") || strings.Count(out, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want one line ending %q", q, code, out, errOut, want)
		}
	}
	if code, _, errOut := runCLI("query", level, "Enemy.tema=Enemy"); code != 2 || !strings.Contains(errOut, `Enemy has no field "tema": did you mean team?`) {
		t.Errorf("a misspelt field: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCLI("query", level, "Enemy.team=Enemey"); code != 2 || !strings.Contains(errOut, `col 12: Enemy.team has no value "Enemey": did you mean Enemy?`) {
		t.Errorf("a misspelt enum value: exit %d, stderr %q", code, errOut)
	}
	orig, _ := os.ReadFile(level)
	if code, out, errOut := runCLI("set", level, "Enemy", "Enemy.team=Player"); code != 0 || out != level+": Enemy.team of 2 entities\n" {
		t.Fatalf("set the team: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := runCLI("set", level, "id=3", `name="Scout \"Eye\""`); code != 0 {
		t.Fatalf("set a name: exit %d, stderr %q", code, errOut)
	}
	want := strings.Replace(string(orig), `"team": 2`, `"team": 1`, 1)
	want = strings.Replace(want, `"name": "Scout"`, `"name": "Scout \"Eye\""`, 1)
	if now, _ := os.ReadFile(level); string(now) != want {
		t.Fatalf("got\n%s\nwant\n%s", now, want)
	}
}
