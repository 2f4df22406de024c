package doc

import (
	"maps"
	"slices"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// FixedStep is the simulated time of one Step, in seconds.
const FixedStep = float32(1) / 60

// MaxTick bounds the simulated time of one Tick, in seconds, so that a stalled frame does not make
// the scene jump.
const MaxTick = float32(0.1)

// Play is the document's play mode: a copy of the edit world that the play systems run on, and its
// clock. While it is on, Document.World shows the copy and the selection is of its entities (those
// created while playing too); field edits, Rename, Delete, Spawn, Duplicate, Paste, Reparent,
// MoveNextTo and the component commands (add, remove, reset, paste) change the copy and are
// recorded as the user's changes (see Stop); other edits are refused with ErrPlaying. A Document
// has one (Document.PlayMode).
type Play struct {
	c     *core
	h     *History   // its open transaction is committed by Start
	world *ecs.World // nil when not playing
	// pc is the play world's scene state (its scene-id index, which has the entities created while
	// playing): the structural commands run on it as they do on the edit world, their steps going
	// to ph, a history nobody undoes (see run).
	pc      *core
	ph      History
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
	// moved: the scene ids of the entities the user gave another parent or place among their
	// siblings while playing.
	moved map[uint64]bool
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
	p.pc = p.c.playCore(w, p.taken)
	p.ph = History{c: p.pc, sel: p.h.sel, play: &Play{}}
	p.h.sel.c = p.pc
	p.c.version++
}

// playCore returns the scene state of w, a clone of the edit world: the same index (the clone
// has the same handles), its own maps of w; taken tells its id generator which ids are in use.
func (d *core) playCore(w *ecs.World, taken func(uint64) bool) *core {
	pc := &core{opts: d.opts, world: w, path: d.path, name: d.name, sceneConflicts: d.sceneConflicts,
		idx: maps.Clone(d.byID()), structure: d.structure + 1, types: slices.Clone(d.types),
		prefabSet: d.prefabSet, dir: d.dir, takenSet: true, play: true}
	pc.sids = ecs.NewMap[scene.SceneID](w)
	pc.names = ecs.NewMap[scene.Name](w)
	r := ecs.Resource[scene.IDs](w)
	if r == nil {
		ecs.SetResource(w, scene.RandomIDs())
		r = ecs.Resource[scene.IDs](w)
	}
	r.Taken = taken
	return pc
}

// taken reports whether a scene id is in use in either world or was handed out while playing (the
// play world's id generator skips those, for the user's and the systems' spawns alike).
func (p *Play) taken(id uint64) bool {
	_, edit := p.c.byID()[id]
	_, play := p.pc.byID()[id]
	return edit || play || p.given[id]
}

// run runs an edit command on the play world's scene state as it runs outside play, and records
// what its step did as the user's: the entities it created, moved and changed.
func (p *Play) run(do func(s *scope) error) error {
	err := do(&scope{p.pc, p.h.sel, &p.ph})
	for _, st := range p.ph.steps {
		p.record(st.cmd)
	}
	p.ph = History{c: p.pc, sel: p.h.sel, play: p.ph.play}
	p.c.version++
	return err
}

// record marks what cmd did as the user's.
func (p *Play) record(cmd command) {
	switch c := cmd.(type) {
	case *multiCmd:
		for _, x := range c.cmds {
			p.record(x)
		}
	case *treeCmd:
		if !c.insert {
			return
		}
		if p.made == nil {
			p.made = map[uint64]bool{}
		}
		for _, id := range c.rm.pack.ids {
			p.made[id] = true
		}
	case *placeCmd:
		if p.moved == nil {
			p.moved = map[uint64]bool{}
		}
		for _, m := range c.moves {
			p.moved[m.id] = true
		}
	case *compCmd:
		for _, ch := range c.changes {
			p.markUser([]uint64{ch.id}, ch.cid, "")
		}
	case *fieldCmd:
		p.markUser(c.ids, c.cid, "")
	}
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

// off drops the play world and its clock; the selection is of the edit world again (without the
// entities created while playing).
func (p *Play) off() {
	was := p.world != nil
	*p = Play{c: p.c, h: p.h}
	if was {
		p.h.sel.c = p.c
		p.h.sel.prune()
	}
}

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

// adopt returns the scene id of e, an entity of the play world, indexing it first if a system
// spawned it (one without a scene id gets a fresh one), so that it can be selected and edited like
// the others. 0 if e is dead.
func (d *core) adopt(e ecs.Entity) uint64 {
	if !d.world.Alive(e) {
		return 0
	}
	v, has := d.sids.TryGet(e)
	if v.ID == 0 {
		v.ID = d.newID()
		if has {
			d.sids.Set(e, v)
		} else {
			d.sids.Add(e, v)
		}
	}
	if d.byID()[v.ID] != e {
		d.byID()[v.ID] = e
		d.structure++
	}
	return v.ID
}
