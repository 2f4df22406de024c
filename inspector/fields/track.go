package fields

import (
	"math"
	"reflect"

	"github.com/voltex-editor/voltex/ecs"
)

// Default Tracker settings.
const (
	DefaultHold  = 1.0 // seconds a change stays highlighted
	DefaultGrace = 3   // frames an own edit stays attributed to the user after its last SetField
)

// Tracker finds the fields whose values changed recently by anything other than the user's own
// edit — play-mode systems, undo and redo, a reload from disk — so that the inspector can highlight
// them for about a second.
//
// Each frame the inspector calls BeginFrame, then Observe for every (entity, component) it shows,
// Own for every node the user edits, and Heat to colour rows. Observe is gated by the ECS change
// ticks: a component whose changed tick is older than the tick of the last look is not compared at
// all. Otherwise its value is compared node by node with the previous one (Component.Diff), so only
// the fields that really changed light up. Nothing is highlighted the first time a value is seen.
type Tracker struct {
	// Hold is how long, in seconds, a change stays highlighted (DefaultHold when ≤ 0).
	Hold float64
	// Grace is how many frames after its last Own call an edited node stays attributed to the user
	// (DefaultGrace when 0): editors may apply an edit a frame or two later.
	Grace uint64

	world   *ecs.World
	now     float64
	frame   uint64
	snaps   map[snapKey]*snapshot
	heats   map[ecs.ComponentID]*heat
	scratch Bits
}

type snapKey struct {
	e  ecs.Entity
	id ecs.ComponentID
}

type snapshot struct {
	val   reflect.Value
	tick  uint32 // world tick when val was taken
	world *ecs.World
	seen  uint64 // frame of the last Observe
}

type heat struct {
	at   []float64 // by node ordinal: time of the last outside change (-Inf: never)
	last float64   // the latest of at
	own  []ownEdit
}

type ownEdit struct {
	lo, hi int
	until  uint64 // frame
}

// BeginFrame starts a frame: w is the world shown (it may change, as when play mode starts or
// stops: values are then compared with what was shown before), now the time in seconds.
func (t *Tracker) BeginFrame(w *ecs.World, now float64) {
	t.world = w
	t.now = now
	t.frame++
	if t.snaps == nil {
		t.snaps = map[snapKey]*snapshot{}
		t.heats = map[ecs.ComponentID]*heat{}
	}
	if t.frame%64 == 0 { // forget what is no longer shown
		for k, s := range t.snaps {
			if s.seen+2 < t.frame {
				delete(t.snaps, k)
			}
		}
	}
}

// Observe looks at component id (model c) of entity e. cur is its current value if the caller has
// already read it (ecs.World.Get), or the zero Value to have the tracker read it when needed; the
// tracker keeps its own copy.
func (t *Tracker) Observe(e ecs.Entity, id ecs.ComponentID, c *Component, cur reflect.Value) {
	w := t.world
	_, changed, ok := w.Ticks(e, id)
	if !ok || c.IsTag {
		return
	}
	k := snapKey{e, id}
	s := t.snaps[k]
	if s != nil && s.world == w && changed < s.tick {
		s.seen = t.frame
		return // not written since the last look
	}
	if !cur.IsValid() {
		v, _ := w.Get(e, id)
		cur = reflect.ValueOf(v)
	}
	if s == nil || s.val.Type() != cur.Type() { // first look (or another world's type under this ID)
		t.snaps[k] = &snapshot{val: c.Copy(cur), tick: w.Tick(), world: w, seen: t.frame}
		return
	}
	t.scratch.Reset()
	if c.Diff(cur, s.val, &t.scratch) {
		h := t.heat(id)
		for i := t.scratch.Next(0); i >= 0; i = t.scratch.Next(i + 1) {
			if h.owned(i, t.frame) {
				continue
			}
			for i >= len(h.at) {
				h.at = append(h.at, math.Inf(-1))
			}
			h.at[i] = t.now
			h.last = t.now
		}
	}
	s.val = c.Copy(cur)
	s.tick = w.Tick()
	s.world = w
	s.seen = t.frame
}

func (t *Tracker) heat(id ecs.ComponentID) *heat {
	h := t.heats[id]
	if h == nil {
		h = &heat{last: math.Inf(-1)}
		t.heats[id] = h
	}
	return h
}

func (h *heat) owned(i int, frame uint64) bool {
	for _, o := range h.own {
		if i >= o.lo && i < o.hi && frame <= o.until {
			return true
		}
	}
	return false
}

// Own records that the user is editing nodes [lo, hi) of component id in this frame: changes to
// them seen within Grace frames are the user's and are not highlighted.
func (t *Tracker) Own(id ecs.ComponentID, lo, hi int) {
	if t.heats == nil {
		t.heats = map[ecs.ComponentID]*heat{}
	}
	h := t.heat(id)
	grace := t.Grace
	if grace == 0 {
		grace = DefaultGrace
	}
	until := t.frame + grace
	live := h.own[:0]
	for _, o := range h.own {
		if o.until >= t.frame && (o.lo != lo || o.hi != hi) {
			live = append(live, o)
		}
	}
	h.own = append(live, ownEdit{lo, hi, until})
}

// Heat returns how strongly nodes [lo, hi) of component id should be highlighted: 1 for a change
// seen this frame, fading linearly to 0 over Hold seconds.
func (t *Tracker) Heat(id ecs.ComponentID, lo, hi int) float32 {
	h := t.heats[id]
	hold := t.Hold
	if hold <= 0 {
		hold = DefaultHold
	}
	if h == nil || t.now-h.last >= hold {
		return 0
	}
	latest := math.Inf(-1)
	for i := max(lo, 0); i < hi && i < len(h.at); i++ {
		latest = max(latest, h.at[i])
	}
	x := 1 - (t.now-latest)/hold
	return float32(min(max(x, 0), 1))
}
