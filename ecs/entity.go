package ecs

import "fmt"

// Entity is a handle to an entity of a World: a slot index plus the generation of that slot.
//
// Entities are comparable and cheap to copy. When an entity is despawned its slot's generation is
// incremented, so old handles become stale: every operation on a stale or dead handle is rejected
// and never touches the entity that now owns the slot. The zero Entity is never alive (slot 0 is
// reserved), so it can be used as "no entity".
type Entity struct {
	index uint32
	gen   uint32
}

// Index returns the entity's slot index. Index 0 is never used by a live entity.
func (e Entity) Index() uint32 { return e.index }

// Generation returns the generation of the entity's slot at the time the handle was created.
func (e Entity) Generation() uint32 { return e.gen }

// IsZero reports whether e is the zero Entity (no entity).
func (e Entity) IsZero() bool { return e.index == 0 && e.gen == 0 }

// String formats the entity as "e<index>v<generation>", or "e-" for the zero Entity.
func (e Entity) String() string {
	if e.IsZero() {
		return "e-"
	}
	return fmt.Sprintf("e%dv%d", e.index, e.gen)
}

// noTable marks an entity record whose slot is free.
const noTable = ^uint32(0)

// record locates a slot's entity: its table and row, and the slot's current generation.
type record struct {
	table uint32 // table index, or noTable if the slot is free
	row   uint32
	gen   uint32
}
