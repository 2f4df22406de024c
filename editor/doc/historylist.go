package doc

import (
	"fmt"

	"github.com/voltex-editor/voltex/ecs/scene"
)

// StepInfo is one step of the undo history as the History panel lists it.
type StepInfo struct {
	Label string // the command, as the Edit menu names it ("Delete")
	What  string // what it touched: an entity's name, "3 entities", a grid's size; "" if nothing to name
	Bytes int    // the memory the step holds
}

// Steps appends the history's steps to dst, oldest first, and returns it: the first Undos() of them
// are done, the rest can be redone.
func (h *History) Steps(dst []StepInfo) []StepInfo {
	for i := range h.steps {
		st := &h.steps[i]
		dst = append(dst, StepInfo{Label: st.cmd.label(), What: st.what, Bytes: st.size})
	}
	return dst
}

// GoTo undoes or redoes steps until n of them are done (0: before the first kept step), as many
// Undo or Redo calls in a row. It stops at the first that fails and returns its error.
func (h *History) GoTo(n int) error {
	if n < 0 || n > len(h.steps) {
		return fmt.Errorf("history step %d: the history has %d", n, len(h.steps))
	}
	if err := h.begin(); err != nil {
		return err
	}
	for h.pos > n {
		if err := h.Undo(); err != nil {
			return err
		}
	}
	for h.pos < n {
		if err := h.Redo(); err != nil {
			return err
		}
	}
	return nil
}

// Budget returns the bytes the history may hold (Options.MaxHistoryBytes, or its default); 0 or
// less means no limit.
func (h *History) Budget() int {
	if b := h.c.opts.MaxHistoryBytes; b != 0 {
		return b
	}
	return DefaultMaxHistoryBytes
}

// touched describes what cmd, just done, touched (StepInfo.What). Names are read now: a later
// rename or delete does not change the description.
func (d *core) touched(cmd command) string {
	switch c := cmd.(type) {
	case *compCmd:
		if len(c.changes) == 0 {
			return ""
		}
		first, n := c.changes[0].id, 1
		var seen map[uint64]bool // made only for a step of several entities
		for i := 1; i < len(c.changes); i++ {
			id := c.changes[i].id
			if id == first || seen[id] {
				continue
			}
			if seen == nil {
				seen = map[uint64]bool{first: true}
			}
			seen[id] = true
			n++
		}
		return d.entities(first, n, nil)
	case *fieldCmd:
		return d.entities(c.ids[0], len(c.ids), nil)
	case *treeCmd:
		if len(c.roots) == 0 {
			return ""
		}
		return d.entities(c.roots[0], len(c.roots), c.rm.pack)
	case *placeCmd:
		if len(c.moves) == 0 {
			return ""
		}
		return d.entities(c.moves[0].id, len(c.moves), nil)
	case *replaceCmd:
		return d.subtree(c.after)
	case *applyCmd:
		return d.subtree(c.after)
	case *gridCmd:
		return fmt.Sprintf("%d×%d×%d", c.p.Count[0], c.p.Count[1], c.p.Count[2])
	case *sceneNameCmd:
		return c.to
	case *multiCmd:
		for _, x := range c.cmds {
			if s := d.touched(x); s != "" {
				return s
			}
		}
	}
	return ""
}

func (d *core) subtree(s subtreeState) string {
	if len(s.roots) == 0 {
		return ""
	}
	return d.entities(s.roots[0], len(s.roots), s.rm.pack)
}

// entities names n entities, the first of which is id: its name for one (from p if it is no
// longer in the world), or how many.
func (d *core) entities(id uint64, n int, p *pack) string {
	if n != 1 {
		return fmt.Sprintf("%d entities", n)
	}
	if e, ok := d.entity(id); ok {
		if name := d.nameOf(e); name != "" {
			return name
		}
	} else if p != nil && !p.lent {
		for i, pid := range p.ids {
			if pid != id {
				continue
			}
			for _, c := range p.snap(i).comps {
				if nm, ok := c.v.(scene.Name); ok && c.id == d.names.ID() && nm.Value != "" {
					return nm.Value
				}
			}
		}
	}
	return fmt.Sprintf("#%d", id)
}
