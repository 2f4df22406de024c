package ecs

import (
	"errors"
	"fmt"
)

// ErrCannotJoin is returned by Join when the other world cannot be moved in: its components are not registered
// as w's are, or it has what Join does not move (a hierarchy, a loan, a snapshot).
var ErrCannotJoin = errors.New("ecs: cannot join the worlds")

// Join moves every entity of o into w: table by table in the order o made its tables, each table's rows in order,
// as SpawnValues of their non-computed components would (taking w's free slots as it does), and the values of
// o's sparse-set components with them. It returns the entity each of o's entity indexes became in w, by index
// (the zero Entity for indexes not alive in o). o must have registered the same components as w under the same
// ids (w may have more), have no parent links, and be neither lent nor shared; otherwise Join returns an error
// wrapping ErrCannotJoin and changes nothing. o must not be used afterwards: values are copied shallowly
// (what they point to is w's now).
//
// Loads use it to read a big file in pieces, each into a world of its own on its own core, and join them.
func (w *World) Join(o *World) ([]Entity, error) {
	w.checkStructural("join a world")
	if err := w.joinable(o); err != nil {
		return nil, err
	}
	moved := make([]Entity, len(o.records))
	var cols []Values
	for _, t := range o.tables {
		n := len(t.entities)
		if n == 0 {
			continue
		}
		cols = cols[:0]
		for k, id := range t.ids {
			s := o.comps[id]
			if s.info.Computed {
				continue
			}
			cols = append(cols, Values{id: id, t: s.info.Type, ops: s.ops, size: s.size, ptr: t.cols[k].ptr, n: n})
		}
		out := w.SpawnValues(cols, 0, n)
		for i, e := range t.entities {
			moved[e.index] = out[i]
		}
	}
	for _, id := range o.sparseIDs {
		sp := o.comps[id].sparse
		to := w.comps[id]
		for r, e := range sp.dense {
			ne := moved[e.index]
			dst, row := w.place(ne, to, nil, 0)
			if sp.col.size != 0 {
				to.ops.deepCopy(dst.at(row), sp.col.at(uint32(r)), 1, false)
			}
		}
	}
	return moved, nil
}

// joinable reports why o cannot be joined into w (nil if it can).
func (w *World) joinable(o *World) error {
	switch {
	case o == w:
		return fmt.Errorf("%w: a world into itself", ErrCannotJoin)
	case o.hier.active:
		return fmt.Errorf("%w: the world has parent links", ErrCannotJoin)
	case len(o.loans) > 0 || len(o.shares) > 0 && o.sharesLive() || o.snapshot:
		return fmt.Errorf("%w: the world is lent or shared", ErrCannotJoin)
	case o.locks != 0 || o.frozen:
		return fmt.Errorf("%w: the world is being iterated", ErrCannotJoin)
	case len(o.comps) > len(w.comps):
		return fmt.Errorf("%w: it has %d components registered, this world %d", ErrCannotJoin, len(o.comps), len(w.comps))
	}
	for id, s := range o.comps {
		ws := w.comps[id]
		if ws.info.Type != s.info.Type || (ws.sparse == nil) != (s.sparse == nil) {
			return fmt.Errorf("%w: component %d is %s in one and %s in the other", ErrCannotJoin, id, s.info.Name, ws.info.Name)
		}
	}
	return nil
}
