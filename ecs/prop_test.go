package ecs_test

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// The differential harness: random operations on a World and on a plain map model, compared after
// every step. Used by TestDifferential (≥100,000 seeded operations) and FuzzWorldOps (operation
// sequences decoded from the fuzzer's bytes).

// source yields the harness's choices.
type source interface {
	intn(n int) int
	done() bool
}

type randSource struct {
	r    *rand.Rand
	left int
}

func (s *randSource) intn(n int) int { return s.r.IntN(n) }
func (s *randSource) done() bool     { s.left--; return s.left < 0 }

type byteSource struct {
	b []byte
	i int
}

func (s *byteSource) intn(n int) int {
	if s.i >= len(s.b) {
		return 0
	}
	v := int(s.b[s.i])
	s.i++
	if n > 256 {
		if s.i < len(s.b) {
			v = v<<8 | int(s.b[s.i])
			s.i++
		}
	}
	return v % n
}
func (s *byteSource) done() bool { return s.i >= len(s.b) }

type modelEnt map[ecs.ComponentID]any

type harness struct {
	t       testing.TB
	src     source
	w       *ecs.World
	model   map[ecs.Entity]modelEnt
	dead    []ecs.Entity
	ids     []ecs.ComponentID // Pos, Vel, Health, Name, Selected, Tagged
	zero    []any
	hp      *ecs.Map[Health]
	changed *ecs.Query1[Health] // Changed[Health], read only
	// the same with an Optional component (one-row runs where Vel is absent)
	changedOpt *ecs.Query2[Health, Vel]
	dirty      map[ecs.Entity]bool // model of what changed should report
	cmds       *ecs.Commands
	steps      int
	stats      map[string]int
}

func newHarness(t testing.TB, src source) *harness {
	w := ecs.NewWorld()
	h := &harness{t: t, src: src, w: w, model: map[ecs.Entity]modelEnt{}, dirty: map[ecs.Entity]bool{},
		stats: map[string]int{}}
	h.ids = []ecs.ComponentID{
		ecs.Register[Pos](w), ecs.Register[Vel](w), ecs.Register[Health](w), ecs.Register[Name](w),
		ecs.Register[Selected](w, ecs.WithStorage(ecs.SparseSet)),
		ecs.Register[Tagged](w, ecs.WithStorage(ecs.SparseSet)),
	}
	h.zero = []any{Pos{}, Vel{}, Health{}, Name{}, Selected{}, Tagged{}}
	h.hp = ecs.NewMap[Health](w)
	h.changed = ecs.NewQuery1[Health](w, ecs.Changed[Health](), ecs.Read[Health]())
	h.changedOpt = ecs.NewQuery2[Health, Vel](w, ecs.Changed[Health](), ecs.Optional[Vel](),
		ecs.Read[Health](), ecs.Read[Vel]())
	h.cmds = ecs.NewCommands(w)
	return h
}

const healthIdx = 2

func (h *harness) value(k int) any {
	v := h.src.intn(1000)
	switch k {
	case 0:
		return Pos{float64(v), float64(-v)}
	case 1:
		return Vel{float64(v), 1}
	case 2:
		return Health{v}
	case 3:
		return Name{fmt.Sprint("n", v)}
	case 4:
		return Selected{}
	default:
		return Tagged{v}
	}
}

func (h *harness) fail(format string, args ...any) {
	h.t.Helper()
	h.t.Fatalf("step %d: "+format, append([]any{h.steps}, args...)...)
}

// pick returns a live entity, or a dead/zero handle sometimes (ok=false), or false if none.
func (h *harness) pick() (ecs.Entity, bool) {
	if len(h.dead) > 0 && h.src.intn(8) == 0 {
		return h.dead[h.src.intn(len(h.dead))], false
	}
	if len(h.model) == 0 {
		return ecs.Entity{}, false
	}
	keys := slices.SortedFunc(maps.Keys(h.model), func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
	return keys[h.src.intn(len(keys))], true
}

func (h *harness) markWrite(e ecs.Entity, k int) {
	if k == healthIdx {
		h.dirty[e] = true
	}
}

func (h *harness) spawnValues() ([]any, modelEnt) {
	var vals []any
	m := modelEnt{}
	for k := range h.ids {
		if h.src.intn(2) == 0 {
			v := h.value(k)
			vals = append(vals, v)
			m[h.ids[k]] = v
		}
	}
	return vals, m
}

func (h *harness) kill(e ecs.Entity) {
	delete(h.model, e)
	delete(h.dirty, e)
	h.dead = append(h.dead, e)
	if len(h.dead) > 64 {
		h.dead = h.dead[1:]
	}
}

func (h *harness) step() {
	h.steps++
	w := h.w
	switch op := h.src.intn(20); {
	case op < 4: // spawn
		vals, m := h.spawnValues()
		e := w.Spawn(vals...)
		if _, ok := h.model[e]; ok || !w.Alive(e) {
			h.fail("spawn returned %v", e)
		}
		h.model[e] = m
		if _, ok := m[h.ids[healthIdx]]; ok {
			h.dirty[e] = true
		}
	case op < 6: // despawn
		e, live := h.pick()
		if got := w.Despawn(e); got != live {
			h.fail("despawn %v = %v, want %v", e, got, live)
		}
		if live {
			h.kill(e)
		}
	case op < 9: // add
		e, live := h.pick()
		k := h.src.intn(len(h.ids))
		id := h.ids[k]
		var v any
		if h.src.intn(3) > 0 {
			v = h.value(k)
		}
		err := w.Add(e, id, v)
		_, has := h.model[e][id]
		switch {
		case !live:
			if !errors.Is(err, ecs.ErrDeadEntity) {
				h.fail("add to dead: %v", err)
			}
		case has:
			if !errors.Is(err, ecs.ErrHasComponent) {
				h.fail("add twice: %v", err)
			}
		default:
			if err != nil {
				h.fail("add: %v", err)
			}
			if v == nil {
				v = h.zero[k]
			}
			h.model[e][id] = v
			h.markWrite(e, k)
		}
	case op < 11: // remove
		e, live := h.pick()
		k := h.src.intn(len(h.ids))
		id := h.ids[k]
		err := w.Remove(e, id)
		_, has := h.model[e][id]
		if live && has {
			if err != nil {
				h.fail("remove: %v", err)
			}
			delete(h.model[e], id)
			if k == healthIdx {
				delete(h.dirty, e)
			}
		} else if err == nil {
			h.fail("remove of absent/dead succeeded")
		}
	case op < 14: // set (type-erased, field, or typed)
		e, live := h.pick()
		k := h.src.intn(len(h.ids))
		id := h.ids[k]
		_, has := h.model[e][id]
		v := h.value(k)
		var err error
		switch {
		case k == healthIdx && h.src.intn(2) == 0 && live && has:
			h.hp.Mut(e).HP = v.(Health).HP
		case k == healthIdx && h.src.intn(2) == 0:
			err = w.SetField(e, id, "hp", v.(Health).HP)
		default:
			err = w.Set(e, id, v)
		}
		if live && has {
			if err != nil {
				h.fail("set: %v", err)
			}
			h.model[e][id] = v
			h.markWrite(e, k)
		} else if err == nil {
			h.fail("set on absent/dead succeeded")
		}
	case op < 16: // a query, maybe writing
		h.query()
	case op < 18: // command buffer
		h.commands()
	case op < 19:
		h.checkChanged()
	default:
		w.Update()
	}
	h.checkLen()
}

// query runs a random Query2[Pos, Health] with random filters, compares what it visits with the
// model and sometimes writes Health through it.
func (h *harness) query() {
	var terms []ecs.Term
	want := func(m modelEnt) bool { return has(m, h.ids[0]) && has(m, h.ids[2]) }
	type cond struct {
		term ecs.Term
		f    func(modelEnt) bool
	}
	// for each component: no term, With or Without (never both)
	choices := [][2]cond{
		{{ecs.With[Vel](), func(m modelEnt) bool { return has(m, h.ids[1]) }},
			{ecs.Without[Vel](), func(m modelEnt) bool { return !has(m, h.ids[1]) }}},
		{{ecs.With[Selected](), func(m modelEnt) bool { return has(m, h.ids[4]) }},
			{ecs.Without[Selected](), func(m modelEnt) bool { return !has(m, h.ids[4]) }}},
		{{ecs.With[Tagged](), func(m modelEnt) bool { return has(m, h.ids[5]) }},
			{ecs.Without[Name](), func(m modelEnt) bool { return !has(m, h.ids[3]) }}},
	}
	var fs []func(modelEnt) bool
	sparse := false // a term on a SparseSet component: no column iteration
	for k, c := range choices {
		if i := h.src.intn(4); i < 2 {
			terms = append(terms, c[i].term)
			fs = append(fs, c[i].f)
			sparse = sparse || k == 1 || k == 2 && i == 0
		}
	}
	write := h.src.intn(2) == 0
	if !write {
		terms = append(terms, ecs.Read[Health]())
	}
	q := ecs.NewQuery2[Pos, Health](h.w, terms...)
	got := map[ecs.Entity]bool{}
	visit := func(e ecs.Entity, p *Pos, hp *Health) {
		m, ok := h.model[e]
		if !ok || got[e] {
			h.fail("query visited %v (known %v, twice %v)", e, ok, got[e])
		}
		got[e] = true
		h.stats["query rows"]++
		if *p != m[h.ids[0]] || *hp != m[h.ids[2]] {
			h.fail("query values of %v: %v %v, model %v", e, *p, *hp, m)
		}
		if write {
			hp.HP++
			m[h.ids[2]] = *hp
			h.dirty[e] = true
		}
	}
	if !sparse && h.src.intn(2) == 0 {
		// by tables: EachTable must visit and mark what Next does
		q.EachTable(func(ents []ecs.Entity, ps []Pos, hs []Health) {
			if len(ents) == 0 || len(ps) != len(ents) || len(hs) != len(ents) {
				h.fail("EachTable: %d entities, %d Pos, %d Health", len(ents), len(ps), len(hs))
			}
			h.stats["query tables"]++
			for i, e := range ents {
				visit(e, &ps[i], &hs[i])
			}
		})
	} else {
		for it := q.Iter(); it.Next(); {
			p, hp := it.Get()
			visit(it.Entity(), p, hp)
		}
	}
	for e, m := range h.model {
		ok := want(m)
		for _, f := range fs {
			ok = ok && f(m)
		}
		if ok != got[e] {
			h.fail("query with %v: %v visited=%v, model matches=%v", terms, e, got[e], ok)
		}
	}
}

func has(m modelEnt, id ecs.ComponentID) bool { _, ok := m[id]; return ok }

// commands records a few operations in a command buffer and applies them.
func (h *harness) commands() {
	type pending struct {
		kind int
		e    ecs.Entity
		k    int
		v    any
	}
	var ops []pending
	for range 1 + h.src.intn(4) {
		e, _ := h.pick()
		k := h.src.intn(len(h.ids))
		switch kind := h.src.intn(4); kind {
		case 0:
			vals, m := h.spawnValues()
			h.cmds.Spawn(vals...)
			ops = append(ops, pending{kind: 0, v: m})
		case 1:
			h.cmds.Despawn(e)
			ops = append(ops, pending{kind: 1, e: e})
		case 2:
			v := h.value(k)
			h.cmds.Add(e, h.ids[k], v)
			ops = append(ops, pending{kind: 2, e: e, k: k, v: v})
		case 3:
			h.cmds.Remove(e, h.ids[k])
			ops = append(ops, pending{kind: 3, e: e, k: k})
		}
	}
	before := map[ecs.Entity]bool{}
	h.w.EachEntity(func(e ecs.Entity) bool { before[e] = true; return true })
	if err := h.cmds.Apply(); err != nil {
		h.stats["command errors"]++
	}
	h.stats["commands"] += len(ops)
	var spawned []modelEnt
	for _, op := range ops {
		m, live := h.model[op.e]
		switch op.kind {
		case 0:
			spawned = append(spawned, op.v.(modelEnt))
		case 1:
			if live {
				h.kill(op.e)
			}
		case 2:
			if live && !has(m, h.ids[op.k]) {
				m[h.ids[op.k]] = op.v
				h.markWrite(op.e, op.k)
			}
		case 3:
			if live && has(m, h.ids[op.k]) {
				delete(m, h.ids[op.k])
				if op.k == healthIdx {
					delete(h.dirty, op.e)
				}
			}
		}
	}
	// new entities: the live ones not known before, matched to the spawns in order of creation
	var fresh []ecs.Entity
	h.w.EachEntity(func(e ecs.Entity) bool {
		if !before[e] {
			fresh = append(fresh, e)
		}
		return true
	})
	if len(fresh) != len(spawned) {
		h.fail("commands spawned %d, want %d", len(fresh), len(spawned))
	}
	// spawns happen in order; entity indices come from the free list, so match by content
	for _, e := range fresh {
		got := h.snapshot(e)
		i := slices.IndexFunc(spawned, func(m modelEnt) bool { return reflect.DeepEqual(m, got) })
		if i < 0 {
			h.fail("spawned %v = %v, not among %v", e, got, spawned)
		}
		h.model[e] = spawned[i]
		if has(spawned[i], h.ids[healthIdx]) {
			h.dirty[e] = true
		}
		spawned = slices.Delete(spawned, i, i+1)
	}
}

func (h *harness) snapshot(e ecs.Entity) modelEnt {
	m := modelEnt{}
	for _, id := range h.w.ComponentsOf(e) {
		v, _ := h.w.Get(e, id)
		m[id] = v
	}
	return m
}

func (h *harness) checkChanged() {
	got := map[ecs.Entity]bool{}
	it := h.changed.Iter()
	for it.Next() {
		got[it.Entity()] = true
	}
	h.stats["changed seen"] += len(got)
	if !maps.Equal(got, h.dirty) {
		h.fail("Changed[Health] = %v, model %v", got, h.dirty)
	}
	gotOpt := map[ecs.Entity]bool{}
	it2 := h.changedOpt.Iter()
	for it2.Next() {
		hp, v := it2.Get()
		e := it2.Entity()
		m := h.model[e]
		if *hp != m[h.ids[healthIdx]] || (v == nil) == has(m, h.ids[1]) || (v != nil && *v != m[h.ids[1]]) {
			h.fail("optional query values of %v: %v %v, model %v", e, *hp, v, m)
		}
		gotOpt[e] = true
	}
	if !maps.Equal(gotOpt, h.dirty) {
		h.fail("Changed[Health] with Optional[Vel] = %v, model %v", gotOpt, h.dirty)
	}
	clear(h.dirty)
}

func (h *harness) checkLen() {
	if h.w.Len() != len(h.model) {
		h.fail("Len %d, model %d", h.w.Len(), len(h.model))
	}
}

// checkAll compares every entity with the model.
func (h *harness) checkAll() {
	n := 0
	h.w.EachEntity(func(e ecs.Entity) bool {
		n++
		m, ok := h.model[e]
		if !ok {
			h.fail("unknown live entity %v", e)
		}
		if got := h.snapshot(e); !reflect.DeepEqual(got, m) {
			h.fail("%v = %v, model %v", e, got, m)
		}
		return true
	})
	if n != len(h.model) {
		h.fail("EachEntity saw %d, model %d", n, len(h.model))
	}
	for _, e := range h.dead {
		if h.w.Alive(e) {
			h.fail("dead %v alive", e)
		}
	}
}

func TestDifferential(t *testing.T) {
	ops := 100_000
	if testing.Short() {
		ops = 20_000
	}
	h := newHarness(t, &randSource{r: rand.New(rand.NewPCG(7, 11)), left: ops})
	for !h.src.done() {
		h.step()
		// the model stays small so that whole-world checks stay cheap
		if len(h.model) > 150 {
			for len(h.model) > 100 {
				e, _ := h.pick()
				h.w.Despawn(e)
				h.kill(e)
			}
		}
		if h.steps%500 == 0 {
			h.checkAll()
		}
	}
	h.checkAll()
	t.Logf("%d steps, %d live, stats: %v", h.steps, len(h.model), h.stats)
	if h.steps < 100_000 && !testing.Short() {
		t.Fatalf("only %d steps", h.steps)
	}
}

func FuzzWorldOps(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19})
	f.Fuzz(func(t *testing.T, data []byte) {
		h := newHarness(t, &byteSource{b: data})
		for !h.src.done() && h.steps < 2000 {
			h.step()
		}
		h.checkAll()
	})
}
