package program

import (
	"strings"
	"testing"
)

// Every --help lists each flag's default once at most (not "(default: same as --color-from) (default 1,1,1,1)"
// for grid's --color-to); a flag whose default depends on others says so in words only.
func TestHelpShowsOneDefaultPerFlag(t *testing.T) {
	names := []string{""}
	for _, c := range commands {
		names = append(names, c.name)
	}
	for _, cmd := range names {
		args := []string{"--help"}
		if cmd != "" {
			args = []string{cmd, "--help"}
		}
		code, out, errOut := runCLI(args...)
		if code != 0 {
			t.Errorf("%s --help: exit %d %s", cmd, code, errOut)
			continue
		}
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			if n := strings.Count(l, "(default"); n > 1 {
				t.Errorf("%s --help: flag %s shows %d defaults: %q", cmd, strings.TrimSpace(lines[max(i-1, 0)]), n, strings.TrimSpace(l))
			}
		}
	}
}

// Counts are words that agree with their numbers: "1 cube", "1 entity, 1 mesh" (never "1 meshes").
func TestCountsAgreeWithNumbers(t *testing.T) {
	dir := t.TempDir()
	grid, exp := dir+"/one.json", dir+"/one.export.json"
	if code, out, errOut := runCLI("grid", "--nx", "1", "--ny", "1", "--nz", "1", "-o", grid); code != 0 || !strings.HasSuffix(out, ": 1 cube\n") {
		t.Fatalf("grid: %d %q %s", code, out, errOut)
	}
	if code, _, errOut := runCLI("export", grid, "-o", exp); code != 0 {
		t.Fatalf("export: %d %s", code, errOut)
	}
	code, out, errOut := runCLI("validate", grid, exp)
	if code != 0 || !strings.Contains(out, `scene "Cubes", 1 entity`) || !strings.Contains(out, "export, 1 entity, 1 mesh\n") {
		t.Errorf("validate: %d %q %s", code, out, errOut)
	}
}
