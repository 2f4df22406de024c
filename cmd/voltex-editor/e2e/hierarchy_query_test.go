package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestHierarchyQuery: a query typed into the Hierarchy's search shows only its matches; Enter selects them (in the
// viewport too); text that is no query is a name again.
func TestHierarchyQuery(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p, _ := e.ReadProbe()
	sx, sy := p.HierarchySearch.Center()
	e.Click(sx, sy, 1)
	e.WaitProbe(10*time.Second, "the search field", func(p *guitest.Probe) bool { return p.TextInput })
	e.Type(`name~"cube 1,1*" Transform.position.x<-12`)
	p = e.WaitProbe(10*time.Second, "the query's rows", func(p *guitest.Probe) bool { return len(p.Hierarchy) == 11 })
	for _, r := range p.Hierarchy {
		if !strings.HasPrefix(r.Name, "Cube 1,1") {
			t.Fatalf("row %q does not match the query: %+v", r.Name, p.Hierarchy)
		}
	}
	e.Key("Return")
	p = e.WaitProbe(10*time.Second, "the matches selected", func(p *guitest.Probe) bool { return p.SelectedCount == 11 })
	e.Presented(p)
	lookShot(t, e, "hierarchy-query.png")
	// A name again: "Cube 3,4" is no query (there is no component Cube).
	e.Click(sx, sy, 1) // Enter left the field
	e.WaitProbe(10*time.Second, "the search field", func(p *guitest.Probe) bool { return p.TextInput })
	e.Key("ctrl+a")
	e.Type("Cube 3,4")
	e.WaitProbe(10*time.Second, "the name search", func(p *guitest.Probe) bool {
		_, ok := p.Row("Cube 3,4")
		return ok && len(p.Hierarchy) == 1
	})
	e.Key("ctrl+a")
	e.Type("Spin.sped>1")
	p = e.WaitProbe(10*time.Second, "a misspelt query", func(p *guitest.Probe) bool { return len(p.Hierarchy) == 0 })
	e.Presented(p)
	lookShot(t, e, "hierarchy-query-error.png")
}
