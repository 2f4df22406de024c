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

// playState is the play world and its clock.
type playState struct {
	world   *ecs.World
	paused  bool
	ticks   uint64
	elapsed float64
}

// Play starts play mode: it clones the edit world (ecs.World.Clone: same entity handles, so the
// selection and the inspector keep working), adds the play systems (Options.Systems, default
// scene.SpinSystem) to the clone and makes World return it. Edits are refused with ErrPlaying until
// Stop; the selection can still change. An open transaction is committed first. Play while playing
// does nothing.
func (d *Document) Play() {
	if d.play != nil {
		return
	}
	d.EndEdit()
	w := d.world.Clone()
	systems := d.opts.Systems
	if systems == nil {
		systems = []func(*ecs.World) ecs.System{scene.SpinSystem}
	}
	for _, mk := range systems {
		w.AddSystem(mk(w))
	}
	ecs.SetResource(w, scene.Time{})
	d.play = &playState{world: w}
	d.version++
}

// Stop ends play mode and throws the play world away: the edit world is exactly as it was before
// Play. Stop when not playing does nothing.
func (d *Document) Stop() {
	if d.play != nil {
		d.play = nil
		d.version++
	}
}

// Playing reports whether play mode is on (paused or not).
func (d *Document) Playing() bool { return d.play != nil }

// Paused reports whether play mode is on and paused.
func (d *Document) Paused() bool { return d.play != nil && d.play.paused }

// SetPaused pauses or resumes play mode (no effect when not playing).
func (d *Document) SetPaused(paused bool) {
	if d.play != nil && d.play.paused != paused {
		d.play.paused = paused
		d.version++
	}
}

// Tick advances play mode by dt seconds (at most MaxTick): it sets the scene.Time resource and runs
// one ecs.World.Update of the play world. It does nothing when not playing, when paused, or for
// dt <= 0, and reports whether it ran.
func (d *Document) Tick(dt float32) bool {
	if d.play == nil || d.play.paused || !(dt > 0) {
		return false
	}
	d.tick(min(dt, MaxTick))
	return true
}

// Step pauses play mode and advances it by exactly one tick of FixedStep (no effect when not
// playing).
func (d *Document) Step() {
	if d.play == nil {
		return
	}
	d.play.paused = true
	d.tick(FixedStep)
}

func (d *Document) tick(dt float32) {
	p := d.play
	p.elapsed += float64(dt)
	p.ticks++
	ecs.SetResource(p.world, scene.Time{Delta: dt, Elapsed: p.elapsed})
	p.world.Update()
	d.version++
}

// PlayTime returns the ticks run and the simulated seconds since Play (zeros when not playing).
func (d *Document) PlayTime() (ticks uint64, seconds float64) {
	if d.play == nil {
		return 0, 0
	}
	return d.play.ticks, d.play.elapsed
}
