package doc

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// The crash test runs this package's test binary as a driver (VOLTEX_JOURNAL_DRIVER set): it opens
// a scene, starts its journal and edits it by a script, printing each step's number once done (and
// "synced N" after a Flush), until it is killed with SIGKILL at a random moment.

func TestMain(m *testing.M) {
	if os.Getenv("VOLTEX_JOURNAL_DRIVER") != "" {
		os.Exit(journalDriver())
	}
	os.Exit(m.Run())
}

// crashSession is what a driver run edits.
type crashSession struct {
	d   *Document
	big bool // one step spawns 100,000 cubes and saves them in the background
	bg  chan error
	job *WriteJob
	rng *rand.Rand
	tr  ecs.ComponentID
}

func openCrashSession(scenePath string, seed uint64, big bool) (*crashSession, error) {
	d, err := Open(context.Background(), scenePath, testOpts, nil)
	if err != nil {
		return nil, err
	}
	scene.SeedIDs(d.EditWorld(), seed)
	d.takenSet = false
	tr, _ := ecs.ComponentIDOf[ecs.Transform](d.EditWorld())
	return &crashSession{d: d, big: big, rng: rand.New(rand.NewPCG(seed, 7)), tr: tr}, nil
}

// crashSteps is how many steps a driver does before it waits to be killed.
const crashSteps = 60

// step does step i of the script: field edits, spawns, deletes, undo and redo, small grids, saves,
// and in a big session a 100,000-cube grid saved in the background while the edits go on.
func (s *crashSession) step(i int) error {
	d := s.d
	if s.job != nil {
		select {
		case err := <-s.bg:
			d.Finish(s.job, err)
			s.job = nil
		default:
		}
	}
	ids := d.IDs()
	pick := func() ecs.Entity { e, _ := d.Entity(ids[s.rng.IntN(len(ids))]); return e }
	switch k := s.rng.IntN(10); {
	case s.big && i == 20:
		p := scene.DefaultGrid()
		p.Count = [3]int{100, 100, 10}
		if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
			return err
		}
		if s.job == nil {
			s.job = d.PrepareSave("")
			s.bg = make(chan error, 1)
			go func(j *WriteJob) { s.bg <- j.Run(context.Background(), nil) }(s.job)
		}
	case i%17 == 16: // a save (unless the background one still runs)
		if s.job == nil {
			return d.Save(context.Background(), nil)
		}
	case len(ids) == 0: // deletes of parents took every entity: nothing to pick
		_, err := d.SpawnCube(ecs.Entity{})
		return err
	case k == 3: // every entity with a Transform: a column edit (columnMinCrash)
		var all []ecs.Entity
		for _, id := range ids {
			if e, _ := d.Entity(id); d.EditWorld().Has(e, s.tr) {
				all = append(all, e)
			}
		}
		return d.SetField(all, s.tr, "position[1]", float32(s.rng.IntN(100)))
	case k < 3:
		e := pick()
		for _, ok := d.EditWorld().Get(e, s.tr); !ok; _, ok = d.EditWorld().Get(e, s.tr) {
			e = pick()
		}
		return d.SetField([]ecs.Entity{e}, s.tr, "position["+strconv.Itoa(k%3)+"]", float32(s.rng.IntN(100)))
	case k == 4:
		_, err := d.SpawnCube(ecs.Entity{})
		return err
	case k == 5 && len(ids) > 3:
		return d.Delete(pick())
	case k == 6:
		return d.History().Undo()
	case k == 7:
		return d.History().Redo()
	case k == 8:
		p := scene.DefaultGrid()
		p.Count = [3]int{1 + s.rng.IntN(4), 1, 2}
		_, _, err := d.SpawnGrid(context.Background(), p, nil)
		return err
	default:
		return d.Rename([]ecs.Entity{pick()}, "N"+strconv.Itoa(i))
	}
	return nil
}

// columnMinCrash makes a field edit of two entities or more a column edit in the crash test's
// sessions (the driver's and the replay's), one entity's a per-entity one.
const columnMinCrash = 2

func journalDriver() int {
	columnMin = columnMinCrash
	seed, _ := strconv.ParseUint(os.Getenv("VOLTEX_JOURNAL_SEED"), 10, 64)
	s, err := openCrashSession(os.Getenv("VOLTEX_JOURNAL_SCENE"), seed, os.Getenv("VOLTEX_JOURNAL_BIG") != "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if _, err := s.d.StartJournal(os.Getenv("VOLTEX_JOURNAL_DRIVER"), JournalOptions{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	// A lazy run lets the base wait for the first step, as when the editor opens a scene.
	if os.Getenv("VOLTEX_JOURNAL_LAZY") == "" {
		if err := s.d.Journal().Flush(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	fmt.Println("ready")
	for i := range crashSteps {
		if err := s.step(i); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Println(i)
		if i%5 == 4 {
			if err := s.d.Journal().Flush(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
			fmt.Println("synced", i)
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(time.Hour) // wait for the kill
	return 0
}

// crashRuns is the number of runs: VOLTEX_CRASH_RUNS (make bench: 200), default 20.
func crashRuns() int {
	if n, err := strconv.Atoi(os.Getenv("VOLTEX_CRASH_RUNS")); err == nil && n > 0 {
		return n
	}
	return 20
}

// TestJournalCrash kills a driver editing a journaled scene with SIGKILL at random moments —
// mid-edit, mid-journal-write (half the runs before the base of the scene as opened is written,
// which waits for the first step), mid-save, during a background save of 100,000 cubes — and checks
// that every recovery is exactly the scene after one of the steps the driver finished, and not
// before the last step it saw synced: never part of a step.
func TestJournalCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("kills subprocesses; not in -short")
	}
	src, err := os.ReadFile("testdata/small.json")
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { columnMin = n }(columnMin)
	columnMin = columnMinCrash
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	for run := range crashRuns() {
		seed := rng.Uint64()
		big := run%5 == 4
		lazy := run%2 == 1
		dir := t.TempDir()
		scenePath := filepath.Join(dir, "small.json")
		jpath := filepath.Join(dir, "state", "small.journal")
		must(t, os.WriteFile(scenePath, src, 0o644))
		// Killed within the first steps mostly, later now and then (after the saves, the big spawn).
		delay := time.Duration(rng.IntN(120)) * time.Millisecond
		if big || run%3 == 0 {
			delay = time.Duration(rng.IntN(1500)) * time.Millisecond
		}
		done, synced := runDriver(t, scenePath, jpath, seed, big, lazy, delay)
		desc := fmt.Sprintf("run %d (seed %d, big %v, lazy %v, killed after %v): done %d, synced %d", run, seed, big, lazy, delay, done, synced)
		rc, err := Recover(context.Background(), jpath, testOpts)
		if os.IsNotExist(err) || err != nil && strings.Contains(err.Error(), "no base record") {
			if synced >= 0 || done >= 0 && !lazy {
				t.Fatalf("%s: the journal is gone: %v", desc, err)
			}
			continue // killed before the journal's base was written: the file is the state, with at most unsynced steps lost
		}
		if err != nil {
			t.Fatalf("%s: %v", desc, err)
		}
		if rc.Merged {
			data, _ := os.ReadFile(jpath)
			recs, _ := splitRecords(data)
			var kinds []byte
			for _, r := range recs {
				kinds = append(kinds, r[0])
			}
			t.Fatalf("%s: recovered by a merge, but only the session wrote the file (records %v)", desc, kinds)
		}
		got := content(t, rc.Doc)
		// Replay the script in-process: the recovery is the scene after step k, synced ≤ k ≤ done (or,
		// killed mid-step, the step after done).
		replayPath := filepath.Join(dir, "replay.json")
		must(t, os.WriteFile(replayPath, src, 0o644))
		s, err := openCrashSession(replayPath, seed, big)
		if err != nil {
			t.Fatal(err)
		}
		match := -2
		if synced < 0 && got == content(t, s.d) {
			match = -1
		}
		for k := 0; match == -2 && k <= done+1 && k < crashSteps; k++ {
			if err := s.step(k); err != nil {
				t.Fatalf("%s: replay step %d: %v", desc, k, err)
			}
			if k >= synced && got == content(t, s.d) {
				match = k
			}
		}
		if s.job != nil {
			s.d.Finish(s.job, <-s.bg)
		}
		if match == -2 {
			t.Fatalf("%s: the recovered scene is no state the session passed through from step %d on:\n%.2000s", desc, synced, got)
		}
	}
}

// runDriver starts the driver, kills it with SIGKILL delay after it is ready, and returns the last
// step it printed as done and as synced (-1: none).
func runDriver(t *testing.T, scenePath, jpath string, seed uint64, big, lazy bool, delay time.Duration) (done, synced int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "VOLTEX_JOURNAL_DRIVER="+jpath, "VOLTEX_JOURNAL_SCENE="+scenePath,
		"VOLTEX_JOURNAL_SEED="+strconv.FormatUint(seed, 10))
	if big {
		cmd.Env = append(cmd.Env, "VOLTEX_JOURNAL_BIG=1")
	}
	if lazy {
		cmd.Env = append(cmd.Env, "VOLTEX_JOURNAL_LAZY=1")
	}
	out, err := cmd.StdoutPipe()
	must(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	must(t, cmd.Start())
	lines := make(chan string, 256)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	done, synced = -1, -1
	var timer <-chan time.Time
	deadline := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				_ = cmd.Wait()
				t.Fatalf("the driver ended before it was killed: %s", stderr.String())
			}
			switch {
			case l == "ready":
				timer = time.After(delay)
			case strings.HasPrefix(l, "synced "):
				synced, _ = strconv.Atoi(strings.TrimPrefix(l, "synced "))
			default:
				done, _ = strconv.Atoi(l)
			}
			continue
		case <-timer:
		case <-deadline:
			t.Log("the driver never got ready")
		}
		break
	}
	must(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	for l := range lines { // what it printed before the kill
		if n, err := strconv.Atoi(strings.TrimPrefix(l, "synced ")); err == nil {
			if strings.HasPrefix(l, "synced ") {
				synced = n
			} else {
				done = n
			}
		}
	}
	return done, synced
}
