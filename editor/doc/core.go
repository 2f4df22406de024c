package doc

import (
	"slices"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// core is the scene being edited, what every command changes: the edit world with its scene-id
// index, the scene's name, file and scene-level merge conflicts, and the prefab files its
// instances are built from. The sub-objects of a Document (Selection, History, Play, Conflicts,
// Prefabs) share it; commands apply and revert on it.
type core struct {
	opts  Options
	world *ecs.World
	path  string
	name  string
	// sceneConflicts are the scene-level merge conflicts (see Conflicts).
	sceneConflicts []scene.MergeConflict

	sids  *ecs.Map[scene.SceneID]
	names *ecs.Map[scene.Name]
	// idx is the scene-id index: read it through byID, which waits for a fill running beside the loop
	// (filling, fillLen: see fillIndexBeside).
	idx     map[uint64]ecs.Entity
	filling chan map[uint64]ecs.Entity
	fillLen int
	// byIDRoom is how many entries byID was made for or has held: a Go map keeps its room when cleared, so the
	// undo of a delete of everything refills it instead of making a map of a million entries again.
	byIDRoom int
	// structure changes whenever byID does: whoever adds, removes or replaces an entry (or the map)
	// adds one, so that the selection resolves its ids again (see Selection).
	structure uint64
	types     []compType
	// takenSet: the world's scene.IDs generator skips the ids of byID (see idAlloc).
	takenSet bool
	// roots are the roots in sibling order as a load or a step that brought back the whole world listed them, for
	// the first Roots (nil after it).
	roots *loadedRoots
	// restored are the ids and entities a step just brought back, for the selection it restores (resolveIDs).
	restored *restoredIDs

	// The prefab files the scene's instances are built from (kept for saving and live updates),
	// and the folder their paths are relative to (editor/doc/prefab.go).
	prefabSet *serialize.Prefabs
	dir       string

	// packGrew is the bytes the undo packs of the step being undone or redone gained (less when they gave their
	// storage back to the world: see pack.lent), for the history to count (History.Undo, Redo).
	packGrew int

	// version: see Document.Version.
	version uint64
	// jr is the session journal (nil: none), which the history tells of its steps.
	jr *Journal
	// live is the mirror of a running game's world (nil: the document is a scene's, see NewLive).
	live *liveLink
	// play: the state is play mode's (Play.pc), whose systems spawn entities the index does not
	// have yet: naming one to select or edit it indexes it (idFor).
	play bool
}

// idFor is idOf of an entity named to select or edit it; in play mode's state it indexes an entity
// a system spawned (see adopt).
func (d *core) idFor(e ecs.Entity) uint64 {
	if d.play {
		return d.adopt(e)
	}
	return d.idOf(e)
}

// setWorld makes w the edit world and indexes its entities by scene id (a big world's beside the loop: reindex).
func (d *core) setWorld(w *ecs.World) { d.setWorldByID(w, nil, nil) }

// setWorldByID is setWorld of a world whose entities are es in ascending id order, their ids ids (as
// scene.EnsureIDsWith returns them; nil: not known).
func (d *core) setWorldByID(w *ecs.World, es []ecs.Entity, ids []uint64) {
	if d.prefabSet == nil {
		d.prefabSet = d.opts.newPrefabs()
	}
	d.world = w
	d.takenSet = false
	d.sids = ecs.NewMap[scene.SceneID](w)
	d.names = ecs.NewMap[scene.Name](w)
	d.types = d.types[:0]
	if es == nil || len(es) != w.Len() || len(ids) != len(es) {
		es, ids = scene.EnsureIDsWith(w)
	}
	d.index(es, ids)
}

// byID returns the scene-id index, once a fill running beside the loop has ended (fillIndexBeside).
func (d *core) byID() map[uint64]ecs.Entity {
	if d.filling != nil {
		d.idx = <-d.filling
		d.filling = nil
	}
	return d.idx
}

// indexLen is len(byID()) without waiting for a fill.
func (d *core) indexLen() int {
	if d.filling != nil {
		return d.fillLen
	}
	return len(d.idx)
}

// setIndex replaces the scene-id index (a fill running is waited for and dropped) with m, made for room entries.
func (d *core) setIndex(m map[uint64]ecs.Entity, room int) {
	d.byID()
	d.idx, d.byIDRoom = m, room
}

// asyncIndexFill is how many entities a world has, or an undo brings back into a world without any, before the
// index of their scene ids is filled beside the loop (fillIndexBeside).
var asyncIndexFill = 1 << 16

// fillIndexBeside indexes the scene ids ids of entities es (by position; all new) into the empty index on a
// goroutine of its own, which byID waits for. The undo of a delete of a million brings them back, and the
// million inserts into a map (each a cache miss, 0.13 s) then run beside the frame that shows them (the draw
// list's update, the panels), which seldom look an id up. The goroutine reads its own copy of es (the caller's
// is handed on, and changed: the hierarchy's roots); ids must not change (a pack's never do).
func (d *core) fillIndexBeside(ids []uint64, es []ecs.Entity) {
	m := d.byID()
	if len(ids) > d.byIDRoom {
		m, d.byIDRoom = nil, len(ids) // made by the goroutine
	}
	own := slices.Clone(es)
	done := make(chan map[uint64]ecs.Entity, 1)
	go func() {
		if m == nil {
			m = make(map[uint64]ecs.Entity, len(ids))
		}
		for i, id := range ids {
			m[id] = own[i]
		}
		done <- m
	}()
	d.idx, d.filling, d.fillLen = nil, done, len(ids)
}

// reindex rebuilds the scene-id index of the edit world; entities without a scene id get one.
func (d *core) reindex() { d.index(scene.EnsureIDsWith(d.world)) }

// index makes the scene-id index of the edit world's entities order, whose ids are ids. The index of a world of
// asyncIndexFill entities or more is filled on a goroutine (fillIndexBeside): an opened scene's panels are shown
// meanwhile, and its draw list built (a million inserts into a map, 0.13 s).
func (d *core) index(order []ecs.Entity, ids []uint64) {
	d.structure++
	d.setIndex(nil, 0)
	if len(order) >= asyncIndexFill {
		d.fillIndexBeside(ids, order)
		return
	}
	index := make(map[uint64]ecs.Entity, len(order))
	for i, e := range order {
		index[ids[i]] = e
	}
	d.setIndex(index, len(order))
}

// nameOf returns entity e's name ("" if it has none).
func (d *core) nameOf(e ecs.Entity) string {
	n, _ := d.names.TryGet(e)
	return n.Value
}

// scene returns the serialize view of the edit world, without the editor camera and selection.
func (d *core) scene() *serialize.Scene {
	return &serialize.Scene{Name: d.name, World: d.world, Conflicts: d.sceneConflicts, Prefabs: d.prefabSet, Dir: d.folder()}
}

// scope is what the sub-objects that make undoable steps share: the scene, the selection each step
// records, and the history the steps go to.
type scope struct {
	*core
	sel  *Selection
	hist *History
}
