package program

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/atomicfile"
	"github.com/voltex-editor/voltex/serialize"
)

// scenes for the CLI tests: a base and two edits.
const (
	vcsBase = `{"format": "voltex.scene", "version": 2, "name": "S", "entities": [
 {"id": 10, "name": "A", "order": 1, "components": {"Color": {"rgba": [1, 0, 0, 1]}, "Transform": {"position": [1, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}}},
 {"id": 20, "name": "B", "order": 2, "components": {}}]}`
	vcsOurs = `{"format": "voltex.scene", "version": 2, "name": "S", "entities": [
 {"id": 10, "name": "A", "order": 1, "components": {"Color": {"rgba": [0, 1, 0, 1]}, "Transform": {"position": [1, 2, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}}},
 {"id": 20, "name": "B", "order": 2, "components": {}},
 {"id": 30, "name": "Lamp", "parent": 20, "order": 1, "components": {}}]}`
	vcsTheirs = `{"format": "voltex.scene", "version": 2, "name": "S", "entities": [
 {"id": 10, "name": "Alpha", "order": 1, "components": {"Color": {"rgba": [0, 0, 1, 1]}, "Transform": {"position": [1, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}}},
 {"id": 20, "name": "B", "order": 2, "components": {"Spin": {"axis": [0, 1, 0], "speed": 5}}}]}`
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDiffCommand(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": vcsBase, "ours.json": vcsOurs, "not.json": `{"name": "pkg"}`, "bad.json": `{"format": "voltex.scene", "version": 2, "entities": [{"id": 1}, {"id": 1}]}`})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, out, errOut := runCLI("diff", p("base.json"), p("ours.json"))
	want := `~ entity 10 "A"
    Color.rgba: [1, 0, 0, 1] → [0, 1, 0, 1]
    Transform.position: [1, 0, 0] → [1, 2, 0]
+ entity 30 "Lamp" under 20 "B": no components
`
	if code != 1 || out != want || errOut != "" {
		t.Errorf("diff: code %d\n%s\nwant\n%s\nstderr %s", code, out, want, errOut)
	}
	if code, out, _ := runCLI("diff", p("base.json"), p("base.json")); code != 0 || out != "" {
		t.Errorf("same file: code %d, %q", code, out)
	}
	code, out, _ = runCLI("diff", "--json", p("base.json"), p("ours.json"))
	var js struct{ Changes []map[string]any }
	if code != 1 || json.Unmarshal([]byte(out), &js) != nil || len(js.Changes) != 3 || js.Changes[1]["path"] != "components.Transform.position" {
		t.Errorf("--json: code %d\n%s", code, out)
	}
	if code, _, errOut := runCLI("diff", p("base.json"), p("bad.json")); code != 2 || !strings.Contains(errOut, "bad.json:1:73: entities[1].id: duplicate id 1") {
		t.Errorf("broken file: code %d, %s", code, errOut)
	}
	if code, _, _ := runCLI("diff", p("base.json")); code != 2 {
		t.Errorf("one file: code %d", code)
	}
	// As git's external diff: seven arguments, a header, exit 0; /dev/null is an empty scene.
	code, out, _ = runCLI("diff", "--git", "level.json", p("base.json"), "abc", "100644", p("ours.json"), "def", "100644")
	if code != 0 || !strings.HasPrefix(out, "diff --voltex a/level.json b/level.json\n~ entity 10 \"A\"") {
		t.Errorf("--git: code %d\n%s", code, out)
	}
	code, out, _ = runCLI("diff", "--git", "new.json", os.DevNull, ".", ".", p("base.json"), "def", "100644")
	if code != 0 || !strings.Contains(out, `+ entity 10 "A": Color, Transform`) {
		t.Errorf("--git added file: code %d\n%s", code, out)
	}
	{
		code, out, _ = runCLI("diff", "--git", "not.json", p("not.json"), "abc", "100644", p("base.json"), "def", "100644")
		if code != 0 || !strings.Contains(out, "-{\"name\": \"pkg\"}") {
			t.Errorf("--git with a file that is not a scene: code %d\n%s", code, out)
		}
	}
}

// An empty file is not a scene: diff says so, naming it (exit 2), instead of listing the other side as all added.
// /dev/null, which git passes for an added or deleted file, stays an empty scene.
func TestDiffEmptyFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": vcsBase, "empty.json": ""})
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, args := range [][]string{{p("empty.json"), p("base.json")}, {p("base.json"), p("empty.json")}, {"--json", p("empty.json"), p("base.json")}} {
		code, out, errOut := runCLI(append([]string{"diff"}, args...)...)
		if want := p("empty.json") + ": the file is empty: not a scene"; code != 2 || out != "" || !strings.HasPrefix(errOut, want) {
			t.Errorf("diff %v: code %d, stdout %q, stderr %q; want exit 2 and %q", args, code, out, errOut, want)
		}
	}
	if code, out, errOut := runCLI("diff", os.DevNull, p("base.json")); code != 1 || !strings.Contains(out, `+ entity 10 "A": Color, Transform`) {
		t.Errorf("diff /dev/null base: code %d\n%s\nstderr %s", code, out, errOut)
	}
	if code, out, errOut := runCLI("diff", p("base.json"), os.DevNull); code != 1 || !strings.Contains(out, `- entity 10 "A"`) {
		t.Errorf("diff base /dev/null: code %d\n%s\nstderr %s", code, out, errOut)
	}
	// As git's diff driver: a deleted file is /dev/null (every entity removed); an empty file in the repository is
	// not a scene, so it is shown as git would show it.
	if code, out, _ := runCLI("diff", "--git", "level.json", p("base.json"), "abc", "100644", os.DevNull, ".", "."); code != 0 || !strings.Contains(out, `- entity 10 "A"`) {
		t.Errorf("--git deleted file: code %d\n%s", code, out)
	}
	if code, out, _ := runCLI("diff", "--git", "level.json", p("empty.json"), "abc", "100644", p("base.json"), "def", "100644"); code != 0 || !strings.Contains(out, `+{"format": "voltex.scene"`) {
		t.Errorf("--git from an empty file: code %d\n%s", code, out)
	}
}

func TestMergeCommand(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": vcsBase, "ours.json": vcsOurs, "theirs.json": vcsTheirs,
		"bad.json": `{"format": "voltex.scene", "version": 2, "entities": [{"id": 1, "parent": 7}]}`})
	p := func(n string) string { return filepath.Join(dir, n) }
	// Conflict on A's colour; everything else merges: exit 1, the record in the file, valid scene.
	out := p("out.json")
	code, _, errOut := runCLI("merge", p("base.json"), p("ours.json"), p("theirs.json"), "-o", out, "--path", "level.json")
	if code != 1 || !strings.Contains(errOut, `level.json: 1 conflict`) ||
		!strings.Contains(errOut, `entity 10 "Alpha": components.Color.rgba: ours [0, 1, 0, 1], theirs [0, 0, 1, 1] (base [1, 0, 0, 1])`) {
		t.Fatalf("merge: code %d, stderr:\n%s", code, errOut)
	}
	data, _ := os.ReadFile(out)
	for _, want := range []string{`"name": "Alpha"`, `"position": [1, 2, 0]`, `"Spin": { "axis": [0, 1, 0], "speed": 5 }`, `"name": "Lamp"`,
		`"MergeConflicts": { "items": [{ "path": "components.Color.rgba"`, `"Color": { "rgba": [0, 1, 0, 1] }`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("merged file lacks %s:\n%s", want, data)
		}
	}
	if code, _, errOut := runCLI("validate", out); code != 1 || !strings.Contains(errOut, "unresolved merge conflict: components.Color.rgba") {
		t.Errorf("validate of the conflicted file: code %d, %s", code, errOut)
	}
	if _, err := os.Stat(out + ".bak"); err == nil {
		t.Error("merge left a .bak file (git's work tree would get it)")
	}
	// Clean: exit 0, OUT may be OURS (as git's %A).
	code, _, errOut = runCLI("merge", p("base.json"), p("base.json"), p("theirs.json"), "-o", p("ours.json"))
	if code != 0 || errOut != "" {
		t.Fatalf("clean merge: code %d, %s", code, errOut)
	}
	if code, _, errOut := runCLI("validate", p("ours.json")); code != 0 {
		t.Errorf("validate of the clean merge: %s", errOut)
	}
	// A broken side: exit 2, nothing written.
	before, _ := os.ReadFile(p("ours.json"))
	code, _, errOut = runCLI("merge", p("base.json"), p("ours.json"), p("bad.json"), "-o", p("ours.json"))
	if after, _ := os.ReadFile(p("ours.json")); code != 2 || string(after) != string(before) || !strings.Contains(errOut, "bad.json:1:75: entities[0].parent: parent 7 does not exist") {
		t.Errorf("broken input: code %d, stderr %s", code, errOut)
	}
	if code, _, _ := runCLI("merge", p("base.json"), p("ours.json")); code != 2 {
		t.Errorf("usage: code %d", code)
	}
}

func TestMergeCommandFallsBackForOtherFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not installed (scripts/install-deps.sh installs it)")
	}
	doc := func(a, b int) string {
		return fmt.Sprintf("{\n  \"a\": %d,\n  \"x\": 0,\n  \"y\": 0,\n  \"b\": %d\n}\n", a, b)
	}
	dir := writeFiles(t, map[string]string{"base.json": doc(1, 1), "ours.json": doc(2, 1), "theirs.json": doc(1, 2), "clash.json": doc(3, 1)})
	p := func(n string) string { return filepath.Join(dir, n) }
	if code, _, errOut := runCLI("merge", p("base.json"), p("ours.json"), p("theirs.json"), "-o", p("out.json")); code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	if got, _ := os.ReadFile(p("out.json")); string(got) != doc(2, 2) {
		t.Errorf("merged %q", got)
	}
	if code, _, _ := runCLI("merge", p("base.json"), p("clash.json"), p("ours.json"), "-o", p("out2.json"), "--path", "x.json"); code != 1 {
		t.Errorf("conflicting text merge: code %d", code)
	}
	if got, _ := os.ReadFile(p("out2.json")); !strings.Contains(string(got), "<<<<<<< x.json (ours)") {
		t.Errorf("conflict markers: %s", got)
	}
}

func TestGitSetup(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not installed (scripts/install-deps.sh installs it)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	code, _, errOut := runCLI("git-setup", dir)
	if code != 0 {
		t.Fatalf("git-setup: %d %s", code, errOut)
	}
	attrs, _ := os.ReadFile(filepath.Join(dir, ".gitattributes"))
	if !strings.Contains(string(attrs), "\n*.json merge=voltex diff=voltex\n") {
		t.Errorf(".gitattributes:\n%s", attrs)
	}
	cfg, _ := exec.Command("git", "-C", dir, "config", "merge.voltex.driver").Output()
	if !strings.Contains(string(cfg), "' merge %O %A %B -o %A --path %P") {
		t.Errorf("merge driver %q", cfg)
	}
	cfg, _ = exec.Command("git", "-C", dir, "config", "diff.voltex.command").Output()
	if !strings.HasSuffix(strings.TrimSpace(string(cfg)), "' diff --git") {
		t.Errorf("diff command %q", cfg)
	}
	// Again: nothing added.
	code, out, _ := runCLI("git-setup", "--pattern", "*.json", dir)
	if again, _ := os.ReadFile(filepath.Join(dir, ".gitattributes")); code != 0 || string(again) != string(attrs) || !strings.Contains(out, "already set up") {
		t.Errorf("second run: code %d, %s\n%s", code, out, again)
	}
	if code, _, errOut := runCLI("git-setup", t.TempDir()); code != 1 || !strings.Contains(errOut, "not in a git work tree") {
		t.Errorf("outside a repository: code %d %s", code, errOut)
	}
}

// TestGitSetupIgnoresBackups: each save keeps the previous version as FILE.bak beside the scene; git-setup adds
// the backups of the scene pattern to the repository's .gitignore (keeping what it holds, creating it if absent,
// once), so that they stay out of commits while the scenes do not.
func TestGitSetupIgnoresBackups(t *testing.T) {
	ignored := func(dir, file string) bool {
		return exec.Command("git", "-C", dir, "check-ignore", "-q", file).Run() == nil
	}
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	gitignore := filepath.Join(dir, ".gitignore")
	if err := os.WriteFile(gitignore, []byte("bin/"), 0o644); err != nil {
		t.Fatal(err)
	}
	level := filepath.Join(dir, "levels", "level.json")
	if err := os.MkdirAll(filepath.Dir(level), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{vcsBase, vcsOurs} { // the second save keeps the first as level.json.bak
		if err := atomicfile.WriteFile(level, []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(level + ".bak"); err != nil {
		t.Fatalf("a save kept no backup: %v", err)
	}
	code, out, errOut := runCLI("git-setup", dir)
	if code != 0 || !strings.Contains(out, `.gitignore: added "*.json.bak"`) {
		t.Fatalf("git-setup: code %d\n%s\nstderr %s", code, out, errOut)
	}
	want := "bin/\n# Voltex editor: the previous version each save keeps beside a scene (voltex-editor git-setup)\n*.json.bak\n"
	if got, _ := os.ReadFile(gitignore); string(got) != want {
		t.Errorf(".gitignore:\n%s\nwant\n%s", got, want)
	}
	if !ignored(dir, level+".bak") || ignored(dir, level) {
		t.Errorf("git ignores the backup %v (want true), the scene %v (want false)", ignored(dir, level+".bak"), ignored(dir, level))
	}
	if code, out, _ := runCLI("git-setup", dir); code != 0 || !strings.Contains(out, ".gitignore: already set up") {
		t.Errorf("second run: code %d\n%s", code, out)
	}
	if got, _ := os.ReadFile(gitignore); string(got) != want {
		t.Errorf(".gitignore after a second run:\n%s", got)
	}
	// No .gitignore yet: made, with one line per scene pattern.
	dir = t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	if code, out, errOut := runCLI("git-setup", "--pattern", "*.json", "--pattern", "*.scene", dir); code != 0 {
		t.Fatalf("git-setup: code %d\n%s\nstderr %s", code, out, errOut)
	}
	got, _ := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if !strings.HasSuffix(string(got), "\n*.json.bak\n*.scene.bak\n") || !ignored(dir, "a.scene.bak") || ignored(dir, "notes.bak") {
		t.Errorf("new .gitignore:\n%s", got)
	}
	// --global: git's global ignore file (here in a home folder of the test's own).
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	if code, out, errOut := runCLI("git-setup", "--global"); code != 0 {
		t.Fatalf("git-setup --global: code %d\n%s\nstderr %s", code, out, errOut)
	}
	if got, _ := os.ReadFile(filepath.Join(home, ".config", "git", "ignore")); !strings.HasSuffix(string(got), "\n*.json.bak\n") {
		t.Errorf("global ignore file:\n%s", got)
	}
}

// git reads .gitignore and .gitattributes past a UTF-8 byte order mark: git-setup finds its lines
// on the first line of such files too, and adds nothing.
func TestGitSetupReadsAByteOrderMark(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	files := map[string]string{".gitignore": "\xEF\xBB\xBF*.json.bak\n", ".gitattributes": "\xEF\xBB\xBF*.json merge=voltex diff=voltex\r\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errOut := runCLI("git-setup", dir); code != 0 || strings.Count(out, "already set up") != 2 {
		t.Errorf("git-setup: code %d\n%s\nstderr %s", code, out, errOut)
	}
	for name, text := range files {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != text {
			t.Errorf("%s: %q, want %q", name, got, text)
		}
	}
}

// TestAdditionsApartMergeLineByLine: two people each add an entity to the same scene (new random
// ids): even git's plain line merge (no driver) merges the two files cleanly, because entities are
// listed by id and random ids land at different places; the result loads with both. With the
// sequential ids of version 1 both would have been appended at the end (a conflict): the second
// half checks that this test would see it.
func TestAdditionsApartMergeLineByLine(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not installed (scripts/install-deps.sh installs it)")
	}
	base, err := serialize.Grid(scene.DefaultGrid(), "G", 5) // 400 cubes, random ids
	if err != nil {
		t.Fatal(err)
	}
	add := func(seed uint64, name string, id uint64) []byte {
		s, err := serialize.Load(context.Background(), bytes.NewReader(base), serialize.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		scene.SeedIDs(s.World, seed)
		if id == 0 {
			id = scene.NewID(s.World)
		}
		s.World.Spawn(&scene.Name{Value: name}, &scene.SceneID{ID: id, Order: scene.NextOrder(s.World, ecs.Entity{})})
		var b bytes.Buffer
		if err := serialize.Save(context.Background(), &b, s, serialize.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	merge := func(ours, theirs []byte) ([]byte, int) {
		dir := writeFiles(t, map[string]string{"base": string(base), "ours": string(ours), "theirs": string(theirs)})
		cmd := exec.Command("git", "merge-file", "-p", filepath.Join(dir, "ours"), filepath.Join(dir, "base"), filepath.Join(dir, "theirs"))
		out, _ := cmd.Output()
		return out, cmd.ProcessState.ExitCode()
	}
	out, code := merge(add(101, "Lamp", 0), add(202, "Tree", 0))
	if code != 0 {
		t.Fatalf("git's line merge of two additions made apart: %d conflicts", code)
	}
	s, err := serialize.Load(context.Background(), bytes.NewReader(out), serialize.LoadOptions{})
	if err != nil || s.World.Len() != 402 {
		t.Fatalf("the line-merged scene: %v", err)
	}
	// Both appended after the highest id (what sequential ids did): git cannot merge that.
	if _, code := merge(add(101, "Lamp", scene.MaxID), add(202, "Tree", scene.MaxID-1)); code == 0 {
		t.Error("two entities added after the last id merged cleanly: this test cannot tell scattered ids from appended ones")
	}
}

// fifo makes a named pipe in dir that gives text to its first reader (as the shell's
// <(git show REV:level.json) does).
func fifo(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer func() { _ = f.Close() }() // what the reader got is what the test checks
		_, _ = f.WriteString(text)
	}()
	return p
}

// A side given as a pipe (its size is 0) is read, not taken for an empty scene.
func TestDiffAndMergeReadPipes(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": vcsBase, "ours.json": vcsOurs, "theirs.json": vcsTheirs})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, out, errOut := runCLI("diff", p("base.json"), fifo(t, dir, "ours-pipe", vcsOurs))
	if _, want, _ := runCLI("diff", p("base.json"), p("ours.json")); code != 1 || out != want {
		t.Errorf("diff from a pipe: code %d\n%s\nwant\n%s\nstderr %s", code, out, want, errOut)
	}
	code, _, errOut = runCLI("merge", p("base.json"), p("ours.json"), fifo(t, dir, "theirs-pipe", vcsTheirs), "-o", p("out.json"))
	got, _ := os.ReadFile(p("out.json"))
	if code != 1 || !strings.Contains(string(got), `"name": "Lamp"`) || !strings.Contains(string(got), `"Spin"`) {
		t.Errorf("merge from a pipe: code %d, stderr %s\n%s", code, errOut, got)
	}
}

// git-setup reads the attributes file it extends as a regular file within a bound: a named pipe
// called .gitattributes would block it for good.
func TestGitSetupRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	attrs := filepath.Join(dir, ".gitattributes")
	if err := syscall.Mkfifo(attrs, 0o600); err != nil {
		t.Fatal(err)
	}
	type result struct {
		code   int
		errOut string
	}
	done := make(chan result, 1)
	go func() {
		code, _, errOut := runCLI("git-setup", dir)
		done <- result{code, errOut}
	}()
	select {
	case r := <-done:
		if r.code != 1 || !strings.Contains(r.errOut, "not a regular file") {
			t.Errorf("git-setup with a named pipe for .gitattributes: code %d %s", r.code, r.errOut)
		}
	case <-time.After(time.Minute):
		if f, err := os.OpenFile(attrs, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		}
		t.Fatal("git-setup blocked on a named pipe")
	}
}

// A side that git left conflicted (a scene wrapped in conflict markers, or markers inside it) is
// refused with exit 2, naming the side and its file, and nothing is written: it used to be merged
// as text, and OUT held the markers with exit 0.
func TestMergeRefusesConflictMarkers(t *testing.T) {
	wrapped := "<<<<<<< HEAD\n" + vcsOurs + "\n=======\n" + vcsTheirs + "\n>>>>>>> lamps\n"
	inside := strings.Replace(vcsOurs, ` {"id": 20, "name": "B", "order": 2, "components": {}},`,
		"<<<<<<< HEAD\n {\"id\": 20, \"name\": \"B\", \"order\": 2, \"components\": {}},\n=======\n {\"id\": 20, \"name\": \"Bee\", \"order\": 2, \"components\": {}},\n>>>>>>> lamps", 1)
	half := "<<<<<<< HEAD\n=======\n" + vcsTheirs + "\n>>>>>>> lamps\n" // one hunk empty: no scene after the first marker
	dir := writeFiles(t, map[string]string{"base.json": vcsBase, "ours.json": vcsOurs, "theirs.json": vcsTheirs,
		"wrapped.json": wrapped, "inside.json": inside, "half.json": half})
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, marked := range []string{"wrapped.json", "inside.json", "half.json"} {
		for i, label := range []string{"base", "ours", "theirs"} {
			args := []string{p("base.json"), p("ours.json"), p("theirs.json")}
			args[i] = p(marked)
			out := p("out.json")
			_ = os.Remove(out) // absent already is as good
			for _, withPath := range []bool{false, true} {
				cmd := append([]string{"merge"}, append(args, "-o", out)...)
				file := p(marked)
				if withPath {
					cmd, file = append(cmd, "--path", "level.json"), "level.json ("+label+")"
				}
				code, _, errOut := runCLI(cmd...)
				if code != 2 || !strings.Contains(errOut, "cannot read "+label+" ("+p(marked)+")") ||
					!strings.Contains(errOut, file) || !strings.Contains(errOut, "conflict marker") {
					t.Errorf("%s as %s (--path %v): code %d, stderr:\n%s", marked, label, withPath, code, errOut)
				}
				if _, err := os.Stat(out); err == nil {
					b, _ := os.ReadFile(out)
					t.Errorf("%s as %s: OUT was written:\n%s", marked, label, b)
				}
			}
		}
	}
}

// A side that is not a scene when the others are is refused (it used to be merged as text, and
// OUT need not be a scene), naming that side, not OUT.
func TestMergeRefusesASideThatIsNotAScene(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": vcsBase, "ours.json": vcsOurs, "pkg.json": `{"name": "pkg"}`})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, _, errOut := runCLI("merge", p("base.json"), p("ours.json"), p("pkg.json"), "-o", p("out.json"), "--path", "level.json")
	if code != 2 || !strings.Contains(errOut, "cannot read theirs ("+p("pkg.json")+")") || !strings.Contains(errOut, "not a scene") {
		t.Errorf("code %d, stderr:\n%s", code, errOut)
	}
	if _, err := os.Stat(p("out.json")); err == nil {
		t.Error("OUT was written")
	}
}

// A side given as - is read from standard input, as README says of every file argument.
func TestMergeReadsStandardInput(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": vcsBase, "ours.json": vcsOurs, "theirs.json": vcsTheirs})
	p := func(n string) string { return filepath.Join(dir, n) }
	_, _, want := runCLI("merge", p("base.json"), p("ours.json"), p("theirs.json"), "-o", p("want.json"), "--path", "level.json")
	wantFile, _ := os.ReadFile(p("want.json"))
	for i, text := range []string{vcsBase, vcsOurs, vcsTheirs} {
		args := []string{"merge", p("base.json"), p("ours.json"), p("theirs.json"), "-o", p("out.json"), "--path", "level.json"}
		args[1+i] = "-"
		withStdin(t, text, func() {
			code, _, errOut := runCLI(args...)
			got, _ := os.ReadFile(p("out.json"))
			if code != 1 || errOut != want || string(got) != string(wantFile) {
				t.Errorf("side %d from standard input: code %d, stderr:\n%s\nwant:\n%s\nOUT:\n%s", i, code, errOut, want, got)
			}
		})
	}
	withStdin(t, "<<<<<<< HEAD\n"+vcsTheirs+"\n=======\n"+vcsOurs+"\n>>>>>>> x\n", func() {
		code, _, errOut := runCLI("merge", p("base.json"), p("ours.json"), "-", "-o", p("out2.json"))
		if code != 2 || !strings.Contains(errOut, "cannot read theirs (-)") || !strings.Contains(errOut, "stdin (theirs)") {
			t.Errorf("conflicted standard input: code %d, stderr:\n%s", code, errOut)
		}
	})
	if code, _, errOut := runCLI("merge", "-", "-", p("theirs.json"), "-o", p("out3.json")); code != 2 || !strings.Contains(errOut, "one side only") {
		t.Errorf("two sides from standard input: code %d, %s", code, errOut)
	}
}

// merge loads what it merged before writing it: a merged scene that does not load (here a side
// holds a component value of the wrong type, which the sides' reader does not check) is refused
// with exit 2 and the loader's problems, and OUT is left as it was.
func TestMergeChecksWhatItWrites(t *testing.T) {
	bad := strings.Replace(vcsTheirs, `"Spin": {"axis": [0, 1, 0], "speed": 5}`, `"Spin": {"axis": [0, 1, 0], "speed": "fast"}`, 1)
	dir := writeFiles(t, map[string]string{"base.json": vcsBase, "ours.json": vcsOurs, "theirs.json": bad})
	p := func(n string) string { return filepath.Join(dir, n) }
	before, _ := os.ReadFile(p("ours.json"))
	code, _, errOut := runCLI("merge", p("base.json"), p("ours.json"), p("theirs.json"), "-o", p("ours.json"), "--path", "level.json")
	if code != 2 || !strings.Contains(errOut, "level.json: the merged scene does not load") ||
		!strings.Contains(errOut, "level.json (merged):") || !strings.Contains(errOut, "Spin.speed") {
		t.Errorf("code %d, stderr:\n%s", code, errOut)
	}
	if after, _ := os.ReadFile(p("ours.json")); string(after) != string(before) {
		t.Errorf("OUT changed:\n%s", after)
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(tmps) > 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
}

// An instance unpacked on one branch and overridden on the other: merge keeps the unpacked
// entities and records the override as a conflict (exit 1), and the file loads with its prefab
// (validate lists only the conflicts). An unpack undone on one side (an instance again where base
// has plain entities) cannot be merged without the prefab: exit 2, nothing written.
func TestMergeUnpackedInstance(t *testing.T) {
	body, weapon := scene.InstanceID(10, 1), scene.InstanceID(10, 2)
	const prefab = `{"format": "voltex.scene", "version": 2, "name": "Enemy", "entities": [
 {"id": 1, "name": "Body", "order": 1, "components": {"Color": {"rgba": [1, 0, 0, 1]}}},
 {"id": 2, "name": "Weapon", "parent": 1, "order": 1, "components": {"Color": {"rgba": [0, 0, 1, 1]}}}]}`
	instance := func(records string) string {
		return `{"format": "voltex.scene", "version": 2, "name": "L", "entities": [
 {"id": 10, "name": "Enemy", "order": 1, "prefab": "enemy.json", "components": {}}` + records + `]}`
	}
	plain := func(weaponName string) string {
		return fmt.Sprintf(`{"format": "voltex.scene", "version": 2, "name": "L", "entities": [
 {"id": 10, "name": "Enemy", "order": 1, "components": {}},
 {"id": %d, "name": "Body", "parent": 10, "order": 1, "components": {"Color": {"rgba": [1, 0, 0, 1]}}},
 {"id": %d, "name": %q, "parent": %d, "order": 1, "components": {"Color": {"rgba": [0, 0, 1, 1]}}}]}`, body, weapon, weaponName, body)
	}
	green := fmt.Sprintf(`, {"id": %d, "instance": 10, "source": 2, "components": {"Color": {"rgba": [0, 1, 0, 1]}}}`, weapon)
	dir := writeFiles(t, map[string]string{"enemy.json": prefab, "base.json": instance(""), "ours.json": plain("Weapon"),
		"theirs.json": instance(green), "plain.json": plain("Weapon"), "renamed.json": plain("Sword")})
	p := func(n string) string { return filepath.Join(dir, n) }
	out := p("level.json")
	code, _, errOut := runCLI("merge", p("base.json"), p("ours.json"), p("theirs.json"), "-o", out)
	if code != 1 || !strings.Contains(errOut, `entity 10 "Enemy": prefab: ours (absent), theirs "enemy.json" (base "enemy.json")`) ||
		!strings.Contains(errOut, fmt.Sprintf(`entity %d "Weapon": override: ours { "name": "Weapon", "components": { "Color": { "rgba": [0, 0, 1, 1] } } }, theirs { "components": { "Color": { "rgba": [0, 1, 0, 1] } } } (base (absent))`, weapon)) {
		t.Fatalf("unpacked against an override: code %d, stderr:\n%s", code, errOut)
	}
	code, _, errOut = runCLI("validate", out)
	if code != 1 || strings.Count(errOut, "unresolved merge conflict") != 2 || strings.Count(errOut, "\n") != 2 {
		t.Errorf("validate of the merge: code %d, stderr:\n%s", code, errOut)
	}
	_ = os.Remove(out) // absent already is as good
	code, _, errOut = runCLI("merge", p("plain.json"), p("base.json"), p("renamed.json"), "-o", out)
	if code != 2 || !strings.Contains(errOut, "plain in base and an instance of enemy.json on one side") || !strings.Contains(errOut, "merge this file by hand") {
		t.Errorf("an unpack undone: code %d, stderr:\n%s", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("OUT was written")
	}
}

// diff reads a side given as - from standard input too.
func TestDiffReadsStandardInput(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": vcsBase, "ours.json": vcsOurs})
	p := func(n string) string { return filepath.Join(dir, n) }
	_, want, _ := runCLI("diff", p("base.json"), p("ours.json"))
	withStdin(t, vcsOurs, func() {
		if code, out, errOut := runCLI("diff", p("base.json"), "-"); code != 1 || out != want {
			t.Errorf("diff from standard input: code %d\n%s\nwant\n%s\nstderr %s", code, out, want, errOut)
		}
	})
	if code, _, errOut := runCLI("diff", "-", "-"); code != 2 || !strings.Contains(errOut, "one side only") {
		t.Errorf("both sides from standard input: code %d, %s", code, errOut)
	}
}
