package editor

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/viewport"
)

// TestFrameSearchResults: F with nothing selected frames the hierarchy's search results (the matches, not their
// ancestors); with no search, everything; with a selection, the selection.
func TestFrameSearchResults(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/solar.json"})
	d := f.a.ws.Doc()
	dl := f.a.vp.scene.builder.DrawList()
	centre := func(es ...ecs.Entity) mgl32.Vec3 {
		ids := make([]uint32, len(es))
		for i, e := range es {
			ids[i] = viewport.EntityID(e)
		}
		return dl.BoundsOf(ids).Center()
	}
	byName := func(name string) ecs.Entity {
		for _, id := range d.IDs() {
			if e, _ := d.Entity(id); d.Name(e) == name {
				return e
			}
		}
		t.Fatalf("no %s", name)
		return ecs.Entity{}
	}
	moon, sun := byName("Moon"), byName("Sun")
	near := func(a, b mgl32.Vec3) bool { return a.Sub(b).Len() < 1e-3 }

	f.a.hier.search = "moon"
	f.frames(2)
	f.a.cmds.CmdFrame()
	if got, want := d.Camera().Pivot, centre(moon); !near(got, want) {
		t.Errorf("F with the search \"moon\" looks at %v, want the Moon's centre %v", got, want)
	}
	if found := f.a.hier.searchResults(); len(found) != 2 {
		t.Errorf("the search \"moon\" finds %d entities, want 2 (Moon orbit, Moon)", len(found))
	}

	d.Selection().Select(sun)
	f.a.cmds.CmdFrame()
	if got, want := d.Camera().Pivot, centre(sun); !near(got, want) {
		t.Errorf("F with the Sun selected looks at %v, want %v", got, want)
	}

	d.Selection().Select()
	f.a.hier.search = ""
	f.frames(2)
	f.a.cmds.CmdFrame()
	if got, want := d.Camera().Pivot, dl.Bounds().Center(); !near(got, want) {
		t.Errorf("F with no search looks at %v, want everything's centre %v", got, want)
	}
}
