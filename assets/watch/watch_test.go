package watch

import (
	"errors"
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Timing: waits are generous (a loaded 2-core machine can stall for a long time), while the
// quiet period is short so the tests stay fast. Event counts are exact. A test whose case needs
// several file operations inside one quiet period checks that they were (quickly) and retries
// when the machine stalled it, rather than failing on a slow machine.
const (
	testQuiet   = 50 * time.Millisecond
	waitTimeout = 30 * time.Second
)

// quickly runs ops and reports whether they all happened within half of the quiet period q, i.e.
// whether the case the test sets up (one burst) really happened.
func quickly(q time.Duration, ops ...func()) bool {
	t0 := time.Now()
	for _, op := range ops {
		op()
	}
	return time.Since(t0) < q/2
}

// retryStalled runs attempt until it reports that its timing premise held (see quickly), at most
// five times; each attempt sets up its own watcher and file.
func retryStalled(t *testing.T, attempt func() bool) {
	t.Helper()
	for i := range 5 {
		if attempt() {
			return
		}
		t.Logf("attempt %d: the machine stalled the test for longer than the quiet period; trying again", i+1)
	}
	t.Fatal("every attempt was stalled for longer than the quiet period")
}

func newWatcher(t *testing.T, opts Options) *Watcher {
	t.Helper()
	if opts.Quiet == 0 {
		opts.Quiet = testQuiet
	}
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Error(err)
		}
	})
	return w
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// atomicSave writes content to a temporary file beside path and renames it over path, the way
// editors (and serialize's atomic save) do.
func atomicSave(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".tmp~"
	write(t, tmp, content)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// settleTime is how long collect keeps listening after the expected events arrived, to catch
// extra ones: an extra burst would settle within one quiet period of the expected one.
func settleTime(w *Watcher) time.Duration { return 2*w.opts.Quiet + 150*time.Millisecond }

// collect waits (up to waitTimeout) for n events, then listens a little longer and returns
// every event seen, so that callers can assert the exact count.
func collect(t *testing.T, w *Watcher, n int) []Event {
	t.Helper()
	var got []Event
	deadline := time.After(waitTimeout)
	for len(got) < n {
		select {
		case <-w.Ready():
			got = append(got, w.Poll()...)
		case <-deadline:
			t.Fatalf("timed out with %d events %v, want %d", len(got), got, n)
		}
	}
	time.Sleep(settleTime(w))
	return append(got, w.Poll()...)
}

func expect(t *testing.T, got []Event, want ...Event) {
	t.Helper()
	if !slices.EqualFunc(got, want, func(a, b Event) bool { return a.Path == b.Path && a.Kind == b.Kind }) {
		t.Fatalf("events %v, want %v", got, want)
	}
}

// waitSuppressed waits until the watcher has settled n bursts that produced no event.
func waitSuppressed(t *testing.T, w *Watcher, n int64) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for w.suppressed.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d bursts settled silently, want %d", w.suppressed.Load(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func setup(t *testing.T, opts Options) (w *Watcher, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "scene.json")
	write(t, path, "version 1")
	w = newWatcher(t, opts)
	if err := w.Add(path); err != nil {
		t.Fatal(err)
	}
	return w, path
}

func TestWrite(t *testing.T) {
	t.Parallel()
	w, path := setup(t, Options{})
	// One write() call of the same length: nothing can observe a half-written file.
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("version 2"), 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
}

func TestRenameOverSave(t *testing.T) {
	t.Parallel()
	w, path := setup(t, Options{})
	atomicSave(t, path, "version 2")
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
	// The watch survives the replacement: a second save is seen too.
	atomicSave(t, path, "version 3")
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
}

func TestBurstIsOneEvent(t *testing.T) {
	t.Parallel()
	// No gap between the 100 writes may reach the quiet period (plain writes truncate first, so a
	// settled gap would show a half-written file): retried if the machine stalled them.
	retryStalled(t, func() bool {
		w, path := setup(t, Options{Quiet: time.Second, MaxDelay: time.Minute})
		if !quickly(time.Second, func() {
			for i := range 100 {
				write(t, path, fmt.Sprintf("version %d", 100+i))
			}
		}) {
			return false
		}
		expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
		return true
	})
}

func TestMaxDelayReportsDuringEndlessWrites(t *testing.T) {
	t.Parallel()
	const quiet = 200 * time.Millisecond
	w, path := setup(t, Options{Quiet: quiet, MaxDelay: 300 * time.Millisecond})
	// Keep saving every 20 ms until an event arrives while the saves never paused for a quiet
	// period (a pause that long, from a stalled machine, lets the burst settle normally: that
	// event does not count, and the observation starts again).
	deadline := time.Now().Add(waitTimeout)
	var last time.Time
	for i := 0; ; i++ {
		atomicSave(t, path, fmt.Sprintf("version %d", 100+i))
		now := time.Now()
		paused := !last.IsZero() && now.Sub(last) >= quiet/2
		last = now
		if n := len(w.Poll()); n > 0 && !paused {
			return
		}
		if now.After(deadline) {
			t.Fatalf("no event in %v while the file kept changing with MaxDelay 300 ms", waitTimeout)
		}
		time.Sleep(20 * time.Millisecond) // the pace of the writes, not a wait for a result
	}
}

func TestDeleteThenRecreate(t *testing.T) {
	t.Parallel()
	w, path := setup(t, Options{})
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Missing})
	atomicSave(t, path, "version 1") // even the old content: it was missing in between
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
}

func TestDeleteAndRecreateWithinQuietPeriodIsNoChange(t *testing.T) {
	t.Parallel()
	retryStalled(t, func() bool {
		w, path := setup(t, Options{Quiet: time.Second})
		if !quickly(time.Second, func() {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			write(t, path, "version 1")
		}) {
			return false
		}
		waitSuppressed(t, w, 1)
		if ev := w.Poll(); ev != nil {
			t.Fatalf("events %v for a file that ended up as it was", ev)
		}
		return true
	})
}

func TestOwnSaveIsSuppressed(t *testing.T) {
	t.Parallel()
	w, path := setup(t, Options{})
	w.ExpectOwnWrite(path, []byte("saved by editor"))
	atomicSave(t, path, "saved by editor")
	waitSuppressed(t, w, 1) // the save's events were seen and settled...
	time.Sleep(settleTime(w))
	if ev := w.Poll(); ev != nil { // ...without an event
		t.Fatalf("own save reported: %v", ev)
	}
	// An outside write after the save is reported.
	atomicSave(t, path, "written by another tool")
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
}

func TestOutsideWriteRightAfterOwnSaveIsReported(t *testing.T) {
	t.Parallel()
	w, path := setup(t, Options{Quiet: 200 * time.Millisecond})
	w.ExpectOwnWrite(path, []byte("saved by editor"))
	atomicSave(t, path, "saved by editor")
	atomicSave(t, path, "written by another tool") // within the same quiet period
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
	// And once more with the save landing after the outside write settled: the save is quiet.
	n := w.suppressed.Load()
	w.ExpectOwnWrite(path, []byte("saved again"))
	atomicSave(t, path, "saved again")
	waitSuppressed(t, w, n+1)
	if ev := w.Poll(); ev != nil {
		t.Fatalf("own save reported: %v", ev)
	}
}

func TestSameContentIsNotReported(t *testing.T) {
	t.Parallel()
	w, path := setup(t, Options{})
	atomicSave(t, path, "version 1") // replaced, identical
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	waitSuppressed(t, w, 1)
	time.Sleep(settleTime(w))
	if ev := w.Poll(); ev != nil {
		t.Fatalf("events %v for unchanged content", ev)
	}
}

func TestOnlyWatchedFilesInTheDirectory(t *testing.T) {
	t.Parallel()
	w, path := setup(t, Options{})
	dir := filepath.Dir(path)
	write(t, filepath.Join(dir, "other.obj"), "x")
	atomicSave(t, filepath.Join(dir, "third.obj"), "y")
	atomicSave(t, path, "version 2")
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
}

func TestFileMissingAtAdd(t *testing.T) {
	t.Parallel()
	w := newWatcher(t, Options{})
	path := filepath.Join(t.TempDir(), "later.obj")
	if err := w.Add(path); err != nil {
		t.Fatal(err)
	}
	atomicSave(t, path, "v 0 0 0")
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
}

func TestTwoFilesOneDirectory(t *testing.T) {
	t.Parallel()
	w, a := setup(t, Options{})
	b := filepath.Join(filepath.Dir(a), "model.obj")
	write(t, b, "v 0 0 0")
	if err := w.Add(b); err != nil {
		t.Fatal(err)
	}
	atomicSave(t, a, "version 2")
	atomicSave(t, b, "v 1 1 1")
	got := collect(t, w, 2)
	slices.SortFunc(got, func(x, y Event) int { return strings.Compare(x.Path, y.Path) })
	want := []Event{{Path: b, Kind: Changed}, {Path: a, Kind: Changed}}
	slices.SortFunc(want, func(x, y Event) int { return strings.Compare(x.Path, y.Path) })
	expect(t, got, want...)
	// Removing one keeps the directory watched for the other.
	if err := w.Remove(b); err != nil {
		t.Fatal(err)
	}
	atomicSave(t, b, "v 2 2 2")
	atomicSave(t, a, "version 3")
	expect(t, collect(t, w, 1), Event{Path: a, Kind: Changed})
}

func TestSetAndWatched(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	w := newWatcher(t, Options{})
	if err := w.Set([]string{a, b}); err != nil {
		t.Fatal(err)
	}
	if err := w.Set([]string{b, c, filepath.Join(dir, "nodir", "d")}); err == nil {
		t.Error("Set with a file in a missing directory succeeded")
	}
	if got := w.Watched(); !slices.Equal(got, []string{b, c}) {
		t.Fatalf("Watched() = %v, want [b c]", got)
	}
	atomicSave(t, a, "1")
	atomicSave(t, c, "1")
	expect(t, collect(t, w, 1), Event{Path: c, Kind: Changed})
}

func TestRelativePathsAreMadeAbsolute(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	w := newWatcher(t, Options{})
	if err := w.Add("rel.obj"); err != nil {
		t.Fatal(err)
	}
	atomicSave(t, filepath.Join(dir, "rel.obj"), "1")
	expect(t, collect(t, w, 1), Event{Path: filepath.Join(dir, "rel.obj"), Kind: Changed})
}

func TestDirectoryGoneAndBack(t *testing.T) {
	t.Parallel()
	sub := filepath.Join(t.TempDir(), "models")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(sub, "ship.obj")
	write(t, path, "v 0 0 0")
	w := newWatcher(t, Options{Retry: 20 * time.Millisecond})
	if err := w.Add(path); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(sub); err != nil {
		t.Fatal(err)
	}
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Missing})
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	atomicSave(t, path, "v 1 1 1")
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
	// And the directory is watched again: a later change is seen.
	atomicSave(t, path, "v 2 2 2")
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
}

func TestWakeIsCalled(t *testing.T) {
	t.Parallel()
	var wakes atomic.Int32
	w, path := setup(t, Options{Wake: func() { wakes.Add(1) }})
	atomicSave(t, path, "version 2")
	collect(t, w, 1)
	if wakes.Load() != 1 {
		t.Errorf("Wake called %d times for one event", wakes.Load())
	}
}

func TestQueueKeepsOneEventPerFile(t *testing.T) {
	t.Parallel()
	w, path := setup(t, Options{})
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	select { // Missing is queued; nobody polls
	case <-w.Ready():
	case <-time.After(waitTimeout):
		t.Fatal("no event for the deletion")
	}
	write(t, path, "version 2")
	deadline := time.Now().Add(waitTimeout)
	for {
		w.mu.Lock()
		q := slices.Clone(w.queue)
		w.mu.Unlock()
		if len(q) == 1 && q[0].Kind == Changed {
			break
		}
		if len(q) != 1 || time.Now().After(deadline) {
			t.Fatalf("queue %v, want only the newest event", q)
		}
		time.Sleep(5 * time.Millisecond)
	}
	expect(t, w.Poll(), Event{Path: path, Kind: Changed})
}

func TestNonRegularFileIsNotRead(t *testing.T) {
	t.Parallel()
	retryStalled(t, func() bool {
		w, path := setup(t, Options{Quiet: time.Second})
		if !quickly(time.Second, func() {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(path, 0o755); err != nil { // replaced by a directory
				t.Fatal(err)
			}
		}) {
			return false
		}
		got := collect(t, w, 1)
		if len(got) != 1 || got[0].Kind != Changed {
			t.Fatalf("events %v, want one change", got)
		}
		return true
	})
}

func TestClosedWatcher(t *testing.T) {
	t.Parallel()
	w, path := setup(t, Options{})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := w.Add(path + "2"); !errors.Is(err, ErrClosed) {
		t.Errorf("Add after Close: %v", err)
	}
	if ev := w.Poll(); ev != nil {
		t.Errorf("Poll after Close: %v", ev)
	}
	if err := w.Remove(path); err != nil {
		t.Errorf("Remove after Close: %v", err)
	}
}

// TestCloseLeavesNoGoroutines starts and closes watchers with pending work and checks that
// the goroutine count returns to where it was. Not parallel: it counts goroutines (the
// parallel tests are paused while it runs).
func TestCloseLeavesNoGoroutines(t *testing.T) {
	dir := t.TempDir()
	before := runtime.NumGoroutine()
	for i := range 5 {
		w, err := New(Options{Quiet: testQuiet, Retry: 10 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("f%d", i))
		if err := w.Add(path); err != nil {
			t.Fatal(err)
		}
		write(t, path, "x") // a pending burst at Close time
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(waitTimeout)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after Close:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Changed: "changed", Missing: "missing", Error: "error", 9: "Kind(9)"} {
		if k.String() != want {
			t.Errorf("%d: %q", k, k.String())
		}
	}
}

func TestFsnotifyErrors(t *testing.T) {
	t.Parallel()
	w, path := setup(t, Options{})
	// A lost-events overflow makes the watcher look at every file again (here: unchanged).
	w.fsError(fsnotify.ErrEventOverflow)
	w.kick <- struct{}{} // what the loop does after its own calls: recompute the deadline
	waitSuppressed(t, w, 1)
	// Other errors are reported as Error events.
	w.fsError(errors.New("inotify broke"))
	got := w.Poll()
	if len(got) != 1 || got[0].Kind != Error || got[0].Path != "" || got[0].Err.Error() != "watch: inotify broke" {
		t.Fatalf("events %v, want one Error", got)
	}
	// The file is still followed.
	atomicSave(t, path, "version 2")
	expect(t, collect(t, w, 1), Event{Path: path, Kind: Changed})
}

// AddKnown takes the content as the caller hashed it (ContentHash, in any number of writes) instead of reading
// the file: a rewrite with that content is quiet, another is reported; and the file's content on disk is not
// what counts — with the hash of other content, the rewrite of what is on disk is a change.
func TestAddKnownTakesTheHashedContent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := newWatcher(t, Options{})
	hashOf := func(parts ...string) uint64 {
		h := w.ContentHash()
		for _, p := range parts {
			h.Write([]byte(p))
		}
		return h.Sum64()
	}
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	write(t, a, "saved by editor")
	write(t, b, "saved by editor")
	if err := w.AddKnown(a, hashOf("saved ", "by", " editor")); err != nil {
		t.Fatal(err)
	}
	if err := w.AddKnown(b, hashOf("something else")); err != nil {
		t.Fatal(err)
	}
	atomicSave(t, a, "saved by editor")
	atomicSave(t, b, "saved by editor")
	expect(t, collect(t, w, 1), Event{Path: b, Kind: Changed})
	atomicSave(t, a, "written by another tool")
	expect(t, collect(t, w, 1), Event{Path: a, Kind: Changed})
}

// TestDirectoryListing: a watched directory reports Changed (its own path) when a file appears in it, is renamed
// into it or is deleted — once per burst — and nothing when a file in it only changes content or a temporary file
// comes and goes within one quiet period (its list of names is as it was).
func TestDirectoryListing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "scene.json"), "v1")
	w := newWatcher(t, Options{})
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "rock.obj"), "v 0 0 0")
	expect(t, collect(t, w, 1), Event{Path: dir, Kind: Changed})
	outside := filepath.Join(t.TempDir(), "crate.json")
	write(t, outside, "{}")
	if err := os.Rename(outside, filepath.Join(dir, "crate.json")); err != nil { // renamed into it
		t.Fatal(err)
	}
	expect(t, collect(t, w, 1), Event{Path: dir, Kind: Changed})
	write(t, filepath.Join(dir, "scene.json"), "v2") // content only
	if err := os.Remove(filepath.Join(dir, "rock.obj")); err != nil {
		t.Fatal(err)
	}
	expect(t, collect(t, w, 1), Event{Path: dir, Kind: Changed})
	if !quickly(testQuiet, func() { atomicSave(t, filepath.Join(dir, "scene.json"), "v3") }) { // a temporary file comes and goes
		t.Log("the machine stalled the save for longer than the quiet period: its temporary file is not checked")
		return
	}
	waitSuppressed(t, w, 1)
	time.Sleep(settleTime(w))
	if ev := w.Poll(); ev != nil {
		t.Fatalf("events %v for a list of names as it was", ev)
	}
	if got := w.Watched(); !slices.Equal(got, []string{dir}) {
		t.Fatalf("watched %v", got)
	}
}

// A watcher made with a seed hashes contents with it: what the caller hashed with that seed before the watcher
// existed is what AddKnown takes.
func TestSeedIsTheContentHashes(t *testing.T) {
	t.Parallel()
	seed := maphash.MakeSeed()
	w := newWatcher(t, Options{Seed: seed})
	h := w.ContentHash()
	h.Write([]byte("scene"))
	if h.Sum64() != maphash.Bytes(seed, []byte("scene")) {
		t.Fatal("the watcher's content hash is not seeded with Options.Seed")
	}
}
