package doc

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

var sequences = flag.Int("sequences", 10000, "random command sequences run by TestRandomCommandSequences")

// propRun is one random command sequence on a fresh copy of testdata/small.json, with a model of
// the history that the document's dirty flag is checked against after every step.
type propRun struct {
	t   *testing.T
	rng *rand.Rand
	d   *Document
	log []string

	pos, saved int    // the model: steps done, steps done at the last save (-1: unreachable)
	cur        string // the scene's content now
	top        string
	topSel     []uint64
	firstSel   []uint64
}

func TestRandomCommandSequences(t *testing.T) {
	// Each save allocates a 256 KiB buffer (serialize's flush size): collect less often.
	defer debug.SetGCPercent(debug.SetGCPercent(800))
	base := openSmall(t)
	start := content(t, base)
	rng := rand.New(rand.NewPCG(7, 11))
	steps := 0
	for i := range *sequences {
		d := cloneDoc(base)
		r := &propRun{t: t, rng: rng, d: d}
		r.top, r.cur = start, start
		n := 1 + rng.IntN(8)
		for range n {
			r.step()
		}
		steps += n
		r.check(fmt.Sprintf("sequence %d", i), start)
		if t.Failed() {
			return
		}
	}
	t.Logf("%d sequences, %d random steps", *sequences, steps)
}

// cloneDoc is a fresh copy of an unedited document (cheaper than opening the file again).
func cloneDoc(base *Document) *Document {
	d := &Document{camera: base.camera, cameraInFile: base.cameraInFile}
	d.wire(&core{opts: base.opts, path: base.path, name: base.name})
	d.setWorld(base.world.Clone())
	d.sel.set(base.sel.ids())
	return d
}

func (r *propRun) fail(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("%s\nsteps:\n  %s", fmt.Sprintf(format, args...), joinLines(r.log))
}

func joinLines(s []string) string {
	out := ""
	for i, l := range s {
		if i > 0 {
			out += "\n  "
		}
		out += l
	}
	return out
}

// check undoes everything (the starting scene, byte for byte, and the selection the first command
// started from), then redoes everything (the newest state, byte for byte, and its selection).
func (r *propRun) check(name, start string) {
	d, t := r.d, r.t
	undid := d.History().Undos() > 0
	undoAll(t, d)
	if got := content(t, d); got != start {
		r.fail("%s: undo-all differs from the start:\n%s", name, got)
	}
	if undid && !slices.Equal(d.Selection().IDs(), r.firstSel) {
		r.fail("%s: undo-all selection %v, want %v", name, d.Selection().IDs(), r.firstSel)
	}
	if d.Dirty() != (r.saved != 0) {
		r.fail("%s: dirty %v after undo-all with the save point at %d", name, d.Dirty(), r.saved)
	}
	redid := d.History().Redos() > 0
	redoAll(t, d)
	if got := content(t, d); got != r.top {
		r.fail("%s: redo-all differs from the newest state:\n%s\nwant:\n%s", name, got, r.top)
	}
	if redid && !slices.Equal(d.Selection().IDs(), r.topSel) {
		r.fail("%s: redo-all selection %v, want %v", name, d.Selection().IDs(), r.topSel)
	}
	if d.Dirty() != (r.saved != d.History().Undos()) {
		r.fail("%s: dirty %v after redo-all", name, d.Dirty())
	}
}

func (r *propRun) pick() ecs.Entity { return randomEntity(r.d, r.rng) }

// randomEntity returns an entity of d picked by rng, or the zero Entity for an empty scene.
func randomEntity(d *Document, rng *rand.Rand) ecs.Entity {
	ids := d.IDs()
	if len(ids) == 0 {
		return ecs.Entity{}
	}
	e, _ := d.Entity(ids[rng.IntN(len(ids))])
	return e
}

// some returns 1..3 random entities (maybe repeated), sometimes none.
func (r *propRun) some() []ecs.Entity {
	n := r.rng.IntN(4)
	es := make([]ecs.Entity, 0, n)
	for range n {
		if e := r.pick(); !e.IsZero() {
			es = append(es, e)
		}
	}
	return es
}

func (r *propRun) parent() ecs.Entity {
	if r.rng.IntN(3) == 0 {
		return ecs.Entity{}
	}
	return r.pick()
}

var (
	propNames  = []string{"A", "B", "", "Zed"}
	propFloats = []float32{0, 1, 2.5}
	propComps  = []string{"Color", "Spin", "Mesh", "Follow", "Transform", "Camera"}
)

func (r *propRun) comp() ecs.ComponentID {
	id, _ := r.d.world.ComponentByName(propComps[r.rng.IntN(len(propComps))])
	return id
}

func (r *propRun) float() float32 { return propFloats[r.rng.IntN(len(propFloats))] }

func (r *propRun) follow() Follow {
	f := Follow{Target: r.pick()}
	for range r.rng.IntN(3) {
		f.Others = append(f.Others, r.pick())
	}
	return f
}

// edit makes one field or component edit (inside or outside a transaction).
func (r *propRun) edit() (string, error) {
	d := r.d
	es := r.some()
	tr, _ := ecs.ComponentIDOf[ecs.Transform](d.world)
	fl, _ := ecs.ComponentIDOf[Follow](d.world)
	switch r.rng.IntN(4) {
	case 0:
		path := fmt.Sprintf("position[%d]", r.rng.IntN(3))
		v := r.float()
		return fmt.Sprintf("SetField %v Transform.%s %v", d.idsOf(es), path, v), d.SetField(es, tr, path, v)
	case 1:
		v := ecs.Transform{Position: mgl32.Vec3{r.float(), 0, r.float()}, Rotation: mgl32.Vec3{0, r.float(), 0}, Scale: one}
		return fmt.Sprintf("SetComponent %v Transform %v", d.idsOf(es), v), d.SetComponent(es, tr, v)
	case 2:
		v := r.follow()
		return fmt.Sprintf("SetComponent %v Follow %v", d.idsOf(es), v), d.SetComponent(es, fl, v)
	default:
		col, _ := ecs.ComponentIDOf[scene.Color](d.world)
		v := r.float() / 4
		return fmt.Sprintf("SetField %v Color.rgba[1] %v", d.idsOf(es), v), d.SetField(es, col, "rgba[1]", v)
	}
}

// step runs one random action and checks the history and the dirty flag against the model.
func (r *propRun) step() {
	d := r.d
	before := r.cur
	undos, sel := d.History().Undos(), d.Selection().IDs()
	var what string
	var err error
	command := true
	switch k := r.rng.IntN(24); {
	case k <= 7 || k >= 22:
		what, err = r.entityStep(k)
	case k <= 17:
		what, err = r.editStep(k)
	default:
		command = false
		what, err = r.actionStep(k, undos)
	}
	r.log = append(r.log, what)
	if err != nil {
		if !errors.Is(err, ErrNoEntity) && !errors.Is(err, ErrComponent) && !errors.Is(err, ecs.ErrNoComponent) {
			r.fail("%s: unexpected error %v", what, err)
		}
	}
	after := content(r.t, d)
	r.cur = after
	if command {
		r.commanded(what, before, after, undos, sel)
	}
	if d.History().Undos() != r.pos {
		r.fail("%s: %d steps done, model says %d", what, d.History().Undos(), r.pos)
	}
	if d.Dirty() != (r.pos != r.saved) {
		r.fail("%s: dirty %v, model: position %d, saved %d", what, d.Dirty(), r.pos, r.saved)
	}
	r.consistent(what)
}

// entityStep runs action k among those that make, remove or move entities: spawn, delete,
// duplicate, copy and paste, reparent, rename, move next to.
func (r *propRun) entityStep(k int) (what string, err error) {
	d, rng := r.d, r.rng
	switch k {
	case 22, 23:
		es, anchor, after := r.some(), r.pick(), rng.IntN(2) == 0
		what = fmt.Sprintf("MoveNextTo(after=%v, keepWorld=%v) %v next to %d", after, k == 23, d.idsOf(es), d.idOf(anchor))
		if !anchor.IsZero() {
			err = d.MoveNextTo(anchor, after, k == 23, es...)
		}
		if errors.Is(err, ErrCycle) {
			err = nil
		}
	case 0:
		e, p := r.parent(), rng.IntN(2)
		what = fmt.Sprintf("Spawn(cube=%d) under %d", p, d.idOf(e))
		if p == 0 {
			_, err = d.SpawnEmpty(e)
		} else {
			_, err = d.SpawnCube(e)
		}
	case 1, 2:
		es := r.some()
		what = fmt.Sprintf("Delete %v", d.idsOf(es))
		err = d.Delete(es...)
	case 3:
		es := r.some()
		what = fmt.Sprintf("Duplicate %v", d.idsOf(es))
		_, err = d.Duplicate(es...)
	case 4:
		es, p := r.some(), r.parent()
		var text string
		text, err = d.Copy(es...)
		what = fmt.Sprintf("Copy %v, Paste under %d", d.idsOf(es), d.idOf(p))
		if err == nil && text != "" {
			_, err = d.Paste(context.Background(), text, p)
		}
	case 5, 6:
		es, p := r.some(), r.parent()
		what = fmt.Sprintf("Reparent(keepWorld=%v) %v under %d", k == 6, d.idsOf(es), d.idOf(p))
		if k == 6 {
			err = d.ReparentKeepWorld(p, es...)
		} else {
			err = d.Reparent(p, es...)
		}
		if errors.Is(err, ErrCycle) {
			err = nil
		}
	default:
		es, n := r.some(), propNames[rng.IntN(len(propNames))]
		what = fmt.Sprintf("Rename %v %q", d.idsOf(es), n)
		err = d.Rename(es, n)
	}
	return what, err
}

// editStep runs action k among those that edit components, fields or the scene: edits alone or
// in a transaction, adding, removing, resetting and pasting components, a grid, the scene's name.
func (r *propRun) editStep(k int) (what string, err error) {
	d, rng := r.d, r.rng
	switch k {
	case 8, 9:
		what, err = r.edit()
	case 10, 11:
		what = r.transaction()
	case 12:
		es, c := r.some(), r.comp()
		what = fmt.Sprintf("AddComponent %v %d", d.idsOf(es), c)
		err = d.AddComponent(es, c)
	case 13:
		es, c := r.some(), r.comp()
		what = fmt.Sprintf("RemoveComponent %v %d", d.idsOf(es), c)
		err = d.RemoveComponent(es, c)
	case 14:
		es, c := r.some(), r.comp()
		what = fmt.Sprintf("ResetComponent %v %d", d.idsOf(es), c)
		err = d.ResetComponent(es, c)
	case 15:
		es := r.some()
		fl, _ := ecs.ComponentIDOf[Follow](d.world)
		v := r.follow()
		what = fmt.Sprintf("PasteComponent %v Follow %v / AddComponentValue", d.idsOf(es), v)
		if rng.IntN(2) == 0 {
			err = d.PasteComponent(es, fl, v)
		} else {
			err = d.AddComponentValue(es, fl, v)
		}
	case 16:
		p := scene.DefaultGrid()
		p.Count = [3]int{1 + rng.IntN(2), 1, 1 + rng.IntN(2)}
		if rng.IntN(2) == 0 {
			p.Group = "G"
		}
		what = fmt.Sprintf("SpawnGrid %v %q", p.Count, p.Group)
		_, _, err = d.SpawnGrid(context.Background(), p, nil)
	default:
		n := propNames[rng.IntN(len(propNames))]
		what = "SetSceneName " + n
		err = d.SetSceneName(n)
	}
	return what, err
}

// transaction makes 1..4 edits in one transaction, then ends or cancels it; the edits' errors
// are part of what it did.
func (r *propRun) transaction() string {
	d, rng := r.d, r.rng
	label := "Tx"
	d.BeginEdit(label)
	what := "Begin"
	for range 1 + rng.IntN(4) {
		w, e := r.edit()
		what += "; " + w
		if e != nil {
			what += fmt.Sprintf(" (%v)", e)
		}
	}
	if rng.IntN(4) == 0 {
		d.CancelEdit()
		what += "; Cancel"
	} else {
		d.EndEdit()
		what += "; End"
	}
	return what
}

// actionStep runs action k among those that are no command: select, undo, redo, save; it moves
// the model's position and save point as they do (undos: the steps done before).
func (r *propRun) actionStep(k, undos int) (what string, err error) {
	d := r.d
	switch k {
	case 18:
		es := r.some()
		what = fmt.Sprintf("Select %v", d.idsOf(es))
		d.Selection().Select(es...)
	case 19:
		what = "Undo"
		err = d.History().Undo()
		if undos > 0 {
			r.pos--
		}
	case 20:
		what = "Redo"
		err = d.History().Redo()
		if d.History().Undos() > undos {
			r.pos++
		}
	default:
		what = "Save"
		j := d.PrepareSave(d.Path())
		d.Finish(j, nil) // the write itself is tested elsewhere
		r.saved = r.pos
	}
	return what, err
}

// commanded checks a command's effect on the history (one step when it changed the scene, none
// otherwise) and moves the model: before and after are the scene's content, undos the steps done
// and sel the selection before it.
func (r *propRun) commanded(what, before, after string, undos int, sel []uint64) {
	d := r.d
	stepped := d.History().Undos() == undos+1 && d.History().Redos() == 0
	if !stepped && d.History().Undos() != undos {
		r.fail("%s: history went from %d to %d steps", what, undos, d.History().Undos())
	}
	if stepped != (after != before) {
		r.fail("%s: recorded a step: %v, changed the scene: %v\n%s", what, stepped, after != before, after)
	}
	if stepped {
		if r.saved > r.pos {
			r.saved = -1
		}
		if r.pos == 0 { // the bottom step: undo-all ends with its selection
			r.firstSel = sel
		}
		r.pos++
		r.top, r.topSel = after, d.Selection().IDs()
	}
}

// consistent checks the scene-id index against the world.
func (r *propRun) consistent(what string) {
	d := r.d
	n := 0
	for id, e := range d.byID() {
		if !d.world.Alive(e) || d.idOf(e) != id {
			r.fail("%s: index entry %d -> %v is stale", what, id, e)
		}
		n++
	}
	if n != d.world.Len() {
		r.fail("%s: index has %d entries, world %d entities", what, n, d.world.Len())
	}
	if d.Editing() {
		r.fail("%s: transaction left open", what)
	}
	// Every child list is in sibling order (order key, then id): what the file will say.
	for _, e := range d.byID() {
		cs := d.world.Children(e)
		if !slices.IsSortedFunc(cs, func(a, b ecs.Entity) int { return scene.Compare(d.sids.Get(a), d.sids.Get(b)) }) {
			r.fail("%s: children of %d are %v, not in sibling order", what, d.idOf(e), d.idsOf(cs))
		}
	}
}
