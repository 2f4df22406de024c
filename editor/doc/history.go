package doc

import (
	"github.com/voltex-editor/voltex/ecs"
)

import "fmt"

// step is a command in the history with the selection before and after it.
type step struct {
	cmd       command
	selBefore []uint64
	selAfter  []uint64
	size      int    // bytes: the command's and the selections'
	what      string // what the command touched, named when it was done (StepInfo.What)
}

// History is the document's undo/redo stack of commands: steps[:pos] are done, steps[pos:] can be
// redone. It keeps at most Options.MaxHistory steps and Options.MaxHistoryBytes bytes, and holds the
// open transaction (Document.BeginEdit), which it commits before undoing or redoing. A Document
// has one (Document.History).
type History struct {
	c    *core
	sel  *Selection
	play *Play
	edit *transaction

	steps []step
	pos   int
	saved int // pos at the last save; -1 when that state is no longer reachable
	size  int // bytes held by all steps
	// dropped and droppedBytes: the oldest steps dropped to keep within the limits since
	// TakeDropped last reported them.
	dropped, droppedBytes int
	// trimmed counts every step dropped so far (the journal follows the positions with it).
	trimmed int
}

// Defaults for Options.MaxHistory and Options.MaxHistoryBytes. 384 MiB holds a delete of a
// million cubes (their table's storage, moved out of the world: about 270 MB) with room to spare,
// and keeps the editor of a million-cube scene within 1.5 GB of memory.
const (
	DefaultMaxHistory      = 1000
	DefaultMaxHistoryBytes = 384 << 20
)

// stepBytes is the bytes of a step besides its command's and its selections'.
const stepBytes = 96

// begin prepares a command: it refuses edits while playing and commits an open transaction.
func (h *History) begin() error {
	if h.play.Playing() {
		return ErrPlaying
	}
	if h.c.live != nil {
		return ErrAttached
	}
	h.endEdit()
	return nil
}

// push records cmd, which has just been done, with the selection before it (the current selection
// is the one after it).
func (h *History) push(cmd command, selBefore []uint64) {
	if h.saved > h.pos {
		h.saved = -1 // the saved state was in the redo branch that is now dropped
	}
	for _, st := range h.steps[h.pos:] {
		h.size -= st.size
	}
	clear(h.steps[h.pos:])
	h.c.restored = nil
	h.c.recordBases(cmd)
	st := step{cmd: cmd, selBefore: selBefore, selAfter: h.sel.ids(), what: h.c.touched(cmd)}
	st.size = stepBytes + cmd.size() + 8*(len(st.selBefore)+len(st.selAfter))
	h.steps = append(h.steps[:h.pos], st)
	h.size += st.size
	h.pos++
	h.trim()
	h.c.version++
	if h.c.jr != nil {
		h.c.jr.step(h, cmd)
	}
}

// trim drops the oldest steps while the history is over Options.MaxHistory steps or
// Options.MaxHistoryBytes bytes; the newest done step always stays, and so do the steps that can
// be redone.
func (h *History) trim() {
	limit, budget := h.c.opts.MaxHistory, h.c.opts.MaxHistoryBytes
	if limit == 0 {
		limit = DefaultMaxHistory
	}
	if budget == 0 {
		budget = DefaultMaxHistoryBytes
	}
	drop, size := 0, h.size
	for drop < h.pos-1 && ((limit > 0 && len(h.steps)-drop > limit) || (budget > 0 && size > budget)) {
		size -= h.steps[drop].size
		drop++
	}
	if drop > 0 {
		h.dropped += drop
		h.trimmed += drop
		for _, st := range h.steps[:drop] {
			h.droppedBytes += st.size
		}
		h.size = size
		clear(h.steps[:drop])
		// Slid, not copied: a full history drops a step at every push, and copying a thousand
		// steps each time was most of an edit's cost. Append moves them when the array fills.
		h.steps = h.steps[drop:]
		h.pos -= drop
		if h.saved -= drop; h.saved < 0 {
			h.saved = -1
		}
	}
}

// CanUndo reports whether there is a step to undo (false while playing or inside a transaction).
func (h *History) CanUndo() bool { return h.pos > 0 && !h.play.Playing() && h.edit == nil }

// CanRedo reports whether there is a step to redo (false while playing or inside a transaction).
func (h *History) CanRedo() bool {
	return h.pos < len(h.steps) && !h.play.Playing() && h.edit == nil
}

// UndoLabel returns what Undo would undo ("" if nothing), for the Edit menu ("Undo Delete").
func (h *History) UndoLabel() string {
	if h.pos == 0 {
		return ""
	}
	return h.steps[h.pos-1].cmd.label()
}

// RedoLabel returns what Redo would redo ("" if nothing).
func (h *History) RedoLabel() string {
	if h.pos == len(h.steps) {
		return ""
	}
	return h.steps[h.pos].cmd.label()
}

// Undos returns how many steps can be undone; Redos how many can be redone.
func (h *History) Undos() int { return h.pos }

// Redos returns how many steps can be redone.
func (h *History) Redos() int { return len(h.steps) - h.pos }

// keepRestored keeps what st's command just brought back for the selection that follows (core.restored) only
// when the command is one treeCmd or gridCmd that succeeded: another command's later parts may have changed those
// entities.
func (h *History) keepRestored(st *step, err error) {
	switch st.cmd.(type) {
	case *treeCmd, *gridCmd:
		if err == nil {
			return
		}
	}
	h.c.restored = nil
}

// Undo undoes the last step and restores the selection it started with. It does nothing (nil) when
// there is nothing to undo, and returns ErrPlaying while playing. An open transaction is committed
// first, so Ctrl+Z during a drag undoes the drag.
func (h *History) Undo() error {
	if err := h.begin(); err != nil {
		return err
	}
	if h.pos == 0 {
		return nil
	}
	st := &h.steps[h.pos-1]
	h.c.dropPendingRoots()
	h.c.packGrew = 0
	err := st.cmd.revert(h.c)
	h.keepRestored(st, err)
	h.grew(st) // what a part of it did before an error too
	if err != nil {
		return fmt.Errorf("undo %s: %w", st.cmd.label(), err)
	}
	h.pos--
	h.sel.set(st.selBefore)
	h.c.restored = nil
	h.c.version++
	h.c.stampRoots()
	if h.c.jr != nil {
		h.c.jr.move(h, false)
	}
	return nil
}

// Redo redoes the next step and restores the selection it ended with. It does nothing (nil) when
// there is nothing to redo, and returns ErrPlaying while playing.
func (h *History) Redo() error {
	if err := h.begin(); err != nil {
		return err
	}
	if h.pos == len(h.steps) {
		return nil
	}
	st := &h.steps[h.pos]
	h.c.dropPendingRoots()
	h.c.packGrew = 0
	err := st.cmd.apply(h.c)
	h.keepRestored(st, err)
	h.grew(st)
	if err != nil {
		return fmt.Errorf("redo %s: %w", st.cmd.label(), err)
	}
	h.pos++
	h.sel.set(st.selAfter)
	h.c.restored = nil
	h.c.version++
	h.c.stampRoots()
	if h.c.jr != nil {
		h.c.jr.move(h, true)
	}
	return nil
}

// grew counts in st what its command's undo packs gained or gave back as it was undone or redone (core.packGrew).
func (h *History) grew(st *step) {
	st.size += h.c.packGrew
	h.size += h.c.packGrew
	h.c.packGrew = 0
}

// Clear forgets every undo and redo step; the current state counts as saved only if it was
// clean.
func (h *History) Clear() {
	dirty := h.pos != h.saved
	steps := h.steps[:0]
	h.reset()
	h.steps = steps
	if dirty {
		h.saved = -1
	}
	h.c.version++
}

// Bytes returns the bytes the undo history holds (its steps' snapshots and selections; what
// values point to, such as names, estimated).
func (h *History) Bytes() int { return h.size }

// TakeDropped returns how many of the oldest steps were dropped to keep the history within
// Options.MaxHistory and Options.MaxHistoryBytes since the last call, and the bytes they held, and
// resets both (the editor says so in its status bar).
func (h *History) TakeDropped() (steps, bytes int) {
	steps, bytes = h.dropped, h.droppedBytes
	h.dropped, h.droppedBytes = 0, 0
	return steps, bytes
}

// reset forgets every step and the open transaction (a new world: reload, retype).
func (h *History) reset() {
	clear(h.steps)
	*h = History{c: h.c, sel: h.sel, play: h.play, trimmed: h.trimmed}
	if h.c.jr != nil {
		h.c.jr.snapshot(h)
	}
}

// transaction collects the edits between BeginEdit and EndEdit into one step.
type transaction struct {
	name    string
	depth   int
	sel     []uint64
	changes []compChange
	col     *colEdit // the edits so far, when they are one column edit (then changes is empty)
	// touched marks, per component, the entity indices whose state before is recorded (no
	// entity is despawned while a transaction is open: every structural command commits it).
	touched map[ecs.ComponentID][]bool
	drag    *transformDrag // set by BeginTransformDrag
}

// endEdit is Document.EndEdit.
func (h *History) endEdit() {
	t := h.edit
	if t == nil {
		return
	}
	if t.depth--; t.depth > 0 {
		return
	}
	h.edit = nil
	if t.col != nil {
		if cmd := h.c.endColumn(t.name, t.col); cmd != nil {
			h.push(cmd, t.sel)
		}
		return
	}
	var kept []compChange
	for _, ch := range t.changes {
		if e, ok := h.c.entity(ch.id); ok {
			ch.after = h.c.state(e, ch.cid)
		}
		if ch.after.has != ch.before.has || (ch.after.has && !sameVal(ch.before.val, ch.after.val)) {
			kept = append(kept, ch)
		}
	}
	if len(kept) == 0 {
		return
	}
	h.push(&compCmd{name: t.name, changes: kept}, t.sel)
}
