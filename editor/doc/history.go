package doc

import "fmt"

// command is one undoable change of the scene. It refers to entities only by scene id. apply
// redoes it on the state it was first done in; revert undoes it on the state right after it.
type command interface {
	apply(d *Document) error
	revert(d *Document) error
	label() string
	// size is the number of entity and component records the command holds (its memory cost).
	size() int
}

// step is a command in the history with the selection before and after it.
type step struct {
	cmd       command
	selBefore []uint64
	selAfter  []uint64
	size      int
}

// history is the undo/redo stack: steps[:pos] are done, steps[pos:] can be redone.
type history struct {
	steps []step
	pos   int
	saved int // pos at the last save; -1 when that state is no longer reachable
	size  int // records held by all steps
}

// Defaults for Options.MaxHistory and Options.MaxHistoryRecords.
const (
	DefaultMaxHistory        = 1000
	DefaultMaxHistoryRecords = 4_000_000
)

// push records cmd, which has just been done, with the selection before it (the current selection
// is the one after it).
func (d *Document) push(cmd command, selBefore []uint64) {
	h := &d.hist
	if h.saved > h.pos {
		h.saved = -1 // the saved state was in the redo branch that is now dropped
	}
	for _, st := range h.steps[h.pos:] {
		h.size -= st.size
	}
	clear(h.steps[h.pos:])
	d.recordBases(cmd)
	st := step{cmd: cmd, selBefore: selBefore, selAfter: d.sel.ids()}
	st.size = cmd.size() + len(st.selBefore) + len(st.selAfter)
	h.steps = append(h.steps[:h.pos], st)
	h.size += st.size
	h.pos++
	limit, records := d.opts.MaxHistory, d.opts.MaxHistoryRecords
	if limit == 0 {
		limit = DefaultMaxHistory
	}
	if records == 0 {
		records = DefaultMaxHistoryRecords
	}
	drop, size := 0, h.size // drop the oldest steps over the limits; the newest always stays
	for drop < len(h.steps)-1 && ((limit > 0 && len(h.steps)-drop > limit) || (records > 0 && size > records)) {
		size -= h.steps[drop].size
		drop++
	}
	if drop > 0 {
		h.size = size
		clear(h.steps[:drop])
		h.steps = append(h.steps[:0], h.steps[drop:]...)
		h.pos -= drop
		if h.saved -= drop; h.saved < 0 {
			h.saved = -1
		}
	}
	d.version++
}

// CanUndo reports whether there is a step to undo (false while playing or inside a transaction).
func (d *Document) CanUndo() bool { return d.hist.pos > 0 && d.play == nil && d.edit == nil }

// CanRedo reports whether there is a step to redo (false while playing or inside a transaction).
func (d *Document) CanRedo() bool {
	return d.hist.pos < len(d.hist.steps) && d.play == nil && d.edit == nil
}

// UndoLabel returns what Undo would undo ("" if nothing), for the Edit menu ("Undo Delete").
func (d *Document) UndoLabel() string {
	if d.hist.pos == 0 {
		return ""
	}
	return d.hist.steps[d.hist.pos-1].cmd.label()
}

// RedoLabel returns what Redo would redo ("" if nothing).
func (d *Document) RedoLabel() string {
	if d.hist.pos == len(d.hist.steps) {
		return ""
	}
	return d.hist.steps[d.hist.pos].cmd.label()
}

// Undos returns how many steps can be undone; Redos how many can be redone.
func (d *Document) Undos() int { return d.hist.pos }

// Redos returns how many steps can be redone.
func (d *Document) Redos() int { return len(d.hist.steps) - d.hist.pos }

// Undo undoes the last step and restores the selection it started with. It does nothing (nil) when
// there is nothing to undo, and returns ErrPlaying while playing. An open transaction is committed
// first, so Ctrl+Z during a drag undoes the drag.
func (d *Document) Undo() error {
	if err := d.checkEditable(); err != nil {
		return err
	}
	d.EndEdit()
	h := &d.hist
	if h.pos == 0 {
		return nil
	}
	st := &h.steps[h.pos-1]
	if err := st.cmd.revert(d); err != nil {
		return fmt.Errorf("undo %s: %w", st.cmd.label(), err)
	}
	h.pos--
	d.setSel(st.selBefore)
	d.version++
	return nil
}

// Redo redoes the next step and restores the selection it ended with. It does nothing (nil) when
// there is nothing to redo, and returns ErrPlaying while playing.
func (d *Document) Redo() error {
	if err := d.checkEditable(); err != nil {
		return err
	}
	d.EndEdit()
	h := &d.hist
	if h.pos == len(h.steps) {
		return nil
	}
	st := &h.steps[h.pos]
	if err := st.cmd.apply(d); err != nil {
		return fmt.Errorf("redo %s: %w", st.cmd.label(), err)
	}
	h.pos++
	d.setSel(st.selAfter)
	d.version++
	return nil
}

// ClearHistory forgets every undo and redo step; the current state counts as saved only if it was
// clean.
func (d *Document) ClearHistory() {
	dirty := d.hist.pos != d.hist.saved
	clear(d.hist.steps)
	d.hist = history{steps: d.hist.steps[:0]}
	if dirty {
		d.hist.saved = -1
	}
	d.version++
}
