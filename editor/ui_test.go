package editor

import (
	"context"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/inspector"
	_ "github.com/voltex-editor/voltex/internal/glibcfix"
)

// uiHarness builds the editor's panels in an ImGui context without a window (as giu's Context_test does): frames
// go to draw lists nobody draws, so UI logic and its cost can be tested without a display.
type uiHarness struct {
	ctx *imgui.Context
	a   *App
}

func newUIHarness(tb testing.TB, d *doc.Document) *uiHarness {
	tb.Helper()
	ctx := imgui.CreateContext()
	io := imgui.CurrentIO()
	io.SetIniFilename("")
	io.SetDisplaySize(imgui.Vec2{X: 1600, Y: 1000})
	io.Fonts().GetTextureDataAsRGBA32()
	a := &App{doc: d, console: NewConsole(100), assets: assets.NewRegistry(".", assets.DefaultLimits())}
	a.hier = newHierarchyPanel(d, a, a.console, nil)
	a.insp = inspector.New(&docEditor{a}, inspector.Options{Names: docNames{a}, Assets: a.assets, Hidden: []string{"Name"}})
	tb.Cleanup(func() { imgui.DestroyContextV(ctx) })
	return &uiHarness{ctx: ctx, a: a}
}

// frame builds the hierarchy and the inspector as the editor does, in two windows.
func (h *uiHarness) frame() {
	imgui.SetCurrentContext(h.ctx)
	imgui.CurrentIO().SetDeltaTime(1.0 / 60)
	imgui.NewFrame()
	imgui.SetNextWindowPos(imgui.Vec2{})
	imgui.SetNextWindowSize(imgui.Vec2{X: 300, Y: 1000})
	imgui.Begin(panelHierarchy)
	h.a.hier.Build()
	imgui.End()
	imgui.SetNextWindowPos(imgui.Vec2{X: 1200})
	imgui.SetNextWindowSize(imgui.Vec2{X: 400, Y: 1000})
	imgui.Begin(panelInspector)
	h.a.selScratch = h.a.doc.AppendSelected(h.a.selScratch[:0])
	h.a.insp.Inspect(h.a.doc.World(), h.a.selScratch).Build()
	imgui.End()
	imgui.Render()
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
	if n := len(h.a.hier.rows()); n != 1 {
		t.Fatalf("with the group collapsed the hierarchy has %d rows, want 1", n)
	}
	h.a.hier.model.SetExpanded(d.ID(group), true)
	h.frame()
	if n := len(h.a.hier.rows()); n != 1+len(cubes) {
		t.Fatalf("expanded: %d rows, want %d", n, 1+len(cubes))
	}
	// Search: the matches and their ancestors, nothing else.
	h.a.hier.search = "Cube 7,3,42"
	h.frame()
	rows := h.a.hier.rows()
	if len(rows) != 2 || rows[0].Entity != group || d.Name(rows[1].Entity) != "Cube 7,3,42" || rows[1].Depth != 1 {
		t.Fatalf("search rows: %+v", rows)
	}
	h.a.hier.search = "cube 7,3,4" // case-insensitive substring: 7,3,4 and 7,3,40..49
	h.frame()
	if len(h.a.hier.rows()) != 1+11 {
		t.Fatalf("substring search found %d rows, want 12", len(h.a.hier.rows()))
	}
}

func TestHierarchyFollowsCommands(t *testing.T) {
	d := doc.New("Small", doc.Options{})
	h := newUIHarness(t, d)
	a, _ := d.SpawnEmpty(ecs.Entity{})
	b, _ := d.SpawnCube(a)
	h.a.hier.model.SetExpanded(d.ID(a), true)
	h.frame()
	if rows := h.a.hier.rows(); len(rows) != 2 || rows[1].Entity != b || rows[1].Depth != 1 {
		t.Fatalf("rows %+v", rows)
	}
	if err := d.ReparentKeepWorld(ecs.Entity{}, b); err != nil {
		t.Fatal(err)
	}
	h.frame()
	if rows := h.a.hier.rows(); len(rows) != 2 || rows[1].Depth != 0 {
		t.Fatalf("after reparenting to the root: %+v", rows)
	}
	if err := d.Undo(); err != nil {
		t.Fatal(err)
	}
	h.frame()
	if rows := h.a.hier.rows(); len(rows) != 2 || rows[1].Depth != 1 {
		t.Fatalf("after undo: %+v", rows)
	}
}

// BenchmarkUIFrame100k builds one editor frame (hierarchy + inspector) of a 100,000-entity scene in a windowless
// ImGui context, with the grid group expanded (100,000 rows, of which only the visible ones are built) and a
// cube selected. Target: ≤ 2 ms.
func BenchmarkUIFrame100k(b *testing.B) {
	d, group, cubes := bigDoc(b)
	h := newUIHarness(b, d)
	h.a.hier.model.SetExpanded(d.ID(group), true)
	d.Select(cubes[50_000])
	h.frame()
	h.frame()
	for b.Loop() {
		h.frame()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}
