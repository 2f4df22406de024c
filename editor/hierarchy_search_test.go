package editor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/hierarchy"
	"github.com/voltex-editor/voltex/serialize/query"
)

// randomDoc is a document of n entities with random parents, names and positions.
func randomDoc(t *testing.T, r *rand.Rand, n int) *doc.Document {
	t.Helper()
	d := doc.New("R", doc.Options{})
	var es []ecs.Entity
	for i := range n {
		var parent ecs.Entity
		if len(es) > 0 && r.IntN(3) > 0 {
			parent = es[r.IntN(len(es))]
		}
		e, err := d.SpawnCube(parent)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s %d", []string{"Orc", "orc chief", "Elf", "Wave", "Été"}[r.IntN(5)], i)
		if err := d.Rename([]ecs.Entity{e}, name); err != nil {
			t.Fatal(err)
		}
		ecs.NewMap[ecs.Transform](d.EditWorld()).Mut(e).Position[1] = float32(r.IntN(5))
		es = append(es, e)
	}
	d.Selection().Clear()
	return d
}

// loopRows are the rows the hierarchy model builds for text by itself, on the loop thread, as the panel had them
// built before its searches ran on a goroutine: a query's matches, or a part of names.
func loopRows(d *doc.Document, text string) []hierarchy.Row {
	m := hierarchy.New()
	m.SetSearch(text)
	if q, err := query.Parse(d.World(), strings.TrimSpace(text)); err == nil && strings.TrimSpace(text) != "" {
		m.SetMatch(q.Eval(d.World()).Has)
	}
	n := m.Update(newDocTree(d), d.Version(), d.World())
	rows := make([]hierarchy.Row, n)
	for i := range rows {
		rows[i] = m.Row(i)
	}
	return rows
}

// panelRows are the panel's rows once its search of text is done.
func panelRows(t *testing.T, h *hierarchyPanel, text string) []hierarchy.Row {
	t.Helper()
	h.search = text
	h.rows()
	for end := time.Now().Add(time.Minute); h.searching(); h.rows() {
		if time.Now().After(end) {
			t.Fatalf("the search of %q still runs after a minute", text)
		}
		time.Sleep(time.Millisecond)
	}
	return modelRows(h)
}

// modelRows are the rows the panel shows.
func modelRows(h *hierarchyPanel) []hierarchy.Row {
	rows := make([]hierarchy.Row, h.model.Len())
	for i := range rows {
		rows[i] = h.model.Row(i)
	}
	return rows
}

// TestSearchOffTheLoopFindsWhatTheLoopFinds: typed one key at a time into random scenes, names and queries give
// the same rows whether the search runs on the loop (a small scene) or on the goroutine over a snapshot of the
// world (a big one), and the rows the model built by itself on the loop; edits made while a search runs on the
// goroutine race nothing (go test -race) and are searched afterwards.
func TestSearchOffTheLoopFindsWhatTheLoopFinds(t *testing.T) {
	texts := []string{"o", "or", "orc", "orc ", "orc c", "or", "été", "ÉT", "Wave 1", "", "1",
		"Transform.position.y>2", "Transform.position.y>2 name~\"Orc*\"", "parent:\"Wave*\"", "!Spin", "name~", "Wave 1"}
	found := 0
	for seed := range uint64(6) {
		r := rand.New(rand.NewPCG(seed, 5))
		d := randomDoc(t, r, 50+r.IntN(300))
		loop := newHierarchyPanel(d, nil, nil, nil, nil)
		loop.bigScene = math.MaxInt
		off := newHierarchyPanel(d, nil, nil, nil, nil)
		off.bigScene = 1
		for _, text := range texts {
			want := loopRows(d, text)
			if got := panelRows(t, loop, text); !slices.Equal(got, want) {
				t.Fatalf("seed %d, %q on the loop: %d rows, want %d", seed, text, len(got), len(want))
			}
			if got := panelRows(t, off, text); !slices.Equal(got, want) {
				t.Fatalf("seed %d, %q on the goroutine: %d rows, want %d", seed, text, len(got), len(want))
			}
			found += len(want)
		}
		// Edits while a search runs on the goroutine: they change the world, not the snapshot it reads.
		off.searchDelay = 50 * time.Millisecond
		off.search = "orc"
		off.rows() // the key's frame: the search started
		if !off.searching() || !off.searcher.busy() {
			t.Fatal("the search of a big scene ran on the loop")
		}
		e, err := d.SpawnCube(ecs.Entity{})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Rename([]ecs.Entity{e}, "orc spawned"); err != nil {
			t.Fatal(err)
		}
		for _, r := range loopRows(d, "orc")[:3] { // names and parents the search reads
			if err := d.Rename([]ecs.Entity{r.Entity}, "orc renamed"); err != nil {
				t.Fatal(err)
			}
			if err := d.ReparentKeepWorld(ecs.Entity{}, r.Entity); err != nil {
				t.Fatal(err)
			}
		}
		off.searchDelay = 0
		if got, want := panelRows(t, off, "orc"), loopRows(d, "orc"); !slices.Equal(got, want) || !slices.ContainsFunc(got, func(r hierarchy.Row) bool { return r.Entity == e }) {
			t.Fatalf("seed %d: after edits during a search: %d rows, want %d with the new entity", seed, len(got), len(want))
		}
	}
	if found == 0 {
		t.Fatal("no search found anything: the test checks nothing")
	}
}

// TestStaleSearchesAreDropped: a search that a newer one makes stale never shows its result — whether it is
// still running (it stops) or already done but not yet taken.
func TestStaleSearchesAreDropped(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	d := randomDoc(t, r, 200)
	w := d.World()
	snap := &searchSnap{world: w, version: d.Version()}
	req := func(text string, delay time.Duration) *searchReq {
		return &searchReq{text: text, snap: snap, view: newSearchView(w), delay: delay}
	}
	var s searcher
	wait := func() *searchResult {
		t.Helper()
		for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(time.Millisecond) {
			if res := s.take(); res != nil {
				return res
			}
		}
		t.Fatal("no result after a minute")
		return nil
	}
	// Running: "Elf" (slow) is stale once "Orc" is asked for.
	s.start(req("Elf", 200*time.Millisecond))
	s.start(req("Orc", 0))
	if res := wait(); res.text != "Orc" || len(res.rows) == 0 {
		t.Fatalf("the result is of %q (%d rows), want Orc's", res.text, len(res.rows))
	}
	time.Sleep(300 * time.Millisecond)
	if res := s.take(); res != nil {
		t.Fatalf("the stale search of %q showed its result", res.text)
	}
	// Done but not taken: "Elf" is done, then "Wave" is asked for.
	s.start(req("Elf", 0))
	for end := time.Now().Add(time.Minute); s.busy() && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	s.start(req("Wave", 100*time.Millisecond))
	if res := s.take(); res != nil {
		t.Fatalf("the stale search of %q showed its result", res.text)
	}
	if res := wait(); res.text != "Wave" {
		t.Fatalf("the result is of %q, want Wave's", res.text)
	}
}

// TestSearchSeesNoWriteMadeAfterItStarted: a search on the goroutine finds what the scene held when it started,
// whatever the loop writes meanwhile — the values the query compares, names, parents, new and deleted entities —
// and the next search finds what the scene holds then.
func TestSearchSeesNoWriteMadeAfterItStarted(t *testing.T) {
	texts := []string{"Transform.position.y>2", "orc", "parent:\"Wave*\" Transform.position.y<3", "!Spin"}
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 29))
		d := randomDoc(t, r, 200+r.IntN(200))
		transform := mustComponent[ecs.Transform](t, d)
		h := newHierarchyPanel(d, nil, nil, nil, nil)
		h.bigScene = 1
		for _, text := range texts {
			panelRows(t, h, "")
			want, v := loopRows(d, text), d.Version()
			h.searchDelay = 60 * time.Millisecond // the search reads once the writes below are made
			h.search = text
			h.rows() // the key's frame: the search starts
			if !h.searcher.busy() {
				t.Fatal("the search of a big scene ran on the loop")
			}
			// Writes while it waits to read: every entity moved up, renamed, the first third moved under another,
			// a new entity, a deleted one.
			es := slices.Collect(func(yield func(ecs.Entity) bool) { d.World().EachEntity(yield) })
			if err := d.SetField(es, transform, "position", mgl32.Vec3{0, 9, 0}); err != nil {
				t.Fatal(err)
			}
			if err := d.Rename(es, "orc "+text); err != nil {
				t.Fatal(err)
			}
			if err := d.ReparentKeepWorld(es[len(es)-1], es[:len(es)/3]...); err != nil {
				t.Fatal(err)
			}
			if _, err := d.SpawnCube(ecs.Entity{}); err != nil {
				t.Fatal(err)
			}
			if err := d.Delete(es[len(es)/2]); err != nil {
				t.Fatal(err)
			}
			for end := time.Now().Add(time.Minute); h.query.version != v || h.query.text != text; h.rows() {
				if time.Now().After(end) {
					t.Fatalf("the search of %q still runs after a minute", text)
				}
				time.Sleep(time.Millisecond)
			}
			for i, r := range want { // the row of an entity deleted meanwhile has no id (it is not drawn)
				if !d.World().Alive(r.Entity) {
					want[i].ID = 0
				}
			}
			if got := modelRows(h); !slices.Equal(got, want) {
				t.Fatalf("seed %d, %q: the search saw writes made after it started: %d rows, want %d", seed, text, len(modelRows(h)), len(want))
			}
			h.searchDelay = 0
			if got, want := panelRows(t, h, text), loopRows(d, text); !slices.Equal(got, want) {
				t.Fatalf("seed %d, %q: the next search: %d rows, want %d", seed, text, len(got), len(want))
			}
		}
	}
}

// TestSearchWaitsForTheSceneToSettle: in a big scene that changes frame after frame (a drag, play), the search of
// the same text runs again once the scene stops changing (or after settleWait), not while every write would have
// to copy what its snapshot holds; it then finds what the scene holds.
func TestSearchWaitsForTheSceneToSettle(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 29))
	d := randomDoc(t, r, 300)
	h := newHierarchyPanel(d, nil, nil, nil, nil)
	h.bigScene, h.settleWait = 1, time.Hour
	const text = "Transform.position.y>2"
	panelRows(t, h, text)
	transform := mustComponent[ecs.Transform](t, d)
	es := slices.Collect(func(yield func(ecs.Entity) bool) { d.World().EachEntity(yield) })
	for i := range 5 { // frames of a drag: a write each
		if err := d.SetField(es[:10], transform, "position", mgl32.Vec3{0, float32(i), 0}); err != nil {
			t.Fatal(err)
		}
		h.rows()
		if h.searcher.busy() || !h.searching() {
			t.Fatalf("frame %d of the drag: a search started (busy %v, searching %v)", i, h.searcher.busy(), h.searching())
		}
	}
	h.searchDelay = 50 * time.Millisecond
	h.rows() // the scene settled
	if !h.searcher.busy() {
		t.Fatal("no search once the scene settled")
	}
	h.searchDelay = 0
	if got, want := panelRows(t, h, text), loopRows(d, text); !slices.Equal(got, want) {
		t.Fatalf("once the scene settled: %d rows, want %d", len(got), len(want))
	}
	// Without the wait, a write's next frame searches again.
	h.settleWait = 0
	if err := d.SetField(es[:10], transform, "position", mgl32.Vec3{0, 9, 0}); err != nil {
		t.Fatal(err)
	}
	h.searchDelay = 50 * time.Millisecond
	if h.rows(); !h.searcher.busy() {
		t.Fatal("settleWait 0: the write's frame started no search")
	}
}

// TestSearchWritesOverOnlyRowsNobodyShows: a search on the goroutine writes its rows and results over those of an
// older search that the Hierarchy no longer shows (or a stopped one's), never over those it shows until the new
// ones are in.
func TestSearchWritesOverOnlyRowsNobodyShows(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 29))
	d := randomDoc(t, r, 400)
	h := newHierarchyPanel(d, nil, nil, nil, nil)
	h.bigScene = 1
	texts := []string{"Transform.position.y>2", "orc", "Transform.position.y<3", "!Spin", "o", "Transform.position.y>2"}
	reused := 0
	panelRows(t, h, "")
	for i, text := range texts {
		shown, shownFound := modelRows(h), slices.Clone(h.query.found)
		h.searcher.mu.Lock()
		spare := h.searcher.spare
		h.searcher.mu.Unlock()
		h.search = text
		h.rows() // asks for the search
		h.searcher.mu.Lock()
		held, running := h.searcher.held, h.searcher.running
		h.searcher.mu.Unlock()
		if !held || running {
			t.Fatalf("%q: the search began in the frame that asked for it (held %v, running %v)", text, held, running)
		}
		h.searcher.launch() // the frame presented: it begins
		for end := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
			h.searcher.mu.Lock()
			done := h.searcher.done != nil
			h.searcher.mu.Unlock()
			if done {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("the search of %q still runs after a minute", text)
			}
		}
		// Its rows are written; the panel shows the last ones still.
		if got := modelRows(h); !slices.Equal(got, shown) || !slices.Equal(h.query.found, shownFound) {
			t.Fatalf("%q: while its result waits to be taken the panel shows %d rows and %d results, want the %d and %d it showed",
				text, len(got), len(h.query.found), len(shown), len(shownFound))
		}
		h.searcher.mu.Lock()
		if len(spare) > 0 && len(h.searcher.done.rows) > 0 && &spare[:1][0] == &h.searcher.done.rows[0] {
			reused++
		}
		h.searcher.mu.Unlock()
		if got, want := panelRows(t, h, text), loopRows(d, text); !slices.Equal(got, want) {
			t.Fatalf("%q (search %d): %d rows, want %d", text, i, len(got), len(want))
		}
	}
	if reused == 0 {
		t.Fatal("no search wrote over the rows of an older one")
	}
}
