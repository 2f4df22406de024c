package doc

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/internal/atomicfile"
	"github.com/voltex-editor/voltex/serialize"
)

// The session journal: every step that enters the undo history, and every undo and redo, is
// appended to a file in the user's state folder (never the scene's folder), so that the work since
// the last save survives a crash (Recover reads it back). The loop thread only queues the step (the
// command value, which the history keeps unchanged); a goroutine encodes and writes it, and syncs
// the file at most JournalOptions.SyncEvery after the first unsynced write.
//
// A record is one of:
//   - base: the scene file's path and the hash of its bytes when the journal began, and the scene
//     as the session began (scene JSON): what the steps replay on, and the base of a three-way
//     merge when the file changed since;
//   - snapshot: the whole scene (scene JSON) after a step the journal has no compact form for, a
//     compaction, or a reload; the replayed history starts again after it;
//   - step: a command (its label and the entities it touched, after and, for undo, before, by scene
//     id; a cube grid as its parameters);
//   - undo, redo;
//   - save: a save of the scene began here (if the file turns out changed since the base, recovery
//     checks whether it is this save before merging).

// Record kinds.
const (
	recBase byte = iota + 1
	recSnapshot
	recStep
	recUndo
	recRedo
	recSave
)

// JournalOptions configure a journal. The zero value is ready to use.
type JournalOptions struct {
	// SyncEvery bounds how long a written record waits for its fsync (the work a power loss can
	// take). Default 500 ms.
	SyncEvery time.Duration
	// MaxBytes: past it the journal is compacted (rewritten as its base and one snapshot of the
	// scene). Default 64 MiB.
	MaxBytes int64
	// BaseDelay is how long the base record of a journal started on a scene as it was opened waits
	// for the first step (which writes it at once): opening a scene pays nothing for its journal,
	// and a session that changes nothing writes none. Default 5 s.
	BaseDelay time.Duration

	// create opens the journal file, which exists, for appending (tests inject a full disk).
	create func(path string) (journalFile, error)
}

type journalFile interface {
	io.Writer
	Sync() error
	Close() error
}

// JournalDir returns the folder of the journals: $XDG_STATE_HOME/voltex/journal, or
// ~/.local/state/voltex/journal.
func JournalDir() (string, error) {
	if s := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(s) {
		return filepath.Join(s, "voltex", "journal"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no folder for the session journal: %w", err)
	}
	return filepath.Join(home, ".local", "state", "voltex", "journal"), nil
}

// JournalPath returns the journal file of the scene file scenePath: JournalDir/HASH.journal, HASH
// naming the scene's absolute path.
func JournalPath(scenePath string) (string, error) {
	abs, err := filepath.Abs(scenePath)
	if err != nil {
		return "", err
	}
	dir, err := JournalDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, hex.EncodeToString(sum[:12])+".journal"), nil
}

// fileHashOf returns the hex SHA-256 of a file's bytes.
func fileHashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Journal is a document's session journal (Document.StartJournal).
type Journal struct {
	path string
	opts JournalOptions

	// Loop-thread state: the replayed history mirrors the live one from live position lo on (lo may
	// be negative once the live history dropped its oldest steps), and holds n steps.
	lo, n   int
	trimmed int // History.trimmed when last looked at
	infos   []*ecs.ComponentInfo
	forms   []int8                  // by component: 1 its values have a journal form, -1 not, 0 not known yet
	snap    func() *serialize.Scene // a copy of the scene for a snapshot

	mu      sync.Mutex
	queue   jQueue
	wake    chan struct{}
	done    chan struct{}
	closing bool
	err     error         // the first write error: the journal stops there
	written int64         // bytes in the file
	compact atomic.Bool   // the writer asks for a compaction
	baseLen int           // bytes of the base record at the start of the file (re-read to compact)
	vc      valueCodec    // the writer's encoders
	free    [][]jItem     // the queue's blocks the writer is done with, for reuse
	hurry   chan struct{} // Flush and Close: write now
	synced  chan struct{} // closed once the batch after the Flush calls waiting on it is synced
	flushes int           // Flush requests the writer has not served
}

// jItem is one queued record: a command (with the component infos its values need), an undo or a
// redo, or a scene to write as a snapshot or as a new base.
type jItem struct {
	kind   byte
	reset  bool // the file starts again with this record
	remove bool // a clean close: delete the file
	cmd    command
	infos  []*ecs.ComponentInfo
	*jScene
}

// queueBlock is how many records a block of the queue holds.
const queueBlock = 256

// jQueue is the records queued for the writer, in blocks of queueBlock that stay where they are as
// it grows (the loop thread never copies what it queued) and are reused once written.
type jQueue struct {
	blocks [][]jItem
	n      int
}

// push appends it, in a block from free if it needs a new one.
func (q *jQueue) push(it jItem, free *[][]jItem) {
	if k := len(q.blocks); k == 0 || len(q.blocks[k-1]) == queueBlock {
		var blk []jItem
		if f := len(*free); f > 0 {
			blk, *free = (*free)[f-1], (*free)[:f-1]
		} else {
			blk = make([]jItem, 0, queueBlock)
		}
		q.blocks = append(q.blocks, blk)
	}
	last := &q.blocks[len(q.blocks)-1]
	*last = append(*last, it)
	q.n++
}

// last returns the last record queued (nil if none).
func (q *jQueue) last() *jItem {
	if q.n == 0 {
		return nil
	}
	blk := q.blocks[len(q.blocks)-1]
	return &blk[len(blk)-1]
}

// all yields the records in order.
func (q *jQueue) all() iter.Seq[jItem] {
	return func(yield func(jItem) bool) {
		for _, blk := range q.blocks {
			for _, it := range blk {
				if !yield(it) {
					return
				}
			}
		}
	}
}

// jScene is what a snapshot or a new base holds.
type jScene struct {
	scene *serialize.Scene
	then  *serialize.Scene // a new base: the snapshot that follows it
	file  string           // a new base: the scene file
	data  []byte           // a new base without scene: the file's bytes (nil: read the file)
}

// StartJournal starts the document's session journal at path (JournalPath of its file, for the
// editor): the file is replaced by a base record of the scene as it is now. The document's file
// names the scene whose hash the base records. Close it with CloseJournal.
func (d *Document) StartJournal(path string, opts JournalOptions) (*Journal, error) {
	if d.jr != nil {
		panic("doc.StartJournal: the document has a journal already; CloseJournal first")
	}
	if opts.SyncEvery <= 0 {
		opts.SyncEvery = 500 * time.Millisecond
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 64 << 20
	}
	if opts.BaseDelay <= 0 {
		opts.BaseDelay = 5 * time.Second
	}
	if opts.create == nil {
		opts.create = func(p string) (journalFile, error) {
			return os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0o600)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	j := &Journal{path: path, opts: opts, wake: make(chan struct{}, 1), hurry: make(chan struct{}, 1), done: make(chan struct{}), synced: make(chan struct{}),
		snap: d.readCopy}
	d.EndEdit()
	j.trimmed = d.hist.trimmed
	j.lo = d.hist.pos
	first := jItem{kind: recBase, reset: true, jScene: &jScene{file: d.path}}
	delay := time.Duration(0)
	switch {
	case d.Dirty() || d.path == "":
		first.scene = d.readCopy()
	case d.opened != nil: // the scene as opened: the bytes read then are the base, written when needed
		// A journal there is of a session whose work was discarded or saved elsewhere: gone now, not
		// offered again if this session is killed before its base is written. (Other bases replace
		// the file in one step: a recovered session's work is never without a journal.)
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		first.data, d.opened = d.opened, nil
		delay = opts.BaseDelay
	}
	j.queue.push(first, &j.free)
	d.jr = j
	go j.run(delay)
	return j, nil
}

// Journal returns the document's journal (nil if none).
func (d *Document) Journal() *Journal { return d.jr }

// Path returns the journal's file.
func (j *Journal) Path() string { return j.path }

// Err returns the first error writing the journal (a full disk, say): the journal stopped there,
// and holds the work up to the last record written whole.
func (j *Journal) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// Flush waits until everything queued so far is written and synced (or the journal failed).
func (j *Journal) Flush() error {
	j.mu.Lock()
	if j.err != nil || j.closing {
		err := j.err
		j.mu.Unlock()
		return err
	}
	j.flushes++
	ch := j.synced
	j.mu.Unlock()
	j.rush()
	select {
	case <-ch:
	case <-j.done:
	}
	return j.Err()
}

// CloseJournal stops the document's journal. With clean (the scene was saved or its changes
// discarded on purpose) the journal file is deleted; otherwise it is flushed and kept for Recover.
func (d *Document) CloseJournal(clean bool) error {
	j := d.jr
	if j == nil {
		return nil
	}
	d.jr = nil
	j.mu.Lock()
	j.closing = true
	j.queue.push(jItem{remove: clean}, &j.free)
	j.mu.Unlock()
	j.rush()
	<-j.done
	return j.Err()
}

func (j *Journal) poke() {
	select {
	case j.wake <- struct{}{}:
	default:
	}
}

// rush has the writer write (and sync) what is queued now.
func (j *Journal) rush() {
	select {
	case j.hurry <- struct{}{}:
	default:
	}
}

// push queues it (loop thread).
func (j *Journal) push(it jItem) {
	j.mu.Lock()
	// The writer wakes for the first item of a batch, or for one after a base that waits for it.
	first := j.queue.n == 0 || j.queue.n == 1 && j.queue.blocks[0][0].kind == recBase
	if j.err == nil {
		j.queue.push(it, &j.free)
	}
	j.mu.Unlock()
	if first {
		j.poke()
	}
}

// readCopy returns what a snapshot of the scene writes, as a copy the writer may read while the
// loop goes on.
func (d *Document) readCopy() *serialize.Scene {
	s := d.fileScene()
	s.World = d.world.ReadCopy()
	s.Prefabs = d.prefabSet.Snapshot()
	return s
}

// step records cmd, a step just pushed on h (loop thread).
func (j *Journal) step(h *History, cmd command) {
	j.noteTrim(h)
	if !j.journaled(h.c, cmd) {
		j.snapshot(h)
		return
	}
	j.n = h.pos - j.lo
	j.push(jItem{kind: recStep, cmd: cmd, infos: j.infosFor(h.c, cmd)})
	j.maybeCompact(h)
}

// move records an undo (forward false) or a redo of h that just happened (loop thread).
func (j *Journal) move(h *History, forward bool) {
	j.noteTrim(h)
	// The step moved through, in live positions: undo went from pos+1 to pos, redo from pos-1.
	s := h.pos
	if forward {
		s--
	}
	if s < j.lo || s >= j.lo+j.n {
		j.snapshot(h)
		return
	}
	kind := recUndo
	if forward {
		kind = recRedo
	}
	j.push(jItem{kind: kind})
	j.maybeCompact(h)
}

// snapshot records the whole scene; the replayed history starts again from it.
func (j *Journal) snapshot(h *History) {
	j.noteTrim(h)
	j.lo, j.n = h.pos, 0
	j.push(jItem{kind: recSnapshot, jScene: &jScene{scene: j.snap()}})
}

// saving records that a save of the scene's state now began (loop thread). It waits until the
// record is written: the file must never be newer than the journal knows.
func (j *Journal) saving(h *History) {
	j.noteTrim(h)
	if j.openedBaseOnly() {
		return // the journal holds no work and the document is its file: a save cut short loses nothing
	}
	j.push(jItem{kind: recSave})
	_ = j.Flush() // a failed journal says so in Err
}

// saved restarts the journal on a save of the scene to file (loop thread): the saved file becomes
// its base, and a snapshot follows if the scene changed since the save was prepared.
func (j *Journal) saved(h *History, file string, changed bool) {
	j.noteTrim(h)
	j.lo, j.n = h.pos, 0
	it := jItem{kind: recBase, reset: true, jScene: &jScene{file: file}}
	if changed { // written with the base in one replace: the steps since the save are never lost
		it.then = j.snap()
	}
	j.mu.Lock()
	if j.openedBaseOnlyLocked() { // the saved file replaces that base before it was written
		j.queue = jQueue{}
	}
	j.mu.Unlock()
	j.push(it)
}

// openedBaseOnly reports whether all the journal holds is the base of the scene as opened, still waiting to
// be written (no step since: the document is the file as opened).
func (j *Journal) openedBaseOnly() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.openedBaseOnlyLocked()
}

func (j *Journal) openedBaseOnlyLocked() bool {
	if j.queue.n != 1 || j.written > 0 {
		return false
	}
	it := j.queue.blocks[0][0]
	return it.kind == recBase && it.jScene != nil && it.data != nil && it.scene == nil
}

func (j *Journal) noteTrim(h *History) {
	if dropped := h.trimmed - j.trimmed; dropped > 0 {
		j.lo -= dropped
		j.trimmed = h.trimmed
	}
}

func (j *Journal) maybeCompact(h *History) {
	if j.compact.Load() && j.compact.Swap(false) {
		j.lo, j.n = h.pos, 0
		j.push(jItem{kind: recSnapshot, reset: true, jScene: &jScene{scene: j.snap()}})
	}
}

// infosFor returns the component infos of the document's world, grown if cmd holds a component
// registered since (the slice handed to the writer is never written again).
func (j *Journal) infosFor(d *core, cmd command) []*ecs.ComponentInfo {
	grow := false
	if c, ok := cmd.(*compCmd); ok { // the common step, without a callback
		for i := range c.changes {
			grow = grow || int(c.changes[i].cid) >= len(j.infos)
		}
	} else {
		eachCID(cmd, func(cid ecs.ComponentID) { grow = grow || int(cid) >= len(j.infos) })
	}
	if grow {
		ids := d.world.ComponentIDs()
		infos := make([]*ecs.ComponentInfo, 0, len(ids))
		for _, id := range ids {
			for len(infos) <= int(id) {
				infos = append(infos, nil)
			}
			infos[id] = d.world.ComponentInfo(id)
		}
		j.infos = infos
	}
	return j.infos
}

// gather is how long the writer lets steps collect after the first of a batch: one wake, one
// write for a burst of edits, while the steps it encodes are still in the processor's caches.
const gather = 2 * time.Millisecond

// run is the writer goroutine. It first waits up to delay for a reason to write the base: another
// record, a Flush or a close.
func (j *Journal) run(delay time.Duration) {
	defer close(j.done)
	var f journalFile
	j.waitForWork(delay)
	var batch []byte
	var unsynced time.Time // when the first unsynced write happened (zero: all synced)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	fail := func(err error) {
		j.mu.Lock()
		if j.err == nil {
			j.err = err
		}
		j.queue = jQueue{}
		j.mu.Unlock()
	}
	// write appends the batch to the file.
	write := func() {
		if len(batch) == 0 || j.Err() != nil {
			batch = batch[:0]
			return
		}
		if _, err := f.Write(batch); err != nil {
			fail(err)
		}
		j.mu.Lock()
		j.written += int64(len(batch))
		if j.written > j.opts.MaxBytes {
			j.compact.Store(true)
		}
		j.mu.Unlock()
		if unsynced.IsZero() {
			unsynced = time.Now()
		}
		batch = batch[:0]
	}
	for {
		j.mu.Lock()
		failed := j.err != nil
		items := j.queue
		j.queue = jQueue{}
		// The Flush calls made so far wait on synced: they are served by this batch; later ones wait
		// on a new channel for the next.
		var served chan struct{}
		if j.flushes > 0 {
			served, j.synced, j.flushes = j.synced, make(chan struct{}), 0
		}
		j.mu.Unlock()
		flush := served != nil
		closing, remove := false, false
		if last := items.last(); last != nil && last.kind == 0 && last.remove {
			failed = true // a clean close: the file goes, nothing is written to it
		}
		for it := range items.all() {
			if it.kind == 0 {
				closing, remove = true, it.remove
				continue
			}
			if failed {
				continue
			}
			if !it.reset {
				// Encoded in place, after its header: no copy, and the batch's buffer is reused.
				start := len(batch)
				var err error
				if batch, err = j.encode(append(batch, make([]byte, recHeader)...), it); err != nil {
					batch = batch[:start]
					fail(err)
					failed = true
					continue
				}
				frameRecord(batch[start:])
				if len(batch) >= writeChunk {
					write()
				}
				continue
			}
			// A new base, or a compaction: the file starts again.
			batch = batch[:0]
			var err error
			if f, err = j.restart(f, it); err != nil {
				fail(err)
				failed = true
			}
		}
		j.mu.Lock()
		for _, blk := range items.blocks {
			clear(blk) // let the commands go
			j.free = append(j.free, blk[:0])
		}
		j.mu.Unlock()
		write()
		if cap(batch) > keepScratch {
			batch = nil
		}
		if !unsynced.IsZero() && f != nil && (flush || closing || time.Since(unsynced) >= j.opts.SyncEvery) {
			if err := f.Sync(); err != nil {
				fail(err)
			}
			unsynced = time.Time{}
		}
		if flush {
			close(served)
		}
		if closing {
			if f != nil {
				_ = f.Close()
			}
			if remove {
				_ = os.Remove(j.path)
			}
			return
		}
		if !unsynced.IsZero() {
			timer.Reset(j.opts.SyncEvery - time.Since(unsynced))
		}
		select {
		case <-j.wake:
			// Let a burst of steps collect, unless someone waits.
			g := time.NewTimer(gather)
			select {
			case <-g.C:
			case <-j.hurry:
				g.Stop()
			}
		case <-j.hurry:
		case <-timer.C:
		}
	}
}

// waitForWork waits up to delay for another record, a Flush or a close (writer goroutine).
func (j *Journal) waitForWork(delay time.Duration) {
	if delay <= 0 {
		return
	}
	wait := time.NewTimer(delay)
	defer wait.Stop()
	select {
	case <-j.wake:
	case <-j.hurry:
	case <-wait.C:
	}
}

// restart writes the file anew with it, a new base (and the snapshot that follows it, if any) or a
// compaction (the base, then its snapshot), in one replace, and returns the file opened for
// appending (f, the one before, is closed). The strings its records name by number start again.
func (j *Journal) restart(f journalFile, it jItem) (journalFile, error) {
	j.vc.restart()
	var rec []byte
	var err error
	if it.kind == recBase {
		// Encoded after room for its header: a big scene's bytes are copied once.
		if rec, err = j.encode(make([]byte, recHeader), it); err != nil {
			return f, err
		}
		frameRecord(rec)
		j.baseLen = len(rec)
		if it.then != nil {
			snap, err := j.encode(nil, jItem{kind: recSnapshot, jScene: &jScene{scene: it.then}})
			if err != nil {
				return f, err
			}
			rec = appendRecord(rec, snap)
		}
	} else {
		var payload, base []byte
		if payload, err = j.encode(nil, it); err != nil {
			return f, err
		}
		if base, err = readPrefix(j.path, j.baseLen); err != nil {
			return f, err
		}
		rec = appendRecord(base, payload)
	}
	if err := atomicfile.ReplaceFile(j.path, rec); err != nil {
		return f, err
	}
	if f != nil {
		_ = f.Close()
	}
	if f, err = j.opts.create(j.path); err != nil {
		return nil, err
	}
	j.mu.Lock()
	j.written = int64(len(rec))
	j.mu.Unlock()
	return f, nil
}

// encode makes a record's payload (writer goroutine).
func (j *Journal) encode(buf []byte, it jItem) ([]byte, error) {
	e := enc{b: append(buf, it.kind)}
	switch it.kind {
	case recBase:
		data := it.data
		if it.scene == nil && data == nil {
			b, err := os.ReadFile(it.file)
			if err != nil {
				return nil, err
			}
			data = b
		} else if it.scene != nil {
			b, err := sceneBytes(it.scene)
			if err != nil {
				return nil, err
			}
			data = b
		}
		abs := it.file
		if abs != "" {
			abs, _ = filepath.Abs(abs)
		}
		e.s(abs)
		if it.scene == nil {
			e.s(fileHashOf(data))
		} else {
			b, _ := os.ReadFile(it.file)
			e.s(fileHashOf(b))
		}
		e.by(data)
	case recSnapshot:
		b, err := sceneBytes(it.scene)
		if err != nil {
			return nil, err
		}
		e.by(b)
	case recStep:
		j.vc.str(&e, it.cmd.label())
		j.vc.infos = it.infos
		if err := j.vc.cmd(&e, it.cmd); err != nil {
			return nil, fmt.Errorf("journal %s: %w", it.cmd.label(), err)
		}
	}
	return e.b, nil
}

// sceneBytes writes s as a scene file does.
func sceneBytes(s *serialize.Scene) ([]byte, error) {
	var b bytes.Buffer
	if err := serialize.Save(context.Background(), &b, s, serialize.SaveOptions{}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var errNotJournaled = errors.New("command has no journal form")

// keepScratch is the most buffer capacity the writer keeps between batches: a scene's base or snapshot
// (tens of MB for 100k entities) is let go once written, not held for the session.
const keepScratch = 1 << 20

// writeChunk: a batch this long is written at once, so that its buffer stays under keepScratch
// and is reused by a burst of steps.
const writeChunk = 256 << 10

// readPrefix reads the first n bytes of the file at path (the base record, for a compaction).
func readPrefix(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only
	b := make([]byte, n)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("journal %s: read its base: %w", path, err)
	}
	return b, nil
}
