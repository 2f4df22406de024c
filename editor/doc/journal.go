package doc

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
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
	// scene). It counts the records after the base and its snapshot, and a compaction waits until
	// those are also more than the base and snapshot it writes again. Default 64 MiB.
	MaxBytes int64
	// BaseDelay is how long the base record of the scene file as it was opened, or as it was just
	// saved, waits for the first step (which writes it at once): opening or saving a scene pays
	// nothing for its journal (a copy of the file), and a session that changes nothing writes none.
	// Default 5 s.
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
	file string // the scene file (its base's)
	opts JournalOptions

	// Loop-thread state: the replayed history mirrors the live one from live position lo on (lo may
	// be negative once the live history dropped its oldest steps), and holds n steps.
	lo, n    int
	trimmed  int // History.trimmed when last looked at
	infos    []*ecs.ComponentInfo
	forms    []int8                  // by component: 1 its values have a journal form, -1 not, 0 not known yet
	snap     func() *serialize.Scene // a copy of the scene for a snapshot
	tail     *jBlock                 // the block the loop thread queues into
	tailN    int                     // records in tail
	filled   int                     // blocks filled since the writer was last hurried for a full queue
	onlyBase bool                    // nothing was queued since the journal began on the scene as opened
	check    *fileID                 // the file as opened, to look at once before the first step is queued

	// Shared with the writer without a lock: the queue's blocks, and flags.
	idle    atomic.Bool // the writer waits for a record: the next one queued wakes it
	failed  atomic.Bool // the journal stopped (err): nothing more is queued
	compact atomic.Bool // the writer asks for a compaction
	rebase  atomic.Bool // the base was lost (the scene file changed before it was written): the next record is a new one
	wake    chan struct{}
	hurry   chan struct{} // Flush and Close: write now
	done    chan struct{}

	mu      sync.Mutex
	pending *jScene   // the base of the scene file as opened or saved, not written yet (nil: none, or written)
	due     time.Time // when pending is written if no record needs it sooner
	writing bool      // the writer writes the base that was pending
	onBase  func()    // WriteBase's then, called once the base is written or let go
	closing bool
	err     error // the first write error: the journal stops there
	written int64 // bytes in the file
	kept    int64 // bytes of the base and its snapshot at the start of the file (what a compaction writes again)
	free    []*jBlock
	synced  chan struct{} // closed once the batch after the Flush calls waiting on it is synced
	flushes int           // Flush requests the writer has not served

}

// jItem is one queued record: a command, an undo or a redo, a scene to write as a snapshot or as a
// new base, new component infos, or the close. It holds no more than a step needs (queueing one is
// a store of four words); what rarer records carry is behind ext.
type jItem struct {
	kind   byte
	reset  bool // the file starts again with this record
	remove bool // a clean close: delete the file
	cmd    command
	ext    *jScene
}

// recInfos queues the component infos the values of the steps after it need (not written).
const recInfos = 0xff

// queueBlock is how many records a block of the queue holds.
const queueBlock = 256

// wakeBlocks: a fast burst of steps that fills this many blocks hurries the writer, which then does
// not wait out its gather. The queue keeps the steps' commands alive until they are written (the
// history may have dropped them since): a burst of thousands of steps a second must not keep
// thousands more for the collector to mark at each cycle.
const wakeBlocks = 4

// jBlock is a block of the queue: the loop thread fills it and publishes each record by storing n;
// the writer reads up to n, and follows next once the block is full. Neither waits for the other.
type jBlock struct {
	items [queueBlock]jItem
	n     atomic.Int32
	next  atomic.Pointer[jBlock]
}

// jScene is what a snapshot, a new base or new component infos hold.
type jScene struct {
	scene *serialize.Scene
	then  *serialize.Scene // a new base: the snapshot that follows it
	file  string           // a new base: the scene file
	// want, for a base without scene, is the file as it was read (it must still be: its bytes are
	// the base); nil: the file as it is when the base is written.
	want  *fileID
	infos []*ecs.ComponentInfo
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
	blk := &jBlock{}
	j := &Journal{path: path, file: d.path, opts: opts, wake: make(chan struct{}, 1), hurry: make(chan struct{}, 1),
		done: make(chan struct{}), synced: make(chan struct{}), snap: d.readCopy, tail: blk}
	d.EndEdit()
	j.trimmed = d.hist.trimmed
	j.lo = d.hist.pos
	first := &jScene{file: d.path}
	delay := time.Duration(0)
	switch {
	case d.Dirty() || d.path == "":
		first.scene = d.readCopy()
	case d.opened != nil: // the scene as opened: the file is the base, read again when it is written
		// A journal there is of a session whose work was discarded or saved elsewhere: gone now, not
		// offered again if this session is killed before its base is written. (Other bases replace
		// the file in one step: a recovered session's work is never without a journal.)
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		first.want, j.check, d.opened = d.opened, d.opened, nil
		j.pending, j.onlyBase = first, true
		delay = opts.BaseDelay
		j.due = time.Now().Add(delay)
	}
	if j.pending == nil {
		d.opened.release()
		d.opened = nil
		j.push(jItem{kind: recBase, reset: true, ext: first})
	}
	d.jr = j
	go j.run(delay, blk)
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
	if wait := j.flushLater(); wait != nil {
		wait()
	}
	return j.Err()
}

// flushLater asks the writer to write and sync everything queued so far, and returns a func that
// waits until it did (or the journal failed; nil if it has).
func (j *Journal) flushLater() func() {
	j.mu.Lock()
	if j.err != nil || j.closing {
		j.mu.Unlock()
		return nil
	}
	j.flushes++
	ch := j.synced
	j.mu.Unlock()
	j.rush()
	return func() {
		select {
		case <-ch:
		case <-j.done:
		}
	}
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
	j.mu.Unlock()
	j.put(jItem{remove: clean})
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

// push queues it (loop thread): a store in the current block and its publication, and a wake of
// the writer if it waits. No lock, no allocation but a new block every queueBlock records.
func (j *Journal) push(it jItem) {
	if !j.failed.Load() {
		j.put(it)
	}
}

// put is push even after a failure (the close: the writer ends on it).
func (j *Journal) put(it jItem) {
	j.onlyBase = false
	if j.tailN == queueBlock {
		j.mu.Lock()
		var nb *jBlock
		if f := len(j.free); f > 0 {
			nb, j.free = j.free[f-1], j.free[:f-1]
		}
		j.mu.Unlock()
		if nb == nil {
			nb = &jBlock{}
		}
		nb.n.Store(0)
		j.tail.next.Store(nb)
		j.tail, j.tailN = nb, 0
		if j.filled++; j.filled == wakeBlocks {
			j.filled = 0
			j.rush()
		}
	}
	// Field by field: a copy of the whole item would go through the collector's bulk barrier.
	p := &j.tail.items[j.tailN]
	p.kind, p.reset, p.remove = it.kind, it.reset, it.remove
	p.cmd, p.ext = it.cmd, it.ext
	j.tailN++
	j.tail.n.Store(int32(j.tailN))
	if j.idle.Load() && j.idle.CompareAndSwap(true, false) {
		j.poke()
	}
}

// jSpan is a run of records published in a block of the queue.
type jSpan struct {
	blk      *jBlock
	from, to int
}

// take sets spans to the records published since the last take, read where the loop thread put
// them (not copied); the blocks it moved past are handed back by release once they are written.
func (w *jWriter) take() {
	w.spans = w.spans[:0]
	for {
		blk := w.head
		n := int(blk.n.Load())
		if n > w.headN {
			w.spans = append(w.spans, jSpan{blk, w.headN, n})
		}
		w.headN = n
		if n < queueBlock {
			return
		}
		next := blk.next.Load()
		if next == nil {
			return
		}
		w.head, w.headN = next, 0
		w.used = append(w.used, blk)
	}
}

// release clears the records take set out, now written, where they are — in the block being filled
// too (the loop thread never writes a published record again): no block holds a written snapshot's
// copy of the world (250 MB at a million cubes) nor a command until it fills. It hands the blocks
// take moved past back for reuse.
func (w *jWriter) release() {
	for _, sp := range w.spans {
		clear(sp.blk.items[sp.from:sp.to])
	}
	clear(w.spans)
	if len(w.used) == 0 {
		return
	}
	for _, blk := range w.used {
		blk.next.Store(nil)
		clear(blk.items[:]) // let the commands go
	}
	w.j.mu.Lock()
	w.j.free = append(w.j.free, w.used...)
	w.j.mu.Unlock()
	clear(w.used)
	w.used = w.used[:0]
}

// queued reports whether a record was published that take has not taken.
func (w *jWriter) queued() bool {
	if w.headN < int(w.head.n.Load()) {
		return true
	}
	return w.headN == queueBlock && w.head.next.Load() != nil
}

// readCopy returns what a snapshot of the scene writes, as a copy the writer may read while the
// loop goes on.
func (d *Document) readCopy() *serialize.Scene {
	s := d.fileScene()
	s.World = forJob(d.world.ReadCopy())
	s.Prefabs = d.prefabSet.Snapshot()
	return s
}

// step records cmd, a step just pushed on h (loop thread).
func (j *Journal) step(h *History, cmd command) {
	j.noteTrim(h)
	if j.check != nil {
		j.checkBase()
	}
	if j.rebase.Load() || !j.journaled(h.c, cmd) {
		j.snapshot(h)
		return
	}
	j.n = h.pos - j.lo
	j.noteInfos(h.c, cmd)
	j.push(jItem{kind: recStep, cmd: cmd})
	j.maybeCompact(h)
}

// checkBase looks at the scene file once, before the first step is queued, while the base of the
// scene as opened or saved still waits to be written (loop thread: a stat of the file). Changed since, its
// bytes are no longer the base: the journal starts again on the file as it is now, with a snapshot.
func (j *Journal) checkBase() {
	want := j.check
	j.check = nil
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.pending == nil {
		return // written, or being written: the writer compares the bytes with the hash
	}
	if st, err := want.stat(j.file); err == nil && st.Size() == want.size && st.ModTime().Equal(want.mtime) {
		return
	}
	j.dropPending()
	j.rebase.Store(true)
}

// move records an undo (forward false) or a redo of h that just happened (loop thread).
func (j *Journal) move(h *History, forward bool) {
	j.noteTrim(h)
	// The step moved through, in live positions: undo went from pos+1 to pos, redo from pos-1.
	s := h.pos
	if forward {
		s--
	}
	if s < j.lo || s >= j.lo+j.n || j.rebase.Load() {
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

// snapshot records the whole scene; the replayed history starts again from it. Without a base to
// start from (the scene as opened could not be read back), it is a new base: the file as it is now,
// then the scene.
func (j *Journal) snapshot(h *History) {
	j.noteTrim(h)
	j.lo, j.n = h.pos, 0
	if j.check != nil {
		j.checkBase()
	}
	if j.rebase.Swap(false) {
		j.push(jItem{kind: recBase, reset: true, ext: &jScene{file: j.file, then: j.snap()}})
		return
	}
	j.push(jItem{kind: recSnapshot, ext: &jScene{scene: j.snap()}})
}

// reloaded records that the scene was read again from its file, as d.opened says (loop thread):
// the journal starts again on that file, read when the base is written.
func (j *Journal) reloaded(h *History, opened *fileID) {
	if opened == nil {
		j.snapshot(h)
		return
	}
	j.noteTrim(h)
	j.lo, j.n = h.pos, 0
	j.check = nil
	j.rebase.Store(false)
	j.mu.Lock()
	j.dropPending()
	j.mu.Unlock()
	j.push(jItem{kind: recBase, reset: true, ext: &jScene{file: j.file, want: opened}})
}

// saving records that a save of the scene's state now began (loop thread). It returns a func that
// waits until that record is synced (nil: nothing to wait for), to call before the saved file
// replaces the old one: the file must never be newer than the journal knows. The loop thread does
// not wait.
func (j *Journal) saving(h *History) func() {
	j.noteTrim(h)
	if j.openedBaseOnly() {
		return nil // the journal holds no work and the document is its file: a save cut short loses nothing
	}
	j.push(jItem{kind: recSave})
	return j.flushLater()
}

// saved restarts the journal on a save of the scene to file (loop thread): the saved file, as id
// says it was written, becomes its base, and a snapshot follows if the scene changed since the save
// was prepared. Unchanged, the base waits as the one of a scene as opened does (BaseDelay): its copy
// of the file would take the CPU and the disk from the frames right after the save, and until it is
// written the journal's save record tells recovery that the file is the session's own.
func (j *Journal) saved(h *History, file string, changed bool, id *fileID) {
	j.noteTrim(h)
	j.lo, j.n = h.pos, 0
	j.file, j.check = file, nil
	j.rebase.Store(false)
	j.mu.Lock()
	j.dropPending() // the saved file replaces the base of the scene as opened if it is not written yet
	if !changed && id != nil {
		j.pending, j.due = &jScene{file: file, want: id}, time.Now().Add(j.opts.BaseDelay)
		j.mu.Unlock()
		j.check, j.onlyBase = id, true
		j.rush() // the writer learns when the base is due
		return
	}
	j.mu.Unlock()
	it := jItem{kind: recBase, reset: true, ext: &jScene{file: file}}
	if changed { // written with the base in one replace: the steps since the save are never lost
		it.ext.then = j.snap()
	}
	j.push(it)
}

// dropPending lets the base of the scene as opened or saved go, unwritten (j.mu held).
func (j *Journal) dropPending() {
	if j.pending != nil {
		j.pending.want.release()
		j.pending = nil
		if then := j.onBase; then != nil {
			j.onBase = nil
			then()
		}
	}
}

// WriteBase has the writer write now the base that waits (the scene file as opened or saved, which
// the first step or BaseDelay would write), if one does, and call then (on the writer's goroutine)
// once it is written; it reports whether one waits. The editor calls it when it goes idle: the copy
// of the file then takes the machine from nothing the user does.
func (j *Journal) WriteBase(then func()) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.pending == nil || j.err != nil || j.closing {
		return false
	}
	j.due, j.onBase = time.Time{}, then
	j.rush()
	return true
}

// BaseWaits reports whether a base waits to be written (see WriteBase) or is being written.
func (j *Journal) BaseWaits() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return (j.pending != nil || j.writing) && j.err == nil && !j.closing
}

// openedBaseOnly reports whether all the journal holds is the base of the scene as opened, still
// waiting to be written (no step since: the document is the file as opened).
func (j *Journal) openedBaseOnly() bool {
	if !j.onlyBase {
		return false
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.pending != nil
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
		j.push(jItem{kind: recSnapshot, reset: true, ext: &jScene{scene: j.snap()}})
	}
}

// noteInfos queues the component infos of the document's world, grown, if cmd holds a component
// registered since the last ones queued (the slice handed to the writer is never written again).
func (j *Journal) noteInfos(d *core, cmd command) {
	grow := false
	if c, ok := cmd.(*compCmd); ok { // the common step, without a callback
		for i := range c.changes {
			grow = grow || int(c.changes[i].cid) >= len(j.infos)
		}
	} else {
		eachCID(cmd, func(cid ecs.ComponentID) { grow = grow || int(cid) >= len(j.infos) })
	}
	if !grow {
		return
	}
	ids := d.world.ComponentIDs()
	infos := make([]*ecs.ComponentInfo, 0, len(ids))
	for _, id := range ids {
		for len(infos) <= int(id) {
			infos = append(infos, nil)
		}
		infos[id] = d.world.ComponentInfo(id)
	}
	j.infos = infos
	j.push(jItem{kind: recInfos, ext: &jScene{infos: infos}})
}

// gather is how long the writer lets steps collect after the first of a batch: a burst of edits
// wakes it (and switches the loop thread's core to it) a few times a second, not once a step or
// every few. A kill loses what is queued (at most this long of work), a power cut what is not
// synced yet (JournalOptions.SyncEvery more).
const gather = 50 * time.Millisecond

// jWriter is the writer goroutine's state.
type jWriter struct {
	j        *Journal
	head     *jBlock // the block the writer reads from
	headN    int     // records of head read
	baseLen  int64   // bytes of the base record at the start of the file (copied by a compaction)
	vc       valueCodec
	f        journalFile
	batch    enc       // the records encoded since the last write
	spans    []jSpan   // the records take found
	used     []*jBlock // the blocks take moved past
	unsynced time.Time // when the first unsynced write happened (zero: all synced)
	failed   bool
	noBase   bool // the base could not be written: the records after it wait for a new base
}

// fail stops the journal at its first error.
func (w *jWriter) fail(err error) {
	j := w.j
	j.mu.Lock()
	if j.err == nil {
		j.err = err
	}
	j.mu.Unlock()
	j.failed.Store(true)
	w.failed = true
}

// write appends the batch to the file.
func (w *jWriter) write() {
	if w.batch.n == 0 || w.failed {
		w.batch.n = 0
		return
	}
	j := w.j
	if _, err := w.f.Write(w.batch.bytes()); err != nil {
		w.fail(err)
	}
	j.mu.Lock()
	j.written += int64(w.batch.n)
	// The records since the base: a big scene's base alone is no reason to write it again.
	if more := j.written - j.kept; more > j.opts.MaxBytes && more > j.kept {
		j.compact.Store(true)
	}
	j.mu.Unlock()
	if w.unsynced.IsZero() {
		w.unsynced = time.Now()
	}
	w.batch.n = 0
}

// restart starts the file again with it (a new base or a compaction); a base of the scene as opened
// that cannot be written (the file changed since) is not the journal's failure but a base lost: the
// loop thread is asked for a new one.
func (w *jWriter) restart(it jItem) {
	w.batch.n = 0
	nf, err := w.restartFile(it)
	w.f, w.noBase = nf, false
	switch {
	case errors.Is(err, errBaseChanged):
		// What the file held is of a session that ended here (discarded by a reload, or saved).
		if w.f != nil {
			_ = w.f.Close()
			w.f = nil
		}
		_ = os.Remove(w.j.path)
		w.noBase = true
		w.j.rebase.Store(true)
	case err != nil:
		w.fail(err)
	}
	if it.ext != nil {
		it.ext.want.release()
	}
}

// add encodes it into the batch, in place after its header: no copy, and the batch's buffer is
// reused.
func (w *jWriter) add(it *jItem) {
	switch {
	case it.kind == 0 || w.failed:
		if it.ext != nil {
			it.ext.want.release()
		}
		return
	case it.kind == recInfos:
		w.vc.infos = it.ext.infos
		return
	case it.reset:
		w.restart(*it)
		return
	case w.noBase:
		return
	}
	b := &w.batch
	start := b.n
	b.room(recHeader)
	b.n += recHeader
	if err := w.encode(b, it); err != nil {
		b.n = start
		w.fail(err)
		return
	}
	frameRecord(b.b[start:b.n])
	if b.n >= writeChunk {
		w.write()
	}
}

// once takes and writes what was queued, and syncs it if asked or due; it reports whether the
// journal closed.
func (w *jWriter) once() (closed bool) {
	j := w.j
	j.idle.Store(false)
	j.mu.Lock()
	// The Flush calls made so far wait on synced: they are served by this batch, which takes every
	// record queued before them; later ones wait on a new channel for the next. The base of the
	// scene as opened, if it still waits, is written first.
	var served chan struct{}
	if j.flushes > 0 {
		served, j.synced, j.flushes = j.synced, make(chan struct{}), 0
	}
	pending, due := j.pending, j.due
	j.mu.Unlock()
	w.take()
	closing, remove := false, false
	if k := len(w.spans); k > 0 {
		if last := &w.spans[k-1]; last.blk.items[last.to-1].kind == 0 {
			closing, remove = true, last.blk.items[last.to-1].remove
		}
	}
	if pending != nil {
		// It waits for a record to write after it, a Flush, the close or its time.
		if served == nil && !closing && !w.recordsTaken() && time.Now().Before(due) {
			pending = nil
		} else {
			j.mu.Lock()
			if j.pending == pending {
				j.pending, j.writing = nil, true
			} else {
				pending = nil // the loop thread let it go meanwhile
			}
			j.mu.Unlock()
		}
	}
	if remove {
		w.failed = true // a clean close: the file goes, nothing is written to it
	}
	if pending != nil {
		if w.failed {
			pending.want.release()
		} else {
			w.restart(jItem{kind: recBase, reset: true, ext: pending})
		}
		j.mu.Lock()
		then := j.onBase
		j.writing, j.onBase = false, nil
		j.mu.Unlock()
		if then != nil {
			then()
		}
	}
	for _, sp := range w.spans {
		for i := sp.from; i < sp.to; i++ {
			w.add(&sp.blk.items[i])
		}
	}
	w.write()
	w.release()
	if len(w.batch.b) > keepScratch {
		w.batch = enc{}
	}
	if !w.unsynced.IsZero() && w.f != nil && (served != nil || closing || time.Since(w.unsynced) >= j.opts.SyncEvery) {
		if err := w.f.Sync(); err != nil {
			w.fail(err)
		}
		w.unsynced = time.Time{}
	}
	if served != nil {
		close(served)
	}
	if closing {
		if w.f != nil {
			_ = w.f.Close()
		}
		if remove {
			_ = os.Remove(j.path)
		}
	}
	return closing
}

// run is the writer goroutine. It first waits up to delay for a reason to write the base: another
// record, a Flush or a close.
func (j *Journal) run(delay time.Duration, head *jBlock) {
	defer close(j.done)
	w := &jWriter{j: j, head: head}
	w.waitForWork(delay)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for !w.once() {
		wait := time.Duration(-1)
		if !w.unsynced.IsZero() {
			wait = j.opts.SyncEvery - time.Since(w.unsynced)
		}
		if d, ok := j.baseDueIn(); ok && (wait < 0 || d < wait) {
			wait = d
		}
		if wait >= 0 {
			timer.Reset(wait)
		}
		// Wait: the next record queued wakes the writer (push sees idle), a Flush or a close
		// hurries it, the timer syncs or writes the base that waits.
		j.idle.Store(true)
		if w.queued() {
			continue
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

// baseDueIn returns how long until the base that waits is due, if one does.
func (j *Journal) baseDueIn() (time.Duration, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.pending == nil {
		return 0, false
	}
	return max(0, time.Until(j.due)), true
}

// recordsTaken reports whether take found a record to write (not only component infos or the close).
func (w *jWriter) recordsTaken() bool {
	for _, sp := range w.spans {
		for i := sp.from; i < sp.to; i++ {
			if k := sp.blk.items[i].kind; k != 0 && k != recInfos {
				return true
			}
		}
	}
	return false
}

// waitForWork waits up to delay for another record, a Flush or a close (writer goroutine).
func (w *jWriter) waitForWork(delay time.Duration) {
	if delay <= 0 {
		return
	}
	j := w.j
	j.idle.Store(true)
	if w.queued() {
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

// errBaseChanged: the scene file is no longer the one opened, whose bytes the base was to be.
var errBaseChanged = errors.New("the scene file changed since it was opened")

// restartFile writes the file anew with it, a new base (and the snapshot that follows it, if any) or a
// compaction (the base, then its snapshot), in one replace, and returns the file opened for
// appending (f, the one before, is closed). The strings its records name by number start again.
// A scene file's bytes are streamed into the base record, never held whole in memory.
func (w *jWriter) restartFile(it jItem) (journalFile, error) {
	j, f := w.j, w.f
	w.vc.restart()
	// then: the snapshot after the base (a new base's, if any), or the compaction's.
	var then []byte
	if snap := &it; it.kind != recBase || it.ext.then != nil {
		if it.kind == recBase {
			snap = &jItem{kind: recSnapshot, ext: &jScene{scene: it.ext.then}}
		}
		var e enc
		if err := w.encode(&e, snap); err != nil {
			return f, err
		}
		then = e.bytes()
	}
	var base int64
	err := atomicfile.ReplaceFileFunc(j.path, func(out io.Writer) error {
		var err error
		switch {
		case it.kind != recBase:
			base, err = w.baseLen, copyPrefix(out, j.path, w.baseLen)
		case it.ext.scene != nil:
			base, err = writeSceneBase(out, it.ext)
		default:
			base, err = writeFileBase(out, it.ext.file, it.ext.want)
		}
		if err != nil || then == nil {
			return err
		}
		hdr := recordHeader(then)
		if _, err := out.Write(hdr[:]); err != nil {
			return err
		}
		_, err = out.Write(then)
		return err
	})
	if err != nil {
		return f, err
	}
	w.baseLen = base
	if f != nil {
		_ = f.Close()
	}
	if f, err = j.opts.create(j.path); err != nil {
		return nil, err
	}
	j.mu.Lock()
	j.written = base
	if then != nil {
		j.written += int64(recHeader + len(then))
	}
	j.kept = j.written
	j.mu.Unlock()
	return f, nil
}

// encode appends a record's payload to e (writer goroutine): a snapshot or a step.
func (w *jWriter) encode(e *enc, it *jItem) error {
	e.c(it.kind)
	switch it.kind {
	case recSnapshot:
		b, err := sceneBytes(it.ext.scene)
		if err != nil {
			return err
		}
		e.by(b)
	case recStep:
		w.vc.str(e, it.cmd.label())
		if err := w.vc.cmd(e, it.cmd); err != nil {
			return fmt.Errorf("journal %s: %w", it.cmd.label(), err)
		}
	}
	return nil
}

// baseHead starts a base record's payload after room for its header: the scene file and the hash
// of its bytes.
func baseHead(file, hash string) enc {
	if file != "" {
		file, _ = filepath.Abs(file)
	}
	e := enc{b: make([]byte, recHeader+1+2*binary.MaxVarintLen64+len(file)+len(hash)), n: recHeader}
	e.c(recBase)
	e.s(file)
	e.s(hash)
	return e
}

// writeSceneBase writes to w a base record of s.scene (a scene not in its file) for s.file, and
// returns its length.
func writeSceneBase(w io.Writer, s *jScene) (int64, error) {
	data, err := sceneBytes(s.scene)
	if err != nil {
		return 0, err
	}
	hash, _, _ := hashFile(s.file) // no file: the hash of no bytes
	e := baseHead(s.file, hash)
	e.by(data)
	rec := e.bytes()
	frameRecord(rec)
	_, err = w.Write(rec)
	return int64(len(rec)), err
}

// writeFileBase writes to w a base record of the scene file at path, and returns its length. The
// file's bytes are streamed from it, never whole in memory; the record's header, which sums them,
// is written last (w is a file). With want, the file must still be the one read or written then (its
// size and time, and its bytes the ones hashed if want has their hash), else errBaseChanged; without
// a hash, it is hashed first, and must not change meanwhile.
func writeFileBase(w io.Writer, path string, want *fileID) (int64, error) {
	wa, ok := w.(io.WriterAt)
	if !ok {
		return 0, errors.New("journal: a base is written to a file")
	}
	var want256 string
	var sum uint32 // without want's hash: the CRC of the file's bytes when hashed
	known := want != nil && want.hash != ""
	if known {
		want256 = want.hash
	} else {
		var err error
		if want256, sum, err = hashFile(path); err != nil {
			return 0, err
		}
	}
	var src io.Reader
	var st os.FileInfo
	if f := want.kept(); f != nil { // the file as opened, even if another took its name since
		var err error
		if st, err = f.Stat(); err != nil {
			return 0, err
		}
		src = io.NewSectionReader(f, 0, st.Size()+1)
	} else {
		f, err := os.Open(path)
		if err != nil {
			if want != nil && os.IsNotExist(err) {
				return 0, errBaseChanged
			}
			return 0, err
		}
		defer func() { _ = f.Close() }() // read only
		if st, err = f.Stat(); err != nil {
			return 0, err
		}
		src = f
	}
	size := st.Size()
	if want != nil && (size != want.size || !st.ModTime().Equal(want.mtime)) {
		return 0, errBaseChanged
	}
	e := baseHead(path, want256)
	e.u(uint64(size))
	payload := int64(e.n-recHeader) + size
	if payload >= maxRecord {
		return 0, fmt.Errorf("journal: %s is too big for a base record (%d bytes)", path, size)
	}
	crc := crc32.Update(0, crcTable, e.b[recHeader:e.n])
	if _, err := w.Write(e.bytes()); err != nil {
		return 0, err
	}
	var h hash.Hash
	if known {
		h = sha256.New()
	}
	own := uint32(0) // the CRC of the file's bytes alone, to compare with sum
	buf := make([]byte, streamBuf)
	var n int64
	for {
		k, rerr := src.Read(buf)
		if n += int64(k); n > size {
			return 0, errBaseChanged
		}
		if k > 0 {
			b := buf[:k]
			crc = crc32.Update(crc, crcTable, b)
			if h != nil {
				h.Write(b)
			} else {
				own = crc32.Update(own, crcTable, b)
			}
			if _, err := w.Write(b); err != nil {
				return 0, err
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return 0, rerr
		}
	}
	if n != size || h != nil && hex.EncodeToString(h.Sum(nil)) != want256 || h == nil && own != sum {
		return 0, errBaseChanged
	}
	var hdr [recHeader]byte
	binary.LittleEndian.PutUint32(hdr[:], uint32(payload))
	binary.LittleEndian.PutUint32(hdr[4:], crc)
	if _, err := wa.WriteAt(hdr[:], 0); err != nil {
		return 0, err
	}
	return recHeader + payload, nil
}

// streamBuf is the buffer a scene file is streamed through.
const streamBuf = 256 << 10

// hashFile returns the hex SHA-256 (fileHashOf) and the CRC-32 of the bytes of the file at path,
// read through a small buffer; no file is no bytes.
func hashFile(path string) (string, uint32, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return fileHashOf(nil), 0, nil
	}
	if err != nil {
		return "", 0, err
	}
	defer func() { _ = f.Close() }() // read only
	h := sha256.New()
	var sum uint32
	buf := make([]byte, streamBuf)
	for {
		k, err := f.Read(buf)
		h.Write(buf[:k])
		sum = crc32.Update(sum, crcTable, buf[:k])
		if err == io.EOF {
			return hex.EncodeToString(h.Sum(nil)), sum, nil
		}
		if err != nil {
			return "", 0, err
		}
	}
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

// keepScratch is the most buffer capacity the writer keeps between batches: a scene's snapshot
// (tens of MB for 100k entities) is let go once written, not held for the session.
const keepScratch = 1 << 20

// writeChunk: a batch this long is written at once, so that its buffer stays under keepScratch
// and is reused by a burst of steps.
const writeChunk = 256 << 10

// copyPrefix copies the first n bytes of the file at path (the base record, for a compaction) to w,
// by the system where it can (a copy between files).
func copyPrefix(w io.Writer, path string, n int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read only
	if _, err := io.CopyN(w, f, n); err != nil {
		return fmt.Errorf("journal %s: copy its base: %w", path, err)
	}
	return nil
}
