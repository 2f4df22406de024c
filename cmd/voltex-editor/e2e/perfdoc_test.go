package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// latencyRewriteProblems runs the table writer of `make bench-ui` on a copy of page with made-up figures and says
// what went wrong: a marker the page lacks or repeats, text outside the markers changed, a row missing.
func latencyRewriteProblems(t *testing.T, page string) []string {
	t.Helper()
	var problems []string
	for _, m := range []string{tableBegin, tableEnd} {
		if n := strings.Count(page, m); n != 1 {
			problems = append(problems, fmt.Sprintf("the page has %s %d times, not once", m, n))
		}
	}
	path := filepath.Join(t.TempDir(), "performance.md")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	f := figures{}
	for _, r := range latencyRows {
		f.add(r.key, 1234)
	}
	if err := writeLatencyTable(path, map[string]figures{"100k": f, "1M": f}, []string{"0.10 0.20 0.30"}); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if i, j := strings.Index(page, tableBegin), strings.Index(page, tableEnd); i >= 0 && j > i {
		before, after := page[:i], page[j+len(tableEnd):]
		if !strings.HasPrefix(got, before) || !strings.HasSuffix(got, after) {
			problems = append(problems, "the text outside the markers changed")
		}
	}
	for _, r := range latencyRows {
		v := cell(r.key, f[r.key])
		if !strings.Contains(got, "| "+r.key+" | "+r.target+" | "+v+" | "+v+" |") {
			problems = append(problems, "no row "+r.key)
		}
	}
	return problems
}

// TestLatencyTableFitsThePerformancePage: `make bench-ui` finds its markers in docs/performance.md and rewrites
// only the table between them.
func TestLatencyTableFitsThePerformancePage(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "performance.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range latencyRewriteProblems(t, string(page)) {
		t.Error(p)
	}
}

// TestLatencyRewriteCheckCatchesALostMarker proves the check can fail: a page without its end marker gets a second
// table appended.
func TestLatencyRewriteCheckCatchesALostMarker(t *testing.T) {
	page := "# Performance\n\n## UI latency\n\n" + tableBegin + "\nold table\n\nMore text.\n"
	if p := latencyRewriteProblems(t, page); len(p) == 0 {
		t.Fatal("a page without the end marker passed")
	}
}
