package viewport

import (
	"iter"
	"runtime"
	"sync"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// MeshSource resolves mesh references; *assets.Registry is one. A broken
// reference should still return a mesh to draw (the registry returns its
// placeholder) — the error is for the console, the builder ignores it; a
// nil mesh leaves the entity out of the picture.
type MeshSource interface {
	Mesh(ref string) (*assets.Mesh, error)
}

// BuiltinMeshes resolves only the built-in meshes (builtin:cube, …) and
// the placeholder for everything else: enough for tests and for scenes
// without OBJ files.
type BuiltinMeshes struct{}

// Mesh returns the built-in mesh ref, or the placeholder.
func (BuiltinMeshes) Mesh(ref string) (*assets.Mesh, error) {
	if m, ok := assets.Builtin(ref); ok {
		return m, nil
	}
	return assets.Placeholder(), nil
}

// EntityID returns the id an entity has in draw lists and the renderer's id
// buffer: its slot index (never 0 for a live entity).
func EntityID(e ecs.Entity) uint32 { return e.Index() }

// Builder keeps a [DrawList] in step with a world: every entity with a
// Transform (hence a GlobalTransform) and a scene.Mesh is one instance, its
// colour from scene.Color (white without one), its id [EntityID]. Entities
// with a scene.Material are batched by mesh and material (each distinct
// material value is one [Material], its texture resolved when the mesh source
// is also an [ImageSource]). Entities with a scene.Light are the list's
// [Light]s, placed by their world transforms. Update
// visits only what changed since the previous Update, through change-
// detection queries (GlobalTransform, Mesh, Color changed), so an idle
// frame costs a few table checks and uploads nothing. Removed entities are
// found by comparing counts, and only then by a sweep. (Removing only the
// Color component of an entity is not noticed until it changes otherwise:
// it keeps its last colour.)
//
// Like the world, a Builder belongs to the goroutine that owns the world: a list can be built beside a load,
// on its goroutine, and handed over with the world (see SetMeshSource).
type Builder struct {
	w      *ecs.World
	dl     *DrawList
	meshes MeshSource

	byTransform *ecs.Query3[ecs.GlobalTransform, scene.Mesh, scene.Color]
	byMesh      *ecs.Query3[ecs.GlobalTransform, scene.Mesh, scene.Color]
	byColor     *ecs.Query3[ecs.GlobalTransform, scene.Mesh, scene.Color]
	byMaterial  *ecs.Query3[ecs.GlobalTransform, scene.Mesh, scene.Material]
	colors      *ecs.Map[scene.Color]
	mats        *ecs.Map[scene.Material]
	materials   map[scene.Material]resolvedMaterial // until ReloadMeshes

	allLights, movedLights, editedLights *ecs.Query2[ecs.GlobalTransform, scene.Light]
	lights                               []Light
	lightCount                           int
	all                                  *ecs.Query3[ecs.GlobalTransform, scene.Mesh, scene.Color]
	// readAll is all that only reads, and withMaterial the drawn entities with a material: restoreRemoved's.
	readAll      *ecs.Query3[ecs.GlobalTransform, scene.Mesh, scene.Color]
	withMaterial *ecs.Query2[scene.Mesh, scene.Material]

	// Instances whose prefab cannot be used (scene.Prefab.Problem) and that have no mesh of
	// their own are drawn as the placeholder mesh, magenta, so that they can be seen and picked.
	brokenChanged, brokenMoved *ecs.Query2[ecs.GlobalTransform, scene.Prefab]
	broken                     map[uint32]bool // ids drawn as placeholders

	meshID, globalID ecs.ComponentID
	resolved         map[string]*assets.Mesh // mesh reference → mesh, until ReloadMeshes
	// lastRef is the reference resolved last and lastMesh its mesh (while lastSet): entities side by side mostly
	// share one, and a build of a million looked each up in resolved.
	lastRef  string
	lastMesh *assets.Mesh
	lastSet  bool
	ents     []ecs.Entity // by EntityID
	// placed: by EntityID, the Update that placed the entity (put): the change queries that Update runs after the
	// mesh query skip it, so a spawn of a million is placed once, not placed and then updated twice more.
	placed []uint32
	update uint32
	stale  []uint32

	// hide tells the entities not to draw (SetHide); hidden holds the ids of those left out that would be drawn.
	hide   func(ecs.Entity) bool
	hidden map[uint32]bool
}

// NewBuilder returns a builder for w filling a new DrawList with meshes from
// src. w must have the scene components (scene.NewWorld, or scene.Register):
// the builder reads the world, it never changes what is registered in it.
func NewBuilder(w *ecs.World, src MeshSource) *Builder {
	if _, ok := ecs.ComponentIDOf[scene.Mesh](w); !ok {
		panic("viewport: NewBuilder needs a world with the scene components; make it with scene.NewWorld or call scene.Register(w) first")
	}
	query := func(terms ...ecs.Term) *ecs.Query3[ecs.GlobalTransform, scene.Mesh, scene.Color] {
		return ecs.NewQuery3[ecs.GlobalTransform, scene.Mesh, scene.Color](w,
			append(terms, ecs.Read[scene.Mesh](), ecs.Read[scene.Color]())...)
	}
	meshID, _ := ecs.ComponentIDOf[scene.Mesh](w)
	globalID, _ := ecs.ComponentIDOf[ecs.GlobalTransform](w)
	return &Builder{
		w: w, dl: NewDrawList(), meshes: src,
		byTransform: query(ecs.Changed[ecs.GlobalTransform](), ecs.Optional[scene.Color]()),
		byMesh:      query(ecs.Changed[scene.Mesh](), ecs.Optional[scene.Color]()),
		byColor:     query(ecs.Changed[scene.Color]()),
		byMaterial: ecs.NewQuery3[ecs.GlobalTransform, scene.Mesh, scene.Material](w, ecs.Changed[scene.Material](),
			ecs.Read[scene.Mesh](), ecs.Read[scene.Material]()),
		colors: ecs.NewMap[scene.Color](w), mats: ecs.NewMap[scene.Material](w),
		materials: map[scene.Material]resolvedMaterial{},
		allLights: newLightQuery(w), movedLights: newLightQuery(w, ecs.Changed[ecs.GlobalTransform]()),
		editedLights: newLightQuery(w, ecs.Changed[scene.Light]()),
		brokenChanged: ecs.NewQuery2[ecs.GlobalTransform, scene.Prefab](w, ecs.Changed[scene.Prefab](), ecs.Read[ecs.GlobalTransform](),
			ecs.Read[scene.Prefab]()),
		brokenMoved: ecs.NewQuery2[ecs.GlobalTransform, scene.Prefab](w, ecs.Changed[ecs.GlobalTransform](), ecs.Read[ecs.GlobalTransform](),
			ecs.Read[scene.Prefab]()),
		broken: map[uint32]bool{}, hidden: map[uint32]bool{},
		all:     query(ecs.Optional[scene.Color]()),
		readAll: query(ecs.Optional[scene.Color](), ecs.Read[ecs.GlobalTransform]()),
		withMaterial: ecs.NewQuery2[scene.Mesh, scene.Material](w, ecs.Read[scene.Mesh](),
			ecs.Read[scene.Material]()),
		meshID: meshID, globalID: globalID,
		resolved: map[string]*assets.Mesh{},
	}
}

// DrawList returns the list the builder fills.
func (b *Builder) DrawList() *DrawList { return b.dl }

// World returns the world the builder follows.
func (b *Builder) World() *ecs.World { return b.w }

// SetMeshSource makes src the source of the builder's meshes (and of its materials' textures, if src is an
// [ImageSource]) from now on. A list built beside a load with [BuiltinMeshes] (the scene's own assets are not
// known there yet) is handed over to the source that knows them: where src resolves every reference met so far to
// the same mesh and no material has a texture to read, the list stays as it is; otherwise every entity is placed
// again, as after ReloadMeshes.
func (b *Builder) SetMeshSource(src MeshSource) {
	b.meshes = src
	for ref, m := range b.resolved {
		if got, _ := src.Mesh(ref); got != m {
			b.ReloadMeshes()
			return
		}
	}
	if _, ok := src.(ImageSource); ok {
		for m := range b.materials {
			if m.BaseColorTexture.Image != "" || m.MetallicRoughnessTexture.Image != "" || m.NormalTexture.Image != "" ||
				m.OcclusionTexture.Image != "" || m.EmissiveTexture.Image != "" {
				b.ReloadMeshes()
				return
			}
		}
	}
}

// Entity returns the entity of a draw-list id (from the renderer's id
// buffer), if it is still alive.
func (b *Builder) Entity(id uint32) (ecs.Entity, bool) {
	if int(id) >= len(b.ents) || id == 0 {
		return ecs.Entity{}, false
	}
	e := b.ents[id]
	return e, b.w.Alive(e)
}

var white = [4]float32{1, 1, 1, 1}

// Update brings the draw list up to date with the world (propagating
// transforms first) and reports whether anything it draws changed.
func (b *Builder) Update() bool {
	v := b.dl.Version()
	b.nextUpdate()
	b.w.PropagateTransforms()
	if n := b.dl.removedLen(); n > 0 && b.dl.Len() == 0 {
		b.restoreRemoved(n)
	}
	b.dl.deferMoves = true // instances that moved together change chunk together (settleMoves)
	if b.dl.chunkless() && b.hide == nil && b.readAll.Count() >= expectMin && b.withMaterial.Count() == 0 {
		b.expectCells()
	}
	b.visit(b.byMesh, true)
	b.visit(b.byTransform, false)
	b.visit(b.byColor, false)
	for it := b.byMaterial.Iter(); it.Next(); {
		g, m, _ := it.Get()
		c, ok := b.colors.TryGet(it.Entity())
		col := white
		if ok {
			col = c.RGBA
		}
		b.put(it.Entity(), g.Matrix, m.Asset, col)
	}
	b.visitBroken(b.brokenChanged)
	b.visitBroken(b.brokenMoved)
	b.dl.settleMoves()
	b.dl.endExpect()
	if b.all.Count()+len(b.broken)-len(b.hidden) != b.dl.Len() {
		b.sweep()
	}
	b.updateLights()
	return b.dl.Version() != v
}

// expectMin is the fewest entities for which a first build counts the instances of each cell first (expectCells).
const expectMin = 1 << 12

// expectCells tells the list, which has no chunks yet, how many instances each cell of each batch gets in the build
// that follows (DrawList.expectCounts): one pass over the matrices and meshes, a run of the same batch and cell
// counted together.
func (b *Builder) expectCells() {
	counts := map[string]map[[3]int32]int32{}
	var (
		mesh *assets.Mesh
		m    map[[3]int32]int32
		run  int32
		cell [3]int32
	)
	flush := func() {
		if run > 0 {
			m[cell] += run
		}
		run = 0
	}
	b.readAll.EachTable(func(ents []ecs.Entity, gs []ecs.GlobalTransform, ms []scene.Mesh, _ []scene.Color) {
		for i := range ents {
			mi := b.mesh(ms[i].Asset)
			if mi == nil {
				continue
			}
			if c := b.dl.cellOf(&gs[i].Matrix); mi != mesh || c != cell {
				flush()
				if mi != mesh {
					if mesh, m = mi, counts[mi.Ref]; m == nil {
						m = map[[3]int32]int32{}
						counts[mi.Ref] = m
					}
				}
				cell = c
			}
			run++
		}
	})
	flush()
	b.dl.expectCounts(counts)
}

// nextUpdate starts an Update: a new mark for what it places.
func (b *Builder) nextUpdate() {
	if b.update++; b.update == 0 { // wrapped: old marks could match again
		clear(b.placed)
		b.update = 1
	}
}

// restoreRemoved puts back in one pass the n instances the draw list's RemoveAll took (the world emptied) when the
// world's drawn entities are now exactly those, with the same values (the undo of a delete of everything restores
// the same entities in the same slots), and marks them placed by this Update. Otherwise it leaves the list empty
// for the visits to place each entity. A big table is compared on two goroutines, a half each.
func (b *Builder) restoreRemoved(n int) {
	if b.hide != nil || b.readAll.Count() != n || b.withMaterial.Count() != 0 {
		return
	}
	if most := len(b.dl.removed.slots) * slotPage; len(b.ents) < most {
		b.fit(uint32(most - 1))
	}
	same := true
	b.readAll.EachTable(func(ents []ecs.Entity, gs []ecs.GlobalTransform, ms []scene.Mesh, cs []scene.Color) {
		if !same {
			return
		}
		half := len(ents)
		if len(ents) >= parallelRestoreMin && runtime.GOMAXPROCS(0) > 1 {
			half = len(ents) / 2
		}
		var wg sync.WaitGroup
		var rest bool
		if half < len(ents) {
			wg.Go(func() { rest = b.sameRemoved(ents, gs, ms, cs, half, len(ents)) })
		}
		first := b.sameRemoved(ents, gs, ms, cs, 0, half)
		wg.Wait()
		same = first && (half == len(ents) || rest)
	})
	if !same {
		b.nextUpdate() // the marks made so far are not placements
		return
	}
	b.dl.restoreRemoved()
}

// parallelRestoreMin is the fewest rows of a table that restoreRemoved compares on two goroutines (a variable for
// tests).
var parallelRestoreMin = 1 << 16

// sameRemoved reports whether rows from to to of a table are the instances RemoveAll took, marking each placed by
// this Update; it stops at the first that is not. It resolves meshes only through meshes already resolved (the
// instances' batches have them), so that two can run at once.
func (b *Builder) sameRemoved(ents []ecs.Entity, gs []ecs.GlobalTransform, ms []scene.Mesh, cs []scene.Color, from, to int) bool {
	var asset string
	var mesh *assets.Mesh
	for i := from; i < to; i++ {
		e := ents[i]
		if ms[i].Asset != asset || mesh == nil {
			asset = ms[i].Asset
			if mesh = b.resolved[asset]; mesh == nil {
				return false
			}
		}
		col := white
		if cs != nil {
			col = cs[i].RGBA
		}
		id := EntityID(e)
		in, batch, ok := b.dl.removedAt(id)
		want := Instance{World: gs[i].Matrix, Color: col, ID: id}
		if !ok || batch.Mesh != mesh || batch.Ref != mesh.Ref || batch.Material != nil || !sameBytes(in, &want) {
			return false
		}
		b.ents[id], b.placed[id] = e, b.update
	}
	return true
}

// brokenColor is the colour of the placeholders of instances whose prefab cannot be used.
var brokenColor = [4]float32{1, 0, 1, 1}

// visitBroken draws (or stops drawing) placeholders for instances whose prefab cannot be used.
func (b *Builder) visitBroken(q *ecs.Query2[ecs.GlobalTransform, scene.Prefab]) {
	it := q.Iter()
	for it.Next() {
		g, pf := it.Get()
		e := it.Entity()
		id := EntityID(e)
		if b.w.Has(e, b.meshID) {
			continue // drawn with its own mesh
		}
		if pf.Problem == "" {
			if b.broken[id] {
				delete(b.broken, id)
				b.dl.Remove(id)
			}
			continue
		}
		b.broken[id] = true
		ph := assets.Placeholder()
		b.fit(id)
		b.ents[id] = e
		b.dl.Set(ph.Ref, Instance{World: g.Matrix, Color: brokenColor, ID: id})
		b.dl.SetMesh(ph.Ref, ph)
	}
}

// visit applies the entities a change query yields: full (re)placement for
// mesh changes and new entities, in-place updates otherwise.
func (b *Builder) visit(q *ecs.Query3[ecs.GlobalTransform, scene.Mesh, scene.Color], full bool) {
	it := q.Iter()
	for it.Next() {
		g, m, c := it.Get()
		e := it.Entity()
		id := EntityID(e)
		if int(id) < len(b.placed) && b.placed[id] == b.update && b.ents[id] == e {
			continue // placed by this Update with these values already (put, restoreRemoved)
		}
		col := colorOf(c)
		if !full && int(id) < len(b.ents) && b.ents[id] == e &&
			b.dl.updateID(id, func(in *Instance) { in.World, in.Color = g.Matrix, col }) {
			continue
		}
		b.put(e, g.Matrix, m.Asset, col)
	}
}

func colorOf(c *scene.Color) [4]float32 {
	if c == nil {
		return white
	}
	return c.RGBA
}

func (b *Builder) put(e ecs.Entity, world mgl32.Mat4, asset string, col [4]float32) {
	id := EntityID(e)
	if b.hide != nil && b.hide(e) {
		b.dl.Remove(id)
		b.hidden[id] = true
		b.fit(id)
		b.ents[id] = e
		return
	}
	delete(b.hidden, id)
	mesh := b.mesh(asset)
	if mesh == nil {
		b.dl.Remove(id)
		return
	}
	b.fit(id)
	b.ents[id] = e
	b.placed[id] = b.update
	ref := mesh.Ref
	var mat *Material
	if b.mats.Has(e) { // asked first: TryGet copies out a zero Material (hundreds of bytes) for each entity without one
		var suffix string
		mat, suffix = b.material(b.mats.Get(e))
		ref += suffix
	}
	b.dl.Set(ref, Instance{World: world, Color: col, ID: id})
	b.dl.SetMesh(ref, mesh)
	b.dl.SetMaterial(ref, mat)
}

// fit makes ents and placed long enough for id: to the world's room for entities at once (ecs.World.IndexCap), so
// that they grow when the world's records do, not by steps nor at the first spawn after a load (each a copy of
// arrays of a million into fresh pages).
func (b *Builder) fit(id uint32) {
	if int(id) < len(b.ents) {
		return
	}
	n := max(int(id)+1, b.w.IndexCap())
	b.ents = append(b.ents, make([]ecs.Entity, n-len(b.ents))...)
	b.placed = append(b.placed, make([]uint32, n-len(b.placed))...)
}

// mesh resolves a reference once (until ReloadMeshes).
func (b *Builder) mesh(ref string) *assets.Mesh {
	if b.lastSet && ref == b.lastRef {
		return b.lastMesh
	}
	m, ok := b.resolved[ref]
	if !ok {
		m, _ = b.meshes.Mesh(ref)
		b.resolved[ref] = m
	}
	b.lastRef, b.lastMesh, b.lastSet = ref, m, true
	return m
}

// sweep removes the instances whose entity died or lost its Mesh or
// Transform. It runs only when the counts disagree.
func (b *Builder) sweep() {
	if b.w.Len() == 0 { // every entity went (a delete of all): no instance to look at one by one
		b.dl.RemoveAll()
		clear(b.broken)
		clear(b.hidden)
		return
	}
	b.stale = b.stale[:0]
	b.dl.IDs(func(id uint32) {
		e := b.ents[id]
		switch {
		case b.broken[id] && b.w.Alive(e) && b.w.Has(e, b.globalID):
		case !b.w.Alive(e) || !b.w.Has(e, b.meshID) || !b.w.Has(e, b.globalID):
			b.stale = append(b.stale, id)
			delete(b.broken, id)
		}
	})
	for _, id := range b.stale {
		b.dl.Remove(id)
	}
	for id := range b.hidden {
		if e := b.ents[id]; !b.w.Alive(e) || !b.w.Has(e, b.meshID) || !b.w.Has(e, b.globalID) {
			delete(b.hidden, id)
		}
	}
}

// SetHide makes the builder leave out of the draw list the entities hide reports (nil: none), so that they are
// neither drawn nor picked; call it again when what hide reports changed. It asks hide about every drawable
// entity (a cost of the scene's size, paid when the user hides or shows something) and places only those whose
// answer changed.
func (b *Builder) SetHide(hide func(ecs.Entity) bool) {
	b.hide = hide
	b.w.PropagateTransforms()
	for it := b.all.Iter(); it.Next(); {
		e := it.Entity()
		h := hide != nil && hide(e)
		if h == b.hidden[EntityID(e)] {
			continue
		}
		g, m, c := it.Get()
		b.put(e, g.Matrix, m.Asset, colorOf(c))
	}
}

// SetSelection marks exactly the entities sel yields selected (drawn tinted and
// outlined); entities not drawn yet are drawn selected when they appear. It
// reads sel once, keeping nothing of it (a million selected are not copied).
func (b *Builder) SetSelection(sel iter.Seq[ecs.Entity]) {
	b.dl.SelectOnly(func(yield func(uint32) bool) {
		for e := range sel {
			if !yield(EntityID(e)) {
				return
			}
		}
	})
}

// ReloadMeshes resolves every mesh reference again (after an asset
// reload): batches whose mesh changed get the new one, entities whose
// reference now resolves to another mesh move batch.
func (b *Builder) ReloadMeshes() {
	clear(b.resolved)
	b.lastSet = false
	clear(b.materials)
	it := b.all.Iter()
	for it.Next() {
		g, m, c := it.Get()
		b.put(it.Entity(), g.Matrix, m.Asset, colorOf(c))
	}
}
