package e2e

import (
	"cmp"
	"context"
	"errors"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// gitEnv is the environment for git in a test: the built voltex-editor first on PATH, a private
// HOME (no user or global git config), and an author.
func gitEnv(t *testing.T) []string {
	bin := guitest.Binary(t)
	home := t.TempDir()
	return append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com", "GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com")
}

// readmeBlock returns the first ```sh block of README.md after the heading.
func readmeBlock(t *testing.T, heading string) string {
	data, err := os.ReadFile(repoPath("README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no %q section", heading)
	}
	_, block, ok := strings.Cut(after, "```sh\n")
	if !ok {
		t.Fatal("no ```sh block in the section")
	}
	block, _, _ = strings.Cut(block, "```")
	return block
}

// TestReadmeScenesInGit runs the README's "Scenes in git" session as written, in a fresh folder, with
// the built binary: the clean merge validates, the conflicting one exits non-zero and leaves a file
// that validate refuses.
func TestReadmeScenesInGit(t *testing.T) {
	script := readmeBlock(t, "## Scenes in git")
	dir := t.TempDir()
	cmd := exec.Command("bash", "-e", "-c", script)
	cmd.Dir, cmd.Env = dir, gitEnv(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README session failed: %v\n%s\nscript:\n%s", err, out, script)
	}
	text := string(out)
	for _, want := range []string{"level.json: ok: scene", "diff --voltex a/level.json b/level.json", `name: "Cube 0,0" → "Lamp"`,
		"Color.rgba: [1, 1, 1, 1] → [1, 0.9, 0.5, 1]", "CONFLICT (content): Merge conflict in level.json", `name: ours "Right", theirs "Left"`,
		"conflict\n", "unresolved merge conflict: name", "unresolved\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the session's output lacks %q:\n%s", want, text)
		}
	}
	level, _ := os.ReadFile(filepath.Join(dir, "level", "level.json"))
	for _, want := range []string{`"name": "Lamp"`, `"name": "Statue"`, `"name": "Right"`, `"MergeConflicts"`} {
		if !strings.Contains(string(level), want) {
			t.Errorf("level.json lacks %s", want)
		}
	}
}

// gitRun runs git in dir and returns its output and exit code.
func gitRun(t *testing.T, dir string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	}
	t.Fatalf("git %v: %v", args, err)
	return "", -1
}

func mustGit(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	out, code := gitRun(t, dir, env, args...)
	if code != 0 {
		t.Fatalf("git %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// editScene edits a scene file as the editor would (read, change, write canonically).
func editScene(t *testing.T, path string, edit func(s *serialize.RawScene)) {
	t.Helper()
	s, err := serialize.ReadRawFile(context.Background(), path, serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	edit(s)
	slices.SortFunc(s.Entities, func(a, b serialize.RawEntity) int { return cmp.Compare(a.ID, b.ID) })
	if err := serialize.WriteRawFile(context.Background(), path, s); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(path + ".bak") // absent already is as good
}

func byName(s *serialize.RawScene, name string) *serialize.RawEntity {
	for i := range s.Entities {
		if s.Entities[i].Name == name {
			return &s.Entities[i]
		}
	}
	return nil
}

// addEntity adds a root entity named name, after the other roots, with a new random id.
func addEntity(s *serialize.RawScene, name string, rgba string) {
	ids := scene.RandomIDs()
	s.Entities = append(s.Entities, serialize.RawEntity{ID: int64(ids.New()), Name: name, HasName: true, Order: 100,
		Components: []scene.RawComponent{{Name: "Color", JSON: `{ "rgba": ` + rgba + ` }`}, {Name: "Mesh", JSON: `{ "asset": "builtin:sphere" }`},
			{Name: "Transform", JSON: `{ "position": [0, 3, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] }`}}})
}

func rename(from, to string) func(*serialize.RawScene) {
	return func(s *serialize.RawScene) { byName(s, from).Name = to }
}

// TestGitMergeWithTheDriverAndResolveInEditor: a real git repository with the drivers set up by
// git-setup. Two branches edit and add entities: git merge (through the driver) gives a scene that
// validates and has both sides' work. Then a conflicting merge exits non-zero; the editor opens the
// file, marks the entity and shows the conflict; the user clicks Use Theirs and saves; validate
// passes and the merge commits.
func TestGitMergeWithTheDriverAndResolveInEditor(t *testing.T) {
	t.Parallel() // it owns its Xvfb
	env := gitEnv(t)
	bin := guitest.Binary(t)
	dir := t.TempDir()
	level := filepath.Join(dir, "level.json")
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	mustGit(t, dir, env, "init", "-q", "-b", "main")
	if out, code := run("grid", "--nx", "3", "--nz", "3", "-o", "level.json"); code != 0 {
		t.Fatal(out)
	}
	if out, code := run("git-setup"); code != 0 { // its .gitignore keeps level.json.bak (each save's backup) out
		t.Fatal(out)
	}
	mustGit(t, dir, env, "add", ".")
	mustGit(t, dir, env, "commit", "-qm", "level")

	// Two branches edit and add entities.
	mustGit(t, dir, env, "switch", "-q", "-c", "feature")
	editScene(t, level, func(s *serialize.RawScene) {
		rename("Cube 0,0", "Lamp")(s)
		addEntity(s, "Tree", "[0.2, 0.8, 0.2, 1]")
	})
	mustGit(t, dir, env, "commit", "-qam", "lamp and tree")
	mustGit(t, dir, env, "switch", "-q", "main")
	editScene(t, level, func(s *serialize.RawScene) {
		e := byName(s, "Cube 0,0") // the same entity as the Lamp: another field of it
		for i, c := range e.Components {
			if c.Name == "Transform" {
				e.Components[i].JSON = `{ "position": [-1.5, 2, -1.5], "rotation": [0, 0, 0], "scale": [1, 1, 1] }`
			}
		}
		addEntity(s, "Rock", "[0.5, 0.5, 0.5, 1]")
	})
	mustGit(t, dir, env, "commit", "-qam", "moved and rock")
	if out, code := gitRun(t, dir, env, "merge", "feature", "-m", "merge feature"); code != 0 {
		t.Fatalf("the clean merge failed (exit %d):\n%s", code, out)
	}
	if out, code := run("validate", "level.json"); code != 0 {
		t.Fatalf("merged scene does not validate:\n%s", out)
	}
	merged, err := serialize.ReadRawFile(context.Background(), level, serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lamp := byName(merged, "Lamp")
	if lamp == nil || byName(merged, "Tree") == nil || byName(merged, "Rock") == nil || len(merged.Entities) != 11 {
		t.Fatalf("the merge lost work: %d entities, lamp %v", len(merged.Entities), lamp)
	}
	if js, _ := lamp.Component("Transform"); !strings.Contains(js, "[-1.5, 2, -1.5]") {
		t.Errorf("the Lamp lost main's move: %s", js)
	}
	if out := mustGit(t, dir, env, "diff", "HEAD~1", "--", "level.json"); !strings.Contains(out, `+ entity`) || !strings.Contains(out, `"Tree"`) {
		t.Errorf("git diff through the driver:\n%s", out)
	}

	// A conflict: both branches rename the same cube.
	mustGit(t, dir, env, "switch", "-q", "-c", "left")
	editScene(t, level, rename("Cube 1,1", "Left"))
	mustGit(t, dir, env, "commit", "-qam", "left")
	mustGit(t, dir, env, "switch", "-q", "main")
	editScene(t, level, rename("Cube 1,1", "Right"))
	mustGit(t, dir, env, "commit", "-qam", "right")
	out, code := gitRun(t, dir, env, "merge", "left", "-m", "merge left")
	if code == 0 || !strings.Contains(out, "CONFLICT") {
		t.Fatalf("the conflicting merge exited %d:\n%s", code, out)
	}
	if out, code := run("validate", "level.json"); code == 0 || !strings.Contains(out, "unresolved merge conflict: name") {
		t.Fatalf("validate of the conflicted scene: exit %d\n%s", code, out)
	}

	// The editor shows the conflict; the user picks theirs and saves.
	d := guitest.StartDisplay(t, 1600, 1000)
	e := guitest.Launch(t, d, "--size", "1600x1000", "--settings", t.TempDir(), level)
	failShot(t, e, t.Name())
	p := e.WaitProbe(20*time.Second, "the conflicted row", func(p *guitest.Probe) bool {
		r, ok := p.Row("Right")
		return ok && r.Conflict && p.Conflicts == 1
	})
	if !strings.Contains(strings.Join(p.Console, "\n"), `"Right"`) {
		t.Errorf("the console does not list the conflict: %q", p.Console)
	}
	row, _ := p.Row("Right")
	e.Click(row.X+row.W/2, row.Y+row.H/2, 1)
	p = e.WaitProbe(10*time.Second, "the conflict in the inspector", func(p *guitest.Probe) bool {
		_, ok := p.Inspector["conflict:name:Use Theirs"]
		return ok
	})
	if w := p.Inspector["conflict:name"]; w.Shown != "name" {
		t.Errorf("the inspector's conflict row: %+v", w)
	}
	shot := e.ScreenshotOf(p)
	if c := guitest.CountPixels(shot, p.Inspector["conflict:name"].Image(), func(c color.RGBA) bool { return c.R > 200 && c.G < 130 && c.B < 130 }); c == 0 {
		t.Error("the conflict is not drawn in red")
	}
	b := p.Inspector["conflict:name:Use Theirs"]
	e.Click(b.X+b.W/2, b.Y+b.H/2, 1)
	e.WaitProbe(10*time.Second, "resolved", func(p *guitest.Probe) bool {
		_, ok := p.Row("Left")
		return ok && p.Conflicts == 0 && p.Dirty
	})
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	if out, code := run("validate", "level.json"); code != 0 {
		t.Fatalf("validate after resolving in the editor:\n%s", out)
	}
	mustGit(t, dir, env, "add", "level.json")
	mustGit(t, dir, env, "commit", "-qm", "merge left")
	if st := mustGit(t, dir, env, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not clean after the merge commit:\n%s", st)
	}
}
