package watch

import (
	"errors"
	"fmt"
	"hash"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Kind says what happened to a watched file.
type Kind uint8

const (
	// Changed means the file exists and its content differs from the last known content (it was
	// written, created, or replaced by a rename).
	Changed Kind = iota + 1
	// Missing means the file no longer exists (deleted, or renamed away).
	Missing
	// Error means the watcher itself had a problem (Event.Err says what); files may be missed.
	Error
)

// String returns "changed", "missing" or "error".
func (k Kind) String() string {
	switch k {
	case Changed:
		return "changed"
	case Missing:
		return "missing"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Event reports one settled change of a watched file.
type Event struct {
	// Path is the file's absolute, clean path (as Add made it); empty for Error events.
	Path string
	Kind Kind
	// Err is set for Error events.
	Err error
}

// Defaults for [Options].
const (
	DefaultQuiet    = 100 * time.Millisecond
	DefaultMaxDelay = 2 * time.Second
	DefaultRetry    = time.Second
)

// Options configure a [Watcher]. Zero fields mean the defaults.
type Options struct {
	// Quiet is how long a file must go without raw events before its change is reported.
	// Default 100 ms.
	Quiet time.Duration
	// MaxDelay bounds how long a file that keeps changing waits: its change is reported at
	// most this long after the first raw event of a burst. Default 2 s.
	MaxDelay time.Duration
	// Retry is how often directories that disappeared are tried again. Default 1 s.
	Retry time.Duration
	// Wake, if set, is called (from the watcher's goroutine) after events were queued; pass
	// something that wakes the GUI loop, such as giu.Update. It must not block.
	Wake func()
	// Seed seeds the hashes it knows files' contents by (ContentHash); the zero Seed, a new one. A caller
	// that keeps the seed can hash a file it reads before the watcher exists, for AddKnown.
	Seed maphash.Seed
}

// ErrClosed is returned by methods called after [Watcher.Close].
var ErrClosed = errors.New("watch: watcher is closed")

// Watcher follows a set of files. Its methods are safe for concurrent use.
type Watcher struct {
	fs   *fsnotify.Watcher
	opts Options
	seed maphash.Seed

	addMu sync.Mutex // serializes Add/Remove/Set and re-watching (the calls into fsnotify)

	mu     sync.Mutex // guards everything below
	files  map[string]*file
	dirs   map[string]*dir
	queue  []Event
	closed bool

	ready chan struct{} // cap 1: "the queue is not empty"
	kick  chan struct{} // cap 1: "pending deadlines changed" (from outside the loop)
	done  chan struct{}
	wg    sync.WaitGroup

	suppressed atomic.Int64 // settled bursts that produced no event (content as known); for tests
}

// file is the state of one watched file, or of a watched directory's list of names (listing).
type file struct {
	dir     string // the directory fsnotify watches for it: its parent, or a listing's own path
	listing bool
	known   state     // content last reported, loaded, or declared by ExpectOwnWrite
	gen     uint64    // bumped by ExpectOwnWrite
	first   time.Time // first raw event of the pending burst
	due     time.Time // when the pending burst settles; zero when nothing is pending
}

type dir struct {
	files int  // watched files in it
	lost  bool // the directory went away; the retrier re-adds it
}

// state is what the watcher knows of a file's content.
type state struct {
	exists bool
	kind   uint8 // 0 regular file (hash valid), 1 not a regular file, 2 unreadable, 3 a directory (hash of its names)
	hash   uint64
}

// New starts a watcher with no files.
func New(opts Options) (*Watcher, error) {
	if opts.Quiet <= 0 {
		opts.Quiet = DefaultQuiet
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = DefaultMaxDelay
	}
	if opts.Retry <= 0 {
		opts.Retry = DefaultRetry
	}
	if opts.Seed == (maphash.Seed{}) {
		opts.Seed = maphash.MakeSeed()
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	w := &Watcher{
		fs:    fw,
		opts:  opts,
		seed:  opts.Seed,
		files: make(map[string]*file),
		dirs:  make(map[string]*dir),
		ready: make(chan struct{}, 1),
		kick:  make(chan struct{}, 1),
		done:  make(chan struct{}),
	}
	w.wg.Add(2)
	go w.loop()
	go w.retrier()
	return w, nil
}

// Close stops the watcher and waits for its goroutines to end. Queued events are dropped.
// Calling Close again does nothing.
func (w *Watcher) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.queue = nil
	w.mu.Unlock()
	close(w.done)
	err := w.fs.Close()
	w.wg.Wait()
	return err
}

func abs(path string) (string, error) {
	p, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("watch: %s: %w", path, err)
	}
	return p, nil
}

// Add starts watching the file at path (made absolute). The file need not exist, but its
// directory must. Add reads the file once to know its current content, so that only later
// changes are reported. Adding a watched file again does nothing. A path that is a directory
// when added is watched for its list of names: Changed (its path) when entries appear, go or
// are renamed, not when a file in it only changes content, and not for a temporary file that
// comes and goes within one burst (an atomic save beside it).
func (w *Watcher) Add(path string) error {
	return w.serialized(path, func(p string) error { return w.add(p, w.observe) })
}

// AddKnown is Add for a file whose content the caller has just written through a [Watcher.ContentHash]: sum is
// that hash's Sum64, and the file is not read again (a save of hundreds of MB would otherwise be read back on
// the caller's goroutine, to learn what it wrote).
func (w *Watcher) AddKnown(path string, sum uint64) error {
	return w.serialized(path, func(p string) error {
		return w.add(p, func(string) state { return state{exists: true, hash: sum} })
	})
}

// ContentHash returns a hash seeded as this watcher's own: the content of a file written to it, in any number
// of writes, gives the Sum64 that AddKnown takes.
func (w *Watcher) ContentHash() hash.Hash64 {
	h := &maphash.Hash{}
	h.SetSeed(w.seed)
	return h
}

// serialized makes path absolute and runs fn with it while holding addMu.
func (w *Watcher) serialized(path string, fn func(p string) error) error {
	p, err := abs(path)
	if err != nil {
		return err
	}
	w.addMu.Lock()
	defer w.addMu.Unlock()
	return fn(p)
}

// add watches p, knowing its content as observe says it is now.
func (w *Watcher) add(p string, observe func(string) state) error {
	at := filepath.Dir(p)
	fi, err := os.Stat(p)
	listing := err == nil && fi.IsDir()
	if listing {
		at = p
	}
	w.mu.Lock()
	closed, watched := w.closed, w.files[p] != nil
	d := w.dirs[at]
	w.mu.Unlock()
	switch {
	case closed:
		return ErrClosed
	case watched:
		return nil
	}
	known := observe(p)
	if d == nil {
		if err := w.fs.Add(at); errors.Is(err, fsnotify.ErrClosed) {
			return ErrClosed
		} else if err != nil {
			return fmt.Errorf("watch: %s: %w", p, err)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	d = w.dirs[at]
	if d == nil {
		d = &dir{}
		w.dirs[at] = d
	}
	d.files++
	w.files[p] = &file{dir: at, listing: listing, known: known}
	return nil
}

// Remove stops watching the file at path and drops its queued events. Removing a file that
// is not watched does nothing.
func (w *Watcher) Remove(path string) error { return w.serialized(path, w.remove) }

func (w *Watcher) remove(p string) error {
	w.mu.Lock()
	f := w.files[p]
	if w.closed || f == nil {
		w.mu.Unlock()
		return nil
	}
	delete(w.files, p)
	w.queue = slices.DeleteFunc(w.queue, func(e Event) bool { return e.Path == p })
	d := w.dirs[f.dir]
	d.files--
	drop := d.files == 0
	if drop {
		delete(w.dirs, f.dir)
	}
	w.mu.Unlock()
	if drop && !d.lost {
		if err := w.fs.Remove(f.dir); err != nil && !errors.Is(err, fsnotify.ErrNonExistentWatch) && !errors.Is(err, fsnotify.ErrClosed) {
			return fmt.Errorf("watch: %s: %w", f.dir, err)
		}
	}
	return nil
}

// Set makes paths the exact set of watched files: new ones are added, missing ones removed,
// the others keep their state. It returns the errors of the files it could not add.
func (w *Watcher) Set(paths []string) error {
	want := make(map[string]bool, len(paths))
	var errs []error
	for _, path := range paths {
		p, err := abs(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		want[p] = true
	}
	for _, p := range w.Watched() {
		if !want[p] {
			errs = append(errs, w.Remove(p))
		}
	}
	for p := range want {
		errs = append(errs, w.Add(p))
	}
	return errors.Join(errs...)
}

// Watched returns the watched files, sorted.
func (w *Watcher) Watched() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.files))
	for p := range w.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// ExpectOwnWrite declares that the editor is about to write content to the watched file at
// path (typically right before an atomic save). From then on, the file holding exactly this
// content is "known": the save produces no event, while a write of any other content, by
// another program, before or after the save, is reported as usual. Call it before writing; if
// the save then fails, nothing is lost (an outside change still differs from content).
// For a file that is not watched it does nothing.
//
// It can also declare content the editor has just loaded, so that the load's own reading of
// the file does not race with the watcher's idea of it.
func (w *Watcher) ExpectOwnWrite(path string, content []byte) {
	p, err := abs(path)
	if err != nil {
		return
	}
	st := state{exists: true, hash: maphash.Bytes(w.seed, content)}
	w.mu.Lock()
	defer w.mu.Unlock()
	if f := w.files[p]; f != nil {
		f.known = st
		f.gen++
	}
}

// Poll returns the queued events, oldest first, and empties the queue; it never blocks and
// returns nil when there are none. A file has at most one event in the queue: a newer change
// replaces an undrained older one.
func (w *Watcher) Poll() []Event {
	w.mu.Lock()
	defer w.mu.Unlock()
	q := w.queue
	w.queue = nil
	return q
}

// Ready returns a channel that receives a value when events are queued; for consumers that
// wait instead of polling each frame. After a receive, call Poll.
func (w *Watcher) Ready() <-chan struct{} { return w.ready }

// loop reads fsnotify and settles bursts when their quiet period is over.
func (w *Watcher) loop() {
	defer w.wg.Done()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			w.raw(ev)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			w.fsError(err)
		case <-timer.C:
			w.settle()
		case <-w.kick:
		}
		if next, ok := w.nextDue(); ok {
			timer.Reset(time.Until(next))
		} else {
			timer.Stop()
		}
	}
}

// pend marks f as having a raw event now: its burst settles after the quiet period, but no
// later than MaxDelay after the burst began. w.mu must be held.
func (w *Watcher) pend(f *file, now time.Time) {
	if f.due.IsZero() {
		f.first = now
	}
	f.due = now.Add(w.opts.Quiet)
	if limit := f.first.Add(w.opts.MaxDelay); f.due.After(limit) {
		f.due = limit
	}
}

func (w *Watcher) raw(ev fsnotify.Event) {
	name := filepath.Clean(ev.Name)
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	if f := w.files[name]; f != nil {
		w.pend(f, now)
	}
	if f := w.files[filepath.Dir(name)]; f != nil && f.listing && ev.Has(fsnotify.Create|fsnotify.Remove|fsnotify.Rename) {
		w.pend(f, now)
	}
	if d := w.dirs[name]; d != nil && ev.Has(fsnotify.Remove|fsnotify.Rename) {
		// The directory itself went away (its watch is gone): its files are missing until the
		// retrier sees it back.
		d.lost = true
		w.pendDir(name, now)
	}
}

// pendDir marks every watched file in directory d as pending. w.mu must be held.
func (w *Watcher) pendDir(d string, now time.Time) {
	for _, f := range w.files {
		if f.dir == d {
			w.pend(f, now)
		}
	}
}

func (w *Watcher) fsError(err error) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		// Events were lost: look at every file again; content comparison finds what changed.
		now := time.Now()
		w.mu.Lock()
		for _, f := range w.files {
			w.pend(f, now)
		}
		w.mu.Unlock()
		return
	}
	w.publish([]Event{{Kind: Error, Err: fmt.Errorf("watch: %w", err)}})
}

func (w *Watcher) nextDue() (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var next time.Time
	for _, f := range w.files {
		if !f.due.IsZero() && (next.IsZero() || f.due.Before(next)) {
			next = f.due
		}
	}
	return next, !next.IsZero()
}

// settle looks at every file whose burst is over and reports those whose content is not the
// known one. Files are read without holding w.mu.
func (w *Watcher) settle() {
	type job struct {
		path string
		gen  uint64
		st   state
	}
	now := time.Now()
	var jobs []job
	w.mu.Lock()
	for p, f := range w.files {
		if !f.due.IsZero() && !f.due.After(now) {
			f.due = time.Time{}
			jobs = append(jobs, job{path: p, gen: f.gen})
		}
	}
	w.mu.Unlock()
	if len(jobs) == 0 {
		return
	}
	slices.SortFunc(jobs, func(a, b job) int { return strings.Compare(a.path, b.path) })
	for i := range jobs {
		jobs[i].st = w.observe(jobs[i].path)
	}
	var events []Event
	w.mu.Lock()
	for _, j := range jobs {
		f := w.files[j.path]
		switch {
		case f == nil: // removed meanwhile
		case f.gen != j.gen:
			// ExpectOwnWrite ran while we were reading: what we read may predate the save.
			w.pend(f, time.Now())
		case j.st == f.known:
			w.suppressed.Add(1)
		default:
			f.known = j.st
			kind := Changed
			if !j.st.exists {
				kind = Missing
			}
			events = append(events, Event{Path: j.path, Kind: kind})
		}
	}
	w.mu.Unlock()
	w.publish(events)
}

// publish queues events (one per file: a newer event replaces a queued one) and wakes the
// consumer.
func (w *Watcher) publish(events []Event) {
	if len(events) == 0 {
		return
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	for _, e := range events {
		i := -1
		if e.Path != "" {
			i = slices.IndexFunc(w.queue, func(q Event) bool { return q.Path == e.Path })
		}
		if i >= 0 {
			w.queue = append(slices.Delete(w.queue, i, i+1), e)
		} else {
			w.queue = append(w.queue, e)
		}
	}
	w.mu.Unlock()
	select {
	case w.ready <- struct{}{}:
	default:
	}
	if w.opts.Wake != nil {
		w.opts.Wake()
	}
}

// observe reads what is at path now: missing, not a regular file, unreadable, or the hash of
// its content.
func (w *Watcher) observe(path string) state {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return state{}
	}
	if err != nil {
		return state{exists: true, kind: 2}
	}
	if fi.IsDir() {
		return w.observeListing(path)
	}
	if !fi.Mode().IsRegular() { // never open FIFOs or devices: reading could block forever
		return state{exists: true, kind: 1, hash: uint64(fi.Mode())}
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return state{}
	}
	if err != nil {
		return state{exists: true, kind: 2}
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	var h maphash.Hash
	h.SetSeed(w.seed)
	if _, err := io.Copy(&h, f); err != nil {
		return state{exists: true, kind: 2}
	}
	return state{exists: true, hash: h.Sum64()}
}

// observeListing returns the state of the directory at path: the hash of its sorted names.
func (w *Watcher) observeListing(path string) state {
	es, err := os.ReadDir(path) // sorted by name
	if err != nil {
		return state{exists: true, kind: 2}
	}
	var h maphash.Hash
	h.SetSeed(w.seed)
	for _, e := range es {
		h.WriteString(e.Name())
		h.WriteByte(0)
	}
	return state{exists: true, kind: 3, hash: h.Sum64()}
}

// retrier re-watches directories that went away, once they exist again, and then looks at
// their files (they may have come back with them).
func (w *Watcher) retrier() {
	defer w.wg.Done()
	tick := time.NewTicker(w.opts.Retry)
	defer tick.Stop()
	for {
		select {
		case <-w.done:
			return
		case <-tick.C:
		}
		w.mu.Lock()
		var lost []string
		for p, d := range w.dirs {
			if d.lost {
				lost = append(lost, p)
			}
		}
		w.mu.Unlock()
		for _, p := range lost {
			w.rewatch(p)
		}
	}
}

func (w *Watcher) rewatch(p string) {
	w.addMu.Lock()
	defer w.addMu.Unlock()
	if err := w.fs.Add(p); err != nil {
		return // still gone (or closing): try again next tick
	}
	w.mu.Lock()
	d := w.dirs[p]
	if d != nil {
		d.lost = false
		w.pendDir(p, time.Now())
	}
	w.mu.Unlock()
	if d == nil { // its files were removed meanwhile
		_ = w.fs.Remove(p)
		return
	}
	select {
	case w.kick <- struct{}{}:
	default:
	}
}
