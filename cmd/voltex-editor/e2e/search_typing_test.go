package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestSearchTypingNeverWaits: a query typed into the Hierarchy's search while each search lasts seconds (the e2e
// build's --test-job-delay makes the searches run on their goroutine and last that much longer): every character
// is in the field as soon as the editor has handled its key, while the search runs and the rows still show what
// they showed; then the rows are the query's matches.
func TestSearchTypingNeverWaits(t *testing.T) {
	e := launchSlowJobs(t, copyScene(t, "cubes.json"), "10s")
	p := e.WaitProbe(20*time.Second, "the rows", func(p *guitest.Probe) bool { return len(p.Hierarchy) > 0 })
	before, first := len(p.Hierarchy), p.Hierarchy[0].Name
	sx, sy := p.HierarchySearch.Center()
	e.Click(sx, sy, 1)
	e.WaitProbe(10*time.Second, "the search field", func(p *guitest.Probe) bool { return p.TextInput })
	const text = `name~"cube 1,1*"`
	for i := range text {
		e.Type(text[i : i+1]) // one key, and the frames that handle it
		p, _ = e.ReadProbe()
		if p.HierarchySearchText != text[:i+1] {
			t.Fatalf("after the key %q the field shows %q, want %q", text[i], p.HierarchySearchText, text[:i+1])
		}
		if !p.HierarchySearching || len(p.Hierarchy) == 0 || p.Hierarchy[0].Name != first {
			t.Fatalf("after the key %q: searching %v, rows %+v; want the search running and the rows as they were (%s first)",
				text[i], p.HierarchySearching, p.Hierarchy, first)
		}
	}
	p = e.WaitProbe(time.Minute, "the query's rows", func(p *guitest.Probe) bool { return !p.HierarchySearching })
	if len(p.Hierarchy) == 0 || len(p.Hierarchy) >= before {
		t.Fatalf("the query's rows: %d of %d", len(p.Hierarchy), before)
	}
	for _, r := range p.Hierarchy {
		if !strings.HasPrefix(r.Name, "Cube 1,1") {
			t.Fatalf("row %q does not match the query: %+v", r.Name, p.Hierarchy)
		}
	}
}
