package viewport

import (
	"fmt"
	"slices"
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
	// FlagSelected marks a selected instance (drawn highlighted).
	FlagSelected uint32 = 1 << iota
)

// Selected reports whether FlagSelected is set.
func (in *Instance) Selected() bool { return in.Flags&FlagSelected != 0 }

// Range is a half-open range [Start, End) of instance slots.
type Range struct{ Start, End int }

// Len returns End - Start.
func (r Range) Len() int { return r.End - r.Start }

// maxDirtyRanges bounds the dirty list of a batch: beyond it the ranges
// collapse into one that covers them all (re-uploading some clean slots is
// cheaper than thousands of tiny uploads).
const maxDirtyRanges = 64

// Batch holds the instances of one mesh, densely packed in slots. An
// entity keeps its slot while it lives; removing one moves the last
// instance into the hole (so only that slot changes). Changed slots are
// recorded as dirty ranges for the renderer to upload.
type Batch struct {
	// Ref is the mesh reference ("builtin:cube", "models/ship.obj") the
	// instances share.
	Ref string
	// Mesh is the geometry to draw, nil until set with [DrawList.SetMesh];
	// a batch without a mesh is not drawn (and counts as a unit cube for
	// bounds and picking).
	Mesh *assets.Mesh
	// Instances are the live instances in slot order. Read-only outside
	// this package: change them through the [DrawList] methods, which
	// track dirty ranges.
	Instances []Instance

	dirty       []Range
	bounds      AABB
	boundsValid bool
}

// Len returns the number of instances.
func (b *Batch) Len() int { return len(b.Instances) }

func (b *Batch) markDirty(slot int) {
	b.boundsValid = false
	if n := len(b.dirty); n > 0 {
		last := &b.dirty[n-1]
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
	b.dirty = append(b.dirty, Range{slot, slot + 1})
	if len(b.dirty) > maxDirtyRanges {
		all := b.dirty[0]
		for _, r := range b.dirty[1:] {
			all.Start = min(all.Start, r.Start)
			all.End = max(all.End, r.End)
		}
		b.dirty = append(b.dirty[:0], all)
	}
}

// MarkAllDirty marks every slot dirty (for a renderer that lost its
// buffers).
func (b *Batch) MarkAllDirty() {
	b.dirty = b.dirty[:0]
	if len(b.Instances) > 0 {
		b.dirty = append(b.dirty, Range{0, len(b.Instances)})
	}
	b.boundsValid = false
}

// Dirty returns the slots changed since the last [Batch.ClearDirty], sorted,
// merged and clipped to the live slots. The slice is reused: copy it to keep it.
func (b *Batch) Dirty() []Range {
	if len(b.dirty) == 0 {
		return nil
	}
	slices.SortFunc(b.dirty, func(x, y Range) int { return x.Start - y.Start })
	out := b.dirty[:0]
	for _, r := range b.dirty {
		r.End = min(r.End, len(b.Instances))
		if r.Start >= r.End {
			continue
		}
		if n := len(out); n > 0 && r.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, r.End)
			continue
		}
		out = append(out, r)
	}
	b.dirty = out
	return out
}

// DirtyCount returns the number of dirty slots.
func (b *Batch) DirtyCount() int {
	n := 0
	for _, r := range b.Dirty() {
		n += r.Len()
	}
	return n
}

// ClearDirty forgets the dirty ranges (the renderer calls it after
// uploading them).
func (b *Batch) ClearDirty() { b.dirty = b.dirty[:0] }

// Bounds returns the world-space box around all instances (their geometry
// bounds transformed by their world matrices; a unit cube when the batch has
// no mesh). It is cached until the batch changes.
func (b *Batch) Bounds() AABB {
	if b.boundsValid {
		return b.bounds
	}
	local := b.localBounds()
	bb := EmptyAABB()
	for i := range b.Instances {
		bb = bb.Union(local.Transform(b.Instances[i].World))
	}
	b.bounds, b.boundsValid = bb, true
	return bb
}

func (b *Batch) localBounds() AABB { return MeshBounds(b.Mesh) }

type slotRef struct{ batch, slot int32 }

// DrawList is the renderer's input: instances grouped by mesh into batches
// (one draw call each), addressed by entity id, updated incrementally.
// Batches keep their index for the life of the list (an emptied batch stays,
// with no instances), so a renderer can key its GPU buffers by index.
// The zero value is not usable; call [NewDrawList].
type DrawList struct {
	batches []*Batch
	byMesh  map[string]int32
	slots   map[uint32]slotRef
	version uint64
}

// Version counts the changes to what the list draws: it grows whenever an
// instance's bytes change, an instance is added or removed, or a batch's
// mesh changes, and stays put otherwise. It is the "scene changed" input of
// [RedrawPolicy] (FrameState.SceneTick).
func (d *DrawList) Version() uint64 { return d.version }

// NewDrawList returns an empty draw list.
func NewDrawList() *DrawList {
	return &DrawList{byMesh: map[string]int32{}, slots: map[uint32]slotRef{}}
}

// Batches returns the batches in creation order. The slice must not be
// modified.
func (d *DrawList) Batches() []*Batch { return d.batches }

// Len returns the number of instances in all batches.
func (d *DrawList) Len() int { return len(d.slots) }

// Batch returns the batch of mesh reference ref, creating it if needed.
func (d *DrawList) Batch(ref string) *Batch {
	return d.batches[d.batchIndex(ref)]
}

func (d *DrawList) batchIndex(ref string) int32 {
	if i, ok := d.byMesh[ref]; ok {
		return i
	}
	i := int32(len(d.batches))
	d.batches = append(d.batches, &Batch{Ref: ref})
	d.byMesh[ref] = i
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
		b.boundsValid = false
		d.version++
	}
}

// Set puts the instance of entity in.ID into the batch of mesh reference ref: a new entity gets
// the next slot, an existing one keeps its slot (or moves batch when its mesh
// changed). A slot is marked dirty only if its bytes change, so setting an
// unchanged instance costs no upload. It panics on ID 0, which the id buffer
// uses for "nothing".
func (d *DrawList) Set(ref string, in Instance) {
	if in.ID == 0 {
		panic("viewport: DrawList.Set: instance ID 0 is reserved for \"no entity\" in the id buffer; give entities ids from 1")
	}
	bi := d.batchIndex(ref)
	if at, ok := d.slots[in.ID]; ok {
		if at.batch == bi {
			b := d.batches[bi]
			if b.Instances[at.slot] != in {
				b.Instances[at.slot] = in
				b.markDirty(int(at.slot))
				d.version++
			}
			return
		}
		d.Remove(in.ID)
	}
	b := d.batches[bi]
	slot := len(b.Instances)
	b.Instances = append(b.Instances, in)
	b.markDirty(slot)
	d.slots[in.ID] = slotRef{bi, int32(slot)}
	d.version++
}

// Get returns entity id's instance and mesh reference.
func (d *DrawList) Get(id uint32) (in Instance, ref string, ok bool) {
	at, ok := d.slots[id]
	if !ok {
		return Instance{}, "", false
	}
	b := d.batches[at.batch]
	return b.Instances[at.slot], b.Ref, true
}

// update applies f to id's instance and marks it dirty if it changed.
func (d *DrawList) update(id uint32, f func(*Instance)) bool {
	ref, ok := d.slots[id]
	if !ok {
		return false
	}
	b := d.batches[ref.batch]
	p := &b.Instances[ref.slot]
	old := *p
	f(p)
	if *p != old {
		b.markDirty(int(ref.slot))
		d.version++
	}
	return true
}

// SetWorld changes id's world matrix; it reports false for an unknown id.
func (d *DrawList) SetWorld(id uint32, m mgl32.Mat4) bool {
	return d.update(id, func(in *Instance) { in.World = m })
}

// SetColor changes id's colour; it reports false for an unknown id.
func (d *DrawList) SetColor(id uint32, c [4]float32) bool {
	return d.update(id, func(in *Instance) { in.Color = c })
}

// SetSelected sets or clears id's [FlagSelected]; it reports false for an
// unknown id.
func (d *DrawList) SetSelected(id uint32, on bool) bool {
	return d.update(id, func(in *Instance) {
		if on {
			in.Flags |= FlagSelected
		} else {
			in.Flags &^= FlagSelected
		}
	})
}

// SetSelection selects exactly the ids in sel (others are deselected);
// only instances whose flag changes become dirty.
func (d *DrawList) SetSelection(sel map[uint32]bool) {
	for _, b := range d.batches {
		for i := range b.Instances {
			in := &b.Instances[i]
			if want := sel[in.ID]; want != in.Selected() {
				in.Flags ^= FlagSelected
				b.markDirty(i)
				d.version++
			}
		}
	}
}

// Remove deletes id's instance: the batch's last instance moves into its
// slot (that slot becomes dirty). It reports false for an unknown id.
func (d *DrawList) Remove(id uint32) bool {
	ref, ok := d.slots[id]
	if !ok {
		return false
	}
	delete(d.slots, id)
	b := d.batches[ref.batch]
	last := len(b.Instances) - 1
	if int(ref.slot) != last {
		moved := b.Instances[last]
		b.Instances[ref.slot] = moved
		d.slots[moved.ID] = ref
		b.markDirty(int(ref.slot))
	}
	b.Instances = b.Instances[:last]
	b.boundsValid = false
	d.version++
	return true
}

// Clear removes all instances (batches and their meshes stay).
func (d *DrawList) Clear() {
	if len(d.slots) > 0 {
		d.version++
	}
	for _, b := range d.batches {
		b.Instances = b.Instances[:0]
		b.dirty = b.dirty[:0]
		b.boundsValid = false
	}
	clear(d.slots)
}

// IDs calls f for every entity id in the list (batch then slot order).
func (d *DrawList) IDs(f func(id uint32)) {
	for _, b := range d.batches {
		for i := range b.Instances {
			f(b.Instances[i].ID)
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
		if ref, ok := d.slots[id]; ok {
			b := d.batches[ref.batch]
			bb = bb.Union(b.localBounds().Transform(b.Instances[ref.slot].World))
		}
	}
	return bb
}

// Check verifies the list's internal invariants (every id maps to the slot
// holding it, no duplicates) and returns the first violation. It is for
// tests and debugging.
func (d *DrawList) Check() error {
	n := 0
	for bi, b := range d.batches {
		for si := range b.Instances {
			id := b.Instances[si].ID
			ref, ok := d.slots[id]
			if !ok {
				return fmt.Errorf("viewport: batch %d slot %d: id %d not in the index", bi, si, id)
			}
			if ref != (slotRef{int32(bi), int32(si)}) {
				return fmt.Errorf("viewport: id %d is at batch %d slot %d but indexed at %v", id, bi, si, ref)
			}
			n++
		}
	}
	if n != len(d.slots) {
		return fmt.Errorf("viewport: %d instances but %d indexed ids", n, len(d.slots))
	}
	return nil
}
