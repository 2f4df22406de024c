package doc

import (
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/serialize"
)

// compState is whether an entity has a component, and its value if so.
type compState struct {
	has bool
	val compVal
}

// compChange is one entity's component before and after a command.
type compChange struct {
	id            uint64
	cid           ecs.ComponentID
	before, after compState
	// src: for an entity of a prefab instance, what it was made from when the change was made
	// (the zero PrefabSource for others): undo and redo rebase on the prefab as it is now if it
	// changed since (prefab_undo.go).
	src serialize.PrefabSource
}

// compCmd changes component values and presence: field edits, gizmo drags, rename, add, remove,
// reset and paste.
type compCmd struct {
	name    string
	changes []compChange
}

func (c *compCmd) label() string { return c.name }

func (c *compCmd) size() int {
	n := int(unsafe.Sizeof(compChange{})) * len(c.changes)
	for i := range c.changes {
		n += c.changes[i].before.val.bytes() + c.changes[i].after.val.bytes()
	}
	return n
}

func (c *compCmd) apply(d *core) error {
	for i := range c.changes {
		if err := d.setChangeState(&c.changes[i], c.changes[i].after); err != nil {
			return err
		}
	}
	return nil
}

func (c *compCmd) revert(d *core) error {
	for i := len(c.changes) - 1; i >= 0; i-- {
		if err := d.setChangeState(&c.changes[i], c.changes[i].before); err != nil {
			return err
		}
	}
	return nil
}
