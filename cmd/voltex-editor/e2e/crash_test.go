package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// crashState is a scene as the crash test compares it: its entities' positions, sorted (ids are random
// and grid names are made unique against the scene, so positions are what tells one state from another).
type crashState []string

func (s crashState) String() string { return fmt.Sprintf("%d entities", len(s)) }

func (s crashState) with(more []string) crashState {
	out := append(slices.Clone(s), more...)
	slices.Sort(out)
	return out
}

func posKey(p [3]float32) string { return fmt.Sprintf("%.3f,%.3f,%.3f", p[0], p[1], p[2]) }

// readCrashState reads the scene file at path; a file that does not parse is an error.
func readCrashState(path string) (crashState, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Entities []struct {
			Components struct {
				Transform *struct {
					Position [3]float32 `json:"position"`
				}
			} `json:"components"`
		} `json:"entities"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := make(crashState, 0, len(f.Entities))
	for i, e := range f.Entities {
		if e.Components.Transform == nil {
			return nil, fmt.Errorf("%s: entity %d has no Transform", path, i)
		}
		s = append(s, posKey(e.Components.Transform.Position))
	}
	slices.Sort(s)
	return s, nil
}

// crashModel replays the commands the test sends the editor on the scene as the test sees it: the state after
// each command, and the undo and redo stacks of states.
type crashModel struct {
	cur        crashState
	undo, redo []crashState
	states     []crashState // states[k] is the scene after the first k commands
	saved      bool         // the last command was a save and nothing changed since
}

func (m *crashModel) do(next crashState) {
	m.undo = append(m.undo, m.cur)
	m.redo = nil
	m.cur = next
	m.saved = false
	m.states = append(m.states, next)
}

func (m *crashModel) step(undo bool) {
	from, to := &m.undo, &m.redo
	if !undo {
		from, to = to, from
	}
	*to = append(*to, m.cur)
	m.cur = (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	m.saved = false
	m.states = append(m.states, m.cur)
}

// crashRuns is the number of editor runs: VOLTEX_CRASH_RUNS (make bench: 200), default 3.
func crashRuns() int {
	if n, err := strconv.Atoi(os.Getenv("VOLTEX_CRASH_RUNS")); err == nil && n > 0 {
		return n
	}
	return 3
}

// TestEditorCrash runs the real editor on a scene, sends it a random list of commands (Select All and Delete,
// Undo, Redo, cube grids typed into the grid dialog, saves; every third run a grid of 100,000 cubes saved in the
// background while the commands go on), kills it with SIGKILL at a random moment — after a random command, a
// random time after the key — and recovers its journal with `voltex-editor recover --apply -o`: the recovered
// scene (or, when there is nothing to recover, the file) is the scene after some prefix of the commands, as a
// replay of them on the file's entities gives it, and not older than a save the editor finished; never a scene
// that does not parse or part of a command.
// VOLTEX_CRASH_SEED repeats a run list.
func TestEditorCrash(t *testing.T) {
	t.Parallel() // owns its Xvfb, shared by its runs
	d := guitest.StartDisplay(t, 1600, 1000)
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("VOLTEX_CRASH_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("VOLTEX_CRASH_SEED=%d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	for run := range crashRuns() {
		runSeed := rng.Uint64()
		t.Run(strconv.Itoa(run), func(t *testing.T) {
			start := time.Now()
			crashRun(t, d, runSeed, run%3 == 2)
			t.Logf("run %d (seed %d) took %v", run, runSeed, time.Since(start).Round(time.Millisecond))
		})
		if t.Failed() {
			return
		}
	}
}

func crashRun(t *testing.T, d *guitest.Display, seed uint64, big bool) {
	rng := rand.New(rand.NewPCG(seed, 5))
	path := copyScene(t, "cubes.json")
	orig, err := readCrashState(path)
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	env := []string{"XDG_STATE_HOME=" + state}
	e := guitest.LaunchIn(t, d, "", env, "--size", "1600x1000", "--settings", t.TempDir(), path)
	failShot(t, e, t.Name())
	e.WaitProbe(20*time.Second, "scene open", func(p *guitest.Probe) bool { return p.Entities == len(orig) && p.Modal == "" })

	m := &crashModel{cur: orig, states: []crashState{orig}}
	var log []string
	floor := 0 // a save the editor finished: the recovery is not older than it
	nsteps := 1 + rng.IntN(8)
	if big {
		nsteps = 3 + rng.IntN(3)
	}
	for i := range nsteps {
		last := i == nsteps-1
		// wait is how the test knows the command was done; the last one is not waited for.
		wait := func(what string, cond func(*guitest.Probe) bool) {
			if !last {
				e.WaitProbe(60*time.Second, what, cond)
			}
		}
		n := len(m.cur)
		switch k := rng.IntN(10); {
		case big && i == 1:
			log = append(log, "grid 100x100x10")
			m.do(m.cur.with(crashGrid(t, e, [3]int{100, 100, 10})))
			e.WaitProbe(120*time.Second, "the big grid", func(p *guitest.Probe) bool { return p.Entities == len(m.cur) })
		case big && i == 2 || k == 0 && !m.saved && len(m.states) > 1:
			log = append(log, "save")
			e.Key("ctrl+s")
			m.saved = true
			m.states = append(m.states, m.cur)
			if !big && !last {
				wait("saved", func(p *guitest.Probe) bool { return !p.Dirty && p.Job == nil })
				floor = len(m.states) - 1
			}
		case k < 3 && n > 0:
			log = append(log, "delete all")
			e.Key("ctrl+a")
			e.WaitProbe(20*time.Second, "all selected", func(p *guitest.Probe) bool { return p.SelectedCount == n })
			e.Key("Delete")
			m.do(nil)
			wait("deleted", func(p *guitest.Probe) bool { return p.Entities == 0 })
		case k < 5 && len(m.undo) > 0:
			log = append(log, "undo")
			e.Key("ctrl+z")
			m.step(true)
			wait("undone", func(p *guitest.Probe) bool { return p.Entities == len(m.cur) })
		case k < 7 && len(m.redo) > 0:
			log = append(log, "redo")
			e.Key("ctrl+y")
			m.step(false)
			wait("redone", func(p *guitest.Probe) bool { return p.Entities == len(m.cur) })
		default:
			count := [3]int{1 + rng.IntN(6), 1 + rng.IntN(2), 1 + rng.IntN(6)}
			log = append(log, fmt.Sprintf("grid %dx%dx%d", count[0], count[1], count[2]))
			m.do(m.cur.with(crashGrid(t, e, count)))
			wait("the grid spawned", func(p *guitest.Probe) bool { return p.Entities == len(m.cur) && p.Grid == nil })
		}
	}
	delay := time.Duration(rng.IntN(400)) * time.Millisecond
	time.Sleep(delay) // the random moment of the kill, not a wait for anything
	e.Signal(syscall.SIGKILL)
	_, _ = e.Wait(15 * time.Second)

	got, how := recoverCrash(t, path, env)
	desc := fmt.Sprintf("commands %v, killed %v after the last", log, delay)
	for k := len(m.states) - 1; k >= floor; k-- {
		if slices.Equal(got, m.states[k]) {
			t.Logf("%s: %s is the scene after %d of %d commands (%v)", desc, how, k, len(log), got)
			return
		}
	}
	want := make([]string, len(m.states))
	for k, s := range m.states {
		want[k] = s.String()
	}
	t.Fatalf("%s: %s (%v) is none of the scenes after a prefix of the commands (at least %d of them, saved): %s",
		desc, how, got, floor, strings.Join(want, ", "))
}

// crashGrid spawns a grid of count cubes with the grid dialog and returns their positions as the dialog places them.
func crashGrid(t *testing.T, e *guitest.Editor, count [3]int) []string {
	t.Helper()
	e.Xdotool("key", "--delay", "20", "ctrl+g")
	e.Xdotool("type", "--delay", "20", strconv.Itoa(count[0]))
	e.Xdotool("key", "Tab")
	e.Xdotool("type", "--delay", "20", strconv.Itoa(count[1]))
	e.Xdotool("key", "Tab")
	e.Xdotool("type", "--delay", "20", strconv.Itoa(count[2]))
	e.Xdotool("key", "Tab")
	e.WaitProbe(30*time.Second, fmt.Sprintf("the grid dialog with counts %v", count), func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Count == count
	})
	p := e.Settle()
	if p.Grid == nil || p.Grid.Count != count {
		t.Fatalf("the grid dialog changed: %+v", p.Grid)
	}
	g := scene.DefaultGrid()
	g.Count, g.Spacing, g.Origin = count, mgl32.Vec3(p.Grid.Spacing), mgl32.Vec3(p.Grid.Centre)
	b := p.Grid.Fields["spawn"]
	e.Click(b.X+b.W/2, b.Y+b.H/2, 1)
	out := make([]string, g.Len())
	for i := range out {
		pos, _ := g.Cube(i)
		out[i] = posKey(pos)
	}
	return out
}

// recoverCrash is the scene a user gets back after the crash: what `recover --apply -o` writes, or the file when
// there is nothing to recover; and which of them it is.
func recoverCrash(t *testing.T, path string, env []string) (crashState, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "recovered.json")
	cmd := exec.Command(guitest.Binary(t), "recover", "--apply", "-o", out, path)
	cmd.Env = append(os.Environ(), env...)
	b, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("recover: %v\n%s", err, b)
	}
	how := "the recovered scene"
	if _, err := os.Stat(out); os.IsNotExist(err) {
		out, how = path, "the file (no journal)"
	}
	s, err := readCrashState(out)
	if err != nil {
		t.Fatalf("%s does not read: %v\n%s", how, err, b)
	}
	return s, how
}
