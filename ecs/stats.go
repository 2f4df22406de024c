package ecs

import (
	"fmt"
	"strings"
	"unsafe"
)

// Stats is a snapshot of a world's size.
type Stats struct {
	Entities   int // live entities
	FreeSlots  int // despawned slots waiting for reuse
	Archetypes int // tables (one per set of Table components), including empty ones
	Tick       uint32
	Components []ComponentStats // by ID
}

// ComponentStats describes the storage of one component type.
type ComponentStats struct {
	ID      ComponentID
	Name    string
	Storage Storage
	Count   int // entities that have it
	// Bytes is the memory reserved for it: values plus change ticks and their page summaries, at
	// the current capacity (and the sparse index for SparseSet storage).
	Bytes int
}

// Stats returns the world's statistics.
func (w *World) Stats() Stats {
	st := Stats{Entities: w.alive, FreeSlots: len(w.free), Archetypes: len(w.tables), Tick: w.tick}
	for _, s := range w.comps {
		cs := ComponentStats{ID: s.info.ID, Name: s.info.Name, Storage: s.info.Storage}
		if sp := s.sparse; sp != nil {
			cs.Count = sp.len()
			cs.Bytes = colBytes(sp.col, sp.cap) + int(unsafe.Sizeof(record{}))*len(sp.recs) + int(unsafe.Sizeof(Entity{}))*cap(sp.dense)
		} else {
			for ti, c := range s.cols {
				if c != nil {
					cs.Count += w.tables[ti].len()
					cs.Bytes += colBytes(c, w.tables[ti].cap)
				}
			}
		}
		st.Components = append(st.Components, cs)
	}
	return st
}

// colBytes is the memory column c holds at capacity rows: values, ticks and page summaries.
func colBytes(c *column, capacity int) int {
	return capacity*int(c.size) + 4*(len(c.added)+len(c.changed)+len(c.pageAdded)+len(c.pageChanged)+len(c.pageOlder)) + 8*len(c.pageMask)
}

// String formats the statistics as a small table.
func (s Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "entities=%d free=%d archetypes=%d tick=%d\n", s.Entities, s.FreeSlots, s.Archetypes, s.Tick)
	for _, c := range s.Components {
		fmt.Fprintf(&b, "  %-20s %-9s count=%d bytes=%d\n", c.Name, c.Storage, c.Count, c.Bytes)
	}
	return b.String()
}
