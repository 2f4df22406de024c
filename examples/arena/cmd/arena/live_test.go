package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"example.com/arena/components"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/live"
)

func newArenaWorld() *ecs.World {
	w := scene.NewWorld()
	components.Register(w)
	return w
}

// The game runs headless with the live link; a client watches the Scout patrol, changes its
// speed, pauses the game, steps it exactly once, resumes it, and snapshots the world as a scene
// file that loads into the same entities and values.
func TestLiveLink(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	exp := filepath.Join(dir, "arena.export.json")
	if err := serialize.ExportFile(ctx, "testdata/arena.json", exp, serialize.LoadOptions{NewWorld: newArenaWorld}); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "arena")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	game := exec.CommandContext(ctx, bin, "-live", "127.0.0.1:0", "-fps", "60", "-dt", "0.05", exp)
	stdout, err := game.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	game.Stderr = os.Stderr
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = game.Process.Signal(os.Interrupt) // a game that exited already is as good
		_ = game.Wait()                       // the test checked what matters through the link
	}()
	addr, token := "", ""
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "live: "); ok {
			addr, token, _ = strings.Cut(rest, " token ")
			break
		}
	}
	if addr == "" || len(token) != 32 {
		t.Fatalf("the game printed no address and token (%q %q)", addr, token)
	}
	go func() { // keep reading what the game prints
		for sc.Scan() {
		}
	}()

	c, err := live.Dial(ctx, addr, token)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }() // the test is over: nothing more is read
	if c.Scene() != "" {
		t.Errorf("a game on an export says it loaded the scene file %q", c.Scene())
	}
	if err := c.Watch(ctx); err != nil {
		t.Fatal(err)
	}
	sync := func() live.Delta {
		t.Helper()
		d, err := c.Sync(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	sync()
	scout := findByName(t, c.View(), "Scout")
	at := func() mgl32.Vec3 {
		t.Helper()
		e, ok := c.Entity(scout)
		if !ok {
			t.Fatal("the Scout left the view")
		}
		var tr struct{ Position mgl32.Vec3 }
		if err := json.Unmarshal([]byte(e.Components["Transform"]), &tr); err != nil {
			t.Fatal(err)
		}
		return tr.Position
	}

	// A system moves the Scout: its position changes from delta to delta.
	start := at()
	for i := 0; at() == start; i++ {
		if i == 200 {
			t.Fatal("the Scout never moved in the view")
		}
		sync()
	}

	// A field set by the client reaches the game.
	if err := c.Set(ctx, scout, "Unit", "speed", 8); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, scout, "Unit", "speed", 99); err == nil {
		t.Fatal("a speed above the declared max was taken")
	}
	sync()
	if e, _ := c.Entity(scout); !strings.Contains(e.Components["Unit"], `"speed": 8`) {
		t.Fatalf("the Scout's Unit after the set: %s", e.Components["Unit"])
	}

	// Paused, nothing moves and no update runs; one step runs the systems exactly once.
	if _, err := c.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	d := sync()
	paused, updates := at(), d.Updates
	if d = sync(); d.Updates != updates || at() != paused {
		t.Fatalf("paused, yet updates %d → %d and the Scout %v → %v", updates, d.Updates, paused, at())
	}
	if _, err := c.Step(ctx, 1); err != nil {
		t.Fatal(err)
	}
	for d.Updates == updates {
		d = sync()
	}
	d = sync()
	if d.Updates != updates+1 || !d.Paused {
		t.Fatalf("one step ran %d updates (paused %v)", d.Updates-updates, d.Paused)
	}
	if moved := at().Sub(paused).Len(); moved == 0 || moved > 8*0.05+1e-4 {
		t.Fatalf("one step at speed 8 and dt 0.05 moved the Scout %v", moved)
	}

	// Resumed, the game runs again.
	if _, err := c.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	for d.Updates < updates+5 {
		d = sync()
	}

	// A snapshot (taken paused, so that the game and the view agree) loads as the same world.
	if _, err := c.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	sync()
	view := c.View()
	snap := filepath.Join(dir, "snapshot.json")
	if err := c.SnapshotFile(ctx, snap, "Arena (live)"); err != nil {
		t.Fatal(err)
	}
	s, err := serialize.LoadFile(ctx, snap, serialize.LoadOptions{NewWorld: newArenaWorld})
	if err != nil {
		t.Fatal(err)
	}
	checkSnapshot(t, s.World, view)
}

func findByName(t *testing.T, view map[uint64]live.Entity, name string) uint64 {
	t.Helper()
	for h, e := range view {
		if e.Components["Name"] == `{ "value": "`+name+`" }` {
			return h
		}
	}
	t.Fatalf("no %s in the view", name)
	return 0
}

// checkSnapshot compares a loaded snapshot with the view it was made from: the same names, the
// same component values (scene JSON, references by the name of what they point at).
func checkSnapshot(t *testing.T, w *ecs.World, view map[uint64]live.Entity) {
	t.Helper()
	names := ecs.NewMap[scene.Name](w)
	units := ecs.NewMap[components.Unit](w)
	loaded := map[string]ecs.Entity{}
	w.EachEntity(func(e ecs.Entity) bool { loaded[names.Get(e).Value] = e; return true })
	if len(loaded) != len(view) {
		t.Fatalf("the snapshot has %d entities, the view %d", len(loaded), len(view))
	}
	nameOf := map[uint64]string{}
	for h, e := range view {
		var n scene.Name
		if err := json.Unmarshal([]byte(e.Components["Name"]), &n); err != nil {
			t.Fatalf("entity %d's Name %q: %v", h, e.Components["Name"], err)
		}
		nameOf[h] = n.Value
	}
	for h, e := range view {
		le, ok := loaded[nameOf[h]]
		if !ok {
			t.Fatalf("%s is not in the snapshot", nameOf[h])
		}
		for comp, js := range e.Components {
			if comp == "Name" {
				continue
			}
			id, _ := w.ComponentByName(comp)
			got, err := serialize.ComponentJSON(w, le, id)
			if err != nil {
				t.Fatal(err)
			}
			if comp == "Unit" { // references differ in number, not in what they point at
				var ref struct {
					Target uint64 `json:"target"`
				}
				if err := json.Unmarshal([]byte(js), &ref); err != nil {
					t.Fatalf("%s's Unit %q: %v", nameOf[h], js, err)
				}
				target := ""
				if u := units.Get(le); !u.Target.IsZero() {
					target = names.Get(u.Target).Value
				}
				if target != nameOf[ref.Target] {
					t.Errorf("%s's target: %q in the view, %q in the snapshot", nameOf[h], nameOf[ref.Target], target)
				}
				got, _ = serialize.SetJSON(got, "target", "0")
				js, _ = serialize.SetJSON(js, "target", "0")
			}
			if got != js {
				t.Errorf("%s.%s: %s in the snapshot, %s in the view", nameOf[h], comp, got, js)
			}
		}
	}
}
