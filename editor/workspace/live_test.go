package workspace

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/live"
)

// testGame is a game loop on its own goroutine: Frame, then Update when Frame says so; a test reaches the world
// only through run, which holds the loop between frames.
type testGame struct {
	srv     *live.Server
	mu      sync.Mutex
	stopped bool
	done    chan struct{}
}

func startTestGame(t *testing.T, w *ecs.World) *testGame {
	t.Helper()
	return startTestGameWith(t, w, live.Options{})
}

// startTestGameWith is startTestGame with the live link's options.
func startTestGameWith(t *testing.T, w *ecs.World, opts live.Options) *testGame {
	t.Helper()
	srv, err := live.Serve(w, opts)
	if err != nil {
		t.Fatal(err)
	}
	g := &testGame{srv: srv, done: make(chan struct{})}
	go func() {
		defer close(g.done)
		for {
			g.mu.Lock()
			if g.stopped {
				g.mu.Unlock()
				return
			}
			if srv.Frame() {
				w.Update()
			}
			g.mu.Unlock()
			time.Sleep(2 * time.Millisecond) // until the next frame
		}
	}()
	t.Cleanup(g.end)
	return g
}

// run runs f between two frames.
func (g *testGame) run(f func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	f()
}

// end stops the game and closes its link.
func (g *testGame) end() {
	g.mu.Lock()
	was := g.stopped
	g.stopped = true
	g.mu.Unlock()
	<-g.done
	if !was {
		_ = g.srv.Close() // the game is over
	}
}

// frameUntil runs the workspace's frames, as the loop does, until cond holds.
func frameUntil(t *testing.T, w *Workspace, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30 s (state %v, log %q)", what, w.Live().State(), logOf(w))
		}
		w.BeginFrame()
		time.Sleep(2 * time.Millisecond)
	}
}

// Attached to a running game, the workspace shows its entities and follows what its systems do, sends an edit,
// pauses and steps the game, keeps the world read-only when the game ends, and Detach returns to a new scene.
func TestWorkspaceAttachesToAGame(t *testing.T) {
	gw := scene.NewWorld()
	mover := gw.Spawn(scene.Name{Value: "Mover"}, scene.SceneID{ID: 5}, ecs.Transform{}.Default())
	child := gw.Spawn(scene.Name{Value: "Child"}, ecs.Transform{}.Default())
	if err := gw.SetParent(child, mover); err != nil {
		t.Fatal(err)
	}
	pos := ecs.NewMap[ecs.Transform](gw)
	gw.AddSystem(ecs.System{Name: "move", Run: func(*ecs.World, *ecs.Commands) {
		pos.Mut(mover).Position[0]++
	}})
	g := startTestGame(t, gw)

	w, f := newTestWorkspace(t, 0)
	w.Live().Attach(g.srv.Addr(), g.srv.Token())
	frameUntil(t, w, "attached", func() bool { return w.Live().State() == LiveAttached && w.doc.Attached() && w.doc.Len() == 2 })
	d := w.doc
	e, ok := d.Entity(5)
	if !ok || d.Name(e) != "Mover" || d.World().ChildCount(e) != 1 {
		t.Fatalf("the attached document: Mover %v %q with %d children", ok, d.Name(e), d.World().ChildCount(e))
	}
	shownX := func() float32 {
		tr, _ := ecs.NewMap[ecs.Transform](d.World()).TryGet(e)
		return tr.Position[0]
	}
	x0 := shownX()
	frameUntil(t, w, "the Mover moves", func() bool { return shownX() > x0 })
	if d.History().CanUndo() || d.Dirty() || !strings.Contains(w.StatusText(60, 1), "attached") {
		t.Fatalf("attached: undoable %v, dirty %v, status %q", d.History().CanUndo(), d.Dirty(), w.StatusText(60, 1))
	}

	// An edit reaches the game.
	trID, _ := ecs.ComponentIDOf[ecs.Transform](d.World())
	if err := d.SetField([]ecs.Entity{e}, trID, "position[1]", float32(9)); err != nil {
		t.Fatal(err)
	}
	gameY := func() (y float32) {
		g.run(func() { y = pos.Get(mover).Position[1] })
		return y
	}
	frameUntil(t, w, "the game has the edit", func() bool { return gameY() == 9 })

	// Snapshots: the whole world, and the selection (the Child, its parent left out).
	dir := t.TempDir()
	if err := w.Live().Snapshot(filepath.Join(dir, "all.json"), nil); err != nil {
		t.Fatal(err)
	}
	var kid ecs.Entity
	for _, x := range d.World().Children(e) {
		kid = x
	}
	d.Selection().Select(kid)
	if !w.Live().AttachedSelection() {
		t.Fatal("a selection of the game's world is not a selection to snapshot")
	}
	w.Live().CmdSnapshotSelection()
	f.choose(t, filepath.Join(dir, "child.json"))
	for file, want := range map[string][]string{"all.json": {"Child", "Mover"}, "child.json": {"Child"}} {
		rs, err := serialize.ReadRawFile(context.Background(), filepath.Join(dir, file), serialize.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, re := range rs.Entities {
			got = append(got, re.Name)
			if re.Name == "Child" && (re.Parent == 0) != (file == "child.json") {
				t.Errorf("%s: the Child's parent %d", file, re.Parent)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s holds %v, want %v", file, got, want)
		}
	}

	// Pause, then one step: exactly one update.
	w.CmdPause()
	frameUntil(t, w, "paused", func() bool { return w.Live().Paused() })
	updates := func() (n uint64) {
		g.run(func() { n = gw.Updates() })
		return n
	}
	u := updates()
	w.CmdStep()
	frameUntil(t, w, "stepped", func() bool { return updates() > u })
	time.Sleep(50 * time.Millisecond) // frames that would run more updates if Step let them
	if n := updates(); n != u+1 {
		t.Fatalf("Step ran %d updates", n-u)
	}

	// The game ends: what was shown stays, read-only.
	g.end()
	frameUntil(t, w, "lost", func() bool { return w.Live().State() == LiveLost })
	w.BeginFrame()
	if !d.LiveReadOnly() || d.Len() != 2 || !strings.Contains(w.StatusText(60, 1), "lost (read-only)") ||
		!strings.Contains(strings.Join(logOf(w), "\n"), "is lost") {
		t.Fatalf("lost: read-only %v, %d entities, status %q, log %q", d.LiveReadOnly(), d.Len(), w.StatusText(60, 1), logOf(w))
	}
	if err := d.SetField([]ecs.Entity{e}, trID, "position[1]", float32(1)); err == nil {
		t.Fatal("an edit after the game ended was taken")
	}
	w.CmdPlayStop() // the toolbar's Detach
	if w.Live().Attached() || w.doc.Attached() || w.doc.Len() != 0 {
		t.Fatalf("after Detach: attached %v, document attached %v with %d entities", w.Live().Attached(), w.doc.Attached(), w.doc.Len())
	}
}

// Attaching to an address where no game listens says so and leaves the open scene.
func TestWorkspaceAttachFailsClearly(t *testing.T) {
	w, f := newTestWorkspace(t, 0)
	before := w.doc
	w.Live().Attach("127.0.0.1:1", "x")
	frameUntil(t, w, "failed", func() bool { return !w.Live().Attached() })
	if w.doc != before || len(f.questions) == 0 || !strings.Contains(lastLog(w), "cannot attach to the game at 127.0.0.1:1") {
		t.Fatalf("a failed attach: same document %v, questions %q, log %q", w.doc == before, f.questions, logOf(w))
	}
}

// slowSink is a game link that takes a while to answer each set, and counts them.
type slowSink struct {
	mu   sync.Mutex
	sets []setRequest
}

func (s *slowSink) set(_ context.Context, r setRequest) error {
	time.Sleep(10 * time.Millisecond) // the round trip of a slow link
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sets = append(s.sets, r)
	return nil
}

func (s *slowSink) sent() []setRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.sets)
}

// A drag's frames on a slow link: far fewer sets than frames go out, the last value always arrives, and a set
// of another field keeps its place among them.
func TestLiveSetsCoalesce(t *testing.T) {
	l := newLiveLink("test", "")
	sink := &slowSink{}
	l.set = sink.set
	go l.send()
	defer close(l.stop)

	for i := range 100 {
		l.SetField(7, "Transform", "position[0]", json.RawMessage(strconv.Itoa(i)))
		if i == 50 {
			l.SetComponent(7, "Transform", `{"position":[50,1,0]}`)
		}
		time.Sleep(time.Millisecond) // the next frame
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := sink.sent()
		if n := len(s); n > 0 && string(s[n-1].value) == "99" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the last value never arrived: sent %v", s)
		}
		time.Sleep(5 * time.Millisecond)
	}
	s := sink.sent()
	if len(s) >= 50 {
		t.Errorf("%d sets for 100 frames of a drag", len(s))
	}
	whole := slices.IndexFunc(s, func(r setRequest) bool { return r.whole })
	if whole < 0 {
		t.Fatalf("the whole component's set was not sent: %v", s)
	}
	for i, r := range s {
		v, _ := strconv.Atoi(string(r.value))
		if !r.whole && (i < whole) != (v <= 50) {
			t.Errorf("set %d (%s) is on the wrong side of the whole component's set (%d)", i, r.value, whole)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.pending) != 0 {
		t.Errorf("%d sets still pending", len(l.pending))
	}
}

// Diff with Loaded Scene compares the game with the scene file the game says it loaded, without asking for it; it
// asks when the editor cannot read that file.
func TestDiffWithLoadedScene(t *testing.T) {
	gw := scene.NewWorld()
	mover := gw.Spawn(scene.Name{Value: "Mover"}, scene.SceneID{ID: 5}, ecs.Transform{}.Default())
	pos := ecs.NewMap[ecs.Transform](gw)
	gw.AddSystem(ecs.System{Name: "move", Run: func(*ecs.World, *ecs.Commands) {
		pos.Mut(mover).Position[0]++
	}})
	level := filepath.Join(t.TempDir(), "level.json")
	g := startTestGameWith(t, gw, live.Options{Scene: level})
	w, f := newTestWorkspace(t, 0)
	w.Live().Attach(g.srv.Addr(), g.srv.Token())
	frameUntil(t, w, "attached", func() bool { return w.Live().State() == LiveAttached && w.doc.Len() == 1 })

	// The file is not there yet: the editor asks for one.
	w.Live().CmdDiff()
	if f.file == nil || f.file.Title != "Diff with Scene File" || !strings.Contains(lastLog(w), "cannot read") {
		t.Fatalf("a loaded scene the editor cannot read: file request %v, log %q", f.file, logOf(w))
	}
	f.file = nil

	// The level as it was; the game moves on from it.
	if err := w.Live().Snapshot(level, nil); err != nil {
		t.Fatal(err)
	}
	x := func() (x float32) {
		g.run(func() { x = pos.Get(mover).Position[0] })
		return x
	}
	x0 := x()
	frameUntil(t, w, "the Mover moved", func() bool { return x() > x0+1 })
	if _, err := w.live.link.client.Sync(context.Background()); err != nil { // the view holds the move
		t.Fatal(err)
	}
	n := len(f.questions)
	w.Live().CmdDiff()
	if f.file != nil || len(f.questions) != n+1 || f.questions[n] != diffTitle ||
		!strings.Contains(f.question.message, "level.json") || !strings.Contains(f.question.message, `"Mover"`) ||
		!strings.Contains(f.question.message, "Transform.position") {
		t.Fatalf("the diff with the loaded scene: file request %v, questions %q, message %q", f.file, f.questions, f.question.message)
	}
}

// A lost connection comes back with Reconnect, at the same address with the same token: a failed try keeps the lost
// world shown, and once the game answers the view is made anew from its full state.
func TestWorkspaceReconnects(t *testing.T) {
	gw := scene.NewWorld()
	gw.Spawn(scene.Name{Value: "Old"}, scene.SceneID{ID: 5}, ecs.Transform{}.Default())
	g := startTestGame(t, gw)
	addr, token := g.srv.Addr(), g.srv.Token()
	w, _ := newTestWorkspace(t, 0)
	w.Live().Attach(addr, token)
	frameUntil(t, w, "attached", func() bool { return w.Live().State() == LiveAttached && w.doc.Len() == 1 })
	lost := w.doc
	g.end()
	frameUntil(t, w, "lost", func() bool { return w.Live().State() == LiveLost })
	w.BeginFrame()
	if !w.Live().Lost() || !strings.Contains(w.Live().StatusText(), "Reconnect") {
		t.Fatalf("lost: Lost %v, status %q", w.Live().Lost(), w.Live().StatusText())
	}

	// Nobody listens yet: the try fails, the lost world stays.
	w.Live().CmdReconnect()
	frameUntil(t, w, "the try failed", func() bool { return strings.Contains(lastLog(w), "cannot reconnect") })
	if w.doc != lost || !w.Live().Lost() || !lost.LiveReadOnly() {
		t.Fatalf("a failed reconnect: same document %v, Lost %v, read-only %v", w.doc == lost, w.Live().Lost(), lost.LiveReadOnly())
	}

	// The game is back (a new run of it, other entities): a new full view.
	gw2 := scene.NewWorld()
	gw2.Spawn(scene.Name{Value: "New"}, scene.SceneID{ID: 6}, ecs.Transform{}.Default())
	gw2.Spawn(scene.Name{Value: "Newer"}, scene.SceneID{ID: 7}, ecs.Transform{}.Default())
	startTestGameWith(t, gw2, live.Options{Addr: addr, Token: token})
	w.Live().CmdReconnect()
	frameUntil(t, w, "reattached", func() bool { return w.Live().State() == LiveAttached && w.doc != lost && w.doc.Len() == 2 })
	if _, ok := w.doc.Entity(5); ok || w.doc.LiveReadOnly() || w.Live().Lost() {
		t.Fatalf("after reconnecting: the old entity shown %v, read-only %v, lost %v", ok, w.doc.LiveReadOnly(), w.Live().Lost())
	}
	if e, ok := w.doc.Entity(6); !ok || w.doc.Name(e) != "New" {
		t.Fatalf("after reconnecting the game's entity 6 is not shown (%v)", ok)
	}
}
