package doc

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/radix"
)

// selModel is the selection as the editor promises it, kept the simplest way: the selected scene ids in order of
// selection (the last is the active one), and the selection each undoable step started and ended with.
type selModel struct {
	ids   []uint64
	steps [][2][]uint64 // per step: before, after
	pos   int
}

func (m *selModel) has(id uint64) bool { return slices.Contains(m.ids, id) }

// add appends the ids not selected yet.
func (m *selModel) add(ids ...uint64) {
	for _, id := range ids {
		if !m.has(id) {
			m.ids = append(m.ids, id)
		}
	}
}

// push records a step that went from before to the model's selection now.
func (m *selModel) push(before []uint64) {
	m.steps = append(m.steps[:m.pos], [2][]uint64{before, slices.Clone(m.ids)})
	m.pos++
}

// TestSelectionAgainstModel runs random sequences of what users do to the selection — click, Shift-click (add),
// Ctrl-click (toggle), Select All, Invert Selection, Deselect All, select by ids (a search's results), deselect,
// delete the selection, create, duplicate, undo and redo — on a small tree of entities and compares, after every
// step, everything the document says of the selection with the model: the ids in order, the active entity, the
// selected entities, and for every entity whether it is selected.
func TestSelectionAgainstModel(t *testing.T) {
	t.Run("look-ups", func(t *testing.T) { selectionAgainstModel(t, 1) })
	// Ids resolved by joining them with the world's sorted ids, as a big selection is (a million restored by undo).
	bulk := bulkResolve
	bulkResolve = func(int, int) bool { return true }
	defer func() { bulkResolve = bulk }()
	t.Run("joined", func(t *testing.T) { selectionAgainstModel(t, 2) })
}

func selectionAgainstModel(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(16, seed))
	for seq := range 60 {
		d := New("", Options{})
		var roots []ecs.Entity
		for range 6 {
			r, _ := d.SpawnEmpty(ecs.Entity{})
			roots = append(roots, r)
			for range rng.IntN(4) {
				if _, err := d.SpawnCube(r); err != nil {
					t.Fatal(err)
				}
			}
		}
		d.History().Clear()
		d.Selection().Clear()
		m := &selModel{}
		var log []string
		live := func() []ecs.Entity {
			var es []ecs.Entity
			for _, id := range d.IDs() {
				e, _ := d.Entity(id)
				es = append(es, e)
			}
			return es
		}
		pick := func(n int) []ecs.Entity {
			es := live()
			var out []ecs.Entity
			for range n {
				if len(es) > 0 {
					out = append(out, es[rng.IntN(len(es))])
				}
			}
			return out
		}
		ids := func(es []ecs.Entity) []uint64 {
			var out []uint64
			for _, e := range es {
				out = append(out, d.ID(e))
			}
			return out
		}
		for step := range 40 {
			var what string
			switch op := rng.IntN(15); op {
			case 0, 1: // click
				es := pick(1)
				what = fmt.Sprintf("click %v", ids(es))
				d.Selection().Select(es...)
				m.ids = nil
				m.add(ids(es)...)
			case 2: // Shift-click: a range of rows added
				es := pick(1 + rng.IntN(4))
				what = fmt.Sprintf("add %v", ids(es))
				d.Selection().Add(es...)
				m.add(ids(es)...)
			case 3, 4: // Ctrl-click
				es := pick(1)
				if len(es) == 0 {
					continue
				}
				id := d.ID(es[0])
				what = fmt.Sprintf("toggle %d", id)
				d.Selection().Toggle(es[0])
				if m.has(id) {
					m.ids = slices.DeleteFunc(m.ids, func(x uint64) bool { return x == id })
				} else {
					m.add(id)
				}
			case 5: // Select All
				what = "select all"
				d.Selection().SelectAll()
				m.ids = storedIDs(d)
			case 13: // Invert Selection
				what = "invert"
				var inv []uint64
				for _, id := range storedIDs(d) {
					if !m.has(id) {
						inv = append(inv, id)
					}
				}
				d.Selection().Invert()
				m.ids = inv
			case 14: // Deselect All
				what = "deselect all"
				d.Selection().Clear()
				m.ids = nil
			case 6: // the rows of a search, and an id that names nothing
				es := pick(rng.IntN(5))
				sel := append(ids(es), 1<<60)
				what = fmt.Sprintf("select ids %v", sel)
				d.Selection().SelectIDs(sel...)
				m.ids = nil
				m.add(ids(es)...)
			case 7:
				es := pick(1 + rng.IntN(3))
				what = fmt.Sprintf("deselect %v", ids(es))
				d.Selection().Deselect(es...)
				m.ids = slices.DeleteFunc(m.ids, func(x uint64) bool { return slices.Contains(ids(es), x) })
			case 8:
				what = "delete the selection"
				before := slices.Clone(m.ids)
				n := d.History().Undos()
				if err := d.DeleteSelection(); err != nil {
					t.Fatal(err)
				}
				m.ids = slices.DeleteFunc(m.ids, func(x uint64) bool { _, ok := d.Entity(x); return !ok })
				if d.History().Undos() > n {
					m.push(before)
				}
			case 9:
				what = "create a cube"
				before := slices.Clone(m.ids)
				e, err := d.SpawnCube(ecs.Entity{})
				if err != nil {
					t.Fatal(err)
				}
				m.ids = []uint64{d.ID(e)}
				m.push(before)
			case 10:
				what = "duplicate the selection"
				before := slices.Clone(m.ids)
				n := d.History().Undos()
				copies, err := d.DuplicateSelection()
				if err != nil {
					t.Fatal(err)
				}
				if d.History().Undos() > n {
					m.ids = ids(copies)
					m.push(before)
				}
			case 11:
				what = "undo"
				if err := d.History().Undo(); err != nil {
					t.Fatal(err)
				}
				if m.pos > 0 {
					m.pos--
					m.ids = slices.Clone(m.steps[m.pos][0])
				}
			case 12:
				what = "redo"
				if err := d.History().Redo(); err != nil {
					t.Fatal(err)
				}
				if m.pos < len(m.steps) {
					m.ids = slices.Clone(m.steps[m.pos][1])
					m.pos++
				}
			}
			log = append(log, what)
			if err := checkSelection(d, m.ids); err != nil {
				t.Fatalf("sequence %d, step %d: %v\nsteps:\n  %v", seq, step, err, log)
			}
		}
		_ = roots
	}
}

// checkSelection compares what d says of its selection with want (ids in selection order).
func checkSelection(d *Document, want []uint64) error {
	if got := d.Selection().IDs(); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		return fmt.Errorf("selection %v, want %v", got, want)
	}
	if d.Selection().Len() != len(want) {
		return fmt.Errorf("Selection.Len %d, want %d", d.Selection().Len(), len(want))
	}
	var es []ecs.Entity
	for _, id := range want {
		e, ok := d.Entity(id)
		if !ok {
			return fmt.Errorf("selected id %d names no entity", id)
		}
		es = append(es, e)
	}
	if got := d.Selection().Entities(); !slices.Equal(got, es) && len(es)+len(got) > 0 {
		return fmt.Errorf("selected entities %v, want %v", got, es)
	}
	if got := d.Selection().AppendEntities(nil); !slices.Equal(got, es) && len(es)+len(got) > 0 {
		return fmt.Errorf("AppendEntities %v, want %v", got, es)
	}
	if got := d.Selection().View(); !slices.Equal(got, es) && len(es)+len(got) > 0 {
		return fmt.Errorf("View %v, want %v", got, es)
	}
	if got := slices.Collect(d.Selection().All()); !slices.Equal(got, es) && len(es)+len(got) > 0 {
		return fmt.Errorf("All %v, want %v", got, es)
	}
	a, ok := d.Selection().Active()
	if ok != (len(es) > 0) || ok && a != es[len(es)-1] {
		return fmt.Errorf("active %v %v, want the last of %v", a, ok, es)
	}
	for _, id := range d.IDs() {
		e, _ := d.Entity(id)
		in := slices.Contains(want, id)
		if d.Selection().IsSelected(e) != in || d.Selection().IsSelectedID(id) != in {
			return fmt.Errorf("entity %d: IsSelected %v, IsSelectedID %v, want %v", id, d.Selection().IsSelected(e), d.Selection().IsSelectedID(id), in)
		}
	}
	if d.Selection().IsSelectedID(1<<60) || d.Selection().IsSelected(ecs.Entity{}) {
		return fmt.Errorf("an id or entity that is not there is selected")
	}
	return nil
}

// storedIDs returns the scene ids of the world's entities in the order the world stores them (an ECS query's), the
// order Select All and Invert select in.
func storedIDs(d *Document) []uint64 {
	var out []uint64
	q := ecs.NewQuery1[scene.SceneID](d.World(), ecs.Read[scene.SceneID]())
	q.Each(func(_ ecs.Entity, s *scene.SceneID) { out = append(out, s.ID) })
	return out
}

// TestSelectAllOrderAndVersion: Select All selects every entity in the order the world stores them, the active one last;
// selecting all again changes nothing (the version stays), and the selection survives a delete of others and its
// undo with the same entities.
func TestSelectAllOrderAndVersion(t *testing.T) {
	d := New("", Options{})
	for range 300 { // more than radixSort's small-input threshold
		if _, err := d.SpawnCube(ecs.Entity{}); err != nil {
			t.Fatal(err)
		}
	}
	d.Selection().SelectAll()
	want := storedIDs(d)
	if len(want) != 300 || !slices.Equal(d.Selection().IDs(), want) {
		t.Fatalf("Select All: %d ids %v, want the world's %d in its order %v", d.Selection().Len(), d.Selection().IDs(), len(want), want)
	}
	v := d.Selection().Version()
	sid, _ := ecs.ComponentIDOf[scene.SceneID](d.World())
	d.EditWorld().AdvanceTick() // writes from now on get a newer tick
	tick := d.World().LastChange(sid)
	d.Selection().Clear()
	d.Selection().SelectAll()
	if d.Selection().Version() == v {
		t.Error("selecting all after Clear kept the version")
	}
	if d.World().LastChange(sid) != tick {
		t.Error("selecting all marked scene ids changed (the hierarchy would rebuild its roots)")
	}
	v = d.Selection().Version()
	d.Selection().SelectAll()
	if d.Selection().Version() != v {
		t.Error("selecting all again changed the version")
	}
	if err := checkSelection(d, want); err != nil {
		t.Fatal(err)
	}
	// Delete a third of them: they leave the selection; undo brings the selection back.
	es := d.Selection().Entities()
	if err := d.Delete(es[:100]...); err != nil {
		t.Fatal(err)
	}
	if err := checkSelection(d, want[100:]); err != nil {
		t.Fatalf("after deleting 100: %v", err)
	}
	if err := d.History().Undo(); err != nil {
		t.Fatal(err)
	}
	if err := checkSelection(d, want); err != nil {
		t.Fatalf("after undo: %v", err)
	}
}

// TestSelectionViewSkipsIDsWithoutEntity: View is the selected entities; once a selected id names no entity (its
// entity despawned behind the document's back), View, All and AppendEntities leave it out alike.
func TestSelectionViewSkipsIDsWithoutEntity(t *testing.T) {
	d := New("", Options{})
	es := spawnRootCubes(t, d, 3)
	d.Selection().Select(es...)
	if got := d.Selection().View(); !slices.Equal(got, es) {
		t.Fatalf("View %v, want %v", got, es)
	}
	d.EditWorld().Despawn(es[1])
	want := []ecs.Entity{es[0], es[2]}
	for name, got := range map[string][]ecs.Entity{"View": d.Selection().View(),
		"All": slices.Collect(d.Selection().All()), "AppendEntities": d.Selection().AppendEntities(nil)} {
		if !slices.Equal(got, want) {
			t.Errorf("%s %v after a selected entity was despawned, want %v", name, got, want)
		}
	}
	if d.Selection().Len() != 3 {
		t.Errorf("the selection holds %d ids, want its 3 (an undo may bring the entity back)", d.Selection().Len())
	}
}

// The selection's marks by entity index take the world's room for entities at once (ecs.World.IndexCap):
// selecting entities spawned within it grows nothing.
func TestSelectionMarksFollowWorldRoom(t *testing.T) {
	d := New("", Options{})
	es := spawnRootCubes(t, d, 20) // each spawned cube is selected: the marks are made for the world as it is
	d.EditWorld().ReserveLike(es[0], 200)
	room := d.EditWorld().IndexCap()
	s := d.Selection()
	es = spawnRootCubes(t, d, 50) // past the marks made: they grow, to the room
	if !s.IsSelected(es[49]) || len(s.at) < room {
		t.Fatalf("marks for %d entities in a world with room for %d", len(s.at), room)
	}
	at := &s.at[0]
	more := spawnRootCubes(t, d, 100)
	s.Select(more...)
	if !s.IsSelected(more[99]) || s.IsSelected(es[49]) {
		t.Fatal("the selection of the spawned cubes is wrong")
	}
	if d.EditWorld().IndexCap() != room {
		t.Fatalf("the world's room changed (%d -> %d): the test spawns too many", room, d.EditWorld().IndexCap())
	}
	if &s.at[0] != at {
		t.Fatal("selecting entities spawned within the world's room grew the marks")
	}
}

// TestRadixSort: radixSort orders unique keys as a comparison sort does, moving the values with them, with
// buffers of its own or with second buffers kept from sort to sort (of other lengths).
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var tmp radix.Buffer[ecs.Entity]
	sorts := 0
	w := ecs.NewWorld()
	ents := make([]ecs.Entity, 5000)
	for i := range ents {
		ents[i] = w.Spawn()
	}
	for _, n := range []int{0, 1, 2, 255, 256, 1000, 5000} {
		for _, gen := range []func(i int) uint64{
			func(int) uint64 { return rng.Uint64() >> 11 },            // random 53-bit ids
			func(i int) uint64 { return uint64(n - i) },               // descending small ids
			func(i int) uint64 { return uint64(i%7)<<40 | uint64(i) }, // digits all keys share
		} {
			keys := make([]uint64, n)
			vals := make([]ecs.Entity, n)
			type kv struct {
				k uint64
				v ecs.Entity
			}
			want := make([]kv, n)
			for i := range keys {
				keys[i] = gen(i)
				vals[i] = ents[i]
				want[i] = kv{keys[i], vals[i]}
			}
			slices.SortFunc(want, func(a, b kv) int {
				switch {
				case a.k < b.k:
					return -1
				case a.k > b.k:
					return 1
				}
				return 0
			})
			if sorts++; sorts%2 == 0 {
				radixSort(keys, vals, &tmp)
			} else {
				radixSort(keys, vals, nil)
			}
			for i := range want {
				if keys[i] != want[i].k || vals[i] != want[i].v {
					t.Fatalf("n=%d: at %d got %d/%v, want %d/%v", n, i, keys[i], vals[i], want[i].k, want[i].v)
				}
			}
		}
	}
}
