package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/live"
)

// startArena runs the example game headless with its live link on a copy of the arena level (its scene file) and
// returns the address and token it printed, the folder of the level (with the game's project file) and a function
// that stops the game (the test's end stops it too).
func startArena(t *testing.T) (addr, token, dir string, stop func()) {
	t.Helper()
	path := arenaCopy(t)
	game := exec.Command(exampleBinary(t, "./cmd/arena"), "-live", "127.0.0.1:0", "-fps", "30", "-dt", "0.05", path)
	stdout, err := game.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	game.Stderr = os.Stderr
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			_ = game.Process.Signal(os.Interrupt) // a game that exited already is as good
			_ = game.Wait()                       // what mattered was checked through the link
		})
	}
	t.Cleanup(stop)
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "live: "); ok {
			addr, token, _ = strings.Cut(rest, " token ")
			break
		}
	}
	if addr == "" || token == "" {
		t.Fatal("the game printed no address and token")
	}
	go func() { // keep reading what the game prints
		for sc.Scan() {
		}
	}()
	return addr, token, filepath.Dir(path), stop
}

// handleNamed returns the handle of the entity of c's view named name.
func handleNamed(t *testing.T, c *live.Client, name string) uint64 {
	t.Helper()
	for h, e := range c.View() {
		if strings.Contains(e.Components["Name"], `"`+name+`"`) {
			return h
		}
	}
	t.Fatalf("no %s in the game", name)
	return 0
}

// TestAttachToRunningGame: the example game's editor attaches to the game running headless; the hierarchy shows
// its entities and the inspector follows a unit its systems move; a speed typed in the inspector reaches the game;
// Pause stops the game's systems and Step runs them exactly once; File → Snapshot writes the game's world as a
// scene file that loads and holds what the game holds.
func TestAttachToRunningGame(t *testing.T) {
	bin := exampleBinary(t, "./cmd/arena-editor")
	addr, token, dir, stopGame := startArena(t)
	ctx, cancel := context.WithTimeout(context.Background(), guitest.Timeout(5*time.Minute))
	defer cancel()
	c, err := live.Dial(ctx, addr, token)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }() // the test's own view of the game
	if err := c.Watch(ctx); err != nil {
		t.Fatal(err)
	}
	syncView := func() live.Delta {
		t.Helper()
		d, err := c.Sync(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	syncView()
	scout := handleNamed(t, c, "Scout")

	d := guitest.StartDisplay(t, 1600, 1000)
	e := guitest.LaunchBinaryIn(t, d, bin, dir, []string{"VOLTEX_LIVE_TOKEN=" + token}, "attach", addr,
		"--size", "1600x1000", "--settings", t.TempDir())
	failShot(t, e, t.Name())
	e.WaitProbe(60*time.Second, "attached", func(p *guitest.Probe) bool {
		return strings.Contains(p.Status, "attached") && p.Entities > 0
	})
	p := selectRow(t, e, "Scout", "Unit.speed")
	x0, z0 := p.Inspector["Transform.position[0]"].Shown, p.Inspector["Transform.position[2]"].Shown
	p = e.WaitProbe(60*time.Second, "the Scout moves in the inspector", func(p *guitest.Probe) bool {
		return p.Inspector["Transform.position[0]"].Shown != x0 || p.Inspector["Transform.position[2]"].Shown != z0
	})
	shotOf(t, e, p, "attached.png")
	docShot(t, e, "live-attached.png")

	// A speed typed in the inspector reaches the game.
	sp := widget(t, p, "Unit.speed")
	e.Click(sp.X+sp.W/10, sp.Y+sp.H/2, 1, "ctrl")
	e.WaitProbe(10*time.Second, "speed in text input", func(p *guitest.Probe) bool { return p.TextInput })
	e.Key("ctrl+a")
	e.Type("7")
	e.Key("Return")
	guitest.WaitFor(t, 60*time.Second, "the game has the speed", func() error {
		syncView()
		if ent, _ := c.Entity(scout); !strings.Contains(ent.Components["Unit"], `"speed": 7`) {
			return errorf("the Scout's Unit in the game: %s", ent.Components["Unit"])
		}
		return nil
	})

	// Pause: the game's systems stop.
	e.Key("F7")
	e.WaitProbe(60*time.Second, "paused in the status bar", func(p *guitest.Probe) bool { return strings.Contains(p.Status, "paused") })
	before := syncView()
	if !before.Paused {
		t.Fatal("the game is not paused")
	}
	// Step: exactly one update.
	e.Key("F10")
	var after live.Delta
	guitest.WaitFor(t, 60*time.Second, "one step", func() error {
		if after = syncView(); after.Updates == before.Updates {
			return errorf("no update yet (%d)", after.Updates)
		}
		return nil
	})
	if after = syncView(); after.Updates != before.Updates+1 || !after.Paused {
		t.Fatalf("Step ran %d updates (paused %v)", after.Updates-before.Updates, after.Paused)
	}
	ent, _ := c.Entity(scout)
	var tr struct{ Position [3]float64 }
	if err := json.Unmarshal([]byte(ent.Components["Transform"]), &tr); err != nil {
		t.Fatal(err)
	}
	p = e.WaitProbe(60*time.Second, "the inspector shows the step's position", func(p *guitest.Probe) bool {
		x, err := strconv.ParseFloat(strings.TrimSpace(p.Inspector["Transform.position[0]"].Shown), 64)
		return err == nil && math.Abs(x-tr.Position[0]) < 0.01
	})
	shotOf(t, e, p, "paused.png")

	// Snapshot: Save on an attached game writes a snapshot.
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "the snapshot dialog", func(p *guitest.Probe) bool { return p.Modal == "file:Snapshot of the Game" })
	e.Key("ctrl+a")
	e.Type("snap.json")
	e.Key("Return")
	out := filepath.Join(dir, "snap.json")
	guitest.WaitFor(t, 30*time.Second, "the snapshot", func() error { _, err := os.Stat(out); return err })
	loadArena(t, out) // the snapshot loads with the game's components
	want, err := c.SnapshotScene("")
	if err != nil {
		t.Fatal(err)
	}
	got, err := serialize.ReadRawFile(ctx, out, serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Entities) != len(want.Entities) {
		t.Fatalf("the snapshot holds %d entities, the game %d", len(got.Entities), len(want.Entities))
	}
	// Entities the game made from an export have no scene ids: each snapshot gives them new ones, so entities
	// are matched by name and components with references are left out of the comparison.
	byName := map[string]*serialize.RawEntity{}
	for i := range got.Entities {
		byName[got.Entities[i].Name] = &got.Entities[i]
	}
	compared := 0
	for i := range want.Entities {
		we := &want.Entities[i]
		ge := byName[we.Name]
		if ge == nil {
			t.Fatalf("the snapshot lacks %q", we.Name)
		}
		for _, wc := range we.Components {
			if hasRefs(c.Schema(wc.Name)) {
				continue
			}
			gc, _ := ge.Component(wc.Name)
			if compact(t, gc) != compact(t, wc.JSON) {
				t.Errorf("%s.%s: the snapshot has %s, the game %s", we.Name, wc.Name, gc, wc.JSON)
			}
			compared++
		}
	}
	if sn := byName["Scout"]; sn == nil || !strings.Contains(compact(t, componentOf(sn, "Unit")), `"speed":7`) {
		t.Errorf("the snapshot's Scout has not the speed typed: %v", sn)
	}
	t.Logf("compared %d component values", compared)

	// Diff with the scene file the game loaded (the game names it): the speed typed is among the changes.
	menu(t, e, "File", "Diff with Loaded Scene...")
	p = e.WaitProbe(30*time.Second, "the diff", func(p *guitest.Probe) bool {
		return p.Modal == "diff:Game vs. Scene File" && strings.Contains(p.Prompt, "Unit.speed")
	})
	if !strings.Contains(p.Prompt, "Scout (id ") || !strings.Contains(p.Prompt, "changed  Unit.speed: 4 → 7") {
		t.Errorf("the diff with the scene file:\n%s", p.Prompt)
	}
	shotOf(t, e, p, "diff.png")
	e.Key("Return")
	e.WaitProbe(10*time.Second, "the diff closed", func(p *guitest.Probe) bool { return p.Modal == "" })

	// The game ends: the editor keeps what it showed, read-only, and says so.
	n := p.Entities
	stopGame()
	p = e.WaitProbe(60*time.Second, "the connection lost", func(p *guitest.Probe) bool {
		return strings.Contains(p.Status, "lost (read-only)")
	})
	if p.Entities != n || p.Inspector["Unit.speed"].W == 0 {
		t.Errorf("after the game ended the editor shows %d entities (had %d), the Scout's speed %v", p.Entities, n, p.Inspector["Unit.speed"])
	}
	shotOf(t, e, p, "lost.png")
	// Detach returns to a new scene.
	e.Key("ctrl+p")
	e.WaitProbe(10*time.Second, "detached", func(p *guitest.Probe) bool {
		return p.Entities == 0 && !strings.Contains(p.Status, "game")
	})
}

func componentOf(e *serialize.RawEntity, name string) string {
	js, _ := e.Component(name)
	return js
}

// hasRefs reports whether a component's schema has entity references.
func hasRefs(s *live.Schema) bool {
	if s == nil {
		return false
	}
	var walk func(fs []live.Field) bool
	walk = func(fs []live.Field) bool {
		for i := range fs {
			f := &fs[i]
			if f.Entity || walk(f.Fields) || f.Elem != nil && (f.Elem.Entity || walk(f.Elem.Fields)) {
				return true
			}
		}
		return false
	}
	return walk(s.Fields)
}

// compact is JSON without spaces.
func compact(t *testing.T, js string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(js)); err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	return b.String()
}
