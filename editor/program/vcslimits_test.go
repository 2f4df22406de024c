package program

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/merge"
)

// Every scene the editor can save can be compared and merged (git's drivers run on it): diff and
// merge read each side within the scene limits, not lower ones. TestPeakRSSGitDrivers1M (make
// bench) runs both drivers on 1,000,000-cube sides.
func TestSidesReadWithinTheSceneLimits(t *testing.T) {
	got, want := sideOptions(serialize.LoadOptions{}, "a.json").Limits, serialize.DefaultLimits()
	if got.MaxFileSize != want.MaxFileSize || got.MaxEntities != want.MaxEntities {
		t.Errorf("a side is read within %d bytes and %d entities; a scene may have %d and %d",
			got.MaxFileSize, got.MaxEntities, want.MaxFileSize, want.MaxEntities)
	}
}

// diff and merge have limits of their own (docs/limits.md): a side over merge.SideLimits is refused
// with a note naming them, a merge past MaxConflicts writes nothing (exit 2), a diff past MaxChanges
// shows the first ones and says so.
func TestDiffAndMergeLimits(t *testing.T) {
	lim, conflicts, changes := merge.SideLimits, merge.MaxConflicts, merge.MaxChanges
	t.Cleanup(func() { merge.SideLimits, merge.MaxConflicts, merge.MaxChanges = lim, conflicts, changes })
	dir := writeFiles(t, map[string]string{"base.json": vcsBase, "ours.json": vcsOurs, "theirs.json": vcsTheirs})
	p := func(n string) string { return filepath.Join(dir, n) }
	out := p("out.json")

	merge.MaxConflicts = 0 // vcsOurs and vcsTheirs conflict in Color.rgba
	code, _, stderr := runCLI("merge", p("base.json"), p("ours.json"), p("theirs.json"), "-o", out)
	if code != 2 || !strings.Contains(stderr, "the sides conflict in more than 0 values (the limit of merge); nothing was written") {
		t.Errorf("conflicts: code %d\n%s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a merge past MaxConflicts wrote its output")
	}
	merge.MaxConflicts = conflicts

	merge.MaxChanges = 1
	code, stdout, stderr := runCLI("diff", p("base.json"), p("ours.json"))
	if code != 1 || strings.Count(stdout, "\n") != 2 || !strings.Contains(stderr, "more than 1 changes: only the first 1 are shown") {
		t.Errorf("changes: code %d\n%s%s", code, stdout, stderr)
	}
	merge.MaxChanges = changes

	merge.SideLimits.MaxEntities = 1
	for _, args := range [][]string{{"diff", p("base.json"), p("ours.json")}, {"merge", p("base.json"), p("ours.json"), p("theirs.json"), "-o", out}} {
		code, _, stderr := runCLI(args...)
		if code != 2 || !strings.Contains(stderr, "more than the limit of 1 entities") || !strings.Contains(stderr, "(diff and merge read each side within 1 GiB and 1 entities") {
			t.Errorf("%s: code %d\n%s", args[0], code, stderr)
		}
	}
}
