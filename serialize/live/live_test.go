package live

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// level spawns a small level: a mover chasing a rock, and a rock that never changes.
func level(w *ecs.World) (mover, rock ecs.Entity) {
	rock = w.Spawn(scene.Name{Value: "Rock"}, ecs.Transform{Position: mgl32.Vec3{5, 0, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	mover = w.Spawn(scene.Name{Value: "Runner"}, ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}},
		Mover{Velocity: mgl32.Vec3{1, 0, 0}, Target: rock, Path: []mgl32.Vec3{{1, 2, 3}}, Speed: 2})
	w.AddSystem(moveSystem(w))
	return mover, rock
}

// jsonOf is the component as the link writes it (references as handles), read on the loop.
func jsonOf(g *game, e ecs.Entity, comp string) string {
	var out string
	g.run(func(w *ecs.World) {
		id, _ := w.ComponentByName(comp)
		enc, err := serialize.NewComponentEncoder(w.ComponentInfo(id), refNumber)
		if err != nil {
			panic(err)
		}
		v, _ := w.Get(e, id)
		p := reflect.New(reflect.TypeOf(v)).Elem()
		p.Set(reflect.ValueOf(v))
		b, err := enc.Append(nil, p)
		if err != nil {
			panic(err)
		}
		out = string(b)
	})
	return out
}

// A watching client gets every entity with its components as scene JSON, then only what changed:
// the runner's moves, never the rock again.
func TestWatchSendsChanges(t *testing.T) {
	w := newWorld()
	mover, rock := level(w)
	g := startGame(t, w, Options{})
	c := dial(t, g)
	if c.Schema("Mover") == nil || c.Schema("Transform") == nil {
		t.Fatalf("hello lacks the schemas: %v", c.Schemas())
	}
	if f := c.Schema("Mover").Fields; len(f) != 4 || !f[1].Entity || f[3].Hints == nil || *f[3].Hints.Max != 100 {
		t.Fatalf("Mover's schema: %+v", f)
	}
	if err := c.Watch(ctx(t)); err != nil {
		t.Fatal(err)
	}
	must[Delta](t)(c.Sync(ctx(t)))
	view := c.View()
	if len(view) != 2 {
		t.Fatalf("view has %d entities, want 2", len(view))
	}
	r := view[Handle(rock)]
	if got, want := r.Components["Transform"], jsonOf(g, rock, "Transform"); got != want {
		t.Fatalf("rock's Transform: %s, want %s", got, want)
	}
	if _, ok := r.Components["GlobalTransform"]; ok {
		t.Fatal("a computed component was sent")
	}
	m := view[Handle(mover)]
	if !strings.Contains(m.Components["Mover"], `"target": `+jsonNum(Handle(rock))) {
		t.Fatalf("the reference is not the rock's handle: %s", m.Components["Mover"])
	}
	first := m.Components["Transform"]
	var moved bool
	for range 5 {
		d := must[Delta](t)(c.Sync(ctx(t)))
		if slices.Contains(d.Changed, Handle(rock)) {
			t.Fatalf("the rock did not change but delta %d sent it", d.Seq)
		}
		if e, _ := c.Entity(Handle(mover)); e.Components["Transform"] != first {
			moved = true
		}
	}
	if !moved {
		t.Fatal("the runner's moves never reached the client")
	}
}

func jsonNum(h uint64) string { b, _ := json.Marshal(h); return string(b) }

// Commands change the game's world, checked like a scene load; the view follows.
func TestCommands(t *testing.T) {
	w := newWorld()
	mover, rock := level(w)
	g, c, x := watchGame(t, w, Options{})
	must[Status](t)(c.Pause(x))
	hm := Handle(mover)
	if err := c.Set(x, hm, "Transform", "position[1]", 7.5); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(x, hm, "Mover", "speed", 500); err == nil || !strings.Contains(err.Error(), "speed") {
		t.Fatalf("an out-of-range value: %v", err)
	}
	if err := c.Set(x, hm, "Mover", "nope", 1); err == nil {
		t.Fatal("a field that does not exist was set")
	}
	if err := c.Set(x, hm, "GlobalTransform", "matrix", 1); err == nil {
		t.Fatal("a computed component was set")
	}
	if err := c.SetComponent(x, hm, "Mover", `{"velocity": [0, 0, 2], "target": 0}`); err != nil {
		t.Fatal(err)
	}
	if err := c.Add(x, Handle(rock), "Frozen", ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Add(x, Handle(rock), "Color", `{"rgba": [1, 0, 0, 1]}`); err != nil {
		t.Fatal(err)
	}
	child := must[uint64](t)(c.Spawn(x, Handle(rock), map[string]string{"Name": `{"value": "Pebble"}`,
		"Mover": `{"target": ` + jsonNum(hm) + `}`}))
	if _, err := c.Spawn(x, 0, map[string]string{"Mover": `{"target": 99999}`}); err == nil {
		t.Fatal("a spawn referring to no entity was made")
	}
	must[Delta](t)(c.Sync(x))
	g.run(func(w *ecs.World) {
		if p := ecs.NewMap[ecs.Transform](w).Get(mover).Position; p[1] != 7.5 {
			t.Errorf("position %v after set", p)
		}
		if m := ecs.NewMap[Mover](w).Get(mover); m.Velocity != (mgl32.Vec3{0, 0, 2}) || !m.Target.IsZero() || m.Speed != 0 {
			t.Errorf("Mover %+v after set component", m)
		}
		ce := entityOf(child)
		if w.Parent(ce) != rock || ecs.NewMap[Mover](w).Get(ce).Target != mover {
			t.Errorf("the spawned child: parent %v, mover %+v", w.Parent(ce), ecs.NewMap[Mover](w).Get(ce))
		}
	})
	rv, _ := c.Entity(Handle(rock))
	if _, ok := rv.Components["Frozen"]; !ok || rv.Components["Color"] != `{ "rgba": [1, 0, 0, 1] }` {
		t.Fatalf("rock after adds: %v", rv.Components)
	}
	if cv, ok := c.Entity(child); !ok || cv.Parent != Handle(rock) {
		t.Fatalf("child in view: %+v %v", cv, ok)
	}
	if err := c.Remove(x, Handle(rock), "Frozen"); err != nil {
		t.Fatal(err)
	}
	if err := c.Despawn(x, hm, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Despawn(x, hm, false); err == nil {
		t.Fatal("despawned twice")
	}
	must[Delta](t)(c.Sync(x))
	if _, ok := c.Entity(hm); ok {
		t.Fatal("the despawned entity is still in the view")
	}
	if rv, _ := c.Entity(Handle(rock)); rv.Components["Frozen"] != "" || len(rv.Components) != 3 {
		t.Fatalf("rock after remove: %v", rv.Components)
	}
}

// What the game does by itself without a change tick (despawning, removing a component,
// reparenting) reaches the client too.
func TestGameSideShapeChanges(t *testing.T) {
	w := newWorld()
	mover, rock := level(w)
	g, c, x := watchGame(t, w, Options{})
	must[Delta](t)(c.Sync(x))
	g.run(func(w *ecs.World) {
		id, _ := w.ComponentByName("Name")
		if err := w.Remove(rock, id); err != nil {
			t.Error(err)
		}
		if err := w.SetParent(rock, mover); err != nil {
			t.Error(err)
		}
	})
	waitFor(t, c, func() bool {
		e, _ := c.Entity(Handle(rock))
		_, named := e.Components["Name"]
		return !named && e.Parent == Handle(mover)
	})
	g.run(func(w *ecs.World) { w.Despawn(rock) })
	waitFor(t, c, func() bool { _, ok := c.Entity(Handle(rock)); return !ok })
}

// waitFor waits (deltas at a time) until ok holds.
func waitFor(t *testing.T, c *Client, ok func() bool) {
	t.Helper()
	for range 1000 {
		if ok() {
			return
		}
		if _, err := c.Sync(ctx(t)); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the view never got there")
}

// Pause stops the systems, a step runs them exactly once, resume runs them again.
func TestPauseStepResume(t *testing.T) {
	w := newWorld()
	level(w)
	_, c, x := watchGame(t, w, Options{})
	st := must[Status](t)(c.Pause(x))
	if !st.Paused {
		t.Fatal("not paused")
	}
	d := must[Delta](t)(c.Sync(x))
	before := d.Updates
	if again := must[Delta](t)(c.Sync(x)); again.Updates != before {
		t.Fatalf("paused, yet updates went from %d to %d", before, again.Updates)
	}
	must[Status](t)(c.Step(x, 1))
	d = must[Delta](t)(c.Sync(x))
	d = must[Delta](t)(c.Sync(x))
	if d.Updates != before+1 || !d.Paused {
		t.Fatalf("one step: updates %d → %d (paused %v)", before, d.Updates, d.Paused)
	}
	must[Status](t)(c.Resume(x))
	for d.Updates < before+3 {
		d = must[Delta](t)(c.Sync(x))
	}
	if d.Paused {
		t.Fatal("still paused after resume")
	}
}

// The snapshot of a live world is a scene file that serialize loads into the same entities and
// values, references pointing at the same entities, ids kept from SceneID.
func TestSnapshotRoundTrip(t *testing.T) {
	w := newWorld()
	mover, rock := level(w)
	ecs.NewMap[scene.SceneID](w).Add(rock, scene.SceneID{ID: 42, Order: 3})
	if err := w.SetParent(mover, rock); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(mover, mustID[Frozen](w), nil); err != nil {
		t.Fatal(err)
	}
	g, c, x := watchGame(t, w, Options{})
	must[Status](t)(c.Pause(x))
	must[Delta](t)(c.Sync(x))
	var buf bytes.Buffer
	if err := c.Snapshot(x, &buf, "live"); err != nil {
		t.Fatal(err)
	}
	s, err := serialize.Load(x, bytes.NewReader(buf.Bytes()), serialize.LoadOptions{NewWorld: newWorld})
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	names := ecs.NewMap[scene.Name](s.World)
	byName := map[string]ecs.Entity{}
	s.World.EachEntity(func(e ecs.Entity) bool { byName[names.Get(e).Value] = e; return true })
	if len(byName) != 2 || s.Name != "live" {
		t.Fatalf("loaded %v (%q)\n%s", byName, s.Name, buf.Bytes())
	}
	lr, lm := byName["Rock"], byName["Runner"]
	if sid := ecs.NewMap[scene.SceneID](s.World).Get(lr); sid.ID != 42 {
		t.Fatalf("the rock's id %d, want its SceneID 42", sid.ID)
	}
	if s.World.Parent(lm) != lr || !s.World.Has(lm, mustID[Frozen](s.World)) {
		t.Fatal("parent or tag lost")
	}
	var live Mover
	var liveT ecs.Transform
	g.run(func(w *ecs.World) {
		live = ecs.NewMap[Mover](w).Get(mover)
		liveT = ecs.NewMap[ecs.Transform](w).Get(mover)
	})
	got := ecs.NewMap[Mover](s.World).Get(lm)
	if got.Target != lr || !slices.Equal(got.Path, live.Path) || got.Velocity != live.Velocity || got.Speed != live.Speed {
		t.Fatalf("Mover %+v, live %+v", got, live)
	}
	if gt := ecs.NewMap[ecs.Transform](s.World).Get(lm); gt != liveT {
		t.Fatalf("Transform %+v, live %+v", gt, liveT)
	}
}

func mustID[T any](w *ecs.World) ecs.ComponentID {
	id, ok := ecs.ComponentIDOf[T](w)
	if !ok {
		panic("unregistered")
	}
	return id
}

// Deltas flow while the budget spreads them over frames: a world bigger than one part arrives
// whole.
func TestBigWorldInParts(t *testing.T) {
	w := newWorld()
	m := ecs.NewMap2[ecs.Transform, Mover](w)
	for i := range 3 * batchEntities {
		m.Spawn(ecs.Transform{Position: mgl32.Vec3{float32(i)}}, Mover{Velocity: mgl32.Vec3{0, 1, 0}})
	}
	w.AddSystem(moveSystem(w))
	_, c, x := watchGame(t, w, Options{FrameShare: 0.01})
	must[Delta](t)(c.Sync(x))
	if n := len(c.View()); n != 3*batchEntities {
		t.Fatalf("view has %d entities, want %d", n, 3*batchEntities)
	}
}

// Late is registered while a client watches.
type Late struct {
	N int32 `json:"n"`
}

// A component the game registers after a client connected reaches it: its schema and values.
func TestComponentRegisteredLater(t *testing.T) {
	w := newWorld()
	_, rock := level(w)
	g, c, x := watchGame(t, w, Options{})
	must[Delta](t)(c.Sync(x))
	if c.Schema("Late") != nil {
		t.Fatal("Late before it was registered")
	}
	g.run(func(w *ecs.World) {
		ecs.Register[Late](w)
		ecs.NewMap[Late](w).Add(rock, Late{N: 7})
	})
	waitFor(t, c, func() bool {
		e, _ := c.Entity(Handle(rock))
		return c.Schema("Late") != nil && e.Components["Late"] == `{ "n": 7 }`
	})
}

// An ack the client cannot send ends its connection, with the reason: the game sends no more
// deltas until the last one is acknowledged, so the view would stop following it silently.
func TestAckNotSentEndsTheConnection(t *testing.T) {
	gameEnd, nc := net.Pipe()
	// Every write of the client fails from now on; reads go on.
	if err := nc.SetWriteDeadline(time.Now()); err != nil {
		t.Fatal(err)
	}
	c := newClient(nc)
	go c.read(bufio.NewReader(nc))
	if _, err := io.WriteString(gameEnd, `{"op":"delta","seq":1,"frame":1,"end":true}`+"\n"); err != nil {
		t.Fatal(err)
	}
	_ = gameEnd.Close() // ends the reader if the ack's failure did not
	<-c.done
	if err := c.Err(); err == nil || !strings.Contains(err.Error(), "ack") {
		t.Fatalf("the connection ended with %v, want the ack's failure", err)
	}
}

// A snapshot of some entities holds them and their descendants: one whose parent is left out is a
// root, and a reference to an entity left out is none.
func TestSnapshotOfSomeEntities(t *testing.T) {
	w := newWorld()
	mover, rock := level(w)
	if err := w.SetParent(mover, rock); err != nil {
		t.Fatal(err)
	}
	_, c, x := watchGame(t, w, Options{})
	must[Delta](t)(c.Sync(x))
	handle := func(name string) uint64 {
		for h, e := range c.View() {
			if strings.Contains(e.Components["Name"], `"`+name+`"`) {
				return h
			}
		}
		t.Fatalf("no %s", name)
		return 0
	}
	names := func(rs *serialize.RawScene) (n []string) {
		for _, e := range rs.Entities {
			n = append(n, e.Name)
		}
		slices.Sort(n)
		return n
	}
	all := must[*serialize.RawScene](t)(c.SnapshotSceneOf("rock", []uint64{handle("Rock")}))
	if got := names(all); !slices.Equal(got, []string{"Rock", "Runner"}) {
		t.Fatalf("the Rock's snapshot holds %v", got)
	}
	one := must[*serialize.RawScene](t)(c.SnapshotSceneOf("runner", []uint64{handle("Runner")}))
	if got := names(one); !slices.Equal(got, []string{"Runner"}) || one.Entities[0].Parent != 0 {
		t.Fatalf("the Runner's snapshot holds %v (parent %d)", got, one.Entities[0].Parent)
	}
	var buf bytes.Buffer
	if err := serialize.WriteRaw(x, &buf, one); err != nil {
		t.Fatal(err)
	}
	s, err := serialize.Load(x, bytes.NewReader(buf.Bytes()), serialize.LoadOptions{NewWorld: newWorld})
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	var target ecs.Entity
	s.World.EachEntity(func(e ecs.Entity) bool { target = ecs.NewMap[Mover](s.World).Get(e).Target; return true })
	if !target.IsZero() {
		t.Fatalf("the Runner's target left out is %v, want none", target)
	}
}

// The hello tells the scene file the game loaded, as an absolute path, and says nothing when the game loaded none.
func TestHelloTellsTheLoadedScene(t *testing.T) {
	for _, tc := range []struct{ scene, want string }{
		{"", ""},
		{"levels/arena.json", filepath.Join(must[string](t)(os.Getwd()), "levels", "arena.json")},
		{"/games/arena/level.json", "/games/arena/level.json"},
	} {
		g := startGame(t, newWorld(), Options{Scene: tc.scene})
		if got := dial(t, g).Scene(); got != tc.want {
			t.Errorf("Options.Scene %q: the client reads %q, want %q", tc.scene, got, tc.want)
		}
	}
}
