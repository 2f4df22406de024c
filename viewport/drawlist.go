package viewport

import (
	"fmt"
	"hash/maphash"
	"iter"
	"math"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
)

// Instance is one drawn entity, laid out exactly as the renderer's
// per-instance vertex buffer expects it (88 bytes, no padding): world matrix
// (column-major), RGBA colour (0..1 as picked in the inspector), the entity
// id written to the id buffer (0 means "nothing") and flags
// ([FlagSelected]).
type Instance struct {
	World mgl32.Mat4
	Color [4]float32
	ID    uint32
	Flags uint32
}

// InstanceSize is the size in bytes of one [Instance] in GPU memory.
const InstanceSize = int(unsafe.Sizeof(Instance{}))

// Instance flags.
const (
	// FlagSelected draws an instance as selected whatever the list's selection ([DrawList.SetSelected]): for
	// instances that are no entity, such as the grid dialog's preview cubes.
	FlagSelected uint32 = 1 << iota
)

// Selected reports whether FlagSelected is set.
func (in *Instance) Selected() bool { return in.Flags&FlagSelected != 0 }

// Range is a half-open range [Start, End) of instance slots.
type Range struct{ Start, End int }

// Len returns End - Start.
func (r Range) Len() int { return r.End - r.Start }

// maxDirtyRanges bounds the dirty list of a chunk: beyond it the ranges
// collapse into one that covers them all (re-uploading some clean slots is
// cheaper than thousands of tiny uploads).
const maxDirtyRanges = 64

// Chunking: the instances of a batch are kept in chunks of nearby instances (those whose position falls in the
// same cell of a grid of cubes, at most MaxChunk of them), so that a renderer can cull what is out of view chunk by
// chunk, draw the nearest first and spread a big picture over several frames.
const (
	// MaxChunk is the most instances a chunk holds; a fuller cell gets more chunks.
	MaxChunk = 2048
	// DefaultCellSize is the side of the cells a new list starts with (world units). A list whose chunks hold
	// few instances on average grows its cells (see [DrawList.CellSize]).
	DefaultCellSize = 16
)

// Chunk is a group of a batch's instances that lie in the same cell (one draw call for a renderer), densely
// packed in slots. An instance keeps its slot while it lives in the chunk; removing one moves the chunk's last
// instance into the hole (so only that slot changes). Changed slots are recorded as dirty ranges for the
// renderer to upload.
type Chunk struct {
	// Instances are the chunk's instances in slot order. Read-only outside this package: change them through
	// the [DrawList] methods, which track dirty ranges.
	Instances []Instance

	batch       *Batch
	cell        [3]int32
	dirty       []Range
	bounds      AABB
	boundsValid bool
	changes     uint64 // counts changes to the instances or their box (Changes)
	edits       uint64 // counts those changes that were not an instance appended (Edits)
	damage      AABB   // the boxes of the instances changed since ResetDamage, before and after (Damage)
	damageBase  uint64 // changes at ResetDamage; unknownDamage when the damage is not known
	damageN     int    // boxes added to damage since ResetDamage
	free        bool   // listed in its batch's free chunks
	strayed     bool   // listed in the list's strays
}

// maxDamaged is how many instance boxes a chunk's damage takes before it gives up (unknown: the renderer then
// uses the chunk's whole box, which so many changes mostly cover anyway): it bounds what changes cost.
const maxDamaged = 64

// unknownDamage is a chunk's damageBase when its damage is not known (regrouped, cleared, its mesh changed).
const unknownDamage = math.MaxUint64

// Damage returns the box around every instance of the chunk changed, added or removed since [Chunk.ResetDamage]
// (where they were and where they are), and the chunk's Changes when it was reset; ok is false when the damage is
// not known (the chunk was regrouped or cleared, or its mesh changed). A renderer that reset it when it drew the
// chunk, and still finds Changes then, knows that only the pixels inside the box changed.
func (c *Chunk) Damage() (box AABB, since uint64, ok bool) {
	return c.damage, c.damageBase, c.damageBase != unknownDamage
}

// ResetDamage forgets the damage: from here on it counts changes after the chunk's Changes now.
func (c *Chunk) ResetDamage() { c.damage, c.damageBase, c.damageN = EmptyAABB(), c.changes, 0 }

// damaged adds the box of in (with the batch's mesh) to the damage (which becomes unknown past maxDamaged).
func (c *Chunk) damaged(in *Instance) {
	if c.damageBase == unknownDamage {
		return
	}
	if c.damageN++; c.damageN > maxDamaged {
		c.forgetDamage()
		return
	}
	c.damage = c.damage.Union(finiteBox(c.batch.localBounds().Transform(in.World)))
}

// forgetDamage makes the damage unknown.
func (c *Chunk) forgetDamage() { c.damageBase = unknownDamage }

// push appends in to the chunk's instances (it has fewer than MaxChunk). Grown, they take about half again as
// many, never more than MaxChunk (append's growth past it left full chunks a third larger than their instances).
func (c *Chunk) push(in Instance) {
	if n := len(c.Instances); n == cap(c.Instances) {
		grown := make([]Instance, n, min(MaxChunk, max(16, n+n/2)))
		copy(grown, c.Instances)
		c.Instances = grown
	}
	c.Instances = append(c.Instances, in)
}

// Len returns the number of instances.
func (c *Chunk) Len() int { return len(c.Instances) }

// Changes counts the changes to the chunk's instances (added, removed, moved, recoloured, regrouped) or to its
// box: a renderer that remembers it knows whether what it drew of the chunk is still what the chunk holds (unlike
// the dirty ranges, which an upload consumes).
func (c *Chunk) Changes() uint64 { return c.changes }

// Edits counts the changes to the chunk (see Changes) other than instances appended at its end: while it stays
// the same, the instances a renderer drew are still the chunk's first ones, unchanged, and those after them were
// added since.
func (c *Chunk) Edits() uint64 { return c.edits }

// Cell returns the cell of the grid the chunk's instances are in (their position divided by the list's cell
// size, rounded down).
func (c *Chunk) Cell() [3]int32 { return c.cell }

func (c *Chunk) markDirty(slot int, appended bool) {
	c.boundsValid = false
	c.changes++
	if !appended {
		c.edits++
	}
	c.batch.boundsValid = false
	if n := len(c.dirty); n > 0 {
		last := &c.dirty[n-1]
		switch {
		case slot >= last.Start && slot < last.End:
			return
		case slot == last.End:
			last.End++
			return
		case slot == last.Start-1:
			last.Start--
			return
		}
	}
	c.dirty = append(c.dirty, Range{slot, slot + 1})
	if len(c.dirty) > maxDirtyRanges {
		all := c.dirty[0]
		for _, r := range c.dirty[1:] {
			all.Start = min(all.Start, r.Start)
			all.End = max(all.End, r.End)
		}
		c.dirty = append(c.dirty[:0], all)
	}
}

// MarkAllDirty marks every slot dirty (for a renderer that lost its buffers).
func (c *Chunk) MarkAllDirty() {
	c.dirty = c.dirty[:0]
	if len(c.Instances) > 0 {
		c.dirty = append(c.dirty, Range{0, len(c.Instances)})
	}
}

// Dirty returns the slots changed since the last [Chunk.ClearDirty], sorted, merged and clipped to the live
// slots. The slice is reused: copy it to keep it.
func (c *Chunk) Dirty() []Range {
	if len(c.dirty) == 0 {
		return nil
	}
	slices.SortFunc(c.dirty, func(x, y Range) int { return x.Start - y.Start })
	out := c.dirty[:0]
	for _, r := range c.dirty {
		r.End = min(r.End, len(c.Instances))
		if r.Start >= r.End {
			continue
		}
		if n := len(out); n > 0 && r.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, r.End)
			continue
		}
		out = append(out, r)
	}
	c.dirty = out
	return out
}

// DirtyCount returns the number of dirty slots.
func (c *Chunk) DirtyCount() int {
	n := 0
	for _, r := range c.Dirty() {
		n += r.Len()
	}
	return n
}

// ClearDirty forgets the dirty ranges (the renderer calls it after uploading them).
func (c *Chunk) ClearDirty() { c.dirty = c.dirty[:0] }

// Bounds returns the world-space box around the chunk's instances (their geometry bounds transformed by their
// world matrices; a unit cube when the batch has no mesh). It is cached until the chunk changes.
func (c *Chunk) Bounds() AABB {
	if c.boundsValid {
		return c.bounds
	}
	local := c.batch.localBounds()
	bb := EmptyAABB()
	if local.IsEmpty() {
		c.bounds, c.boundsValid = bb, true
		return bb
	}
	// The union of finiteBox(local.Transform(World)) of each instance, inlined (a restored million's chunks are
	// all boxed again): the same sums in the same order (TestChunkBoundsIsTheUnionOfBoxes).
	lo, hi := local.Min, local.Max
	for i := range c.Instances {
		m := &c.Instances[i].World
		mn, mx := [3]float32{m[12], m[13], m[14]}, [3]float32{m[12], m[13], m[14]}
		for col := range 3 {
			for r := range 3 {
				e, f := m[col*4+r]*lo[col], m[col*4+r]*hi[col]
				mn[r] += min(e, f)
				mx[r] += max(e, f)
			}
		}
		if !(mn[0] >= -math.MaxFloat32 && mn[1] >= -math.MaxFloat32 && mn[2] >= -math.MaxFloat32 &&
			mx[0] <= math.MaxFloat32 && mx[1] <= math.MaxFloat32 && mx[2] <= math.MaxFloat32) {
			continue // not finite: left out, as finiteBox leaves it
		}
		for r := range 3 {
			bb.Min[r], bb.Max[r] = min(bb.Min[r], mn[r]), max(bb.Max[r], mx[r])
		}
	}
	c.bounds, c.boundsValid = bb, true
	return bb
}

// finiteBox returns b, or the empty box when a coordinate of b is not finite (an instance with a broken matrix is
// left out of its chunk's box, which would otherwise be broken for all of them).
func finiteBox(b AABB) AABB {
	for i := range 3 {
		if !(b.Min[i] >= -math.MaxFloat32 && b.Max[i] <= math.MaxFloat32) {
			return EmptyAABB()
		}
	}
	return b
}

// Batch holds the instances of one mesh, in chunks (see [Chunk]).
type Batch struct {
	// Ref is the mesh reference ("builtin:cube", "models/ship.obj") the
	// instances share.
	Ref string
	// Mesh is the geometry to draw, nil until set with [DrawList.SetMesh];
	// a batch without a mesh is not drawn (and counts as a unit cube for
	// bounds and picking).
	Mesh *assets.Mesh
	// Material is the surface the instances share (nil: their colours, the default shading); set
	// with [DrawList.SetMaterial].
	Material *Material

	chunks      []*Chunk
	open        map[[3]int32]int32   // cell → the chunk new instances of that cell go to (see openOf)
	hint        [2]openHint          // the last cells of open looked up or changed
	older       int                  // the hint to replace next
	cells       map[[3]int32][]int32 // cell → its chunks
	free        []int32              // chunks that were emptied (some may hold instances again: see take)
	n           int
	used        int // chunks that hold instances
	bounds      AABB
	boundsValid bool
}

// openHint is an entry of Batch.open (has: whether it is there), kept beside the map: a change of many instances
// takes them from a few cells to a few others in turn (two entries: a move's from and to), and a map of array
// keys hashes each key anew.
type openHint struct {
	cell     [3]int32
	ci       int32
	has, set bool
}

// openOf returns the open chunk of cell.
func (b *Batch) openOf(cell [3]int32) (int32, bool) {
	for i := range b.hint {
		if h := &b.hint[i]; h.set && h.cell == cell {
			return h.ci, h.has
		}
	}
	ci, ok := b.open[cell]
	b.remember(openHint{cell: cell, ci: ci, has: ok, set: true})
	return ci, ok
}

// remember puts h in the hints, in place of the entry of its cell or else of the older one.
func (b *Batch) remember(h openHint) {
	for i := range b.hint {
		if b.hint[i].set && b.hint[i].cell == h.cell {
			b.hint[i] = h
			return
		}
	}
	b.hint[b.older] = h
	b.older ^= 1
}

// setOpen makes ci the open chunk of cell.
func (b *Batch) setOpen(cell [3]int32, ci int32) {
	b.open[cell] = ci
	b.remember(openHint{cell: cell, ci: ci, has: true, set: true})
}

// dropOpen forgets the open chunk of cell.
func (b *Batch) dropOpen(cell [3]int32) {
	delete(b.open, cell)
	b.remember(openHint{cell: cell, set: true})
}

// Len returns the number of instances.
func (b *Batch) Len() int { return b.n }

// Chunks returns the batch's chunks. A chunk keeps its index for the life of the list (an emptied chunk stays,
// with no instances, and takes instances again: of its cell, or of another cell whose chunks are full), so a
// renderer can key its GPU buffers by index. The slice must not be modified.
func (b *Batch) Chunks() []*Chunk { return b.chunks }

// Bounds returns the world-space box around all instances (their geometry
// bounds transformed by their world matrices; a unit cube when the batch has
// no mesh). It is cached until the batch changes.
func (b *Batch) Bounds() AABB {
	if b.boundsValid {
		return b.bounds
	}
	b.boxStale()
	bb := EmptyAABB()
	for _, c := range b.chunks {
		if len(c.Instances) > 0 {
			bb = bb.Union(c.Bounds())
		}
	}
	b.bounds, b.boundsValid = bb, true
	return bb
}

// BoxStale boxes again the chunks whose box a change made stale, on two goroutines when they hold many instances
// (after a field set on a million, every chunk's is): [Chunk.Bounds] then returns each box at once. A caller about
// to read the boxes of many chunks calls it first.
func (d *DrawList) BoxStale() {
	for _, b := range d.batches {
		b.boxStale()
	}
}

// parallelBoxMin is the fewest instances in chunks with stale boxes for which boxStale boxes them on two goroutines.
const parallelBoxMin = 1 << 16

// boxStale is BoxStale of b's chunks. Boxing them is a pass over every instance: after a field set on a million, a
// tenth of the frame that shows the edit. Each chunk is boxed by one goroutine and writes only its own box.
func (b *Batch) boxStale() {
	n := 0
	for _, c := range b.chunks {
		if !c.boundsValid {
			n += len(c.Instances)
		}
	}
	if n < parallelBoxMin || runtime.GOMAXPROCS(0) < 2 {
		return
	}
	split, acc := len(b.chunks), 0
	for i, c := range b.chunks {
		if !c.boundsValid {
			if acc += len(c.Instances); 2*acc >= n {
				split = i + 1
				break
			}
		}
	}
	box := func(cs []*Chunk) {
		for _, c := range cs {
			if !c.boundsValid {
				c.Bounds()
			}
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() { box(b.chunks[split:]) })
	box(b.chunks[:split])
	wg.Wait()
}

// MarkAllDirty marks every instance of every chunk dirty (for a renderer that lost its buffers).
func (b *Batch) MarkAllDirty() {
	for _, c := range b.chunks {
		c.MarkAllDirty()
	}
}

// AppendInstances appends the batch's instances (chunk by chunk) to dst and returns it.
func (b *Batch) AppendInstances(dst []Instance) []Instance {
	for _, c := range b.chunks {
		dst = append(dst, c.Instances...)
	}
	return dst
}

func (b *Batch) localBounds() AABB { return MeshBounds(b.Mesh) }

// invalidateBounds forgets every cached box (the mesh changed).
func (b *Batch) invalidateBounds() {
	b.boundsValid = false
	for _, c := range b.chunks {
		c.boundsValid = false
		c.changes++
		c.edits++
		c.forgetDamage()
	}
}

// slotRef locates an instance: batch+1 (0: no instance), chunk, slot.
type slotRef struct{ batch, chunk, slot int32 }

// slotPage is how many ids one page of the slot table covers.
const slotPage = 1 << 12

// DrawList is the renderer's input: instances grouped by mesh into batches
// and by place into chunks (one draw call each), addressed by entity id,
// updated incrementally, and the selection (drawn tinted and outlined).
// Batches keep their index for the life of the list (an emptied batch stays,
// with no instances), so a renderer can key its GPU buffers by index.
// The zero value is not usable; call [NewDrawList].
type DrawList struct {
	batches  []*Batch
	byMesh   map[string]int32
	slots    [][]slotRef // pages of slotPage entries, by id
	n        int
	version  uint64
	cellSize float32

	content uint64 // the sum of the instances' hashes (instanceHash)
	meshes  uint64 // counts the changes of a batch's mesh

	lights     []Light
	sel        []byte // sel[id] != 0: selected
	selN       int
	selVersion uint64
	flagged    int // instances with FlagSelected
	selBox     selBounds

	lastBatch int32 // the batch batchIndex found last

	removed  *removedAll // what RemoveAll took, while the list stays as RemoveAll left it
	restores int         // how many times restoreRemoved put it back

	// While deferMoves is set, an instance whose position leaves its chunk's cell stays in its slot, and strays
	// lists its chunk, until settleMoves (see Builder.Update).
	deferMoves bool
	strays     []slotRef
	strayIDs   []uint32

	// While a first build fills a list that had no chunks (Builder.expectCells), counts is how many instances
	// each cell of each batch (by reference) gets, in cells of side countSize, and expect how many of those no
	// chunk has room for yet, in cells of the list's size: a chunk is made at its size at once instead of growing
	// by half again each time it fills (a million instances, grown so, allocated and copied three times their
	// memory).
	counts    map[string]map[[3]int32]int32
	countSize float32
	expect    map[string]map[[3]int32]int32
}

// removedAll is what RemoveAll took out of a list: the chunks keep their instances' memory, this keeps how many
// each held, their boxes, the index and the counts, so that the same instances put back (the undo of a delete of
// everything) return to the slots they had in one pass (restoreRemoved) instead of being added one by one.
type removedAll struct {
	version    uint64 // the list's version after the removal: any later change drops what is kept
	slots      [][]slotRef
	n, flagged int
	content    uint64
	chunks     [][]keptChunk // by batch, by chunk
}

// keptChunk is a chunk's state before RemoveAll.
type keptChunk struct {
	n           int32
	bounds      AABB
	boundsValid bool
}

// selBounds caches the box around what is drawn selected.
type selBounds struct {
	version, selVersion uint64
	valid               bool
	box                 AABB
}

// Version counts the changes to what the list draws: it grows whenever an
// instance's bytes change, an instance is added or removed, or a batch's
// mesh changes, and stays put otherwise. It is the "scene changed" input of
// [RedrawPolicy] (FrameState.SceneTick). A change of the selection changes
// [DrawList.SelectionVersion] instead.
func (d *DrawList) Version() uint64 { return d.version }

// ContentHash is a hash of what the list draws: its instances (each with its batch), in whatever order and chunks,
// and its batches' meshes. Two states of a list with equal hashes draw the same picture — a state came back (the
// undo of a delete, the redo of a spawn) — but for a collision of 64-bit hashes. It is kept up to date as the list
// changes (a few nanoseconds a change); a change of a mesh makes it new for good.
func (d *DrawList) ContentHash() uint64 { return mix64(d.content ^ mix64(d.meshes+0x9e3779b97f4a7c15)) }

// instanceHash hashes in (its bytes) and its batch bi. The runtime's hash of bytes (AES on most machines) costs
// about half the multiplications of a hash written out here, and a change of a million instances hashes each twice.
func instanceHash(bi int32, in *Instance) uint64 {
	return maphash.Bytes(instanceSeed, instanceBytes(in)) ^ mix64(uint64(bi)+0x632be59bd9b4e019)
}

// instanceSeed seeds instanceHash: the hashes of one process are compared, never stored.
var instanceSeed = maphash.MakeSeed()

// instanceBytes is in's memory, as the GPU reads it.
func instanceBytes(in *Instance) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(in)), InstanceSize)
}

// sameBytes reports whether a and b are the same bytes, as the GPU reads them: compared as floats, a NaN would
// differ from itself and -0 equal 0, and the compare takes three times as long.
func sameBytes(a, b *Instance) bool {
	return *(*[InstanceSize]byte)(unsafe.Pointer(a)) == *(*[InstanceSize]byte)(unsafe.Pointer(b))
}

// mix64 is the finaliser of MurmurHash3 (64-bit): every bit of x reaches every bit of the result.
func mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// NewDrawList returns an empty draw list.
func NewDrawList() *DrawList {
	return &DrawList{byMesh: map[string]int32{}, cellSize: DefaultCellSize}
}

// Batches returns the batches in creation order. The slice must not be
// modified.
func (d *DrawList) Batches() []*Batch { return d.batches }

// Len returns the number of instances in all batches.
func (d *DrawList) Len() int { return d.n }

// CellSize returns the side of the cells instances are chunked by. It starts at [DefaultCellSize] and grows
// (regrouping every instance) when the chunks hold few instances on average, so that a spread-out scene does not
// become one chunk per instance.
func (d *DrawList) CellSize() float32 { return d.cellSize }

// Batch returns the batch of mesh reference ref, creating it if needed.
func (d *DrawList) Batch(ref string) *Batch {
	return d.batches[d.batchIndex(ref)]
}

func (d *DrawList) batchIndex(ref string) int32 {
	// The batch asked for last first: a big change (a restored million) asks for one batch three times an instance.
	if i := d.lastBatch; int(i) < len(d.batches) && d.batches[i].Ref == ref {
		return i
	}
	i, ok := d.byMesh[ref]
	if !ok {
		i = int32(len(d.batches))
		d.batches = append(d.batches, &Batch{Ref: ref, open: map[[3]int32]int32{}, cells: map[[3]int32][]int32{}})
		d.byMesh[ref] = i
	}
	d.lastBatch = i
	return i
}

// SetMesh sets the geometry drawn for reference ref (at load or asset
// reload: a reload is a new *assets.Mesh). The instances stay as they are
// (a renderer re-points the batch at the new vertex data); the bounds are
// recomputed.
func (d *DrawList) SetMesh(ref string, m *assets.Mesh) {
	b := d.Batch(ref)
	if b.Mesh != m {
		b.Mesh = m
		b.invalidateBounds()
		d.version++
		d.meshes++
	}
}

// slot returns where id's instance is (ok false when it has none).
func (d *DrawList) slot(id uint32) (slotRef, bool) {
	p := int(id / slotPage)
	if p >= len(d.slots) || d.slots[p] == nil {
		return slotRef{}, false
	}
	r := d.slots[p][id%slotPage]
	return r, r.batch != 0
}

func (d *DrawList) setSlot(id uint32, r slotRef) {
	p := int(id / slotPage)
	if p >= len(d.slots) {
		d.slots = append(d.slots, make([][]slotRef, p+1-len(d.slots))...)
	}
	if d.slots[p] == nil {
		if r.batch == 0 {
			return
		}
		d.slots[p] = make([]slotRef, slotPage)
	}
	d.slots[p][id%slotPage] = r
}

// at returns the chunk and slot of a located instance.
func (d *DrawList) at(r slotRef) (*Chunk, int) {
	return d.batches[r.batch-1].chunks[r.chunk], int(r.slot)
}

// cellOf returns the cell of a world matrix's position.
func (d *DrawList) cellOf(m *mgl32.Mat4) [3]int32 {
	var c [3]int32
	for i := range 3 {
		v := float64(m[12+i] / d.cellSize)
		switch {
		case v != v: // NaN: one cell for all of them
			v = 0
		case v > math.MaxInt32/2:
			v = math.MaxInt32 / 2
		case v < math.MinInt32/2:
			v = math.MinInt32 / 2
		}
		c[i] = int32(math.Floor(v))
	}
	return c
}

// Set puts the instance of entity in.ID into the batch of mesh reference ref: a new entity gets
// the next slot of its cell's chunk, an existing one keeps its slot (or moves chunk when its position
// changed cell, or batch when its mesh changed). A slot is marked dirty only if its bytes change, so setting an
// unchanged instance costs no upload. It panics on ID 0, which the id buffer
// uses for "nothing".
func (d *DrawList) Set(ref string, in Instance) {
	if in.ID == 0 {
		panic("viewport: DrawList.Set: instance ID 0 is reserved for \"no entity\" in the id buffer; give entities ids from 1")
	}
	bi := d.batchIndex(ref)
	if at, ok := d.slot(in.ID); ok {
		if at.batch-1 == bi {
			d.update(at, func(p *Instance) { *p = in })
			return
		}
		d.Remove(in.ID)
	}
	d.add(bi, in)
}

// add appends in to the chunk of its cell in batch bi.
func (d *DrawList) add(bi int32, in Instance) { d.addTo(bi, in, d.cellOf(&in.World)) }

// addTo is add of in, whose cell is cell.
func (d *DrawList) addTo(bi int32, in Instance, cell [3]int32) {
	d.removed = nil // the list changes: what RemoveAll took is no longer what it held
	b := d.batches[bi]
	ci, ok := b.openOf(cell)
	if !ok || len(b.chunks[ci].Instances) >= MaxChunk {
		ci = b.take(cell)
		b.setOpen(cell, ci)
		if d.expect != nil {
			d.sizeChunk(b.chunks[ci], cell)
		}
	}
	c := b.chunks[ci]
	slot := len(c.Instances)
	if slot == 0 {
		b.used++
	}
	if in.Flags&FlagSelected != 0 {
		d.flagged++
	}
	grow := c.boundsValid
	c.push(in)
	c.markDirty(slot, true)
	c.damaged(&in)
	if grow { // appending extends the cached box instead of dropping it
		c.bounds, c.boundsValid = c.bounds.Union(finiteBox(b.localBounds().Transform(in.World))), true
	}
	b.n++
	d.n++
	d.content += instanceHash(bi, &in)
	d.setSlot(in.ID, slotRef{bi + 1, ci, int32(slot)})
	d.version++
	if b.used > 64 && b.used*8 > b.n && d.cellSize < 1<<20 {
		d.regroup(4 * d.cellSize)
	}
}

// sizeChunk makes the room of chunk c, which holds no instances and is cell's now, what the cell is still expected
// to get (at most MaxChunk), if anything.
func (d *DrawList) sizeChunk(c *Chunk, cell [3]int32) {
	if len(c.Instances) > 0 {
		return
	}
	if k := d.reserve(c.batch, cell); k > 0 && k != cap(c.Instances) {
		c.Instances = make([]Instance, 0, k)
	}
}

// reserve takes room for up to MaxChunk of what the cell of b is expected to get, and returns it (0: none).
func (d *DrawList) reserve(b *Batch, cell [3]int32) int {
	m := d.expect[b.Ref]
	if m == nil {
		return 0
	}
	n := m[cell]
	k := min(n, MaxChunk)
	if k > 0 {
		m[cell] = n - k
	}
	return int(k)
}

// expectCounts plans the room of the chunks a first build makes: counts is how many instances each cell of each
// batch gets, in cells of the list's size (see DrawList.counts).
func (d *DrawList) expectCounts(counts map[string]map[[3]int32]int32) {
	d.counts, d.countSize = counts, d.cellSize
	d.expect = d.countsAt(d.cellSize)
}

// countsAt is counts in cells of side size (countSize times a power of four: regroup's steps), in a map of its own.
func (d *DrawList) countsAt(size float32) map[string]map[[3]int32]int32 {
	shift := 0
	for s := d.countSize; s < size; s *= 4 {
		shift += 2
	}
	out := make(map[string]map[[3]int32]int32, len(d.counts))
	for ref, m := range d.counts {
		o := make(map[[3]int32]int32, len(m)>>shift+1)
		for c, k := range m {
			o[[3]int32{c[0] >> shift, c[1] >> shift, c[2] >> shift}] += k // floor(x/4s) = floor(floor(x/s)/4)
		}
		out[ref] = o
	}
	return out
}

// endExpect ends what a first build expected.
func (d *DrawList) endExpect() { d.counts, d.expect = nil, nil }

// chunkless reports whether no batch of the list has a chunk (a new list, or one of no instances ever).
func (d *DrawList) chunkless() bool {
	for _, b := range d.batches {
		if len(b.chunks) > 0 {
			return false
		}
	}
	return true
}

// take returns a chunk with room for an instance of cell: one of the cell's chunks, else an emptied chunk (of any
// cell: it becomes the cell's), else a new one. Without the emptied chunks, a cell whose instances were all
// removed and added again (a delete of many and its undo) would fill one of its chunks and then grow new ones
// beside its empty ones, keeping their memory (and a renderer's buffers) for nothing.
func (b *Batch) take(cell [3]int32) int32 {
	for _, ci := range b.cells[cell] {
		if len(b.chunks[ci].Instances) < MaxChunk {
			return ci
		}
	}
	for len(b.free) > 0 {
		ci := b.free[len(b.free)-1]
		b.free = b.free[:len(b.free)-1]
		c := b.chunks[ci]
		c.free = false
		if len(c.Instances) > 0 { // its cell filled it again
			continue
		}
		b.rekey(ci, cell)
		return ci
	}
	ci := int32(len(b.chunks))
	b.chunks = append(b.chunks, &Chunk{batch: b, cell: cell, damage: EmptyAABB()})
	b.cells[cell] = append(b.cells[cell], ci)
	return ci
}

// rekey makes chunk ci cell's (its instances are there, or it has none).
func (b *Batch) rekey(ci int32, cell [3]int32) {
	c := b.chunks[ci]
	old := c.cell
	if rest := slices.DeleteFunc(b.cells[old], func(k int32) bool { return k == ci }); len(rest) > 0 {
		b.cells[old] = rest
	} else {
		delete(b.cells, old)
	}
	if o, ok := b.openOf(old); ok && o == ci {
		b.dropOpen(old)
	}
	c.cell = cell
	b.cells[cell] = append(b.cells[cell], ci)
}

// rekeyMin is the fewest instances of a chunk that settleMoves hands to another cell together; fewer move one by
// one, into the chunks the cell has (a chunk of a few following them would leave cells of many small chunks). A
// variable for the tests.
var rekeyMin = 64

// settleMoves ends deferMoves: every instance is in a chunk of its cell again. A chunk whose instances all left its
// cell for one other cell (moved together: a field set on all of them, its undo) becomes that cell's without a
// move; in the others, each instance outside the chunk's cell moves to a chunk of its own, as update moves it.
// The result is the list update would have made but for which chunks hold which instances.
func (d *DrawList) settleMoves() {
	d.deferMoves = false
	if len(d.strays) == 0 {
		return
	}
	for _, r := range d.strays {
		d.batches[r.batch-1].chunks[r.chunk].strayed = false
	}
	for _, r := range d.strays {
		b := d.batches[r.batch-1]
		if int(r.chunk) >= len(b.chunks) { // regrouped meanwhile: every instance is in its cell
			continue
		}
		c := b.chunks[r.chunk]
		if len(c.Instances) == 0 {
			continue
		}
		to := d.cellOf(&c.Instances[0].World)
		together := len(c.Instances) >= rekeyMin
		for i := 1; together && i < len(c.Instances); i++ {
			together = d.cellOf(&c.Instances[i].World) == to
		}
		if together {
			if to != c.cell {
				b.rekey(r.chunk, to)
			}
			continue
		}
		ids := d.strayIDs[:0]
		for i := range c.Instances {
			if d.cellOf(&c.Instances[i].World) != c.cell {
				ids = append(ids, c.Instances[i].ID)
			}
		}
		for _, id := range ids {
			at, _ := d.slot(id)
			ch, s := d.at(at)
			in := ch.Instances[s]
			if cell := d.cellOf(&in.World); cell != ch.cell { // a regroup meanwhile put it there already
				d.move(at, in, cell)
			}
		}
		d.strayIDs = ids[:0]
	}
	d.strays = d.strays[:0]
}

// move takes the instance at at out of its chunk and adds in, its new value, to cell's chunk (removeAt and addTo
// count the selected).
func (d *DrawList) move(at slotRef, in Instance, cell [3]int32) {
	d.removeAt(in.ID, at)
	d.addTo(at.batch-1, in, cell)
}

// emptied lists chunk ci, which has no instances now, among the batch's free chunks.
func (b *Batch) emptied(ci int32) {
	if c := b.chunks[ci]; !c.free {
		c.free = true
		b.free = append(b.free, ci)
	}
}

// regroup chunks every instance again with cells of side size. Chunks are handed out again from index 0, and
// emptied ones at the end are dropped (a renderer drops their buffers).
func (d *DrawList) regroup(size float32) {
	d.cellSize = size
	if d.counts != nil { // a first build: what it expects, in the new cells
		d.expect = d.countsAt(size)
	}
	for bi, b := range d.batches {
		all := b.AppendInstances(nil)
		pool := slices.Clone(b.chunks)
		b.chunks = b.chunks[:0]
		clear(b.open)
		b.hint = [2]openHint{}
		clear(b.cells)
		b.free = b.free[:0]
		b.used = 0
		for _, in := range all {
			cell := d.cellOf(&in.World)
			ci, ok := b.openOf(cell)
			if !ok || len(b.chunks[ci].Instances) >= MaxChunk {
				ci = int32(len(b.chunks))
				c := &Chunk{batch: b, damageBase: unknownDamage}
				if int(ci) < len(pool) {
					c = pool[ci]
					c.Instances = c.Instances[:0]
					c.free = false
				}
				c.cell = cell
				d.sizeChunk(c, cell)
				b.chunks = append(b.chunks, c)
				b.setOpen(cell, ci)
				b.cells[cell] = append(b.cells[cell], ci)
				b.used++
			}
			c := b.chunks[ci]
			c.push(in)
			d.setSlot(in.ID, slotRef{int32(bi) + 1, ci, int32(len(c.Instances) - 1)})
		}
		for _, c := range b.chunks {
			c.strayed = false // every instance is in its cell's chunk now
			c.MarkAllDirty()
			c.boundsValid = false
			c.changes++
			c.edits++
			c.forgetDamage()
		}
		b.boundsValid = false
	}
	d.strays = d.strays[:0]
	d.version++
}

// Get returns entity id's instance and mesh reference.
func (d *DrawList) Get(id uint32) (in Instance, ref string, ok bool) {
	at, ok := d.slot(id)
	if !ok {
		return Instance{}, "", false
	}
	c, s := d.at(at)
	return c.Instances[s], c.batch.Ref, true
}

// update applies f to the instance at at, marks it dirty if it changed and moves it to another chunk if its
// position left its chunk's cell.
func (d *DrawList) update(at slotRef, f func(*Instance)) {
	c, s := d.at(at)
	p := &c.Instances[s]
	old := *p
	f(p)
	if sameBytes(p, &old) {
		return
	}
	if p.World.Col(3) != old.World.Col(3) {
		if cell := d.cellOf(&p.World); cell != c.cell {
			if d.deferMoves {
				if !c.strayed {
					c.strayed = true
					d.strays = append(d.strays, slotRef{batch: at.batch, chunk: at.chunk})
				}
			} else {
				in := *p
				*p = old
				d.move(at, in, cell)
				return
			}
		}
	}
	if (p.Flags^old.Flags)&FlagSelected != 0 {
		if p.Flags&FlagSelected != 0 {
			d.flagged++
		} else {
			d.flagged--
		}
	}
	c.markDirty(s, false)
	c.damaged(&old)
	c.damaged(p)
	d.content += instanceHash(at.batch-1, p) - instanceHash(at.batch-1, &old)
	d.version++
}

// updateID applies f to id's instance (see update); it reports false for an unknown id.
func (d *DrawList) updateID(id uint32, f func(*Instance)) bool {
	at, ok := d.slot(id)
	if ok {
		d.update(at, f)
	}
	return ok
}

// SetWorld changes id's world matrix; it reports false for an unknown id.
func (d *DrawList) SetWorld(id uint32, m mgl32.Mat4) bool {
	return d.updateID(id, func(in *Instance) { in.World = m })
}

// SetColor changes id's colour; it reports false for an unknown id.
func (d *DrawList) SetColor(id uint32, c [4]float32) bool {
	return d.updateID(id, func(in *Instance) { in.Color = c })
}

// SetFlag sets or clears flag on id's instance; it reports false for an unknown id.
func (d *DrawList) SetFlag(id uint32, flag uint32, on bool) bool {
	return d.updateID(id, func(in *Instance) {
		if on {
			in.Flags |= flag
		} else {
			in.Flags &^= flag
		}
	})
}

// Remove deletes id's instance: its chunk's last instance moves into its
// slot (that slot becomes dirty). It reports false for an unknown id.
func (d *DrawList) Remove(id uint32) bool {
	at, ok := d.slot(id)
	if ok {
		d.removeAt(id, at)
	}
	return ok
}

// removeAt is Remove of id, whose instance is at at.
func (d *DrawList) removeAt(id uint32, at slotRef) {
	d.setSlot(id, slotRef{})
	c, s := d.at(at)
	if c.Instances[s].Flags&FlagSelected != 0 {
		d.flagged--
	}
	last := len(c.Instances) - 1
	d.content -= instanceHash(at.batch-1, &c.Instances[s])
	c.damaged(&c.Instances[s])
	if s != last {
		moved := c.Instances[last]
		c.damaged(&moved) // drawn in another place of the chunk's order
		c.Instances[s] = moved
		d.setSlot(moved.ID, at)
		c.markDirty(s, false)
	}
	c.Instances = c.Instances[:last]
	c.boundsValid = false
	c.changes++
	c.edits++
	b := c.batch
	if last == 0 {
		b.used--
		b.emptied(at.chunk)
	}
	b.boundsValid = false
	b.n--
	d.n--
	if o, ok := b.openOf(c.cell); !ok || len(b.chunks[o].Instances) >= MaxChunk {
		b.setOpen(c.cell, at.chunk) // room here now
	}
	d.version++
}

// Clear removes all instances (batches, chunks and meshes stay) and the selection.
func (d *DrawList) Clear() {
	d.RemoveAll()
	d.SetSelection(nil)
}

// RemoveAll removes all instances as Remove of each would, at a cost of the chunks, not the instances (batches,
// chunks and meshes stay; so does the selection). Their damage is unknown: a picture after it is drawn whole.
func (d *DrawList) RemoveAll() {
	if d.n > 0 {
		d.version++
	}
	kept := &removedAll{slots: d.slots, n: d.n, flagged: d.flagged, content: d.content,
		chunks: make([][]keptChunk, len(d.batches))}
	for bi, b := range d.batches {
		kept.chunks[bi] = make([]keptChunk, len(b.chunks))
		for ci, c := range b.chunks {
			kept.chunks[bi][ci] = keptChunk{int32(len(c.Instances)), c.bounds, c.boundsValid}
		}
	}
	for _, b := range d.batches {
		for ci, c := range b.chunks {
			if len(c.Instances) > 0 {
				b.emptied(int32(ci))
			}
			c.Instances = c.Instances[:0]
			c.dirty = c.dirty[:0]
			c.boundsValid = false
			c.changes++
			c.edits++
			c.forgetDamage()
		}
		b.n, b.used = 0, 0
		b.boundsValid = false
	}
	d.slots = nil // kept for restoreRemoved
	d.n, d.flagged, d.content = 0, 0, 0
	d.removed = nil
	if kept.n > 0 {
		kept.version = d.version
		d.removed = kept
	}
}

// removedAt returns the instance id had when RemoveAll took it and its batch, while what RemoveAll took is kept and
// the list has not changed since.
func (d *DrawList) removedAt(id uint32) (*Instance, *Batch, bool) {
	k := d.removed
	if k == nil || k.version != d.version {
		return nil, nil, false
	}
	p := int(id / slotPage)
	if p >= len(k.slots) || k.slots[p] == nil {
		return nil, nil, false
	}
	r := k.slots[p][id%slotPage]
	if r.batch == 0 {
		return nil, nil, false
	}
	c := d.batches[r.batch-1].chunks[r.chunk]
	return &c.Instances[:cap(c.Instances)][r.slot], c.batch, true
}

// removedLen returns how many instances RemoveAll took, while they are kept and the list has not changed since.
func (d *DrawList) removedLen() int {
	if k := d.removed; k != nil && k.version == d.version {
		return k.n
	}
	return 0
}

// restoreRemoved puts back every instance RemoveAll took, in the slots they had (the caller checked that they are
// what is to be drawn: removedAt): the list is as it was before RemoveAll, its chunks dirty and changed, their
// damage unknown.
func (d *DrawList) restoreRemoved() {
	k := d.removed
	d.removed = nil
	for bi, b := range d.batches {
		if bi >= len(k.chunks) { // a batch asked for since (Batch): it held nothing
			break
		}
		for ci, c := range b.chunks {
			kc := k.chunks[bi][ci]
			if kc.n == 0 {
				continue
			}
			c.Instances = c.Instances[:kc.n]
			c.bounds, c.boundsValid = kc.bounds, kc.boundsValid
			c.free = false
			c.MarkAllDirty()
			c.changes++
			c.edits++
			c.forgetDamage()
			b.n += int(kc.n)
			b.used++
			b.boundsValid = false
		}
		b.free = slices.DeleteFunc(b.free, func(ci int32) bool { return !b.chunks[ci].free })
	}
	d.slots = k.slots
	d.n, d.flagged, d.content = k.n, k.flagged, k.content
	d.version++
	d.restores++
}

// IDs calls f for every entity id in the list (batch, chunk then slot order).
func (d *DrawList) IDs(f func(id uint32)) {
	for _, b := range d.batches {
		for _, c := range b.chunks {
			for i := range c.Instances {
				f(c.Instances[i].ID)
			}
		}
	}
}

// Bounds returns the world-space box around all instances.
func (d *DrawList) Bounds() AABB {
	bb := EmptyAABB()
	for _, b := range d.batches {
		bb = bb.Union(b.Bounds())
	}
	return bb
}

// BoundsOf returns the world-space box around the given entities (for
// "frame selection"); unknown ids are ignored.
func (d *DrawList) BoundsOf(ids []uint32) AABB {
	bb := EmptyAABB()
	for _, id := range ids {
		if at, ok := d.slot(id); ok {
			c, s := d.at(at)
			bb = bb.Union(c.batch.localBounds().Transform(c.Instances[s].World))
		}
	}
	return bb
}

// SetSelected selects or deselects id (selected instances are drawn tinted and outlined). Ids without an
// instance may be selected too: they are drawn selected once they have one.
func (d *DrawList) SetSelected(id uint32, on bool) {
	if on == d.Selected(id) {
		return
	}
	if on {
		if int(id) >= len(d.sel) {
			d.sel = append(d.sel, make([]byte, int(id)+1-len(d.sel))...)
		}
		d.sel[id] = 1
		d.selN++
	} else {
		d.sel[id] = 0
		d.selN--
	}
	d.selVersion++
}

// SetSelection selects exactly the ids in sel.
func (d *DrawList) SetSelection(sel []uint32) { d.SelectOnly(slices.Values(sel)) }

// SelectOnly selects exactly the ids ids yields.
func (d *DrawList) SelectOnly(ids iter.Seq[uint32]) {
	old := d.selN
	clear(d.sel)
	d.selN = 0
	for id := range ids {
		if int(id) >= len(d.sel) {
			d.sel = append(d.sel, make([]byte, int(id)+1-len(d.sel))...)
		}
		if d.sel[id] == 0 {
			d.sel[id] = 1
			d.selN++
		}
	}
	if old != 0 || d.selN != 0 {
		d.selVersion++
	}
}

// Selected reports whether id is selected.
func (d *DrawList) Selected(id uint32) bool { return int(id) < len(d.sel) && d.sel[id] != 0 }

// SelectionLen returns the number of selected ids.
func (d *DrawList) SelectionLen() int { return d.selN }

// SelectionVersion changes whenever the selection changes.
func (d *DrawList) SelectionVersion() uint64 { return d.selVersion }

// Flagged returns the number of instances with [FlagSelected].
func (d *DrawList) Flagged() int { return d.flagged }

// SelectionBounds returns the world-space box around the instances drawn selected (selected ids and
// [FlagSelected]); ok is false when there are none. It is cached until the list or the selection changes.
func (d *DrawList) SelectionBounds() (box AABB, ok bool) {
	c := &d.selBox
	if !c.valid || c.version != d.version || c.selVersion != d.selVersion {
		c.box, c.version, c.selVersion, c.valid = EmptyAABB(), d.version, d.selVersion, true
		if d.selN > 0 || d.flagged > 0 {
			for _, b := range d.batches {
				local := b.localBounds()
				for _, ch := range b.chunks {
					if d.allSelected(ch) { // its box, kept by the chunk (Select All: no instance transformed)
						c.box = c.box.Union(ch.Bounds())
						continue
					}
					for i := range ch.Instances {
						if in := &ch.Instances[i]; in.Flags&FlagSelected != 0 || d.Selected(in.ID) {
							c.box = c.box.Union(finiteBox(local.Transform(in.World)))
						}
					}
				}
			}
		}
	}
	return c.box, !c.box.IsEmpty()
}

// allSelected reports whether every instance of ch is drawn selected.
func (d *DrawList) allSelected(ch *Chunk) bool {
	for i := range ch.Instances {
		if in := &ch.Instances[i]; in.Flags&FlagSelected == 0 && !d.Selected(in.ID) {
			return false
		}
	}
	return len(ch.Instances) > 0
}

// SelectionBytes returns the selection as one byte per id (non-zero: selected), indexed by id, for a renderer
// to upload; ids at and past its end are not selected. It must not be modified.
func (d *DrawList) SelectionBytes() []byte { return d.sel }

// checkOpen verifies that the open chunk of each cell (and each hint of one) is a chunk of that cell.
func (b *Batch) checkOpen(bi int) error {
	for cell, ci := range b.open {
		if int(ci) >= len(b.chunks) || b.chunks[ci].cell != cell {
			return fmt.Errorf("viewport: batch %d: the open chunk of cell %v is chunk %d, not one of that cell's", bi, cell, ci)
		}
	}
	for _, h := range b.hint {
		if ci, ok := b.open[h.cell]; h.set && (ok != h.has || ok && ci != h.ci) {
			return fmt.Errorf("viewport: batch %d: the hint for cell %v differs from the open chunks", bi, h.cell)
		}
	}
	return nil
}

// Check verifies the list's internal invariants (every id maps to the slot
// holding it, counts agree, each instance is in its cell's chunk, chunks hold at most MaxChunk) and returns the
// first violation. It is for tests and debugging.
func (d *DrawList) Check() error {
	n := 0
	var content uint64
	for bi, b := range d.batches {
		bn := 0
		for ci, c := range b.chunks {
			if c.batch != b {
				return fmt.Errorf("viewport: batch %d chunk %d belongs to another batch", bi, ci)
			}
			if len(c.Instances) > MaxChunk {
				return fmt.Errorf("viewport: batch %d chunk %d holds %d instances (max %d)", bi, ci, len(c.Instances), MaxChunk)
			}
			listed := 0
			for _, k := range b.cells[c.cell] {
				if k == int32(ci) {
					listed++
				}
			}
			if listed != 1 {
				return fmt.Errorf("viewport: batch %d chunk %d is listed %d times among the chunks of its cell %v", bi, ci, listed, c.cell)
			}
			if len(c.Instances) == 0 && !c.free {
				return fmt.Errorf("viewport: batch %d chunk %d is empty and not among the free chunks", bi, ci)
			}
			if c.strayed {
				return fmt.Errorf("viewport: batch %d chunk %d is still marked as holding instances of other cells", bi, ci)
			}
			for si := range c.Instances {
				in := &c.Instances[si]
				ref, ok := d.slot(in.ID)
				if !ok {
					return fmt.Errorf("viewport: batch %d chunk %d slot %d: id %d not in the index", bi, ci, si, in.ID)
				}
				if ref != (slotRef{int32(bi) + 1, int32(ci), int32(si)}) {
					return fmt.Errorf("viewport: id %d is at batch %d chunk %d slot %d but indexed at %v", in.ID, bi, ci, si, ref)
				}
				if cell := d.cellOf(&in.World); cell != c.cell {
					return fmt.Errorf("viewport: id %d in cell %v is in the chunk of cell %v", in.ID, cell, c.cell)
				}
				content += instanceHash(int32(bi), in)
				bn++
			}
		}
		if bn != b.n {
			return fmt.Errorf("viewport: batch %d counts %d instances, holds %d", bi, b.n, bn)
		}
		listed := 0
		for _, cs := range b.cells {
			listed += len(cs)
		}
		if listed != len(b.chunks) {
			return fmt.Errorf("viewport: batch %d has %d chunks, %d listed by cell", bi, len(b.chunks), listed)
		}
		freed := 0
		for _, ci := range b.free {
			if int(ci) >= len(b.chunks) || !b.chunks[ci].free {
				return fmt.Errorf("viewport: batch %d lists chunk %d as free, which is not marked so", bi, ci)
			}
			freed++
		}
		for _, c := range b.chunks {
			if c.free {
				freed--
			}
		}
		if freed != 0 {
			return fmt.Errorf("viewport: batch %d: its free chunks and the chunks marked free differ", bi)
		}
		if err := b.checkOpen(bi); err != nil {
			return err
		}
		n += bn
	}
	if n != d.n {
		return fmt.Errorf("viewport: %d instances but the list counts %d", n, d.n)
	}
	if d.deferMoves || len(d.strays) > 0 {
		return fmt.Errorf("viewport: moves deferred and not settled (%d chunks)", len(d.strays))
	}
	if content != d.content {
		return fmt.Errorf("viewport: the instances' hashes sum to %#x but the list keeps %#x", content, d.content)
	}
	indexed := 0
	for _, p := range d.slots {
		for _, r := range p {
			if r.batch != 0 {
				indexed++
			}
		}
	}
	if indexed != n {
		return fmt.Errorf("viewport: %d instances but %d indexed ids", n, indexed)
	}
	flagged := 0
	d.IDs(func(id uint32) {
		if in, _, _ := d.Get(id); in.Selected() {
			flagged++
		}
	})
	if flagged != d.flagged {
		return fmt.Errorf("viewport: %d instances flagged selected but the list counts %d", flagged, d.flagged)
	}
	sel := 0
	for _, s := range d.sel {
		if s != 0 {
			sel++
		}
	}
	if sel != d.selN {
		return fmt.Errorf("viewport: %d selected ids but the list counts %d", sel, d.selN)
	}
	return nil
}
