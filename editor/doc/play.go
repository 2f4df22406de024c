package doc

import (
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// FixedStep is the simulated time of one Step, in seconds.
const FixedStep = float32(1) / 60

// MaxTick bounds the simulated time of one Tick, in seconds, so that a stalled frame does not make
// the scene jump.
const MaxTick = float32(0.1)

// Play is the document's play mode: a copy of the edit world that the play systems run on, and its
// clock. While it is on, Document.World shows the copy; field edits, Rename, Delete, Spawn and the
// component commands (add, remove, reset, paste) change the copy and are recorded as the user's
// changes (see Stop); other edits are refused with ErrPlaying. A Document has one
// (Document.PlayMode).
type Play struct {
	c       *core
	h       *History   // its open transaction is committed by Start
	world   *ecs.World // nil when not playing
	paused  bool
	ticks   uint64
	elapsed float64
	// user: the fields the user edited while playing (the rest of the changes are the systems').
	user map[playField]bool
	// deleted: the scene ids of the entities the user deleted while playing.
	deleted map[uint64]bool
	// made: the scene ids of the entities the user created while playing.
	made map[uint64]bool
	// given: the scene ids handed out while playing (so that none is handed out twice).
	given map[uint64]bool
}

// Start starts play mode: it clones the edit world (ecs.World.Clone: same entity handles, so the
// selection and the inspector keep working), adds the play systems (Options.Systems, default
// scene.SpinSystem) to the clone and makes World return it. Until Stop, the edits Play lists change
// the clone and other edits are refused with ErrPlaying; the selection can still change. An open
// transaction is committed first. Start while playing does nothing.
func (p *Play) Start() {
	if p.world != nil {
		return
	}
	p.h.endEdit()
	w := p.c.world.Clone()
	systems := p.c.opts.Systems
	if systems == nil {
		systems = []func(*ecs.World) ecs.System{scene.SpinSystem}
	}
	for _, mk := range systems {
		w.AddSystem(mk(w))
	}
	ecs.SetResource(w, scene.Time{})
	*p = Play{c: p.c, h: p.h, world: w}
	p.c.version++
}

// Stop ends play mode and throws the play world away: the edit world is exactly as it was before
// Start. It returns how the play world differed from it, split into the user's edits and the
// systems' changes; Document.KeepPlayChanges keeps some of them. Stop when not playing does nothing
// and returns nil.
func (p *Play) Stop() *PlayChanges {
	if p.world == nil {
		return nil
	}
	ch := p.diff()
	p.h.edit = nil // a drag of the play world: it has no step to make
	p.off()
	p.c.version++
	return ch
}

// off drops the play world and its clock.
func (p *Play) off() { *p = Play{c: p.c, h: p.h} }

// Playing reports whether play mode is on (paused or not).
func (p *Play) Playing() bool { return p.world != nil }

// Paused reports whether play mode is on and paused.
func (p *Play) Paused() bool { return p.world != nil && p.paused }

// SetPaused pauses or resumes play mode (no effect when not playing).
func (p *Play) SetPaused(paused bool) {
	if p.world != nil && p.paused != paused {
		p.paused = paused
		p.c.version++
	}
}

// Tick advances play mode by dt seconds (at most MaxTick): it sets the scene.Time resource and runs
// one ecs.World.Update of the play world. It does nothing when not playing, when paused, or for
// dt <= 0, and reports whether it ran.
func (p *Play) Tick(dt float32) bool {
	if p.world == nil || p.paused || !(dt > 0) {
		return false
	}
	p.tick(min(dt, MaxTick))
	return true
}

// Step pauses play mode and advances it by exactly one tick of FixedStep (no effect when not
// playing).
func (p *Play) Step() {
	if p.world == nil {
		return
	}
	p.paused = true
	p.tick(FixedStep)
}

func (p *Play) tick(dt float32) {
	p.elapsed += float64(dt)
	p.ticks++
	ecs.SetResource(p.world, scene.Time{Delta: dt, Elapsed: p.elapsed})
	p.world.Update()
	p.c.version++
}

// Time returns the ticks run and the simulated seconds since Start (zeros when not playing).
func (p *Play) Time() (ticks uint64, seconds float64) {
	if p.world == nil {
		return 0, 0
	}
	return p.ticks, p.elapsed
}
