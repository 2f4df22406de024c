package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestResolveEveryKindOfConflictInEditor: testdata/mergekinds holds a base level (a parent with two
// children, another root with a child, a prefab instance) and two edits of it that conflict in every
// way: the same field changed two ways (A's position), deleted on one side and changed on the other
// (B), two moves that would make a parent cycle (ours puts P under X, theirs X under A, a child of
// P), and both sides overriding the same field of a prefab's entity (the Sword's colour). merge
// records them (exit 1); the editor opens the file with every conflicted entity marked and visible
// (the Sword is inside the instance, A and B under collapsed parents), the user resolves each with
// the Inspector's buttons — Use Theirs on the cycle is refused and changes nothing, a resolve is
// undone and redone — saves, and validate passes with the chosen values and no record left.
func TestResolveEveryKindOfConflictInEditor(t *testing.T) {
	t.Parallel() // it owns its Xvfb
	bin := guitest.Binary(t)
	src := repoPath("cmd/voltex-editor/e2e/testdata/mergekinds")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "props"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"base.json", "ours.json", "theirs.json", "props/enemy.json"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	out, code := run("merge", "base.json", "ours.json", "theirs.json", "-o", "level.json")
	if code != 1 || !strings.Contains(out, "4 conflicts") {
		t.Fatalf("merge: exit %d\n%s", code, out)
	}
	out, code = run("validate", "level.json")
	for _, want := range []string{"conflict: components.Transform.position", "conflict: entity", "conflict: place", "conflict: components.Color.rgba"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("validate of the merged level (exit %d) does not report %q:\n%s", code, want, out)
		}
	}

	d := guitest.StartDisplay(t, 1600, 1000)
	e := guitest.Launch(t, d, "--size", "1600x1000", "--settings", t.TempDir(), filepath.Join(dir, "level.json"))
	failShot(t, e, t.Name())
	p := e.WaitProbe(20*time.Second, "four conflicts, each on a marked row", func(p *guitest.Probe) bool {
		n := 0
		for _, r := range p.Hierarchy {
			if r.Conflict {
				n++
			}
		}
		return p.Conflicts == 4 && n == 4
	})
	for _, name := range []string{"A", "B", "X", "Sword"} {
		if r, _ := p.Row(name); !r.Conflict {
			t.Errorf("%s is not marked: %+v", name, p.Hierarchy)
		}
	}
	console := strings.Join(p.Console, "\n")
	for _, want := range []string{`"A" (id 101): Transform.position`, `"B" (id 102): deleted on one side`, `"X" (id 200): parent and order`, `"Sword"`} {
		if !strings.Contains(console, want) {
			t.Errorf("the console does not list %s:\n%s", want, console)
		}
	}
	// resolve selects the row and presses one of the conflict's buttons.
	resolve := func(row, path, how string) {
		t.Helper()
		r, ok := p.Row(row)
		if !ok {
			t.Fatalf("no row %q: %+v", row, p.Hierarchy)
		}
		e.Click(r.X+r.W/2, r.Y+r.H/2, 1)
		key := "conflict:" + path + ":" + how
		p = e.WaitProbe(10*time.Second, key, func(p *guitest.Probe) bool { return p.Inspector[key].W > 0 })
		b := p.Inspector[key]
		e.Click(b.X+b.W/2, b.Y+b.H/2, 1)
		p = e.WaitFrames(2)
	}
	resolve("Sword", "components.Color.rgba", "Use Theirs")
	if p.Conflicts != 3 || p.UndoDepth != 1 {
		t.Fatalf("after Use Theirs on the Sword: %d conflicts, %d undo steps", p.Conflicts, p.UndoDepth)
	}
	e.Key("ctrl+z")
	p = e.WaitProbe(10*time.Second, "the resolve undone", func(p *guitest.Probe) bool { return p.Conflicts == 4 && p.UndoDepth == 0 })
	e.Key("ctrl+y")
	p = e.WaitProbe(10*time.Second, "the resolve redone", func(p *guitest.Probe) bool { return p.Conflicts == 3 && p.UndoDepth == 1 })

	resolve("X", "place", "Use Theirs") // X under A would close a cycle: refused
	if p.Conflicts != 3 || p.UndoDepth != 1 || !strings.Contains(strings.Join(p.Console, "\n"), "cannot become a child of itself or of its descendants") {
		t.Fatalf("Use Theirs on the cycle: %d conflicts, %d undo steps, console %q", p.Conflicts, p.UndoDepth, p.Console)
	}
	resolve("X", "place", "Use Ours")
	resolve("A", "components.Transform.position", "Use Theirs")
	resolve("B", "entity", "Use Ours") // ours deleted it
	p = e.WaitProbe(10*time.Second, "all resolved", func(p *guitest.Probe) bool { return p.Conflicts == 0 && p.Dirty })
	if _, ok := p.Row("B"); ok || !strings.Contains(strings.Join(p.Console, "\n"), "all merge conflicts are resolved") {
		t.Errorf("after resolving all: rows %+v, console %q", p.Hierarchy, p.Console)
	}
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	if out, code := run("validate", "level.json"); code != 0 {
		t.Fatalf("validate after resolving in the editor (exit %d):\n%s", code, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "level.json"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{`"position": [5, 5, 5]`, `"rgba": [0, 0, 1, 1]`, `"name": "OursNew"`, `"name": "TheirsNew"`, `"name": "BodyO"`, `"scale": [2, 2, 2]`} {
		if !strings.Contains(text, want) {
			t.Errorf("the saved level lacks %s:\n%s", want, text)
		}
	}
	for _, bad := range []string{"MergeConflicts", `"name": "B"`, `"parent": 101`} {
		if strings.Contains(text, bad) {
			t.Errorf("the saved level still has %s:\n%s", bad, text)
		}
	}
}
