package editor

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
)

// fakeHierCmds records the commands the hierarchy's context menus run.
type fakeHierCmds struct {
	spawned []ecs.Entity
	cubes   []bool
	dup     int
	del     int
}

func (f *fakeHierCmds) SpawnUnder(parent ecs.Entity, cube bool) {
	f.spawned, f.cubes = append(f.spawned, parent), append(f.cubes, cube)
}
func (f *fakeHierCmds) CmdDuplicate()               { f.dup++ }
func (f *fakeHierCmds) CmdDelete()                  { f.del++ }
func (f *fakeHierCmds) acceptPrefabDrop(ecs.Entity) {}

// hierFixture is a Hierarchy panel in a windowless UI over a small document: roots A (children A1, A2), B, C.
type hierFixture struct {
	ui    *uiContext
	d     *doc.Document
	h     *hierarchyPanel
	cmds  *fakeHierCmds
	st    *probe.State
	log   *Console
	ents  map[string]ecs.Entity
	build func()
}

func newHierFixture(t *testing.T) *hierFixture {
	f := &hierFixture{ui: newUIContext(t), d: doc.New("H", doc.Options{}), cmds: &fakeHierCmds{}, st: &probe.State{},
		log: NewConsole(10), ents: map[string]ecs.Entity{}}
	spawn := func(name string, parent ecs.Entity) ecs.Entity {
		e, err := f.d.SpawnEmpty(parent)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.d.Rename([]ecs.Entity{e}, name); err != nil {
			t.Fatal(err)
		}
		f.ents[name] = e
		return e
	}
	a := spawn("A", ecs.Entity{})
	spawn("A1", a)
	spawn("A2", a)
	spawn("B", ecs.Entity{})
	spawn("C", ecs.Entity{})
	f.d.Selection().Clear()
	f.h = newHierarchyPanel(f.d, f.cmds, f.cmds, f.log, f.st)
	f.build = func() { inWindow(panelHierarchy, 0, 0, 300, 600, f.h.Build) }
	f.ui.frames(2, f.build)
	return f
}

// rowNames are the rows the last frame built.
func (f *hierFixture) rowNames() []string {
	var names []string
	for _, r := range f.st.Hierarchy {
		names = append(names, r.Name)
	}
	return names
}

func (f *hierFixture) row(t *testing.T, name string) probe.Row {
	t.Helper()
	for _, r := range f.st.Hierarchy {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no row %q among %v", name, f.rowNames())
	return probe.Row{}
}

func (f *hierFixture) clickRow(t *testing.T, name string) {
	t.Helper()
	x, y := centre(f.row(t, name).Rect)
	f.ui.click(imgui.MouseButtonLeft, x, y, f.build)
}

func (f *hierFixture) selected() []string {
	var names []string
	for _, e := range f.d.Selection().Entities() {
		names = append(names, f.d.Name(e))
	}
	slices.Sort(names)
	return names
}

func TestHierarchyPanelSelectsLikeAnEditor(t *testing.T) {
	f := newHierFixture(t)
	if got := f.rowNames(); !slices.Equal(got, []string{"A", "B", "C"}) {
		t.Fatalf("rows %v, want A B C (A collapsed)", got)
	}
	f.clickRow(t, "B")
	if got := f.selected(); !slices.Equal(got, []string{"B"}) {
		t.Fatalf("click B: selected %v", got)
	}
	f.ui.modifiers(true, false, false)
	f.clickRow(t, "C")
	f.ui.modifiers(false, false, false)
	if got := f.selected(); !slices.Equal(got, []string{"B", "C"}) {
		t.Fatalf("ctrl+click C: selected %v", got)
	}
	f.clickRow(t, "A")
	f.ui.modifiers(false, true, false)
	f.clickRow(t, "C")
	f.ui.modifiers(false, false, false)
	if got := f.selected(); !slices.Equal(got, []string{"A", "B", "C"}) {
		t.Fatalf("click A, shift+click C: selected %v", got)
	}
	// The arrow opens A: its children get rows.
	r := f.row(t, "A")
	f.ui.click(imgui.MouseButtonLeft, float32(r.Rect.X)+8, float32(r.Rect.Y)+float32(r.Rect.H)/2, f.build)
	if got := f.rowNames(); !slices.Equal(got, []string{"A", "A1", "A2", "B", "C"}) {
		t.Fatalf("after opening A: rows %v", got)
	}
	if f.row(t, "A1").Depth != 1 || !f.row(t, "A").Selected {
		t.Fatalf("rows %+v", f.st.Hierarchy)
	}
	// Empty space below the rows clears the selection.
	f.ui.click(imgui.MouseButtonLeft, 150, 500, f.build)
	if len(f.selected()) != 0 {
		t.Fatalf("a click below the rows left %v selected", f.selected())
	}
}

func TestHierarchyPanelSearchRenameAndMenu(t *testing.T) {
	f := newHierFixture(t)
	// Search: the matches and their ancestors.
	x, y := centre(f.st.HierarchySearch)
	f.ui.click(imgui.MouseButtonLeft, x, y, f.build)
	f.ui.typeText("a2", f.build)
	if got := f.rowNames(); !slices.Equal(got, []string{"A", "A2"}) {
		t.Fatalf("search a2: rows %v", got)
	}
	// Double-click a leaf to rename it inline; Enter renames, and the row stays although it no longer matches.
	x, y = centre(f.row(t, "A2").Rect)
	f.ui.move(x, y, f.build)
	for range 2 {
		f.ui.press(imgui.MouseButtonLeft, true, f.build)
		f.ui.press(imgui.MouseButtonLeft, false, f.build)
	}
	if f.h.renaming != f.d.ID(f.ents["A2"]) {
		t.Fatal("a double-click on A2 did not start renaming it")
	}
	f.ui.frame(f.build)
	f.ui.key(key(imgui.KeyA)|ctrl, f.build)
	f.ui.typeText("Zed", f.build)
	f.ui.key(key(imgui.KeyEnter), f.build)
	if got := f.d.Name(f.ents["A2"]); got != "Zed" {
		t.Fatalf("renamed to %q, want Zed", got)
	}
	if got := f.rowNames(); !slices.Equal(got, []string{"A", "Zed"}) {
		t.Fatalf("after renaming in a search: rows %v (the renamed row must stay)", got)
	}
	// Clear the search; right-click B: its menu selects it and runs the editor's commands.
	f.h.search = ""
	f.ui.frame(f.build)
	x, y = centre(f.row(t, "B").Rect)
	f.ui.click(imgui.MouseButtonRight, x, y, f.build)
	if got := f.selected(); !slices.Equal(got, []string{"B"}) {
		t.Fatalf("right-click B: selected %v", got)
	}
	f.ui.click(imgui.MouseButtonLeft, x+30, y+12, f.build) // the menu's first item, under the mouse
	if len(f.cmds.spawned) != 1 || f.cmds.spawned[0] != f.ents["B"] || f.cmds.cubes[0] {
		t.Fatalf("Create Child: spawned under %v (cube %v)", f.cmds.spawned, f.cmds.cubes)
	}
}

func TestHierarchyPanelDragReparentsAndReorders(t *testing.T) {
	f := newHierFixture(t)
	// C dropped onto the middle of B's row becomes B's child, where it was in the world.
	c := f.row(t, "C")
	b := f.row(t, "B")
	cx, cy := centre(c.Rect)
	bx, by := centre(b.Rect)
	f.ui.drag(cx, cy, bx, by, f.build)
	if p := f.d.World().Parent(f.ents["C"]); p != f.ents["B"] {
		t.Fatalf("C's parent is %v after dropping it onto B", p)
	}
	if got := f.rowNames(); !slices.Equal(got, []string{"A", "B", "C"}) || f.row(t, "C").Depth != 1 {
		t.Fatalf("rows after the drop: %+v (B opens to show C)", f.st.Hierarchy)
	}
	// B dropped on the upper edge of A's row goes before A.
	b, a := f.row(t, "B"), f.row(t, "A")
	bx, by = centre(b.Rect)
	f.ui.drag(bx, by, float32(a.Rect.X+a.Rect.W/2), float32(a.Rect.Y)+1, f.build)
	if roots := f.d.Roots(); len(roots) != 2 || roots[0] != f.ents["B"] {
		t.Fatalf("roots after dropping B above A: %v", roots)
	}
	if err := f.d.History().Undo(); err != nil {
		t.Fatal(err)
	}
	if roots := f.d.Roots(); roots[0] != f.ents["A"] {
		t.Fatal("undo did not put B back after A")
	}
}

// TestHierarchyPanelRenameKeepsTheRowInView: a row deep in a long list, shown or renamed (F2, as the editor's
// command calls startRename), lies within the panel; renaming a row already in view does not scroll.
func TestHierarchyPanelRenameKeepsTheRowInView(t *testing.T) {
	ui, d, st := newUIContext(t), doc.New("H", doc.Options{}), &probe.State{}
	var es []ecs.Entity
	for i := range 1000 {
		e, err := d.SpawnEmpty(ecs.Entity{})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Rename([]ecs.Entity{e}, "E"+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	cmds := &fakeHierCmds{}
	h := newHierarchyPanel(d, cmds, cmds, NewConsole(10), st)
	build := func() { inWindow(panelHierarchy, 0, 0, 300, 600, h.Build) }
	ui.frames(2, build)
	view := probe.Rect{Y: st.HierarchySearch.Y + st.HierarchySearch.H, W: 300}
	view.H = 600 - int(imgui.CurrentStyle().WindowPadding().Y) - view.Y
	rowOf := func(name string) (probe.Rect, bool) {
		for _, r := range st.Hierarchy {
			if r.Name == name {
				return r.Rect, true
			}
		}
		return probe.Rect{}, false
	}

	// Selected and shown: E200's row is in view.
	d.Selection().Select(es[200])
	h.show(es[200])
	ui.frames(2, build)
	shown, ok := rowOf("E200")
	if !ok || !view.Holds(shown) {
		t.Fatalf("shown E200: row %v (built %v), want within the panel %v", shown, ok, view)
	}
	// F2 on a row in view renames it where it is.
	above, ok := rowOf("E195")
	if !ok || !view.Holds(above) {
		t.Fatalf("E195: row %v (built %v), want within the panel %v", above, ok, view)
	}
	d.Selection().Select(es[195])
	h.startRename()
	ui.frames(2, build)
	if st.Renaming != "E195" || st.RenamingRect.Y != above.Y {
		t.Fatalf("F2 on E195 in view: renaming %q at %v, want E195 at y %d (no scroll)", st.Renaming, st.RenamingRect, above.Y)
	}
	ui.key(key(imgui.KeyEscape), build)
	d.Selection().Select(es[200])

	// Scrolled away to the top, F2 on E200 brings its row into view.
	h.show(es[0])
	ui.frames(2, build)
	if _, ok := rowOf("E200"); ok {
		t.Fatal("E200 still built after scrolling to E0")
	}
	h.startRename()
	ui.frames(2, build)
	if st.Renaming != "E200" || !view.Holds(st.RenamingRect) {
		t.Fatalf("F2 on E200 out of view: renaming %q at %v, want E200 within the panel %v", st.Renaming, st.RenamingRect, view)
	}
}

// TestHierarchyPanelQuery: a query filters the rows (ancestors kept) and Enter selects its matches; in a big
// scene the search runs on a goroutine, the rows showing the last one's results meanwhile, and Enter pressed
// meanwhile selects the matches once they are found.
func TestHierarchyPanelQuery(t *testing.T) {
	f := newHierFixture(t)
	x, y := centre(f.st.HierarchySearch)
	f.ui.click(imgui.MouseButtonLeft, x, y, f.build)
	f.ui.typeText(`name~"a?" or name=C`, f.build)
	if got := f.rowNames(); !slices.Equal(got, []string{"A", "A1", "A2", "C"}) {
		t.Fatalf("query: rows %v", got)
	}
	f.ui.key(imgui.KeyChord(imgui.KeyEnter), f.build)
	if got := f.selected(); !slices.Equal(got, []string{"A1", "A2", "C"}) {
		t.Fatalf("Enter selected %v, want the matches", got)
	}
	f.h.bigScene, f.h.searchDelay = 1, 300*time.Millisecond
	f.ui.click(imgui.MouseButtonLeft, x, y, f.build)
	f.ui.key(imgui.KeyChord(imgui.KeyA)|ctrl, f.build)
	f.ui.typeText(`name~"a?" or name=B`, f.build)
	if got := f.rowNames(); !slices.Equal(got, []string{"A", "A1", "A2", "C"}) || !f.st.HierarchySearching {
		t.Fatalf("while searching in a big scene: rows %v (searching %v), want the last query's", got, f.st.HierarchySearching)
	}
	if f.st.HierarchySearchText != `name~"a?" or name=B` {
		t.Fatalf("the field shows %q while searching", f.st.HierarchySearchText)
	}
	f.ui.key(imgui.KeyChord(imgui.KeyEnter), f.build)
	if got := f.selected(); !slices.Equal(got, []string{"A1", "A2", "C"}) {
		t.Fatalf("Enter while searching selected %v, want the selection as it was until the search is done", got)
	}
	f.framesUntil(t, "the search done", func() bool { return !f.st.HierarchySearching })
	if got := f.rowNames(); !slices.Equal(got, []string{"A", "A1", "A2", "B"}) {
		t.Fatalf("after the search: rows %v", got)
	}
	if got := f.selected(); !slices.Equal(got, []string{"A1", "A2", "B"}) {
		t.Fatalf("Enter pressed while searching selected %v once it was done, want the new matches", got)
	}
}

// framesUntil builds frames until cond holds (a search on the goroutine is done), at most for a minute.
func (f *hierFixture) framesUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); {
		if time.Now().After(end) {
			t.Fatalf("no %s after a minute", what)
		}
		time.Sleep(5 * time.Millisecond)
		f.ui.frame(f.build)
	}
}
