package doc

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// randomEdits runs random edits on a document and checks it against a model: the scene's content after each
// step, which undo and redo must bring back exactly.
type randomEdits struct {
	t    *testing.T
	rng  *rand.Rand
	d    *Document
	log  []string
	hist []string // the content after each step of the history
	pos  int
	dir  string
	// fills counts undos and redos that left the scene-id index filling beside; lends those that gave a
	// table's storage back to the world (see pack.lent).
	fills, lends int
}

func (r *randomEdits) fail(f string, a ...any) {
	r.t.Helper()
	r.t.Fatalf("%s\nsteps:\n  %s", fmt.Sprintf(f, a...), strings.Join(r.log, "\n  "))
}

func (r *randomEdits) pick() ecs.Entity { return randomEntity(r.d, r.rng) }

// some returns 1..4 random entities (maybe repeated).
func (r *randomEdits) some() []ecs.Entity {
	es := []ecs.Entity{r.pick()}
	for range r.rng.IntN(4) {
		es = append(es, r.pick())
	}
	return slices.DeleteFunc(es, ecs.Entity.IsZero)
}

// cheap checks what reads without waiting for a fill of the index.
func (r *randomEdits) cheap(what string) {
	c := r.d.shown()
	if c.indexLen() != c.world.Len() {
		r.fail("%s: index of %d (filling %v), world of %d", what, c.indexLen(), c.filling != nil, c.world.Len())
	}
	if got := r.d.Selection().Len(); got > c.world.Len() {
		r.fail("%s: %d selected of %d", what, got, c.world.Len())
	}
	for _, e := range r.d.Selection().Entities() {
		if !c.world.Alive(e) {
			r.fail("%s: the selection holds dead %v", what, e)
		}
	}
	if msg := miscounted(&r.d.hist); msg != "" {
		r.fail("%s: %s", what, msg)
	}
}

// miscounted says how the bytes h counts differ from what its steps hold, counted afresh; "" if they do not.
func miscounted(h *History) string {
	want := 0
	for _, st := range h.steps {
		countPacks(st.cmd)
		want += stepBytes + st.cmd.size() + 8*(len(st.selBefore)+len(st.selAfter))
	}
	if h.size != want {
		return fmt.Sprintf("the history counts %d bytes, its steps hold %d", h.size, want)
	}
	return ""
}

// countPacks counts the undo packs of cmd afresh (pack.count), as the history should have counted them.
func countPacks(cmd command) {
	count := func(rm removal) {
		if rm.pack != nil {
			rm.pack.count()
		}
	}
	switch c := cmd.(type) {
	case *treeCmd:
		count(c.rm)
	case *replaceCmd:
		count(c.before.rm)
		count(c.after.rm)
	case *applyCmd:
		count(c.before.rm)
		count(c.after.rm)
	case *multiCmd:
		for _, x := range c.cmds {
			countPacks(x)
		}
	}
}

// full checks the scene-id index entry by entry.
func (r *randomEdits) full(what string) {
	c := r.d.shown()
	idx := c.byID()
	for id, e := range idx {
		if !c.world.Alive(e) || c.idOf(e) != id {
			r.fail("%s: stale index entry %d: %v", what, id, e)
		}
	}
	if len(idx) != c.world.Len() || c.indexLen() != len(idx) {
		r.fail("%s: index of %d (length %d), world of %d", what, len(idx), c.indexLen(), c.world.Len())
	}
}

// done records the content after a step that made a history step.
func (r *randomEdits) done(what string, before int, err error) {
	if err != nil && !errors.Is(err, ErrNoEntity) && !errors.Is(err, ErrCycle) && !errors.Is(err, ErrPlaying) &&
		!errors.Is(err, ErrComponent) {
		r.fail("%s: %v", what, err)
	}
	if r.d.PlayMode().Playing() {
		return
	}
	if r.d.History().Undos() == before+1 {
		r.hist = append(r.hist[:r.pos+1], content(r.t, r.d))
		r.pos++
	}
}

// moved checks the content after an undo or redo that moved by step (-1 or 1).
func (r *randomEdits) moved(what string, undos, step int) {
	d := r.d
	if d.PlayMode().Playing() || d.History().Undos() != undos+step {
		return
	}
	r.pos += step
	if d.filling != nil {
		r.fills++
	}
	at := d.hist.pos // the step undone, or after it the one redone
	if step > 0 {
		at--
	}
	if c, ok := d.hist.steps[at].cmd.(*treeCmd); ok && c.rm.pack.lent {
		r.lends++
	}
	r.cheap(what + " (index filling)")
	if got := content(r.t, d); got != r.hist[r.pos] {
		r.fail("%s: the content differs from the model's", what)
	}
}

func (r *randomEdits) step() {
	d, rng := r.d, r.rng
	undos := d.History().Undos()
	playing := d.PlayMode().Playing()
	var what string
	var err error
	switch rng.IntN(19) {
	case 0:
		p := r.pick()
		if rng.IntN(2) == 0 {
			p = ecs.Entity{}
		}
		what = fmt.Sprintf("SpawnCube under %d", d.shown().idOf(p))
		_, err = d.SpawnCube(p)
	case 1, 2:
		p := scene.DefaultGrid()
		p.Count = [3]int{1 + rng.IntN(4), 1, 1 + rng.IntN(4)}
		if rng.IntN(3) == 0 {
			p.Group = "G"
		}
		what = fmt.Sprintf("SpawnGrid %v %q", p.Count, p.Group)
		_, _, err = d.SpawnGrid(context.Background(), p, nil)
	case 3, 4, 5:
		what = "SelectAll, Delete"
		d.Selection().SelectAll()
		err = d.DeleteSelection()
	case 6:
		es := r.some()
		what = fmt.Sprintf("Delete %v", d.shown().idsOf(es))
		err = d.Delete(es...)
	case 7, 8, 9:
		what = "Undo"
		if err := d.History().Undo(); err != nil && !errors.Is(err, ErrPlaying) {
			r.fail("undo: %v", err)
		}
		r.log = append(r.log, what)
		r.moved(what, undos, -1)
		r.cheap(what)
		return
	case 10, 11:
		what = "Redo"
		if err := d.History().Redo(); err != nil && !errors.Is(err, ErrPlaying) {
			r.fail("redo: %v", err)
		}
		r.log = append(r.log, what)
		r.moved(what, undos, 1)
		r.cheap(what)
		return
	case 12:
		what = "Duplicate"
		_, err = d.Duplicate(r.some()...)
	case 13:
		es, p := r.some(), r.pick()
		what = fmt.Sprintf("Reparent %v under %d", d.shown().idsOf(es), d.shown().idOf(p))
		err = d.Reparent(p, es...)
	case 14:
		es, p := r.some(), r.pick()
		what = "Copy, Paste"
		var text string
		text, err = d.Copy(es...)
		if err == nil && text != "" {
			_, err = d.Paste(context.Background(), text, p)
		}
	case 15:
		what = "Select"
		d.Selection().Select(r.some()...)
	case 16:
		what = "Save, Open"
		if !playing {
			path := filepath.Join(r.dir, "s.json")
			j := d.PrepareSave(path)
			err := j.Run(context.Background(), nil)
			d.Finish(j, err)
			if err != nil {
				r.fail("save: %v", err)
			}
			d2, err := Open(context.Background(), path, testOpts, nil)
			if err != nil {
				r.fail("open: %v", err)
			}
			if content(r.t, d2) != content(r.t, d) {
				r.fail("the saved file differs")
			}
		}
	case 17:
		if playing {
			what = "Play: Stop"
			ch := d.PlayMode().Stop()
			if rng.IntN(2) == 0 && !ch.Empty() {
				what = "Play: Stop, Keep"
				err = d.KeepPlayChanges(ch.Changes)
			}
		} else {
			what = "Play: Start"
			d.PlayMode().Start()
			d.PlayMode().Tick(0.05)
		}
	default:
		what = "Undo, SpawnCube"
		if err = d.History().Undo(); err == nil {
			r.moved(what, undos, -1)
			undos = d.History().Undos()
			_, err = d.SpawnCube(ecs.Entity{})
		}
	}
	r.log = append(r.log, what)
	r.done(what, undos, err)
	r.cheap(what)
}

// Random edits (spawns, deletes of all and of some, undo and redo, duplicates, reparents, paste, save and open,
// play mode with its changes kept) leave the document as a model of its content says after every step, undo
// and redo; the scene-id index holds exactly the live entities, also while it is filled beside a frame; and
// undoing everything, then redoing everything, gives the first and the last content. The index is filled beside
// from two entities up, so that most undos of a delete do; most deletes move a table's storage into the history.
func TestRandomEditsAgainstModel(t *testing.T) {
	old, oldBulk := asyncIndexFill, bulkResolve
	asyncIndexFill = 2
	bulkResolve = func(n, world int) bool { return n >= 1 && 8*n >= world }
	t.Cleanup(func() { asyncIndexFill, bulkResolve = old, oldBulk })
	dir := t.TempDir()
	seqs := 120
	if testing.Short() {
		seqs = 20
	}
	fills, lends := 0, 0
	for seed := range seqs {
		d := New("", testOpts)
		r := &randomEdits{t: t, rng: rand.New(rand.NewPCG(uint64(seed), 99)), d: d, dir: dir}
		must(t, d.SaveAs(context.Background(), filepath.Join(dir, "s.json"), nil))
		r.hist = []string{content(t, d)}
		for i := range 60 {
			r.step()
			if i%9 == 8 {
				r.full(fmt.Sprint("step ", i))
			}
		}
		if d.PlayMode().Playing() {
			d.PlayMode().Stop()
		}
		r.full("end")
		for d.History().CanUndo() {
			must(t, d.History().Undo())
		}
		if content(t, d) != r.hist[0] {
			r.fail("undo of everything: the content differs from the first")
		}
		for d.History().CanRedo() {
			must(t, d.History().Redo())
		}
		if content(t, d) != r.hist[len(r.hist)-1] {
			r.fail("redo of everything: the content differs from the last")
		}
		r.full("redo of everything")
		fills += r.fills
		lends += r.lends
	}
	if fills < seqs/4 || lends < seqs/4 {
		t.Fatalf("%d sequences: %d undos or redos filled the index beside, %d gave a table back: too few to test them", seqs, fills, lends)
	}
	t.Logf("%d sequences: %d undos or redos filled the index beside, %d gave a table back", seqs, fills, lends)
}
