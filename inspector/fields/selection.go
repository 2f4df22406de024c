package fields

import (
	"math"
	"reflect"
	"slices"

	"github.com/voltex-editor/voltex/ecs"
)

// DefaultBudget is the default work per Selection.Update, in units of about 8 nodes read and
// compared (roughly 250 µs with flat components).
const DefaultBudget = 8192

// Selection computes, over the selected entities, the components they all share and which nodes
// of each shared component have values that differ between them (mixed). Dead entities are
// ignored; the primary entity is the first live one.
//
// The work per Update is bounded by Budget, so a selection of 100,000 entities costs about
// 0.2 ms per frame, its scan spread over about a second of frames: a pass compares every entity
// with the primary's values taken at the start of the pass, and its result is published when the
// pass is complete. Until the first pass over a new selection completes, the partial result
// (shared components narrowing, mixed nodes growing) is reported. Selections that fit in the budget
// complete a pass in one Update, so their result is exact and live.
//
// A complete result is kept without a new pass while the world is quiet: no shared component
// written since the pass started (ecs.World.LastChange against the tick), no entity despawned,
// and, for selections of up to 256 entities, every entity still has every shared component.
// Component removals are not ticked, so the selection is re-scanned anyway after 30 quiet updates
// (more for big selections: four times the updates a pass takes).
type Selection struct {
	// Budget bounds the work per Update, in units of about 8 nodes read and compared
	// (DefaultBudget when ≤ 0).
	Budget int

	world   *ecs.World
	ents    []ecs.Entity
	primary ecs.Entity

	// the pass in progress
	started bool
	pos     int
	cur     result

	// the last complete pass
	done  bool
	final result

	// live counts the live selected entities while no pass is complete (Len), counted once per pass; -1: not yet.
	live int

	passTick    uint32 // world tick when the last pass started
	passLen     int    // live entities in the world then
	passUpdates int    // updates the pass in progress has taken so far
	lastUpdates int    // updates the last complete pass took
	skipped     int    // updates skipped since, the world being quiet
}

// recheckEvery bounds how many updates a complete result is trusted without a new pass while no
// shared component changed (plus four times the length of a pass, so that re-checking a big
// selection costs at most a fifth of its frames); removals of components are not ticked, so they
// are caught by this.
const recheckEvery = 30

type result struct {
	ids   []ecs.ComponentID
	refs  []reflect.Value // the primary's values (current pass only)
	mixed []Bits          // parallel to ids
	alive int
}

// Update scans (part of) the selection es in world w. es is copied; call Update every frame.
func (s *Selection) Update(w *ecs.World, es []ecs.Entity, cache *Cache) {
	if w != s.world || !slices.Equal(es, s.ents) {
		s.world = w
		s.ents = append(s.ents[:0], es...)
		s.started = false
		s.done = false
	}
	if s.done && !s.started && s.skipped < recheckEvery+4*s.lastUpdates && s.quiet(w) {
		s.skipped++
		return
	}
	s.step(w, cache)
}

// Continue carries a scan whose result is not Complete on by one budget, over the world and entities of the last
// Update (so a caller can finish it between frames, without handing the selection again); it reports whether the
// result is still not Complete. It does nothing once the result is complete.
func (s *Selection) Continue(cache *Cache) bool {
	if s.world == nil || s.done {
		return false
	}
	s.step(s.world, cache)
	return !s.done
}

// step does one budget of the pass in progress (starting one if none is).
func (s *Selection) step(w *ecs.World, cache *Cache) {
	budget := s.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	spent := 0
	if !s.started {
		s.start(w)
		spent += 1 + len(s.cur.refs)
	}
	s.passUpdates++
	for s.pos < len(s.ents) && spent < budget {
		e := s.ents[s.pos]
		s.pos++
		spent++
		if e == s.primary || !w.Alive(e) {
			continue
		}
		s.cur.alive++
		spent += s.scan(w, e, cache)
	}
	if s.pos == len(s.ents) {
		s.publish()
	}
}

// quiet reports whether the last complete result still holds: no shared component was written
// since its pass started (change ticks) and no entity was despawned; small selections also check
// that every entity still has every shared component.
func (s *Selection) quiet(w *ecs.World) bool {
	if w.Len() != s.passLen {
		return false
	}
	ids := s.final.ids
	for _, id := range ids {
		if w.LastChange(id) >= s.passTick {
			return false
		}
	}
	if len(s.ents) <= 256 {
		for _, e := range s.ents {
			if !w.Alive(e) {
				continue
			}
			for _, id := range ids {
				if !w.Has(e, id) {
					return false
				}
			}
		}
		if len(s.ents) == 1 && w.Alive(s.primary) && len(w.ComponentsOf(s.primary)) != len(ids) {
			return false
		}
	}
	return true
}

// start begins a pass: the primary's components are the candidates.
func (s *Selection) start(w *ecs.World) {
	s.started = true
	s.pos = 0
	s.live = -1
	s.passTick = w.Tick()
	s.passLen = w.Len()
	s.skipped = 0
	s.passUpdates = 0
	s.primary = ecs.Entity{}
	for _, e := range s.ents {
		if w.Alive(e) {
			s.primary = e
			break
		}
	}
	r := &s.cur
	r.ids = r.ids[:0]
	r.refs = r.refs[:0]
	r.alive = 0
	if s.primary.IsZero() {
		r.mixed = r.mixed[:0]
		return
	}
	r.alive = 1
	r.ids = append(r.ids, w.ComponentsOf(s.primary)...)
	r.mixed = slices.Grow(r.mixed[:0], len(r.ids))[:len(r.ids)]
	for i, id := range r.ids {
		r.mixed[i].Reset()
		if len(s.ents) > 1 { // a single entity is compared with nothing
			v, _ := w.Get(s.primary, id)
			r.refs = append(r.refs, reflect.ValueOf(v))
		}
	}
}

// scan compares entity e with the primary and returns the work done, in budget units.
func (s *Selection) scan(w *ecs.World, e ecs.Entity, cache *Cache) int {
	r := &s.cur
	n := 0
	for k := 0; k < len(r.ids); {
		id := r.ids[k]
		if !w.Has(e, id) {
			r.ids = slices.Delete(r.ids, k, k+1)
			r.refs = slices.Delete(r.refs, k, k+1)
			m := r.mixed[k]
			copy(r.mixed[k:], r.mixed[k+1:])
			r.mixed[len(r.mixed)-1] = m // keep the memory for reuse
			r.mixed = r.mixed[:len(r.mixed)-1]
			continue
		}
		c := cache.Component(w, id)
		if !c.IsTag {
			v, _ := w.Get(e, id)
			c.Diff(r.refs[k], reflect.ValueOf(v), &r.mixed[k])
			n += c.cost()
		}
		k++
	}
	return n
}

// publish makes the current pass the final result and schedules a new pass.
func (s *Selection) publish() {
	f := &s.final
	f.ids = append(f.ids[:0], s.cur.ids...)
	f.mixed = slices.Grow(f.mixed[:0], len(s.cur.ids))[:len(s.cur.ids)]
	for i := range s.cur.ids {
		f.mixed[i].CopyFrom(&s.cur.mixed[i])
	}
	f.alive = s.cur.alive
	clear(s.cur.refs) // drop references to component values
	s.done = true
	s.started = false
	s.lastUpdates = s.passUpdates
}

func (s *Selection) view() *result {
	if s.done {
		return &s.final
	}
	return &s.cur
}

// Primary returns the first live selected entity (the zero Entity if none).
func (s *Selection) Primary() ecs.Entity { return s.primary }

// Len returns the number of live selected entities. Before the first pass over a selection is complete it is
// counted apart from the scan (a count of those scanned so far would grow from frame to frame).
func (s *Selection) Len() int {
	if s.done || !s.started {
		return s.view().alive
	}
	if s.live < 0 {
		s.live = 0
		for _, e := range s.ents {
			if s.world.Alive(e) {
				s.live++
			}
		}
	}
	return s.live
}

// Complete reports whether the reported result covers the whole selection.
func (s *Selection) Complete() bool { return s.done }

// Shared returns the IDs of the components every live selected entity has, ascending. The slice
// is owned by s and valid until the next Update.
func (s *Selection) Shared() []ecs.ComponentID { return s.view().ids }

// Mixed returns the mixed nodes of shared component id (nil if id is not shared). The bits are
// owned by s and valid until the next Update.
func (s *Selection) Mixed(id ecs.ComponentID) *Bits {
	r := s.view()
	if i, ok := slices.BinarySearch(r.ids, id); ok {
		return &r.mixed[i]
	}
	return nil
}

// cost is the budget units of reading and comparing one value of c: 1 per 8 nodes.
func (c *Component) cost() int {
	if c.nodes < 0 {
		return 8
	}
	return 1 + c.nodes/8
}

// Settle records that the user has just set nodes [lo, hi) of component id to one value on every
// selected entity: they are no longer mixed. A pass in progress restarts, since its reference
// values are out of date.
func (s *Selection) Settle(id ecs.ComponentID, lo, hi int) {
	for _, r := range []*result{&s.final, &s.cur} {
		if i, ok := slices.BinarySearch(r.ids, id); ok {
			r.mixed[i].ClearRange(lo, hi)
		}
	}
	s.started = false
	s.skipped = math.MaxInt // the next Update starts a new pass
}

// Invalidate restarts the scan from scratch (after components were added or removed).
func (s *Selection) Invalidate() {
	s.started = false
	s.done = false
}
