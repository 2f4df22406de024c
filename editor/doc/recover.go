package doc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/merge"
)

// Recovery is what a session journal holds, replayed (Recover).
type Recovery struct {
	// Doc is the recovered scene: the journal's base with its steps replayed, its history the
	// recovered session's (each step with its label); its file is the journal's scene file, and it
	// is dirty. After a three-way merge (Merged) its history is empty.
	Doc *Document
	// File is the scene file the journal belongs to; FileChanged says its bytes are no longer the
	// ones the journal began from (saved by another program since, or a `git pull`).
	File        string
	FileChanged bool
	// Merged: the file changed, so the session's work was merged into it (base: the journal's
	// base) and Conflicts lists the values both changed, recorded in Doc as merge conflicts.
	Merged    bool
	Conflicts []merge.Conflict
	// Steps is the records replayed after the base; Torn says a torn record (a crash or a full disk
	// mid-write) ended the journal and was dropped.
	Steps int
	Torn  bool
	// Unsaved says the journal holds work the file lacks: its state differs from the file's.
	Unsaved bool
	// Changes is the semantic diff from the file on disk to the recovered scene; FileRaw and
	// RecoveredRaw are its sides (for merge.WriteText).
	Changes               []merge.Change
	FileRaw, RecoveredRaw *serialize.RawScene
}

// Recover reads the session journal at journalPath and replays it: the base, then each whole
// record (a torn tail is dropped). If the scene file's bytes changed since the journal's base,
// the journal's state is merged three-way into the file as it is now. It does not change either
// file.
func Recover(ctx context.Context, journalPath string, opts Options) (*Recovery, error) {
	data, err := os.ReadFile(journalPath)
	if err != nil {
		return nil, err
	}
	recs, end := splitRecords(data)
	if len(recs) == 0 || recs[0][0] != recBase {
		return nil, fmt.Errorf("%s: not a session journal (no base record)", journalPath)
	}
	r := &dec{b: recs[0][1:]}
	file, hash, base := r.s(), r.s(), r.by()
	if r.err != nil {
		return nil, fmt.Errorf("%s: record 1: %w", journalPath, r.err)
	}
	rc := &Recovery{File: file, Torn: end < len(data), Steps: len(recs) - 1}
	replayOpts := opts
	replayOpts.MaxHistory, replayOpts.MaxHistoryBytes = -1, -1
	d, err := openFrom(ctx, file, base, replayOpts, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: the journal's base: %w", journalPath, err)
	}
	var lastSave []byte // the scene when the last save of the session began
	var st recState     // what the records define for the ones after them
	for i, rec := range recs[1:] {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if rec[0] == recSave {
			if lastSave, err = sceneBytes(d.fileScene()); err != nil {
				return nil, err
			}
			continue
		}
		if d, err = replay(ctx, d, rec, file, replayOpts, &st); err != nil {
			return nil, fmt.Errorf("%s: record %d: %w", journalPath, i+2, err)
		}
	}
	d.opts = opts
	d.hist.trim()
	d.path = file
	d.hist.saved = -1
	d.version++

	ours, err := sceneBytes(d.fileScene())
	if err != nil {
		return nil, err
	}
	now, _ := os.ReadFile(file)
	rc.FileChanged = fileHashOf(now) != hash
	raw := func(b []byte, name string) (*serialize.RawScene, error) {
		if len(b) == 0 {
			return &serialize.RawScene{}, nil
		}
		return serialize.ReadRaw(ctx, bytes.NewReader(b), serialize.LoadOptions{File: name, Limits: opts.Limits, NewWorld: opts.NewWorld, Lossy: true})
	}
	if rc.FileRaw, err = raw(now, file); err != nil {
		return nil, err
	}
	if rc.RecoveredRaw, err = raw(ours, file+" (recovered)"); err != nil {
		return nil, err
	}
	if rc.FileChanged && lastSave != nil {
		// Killed after a save's file took its place, before the journal restarted on it: the file is
		// that save, not someone else's change.
		saved, err := raw(lastSave, file)
		if err != nil {
			return nil, err
		}
		saved.Camera = rc.FileRaw.Camera // camera moves are not journaled
		if len(merge.Diff(saved, rc.FileRaw)) == 0 {
			rc.FileChanged = false
		}
	}
	if rc.FileChanged && len(now) > 0 {
		baseRaw, err := raw(base, file+" (journal base)")
		if err != nil {
			return nil, err
		}
		res := merge.Merge(baseRaw, rc.RecoveredRaw, rc.FileRaw)
		if res.Scene == nil {
			why := res.Unmergeable
			if why == "" {
				why = "too many conflicts"
			}
			return nil, fmt.Errorf("%s changed since the session began, and the session's work cannot be merged into it: %s", file, why)
		}
		var b bytes.Buffer
		if err := serialize.WriteRaw(ctx, &b, res.Scene); err != nil {
			return nil, err
		}
		if d, err = openFrom(ctx, file, b.Bytes(), opts, nil); err != nil {
			return nil, fmt.Errorf("the merged scene: %w", err)
		}
		d.path, d.hist.saved = file, -1
		rc.Merged, rc.Conflicts, rc.RecoveredRaw = true, res.Conflicts, res.Scene
	}
	rc.Doc = d
	rc.RecoveredRaw.Selection = rc.FileRaw.Selection // the selection is not journaled: not work to recover
	rc.RecoveredRaw.Camera = rc.FileRaw.Camera       // nor are camera moves
	rc.Changes = merge.Diff(rc.FileRaw, rc.RecoveredRaw)
	rc.Unsaved = len(rc.Changes) > 0
	return rc, nil
}

// replay applies one record after the base to d; a snapshot returns a new document.
func replay(ctx context.Context, d *Document, rec []byte, file string, opts Options, st *recState) (*Document, error) {
	r := &dec{b: rec[1:], st: st}
	switch rec[0] {
	case recSnapshot:
		b := r.by()
		if r.err != nil {
			return nil, r.err
		}
		return openFrom(ctx, file, b, opts, nil)
	case recStep:
		label := r.str()
		cmd, err := d.replayCmd(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", label, err)
		}
		d.hist.push(cmd, nil)
		return d, nil
	case recUndo:
		if !d.hist.CanUndo() {
			return nil, fmt.Errorf("undo with nothing to undo")
		}
		return d, d.hist.Undo()
	case recRedo:
		if !d.hist.CanRedo() {
			return nil, fmt.Errorf("redo with nothing to redo")
		}
		return d, d.hist.Redo()
	}
	return nil, fmt.Errorf("unknown record kind %d", rec[0])
}

// DiffText returns the changes from the file to the recovered scene as `voltex-editor diff`
// prints them, at most maxLines lines (a last line says how many more there are).
func (rc *Recovery) DiffText(maxLines int) string {
	var b strings.Builder
	if err := merge.WriteText(&b, rc.FileRaw, rc.RecoveredRaw, rc.Changes); err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) > maxLines {
		more := len(lines) - maxLines + 1
		lines = append(lines[:maxLines-1], fmt.Sprintf("… and %s more", words.Count(more, "line", "lines")))
	}
	return strings.Join(lines, "\n")
}
