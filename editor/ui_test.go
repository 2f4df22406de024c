package editor

import (
	"context"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/hierarchy"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/editor/workspace"
)

// uiHarness builds the hierarchy and the inspector panels in a windowless UI, as the editor docks them.
type uiHarness struct {
	ui   *uiContext
	hier *hierarchyPanel
	insp *inspectorPanel
	d    *doc.Document
}

func newUIHarness(tb testing.TB, d *doc.Document) *uiHarness {
	tb.Helper()
	log := NewConsole(100)
	h := &uiHarness{ui: newUIContext(tb), d: d}
	ws := workspace.New(workspace.Options{}, settings.Defaults(), log, &workspace.Clock{})
	ws.SetDoc(d)
	h.hier = newHierarchyPanel(d, ws, &prefabDrag{}, log, nil)
	h.insp = newInspectorPanel(appCommands{Workspace: ws}, h.hier, ws.Assets(), log, nil)
	h.insp.setDoc(inspected{d})
	return h
}

// frame builds the hierarchy and the inspector as the editor does, in two windows.
// searched builds frames until the hierarchy's search is done (on its goroutine in a big scene).
func (h *uiHarness) searched(t *testing.T) {
	t.Helper()
	h.frame()
	for end := time.Now().Add(time.Minute); h.hier.searching(); h.frame() {
		if time.Now().After(end) {
			t.Fatalf("the search of %q still runs after a minute", h.hier.search)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (h *uiHarness) frame() {
	h.ui.frame(func() {
		inWindow(panelHierarchy, 0, 0, 300, 1000, h.hier.Build)
		inWindow(panelInspector, 1200, 0, 400, 1000, h.insp.Build)
	})
}

// bigDoc is a document with a 100×10×100 grid (100,000 cubes) under one group, the group selected, and one cube
// selected too.
func bigDoc(tb testing.TB) (*doc.Document, ecs.Entity, []ecs.Entity) {
	tb.Helper()
	d := doc.New("Big", doc.Options{})
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 10, 100}
	p.Group = "Grid"
	p.Spin = &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 30}
	group, cubes, err := d.SpawnGrid(context.Background(), p, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return d, group, cubes
}

func TestHierarchyBuildsOnlyVisibleRows(t *testing.T) {
	d, group, cubes := bigDoc(t)
	h := newUIHarness(t, d)
	h.frame()
	if n := len(hierRows(h.hier)); n != 1 {
		t.Fatalf("with the group collapsed the hierarchy has %d rows, want 1", n)
	}
	h.hier.model.SetExpanded(d.ID(group), true)
	h.frame()
	if n := len(hierRows(h.hier)); n != 1+len(cubes) {
		t.Fatalf("expanded: %d rows, want %d", n, 1+len(cubes))
	}
	// Search (on the goroutine: a big scene): the matches and their ancestors, nothing else.
	h.hier.search = "Cube 7,3,42"
	h.searched(t)
	rows := hierRows(h.hier)
	if len(rows) != 2 || rows[0].Entity != group || d.Name(rows[1].Entity) != "Cube 7,3,42" || rows[1].Depth != 1 {
		t.Fatalf("search rows: %d, the first %+v", len(rows), rows[:min(len(rows), 3)])
	}
	h.hier.search = "cube 7,3,4" // case-insensitive substring: 7,3,4 and 7,3,40..49
	h.searched(t)
	if len(hierRows(h.hier)) != 1+11 {
		t.Fatalf("substring search found %d rows, want 12", len(hierRows(h.hier)))
	}
}

func TestHierarchyFollowsCommands(t *testing.T) {
	d := doc.New("Small", doc.Options{})
	h := newUIHarness(t, d)
	a, _ := d.SpawnEmpty(ecs.Entity{})
	b, _ := d.SpawnCube(a)
	h.hier.model.SetExpanded(d.ID(a), true)
	h.frame()
	if rows := hierRows(h.hier); len(rows) != 2 || rows[1].Entity != b || rows[1].Depth != 1 {
		t.Fatalf("rows %+v", rows)
	}
	if err := d.ReparentKeepWorld(ecs.Entity{}, b); err != nil {
		t.Fatal(err)
	}
	h.frame()
	if rows := hierRows(h.hier); len(rows) != 2 || rows[1].Depth != 0 {
		t.Fatalf("after reparenting to the root: %+v", rows)
	}
	if err := d.History().Undo(); err != nil {
		t.Fatal(err)
	}
	h.frame()
	if rows := hierRows(h.hier); len(rows) != 2 || rows[1].Depth != 1 {
		t.Fatalf("after undo: %+v", rows)
	}
}

// BenchmarkUIFrame100k builds one editor frame (hierarchy + inspector) of a 100,000-entity scene in a windowless
// ImGui context, with the grid group expanded (100,000 rows, of which only the visible ones are built) and a
// cube selected. Target: ≤ 2 ms.
func BenchmarkUIFrame100k(b *testing.B) {
	d, group, cubes := bigDoc(b)
	h := newUIHarness(b, d)
	h.hier.model.SetExpanded(d.ID(group), true)
	d.Selection().Select(cubes[50_000])
	h.frame()
	h.frame()
	for b.Loop() {
		h.frame()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}

// BenchmarkHierarchyRebuild100k: the Hierarchy panel's first frame after a change to a flat scene of 100,000 roots
// (the benchmark grid as `grid` writes it): its rows rebuilt, roots in sibling order. after-spawn: 100,000 more
// roots were just spawned beside them and selected (the frame that shows a spawn's result); after-undo: they were
// just undone.
func BenchmarkHierarchyRebuild100k(b *testing.B) {
	for _, undo := range []bool{false, true} {
		b.Run(map[bool]string{false: "after-spawn", true: "after-undo"}[undo], func(b *testing.B) {
			d := doc.New("Big", doc.Options{})
			p := scene.DefaultGrid()
			p.Count = [3]int{100, 10, 100}
			if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
				b.Fatal(err)
			}
			h := newUIHarness(b, d)
			h.frame()
			p.Origin[0] += 200
			for b.Loop() {
				b.StopTimer()
				_, cubes, err := d.SpawnGrid(context.Background(), p, nil)
				if err != nil {
					b.Fatal(err)
				}
				d.Selection().Select(cubes...) // as the editor's spawn selects them
				if undo {
					h.frame()
					if err := d.History().Undo(); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				h.frame()
				b.StopTimer()
				if !undo {
					if err := d.History().Undo(); err != nil {
						b.Fatal(err)
					}
					h.frame()
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
		})
	}
}

// hierRows returns every row of the hierarchy panel as of now.
func hierRows(h *hierarchyPanel) []hierarchy.Row {
	rows := make([]hierarchy.Row, h.rows())
	for i := range rows {
		rows[i] = h.model.Row(i)
	}
	return rows
}
