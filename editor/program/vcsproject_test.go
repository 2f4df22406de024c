package program

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffAndMergeSayAProjectFileProblemOnce: when the project file cannot even be looked for (here a
// symlink that points at itself), diff and merge say so once, as the other subcommands do.
func TestDiffAndMergeSayAProjectFileProblemOnce(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": vcsBase})
	if err := os.Symlink("voltex.project.json", filepath.Join(dir, "voltex.project.json")); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "base.json")
	out := filepath.Join(dir, "out.json")
	for _, args := range [][]string{{"diff", base, base}, {"merge", base, base, base, "-o", out}} {
		code, _, stderr := runCLI(args...)
		if code != 2 || strings.Count(stderr, "too many levels of symbolic links") != 1 {
			t.Errorf("%s: code %d, want 2 and the problem said once:\n%s", args[0], code, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("merge wrote %s", out)
	}
}
