package doc

// Commands are values: each undoable edit is a command that the History keeps, with apply (redo)
// and revert (undo) working on the scene (core) alone, so that undo and redo need nothing else of
// the document. They are kept by domain: commands_hierarchy.go (insert and remove subtrees, move
// entities, cube grids), commands_components.go (component values and presence),
// commands_prefab.go (prefab operations), commands_scene.go (the scene's name and merge conflicts).

// command is one undoable change of the scene. It refers to entities only by scene id. apply
// redoes it on the state it was first done in; revert undoes it on the state right after it.
type command interface {
	apply(d *core) error
	revert(d *core) error
	label() string
	// size is the bytes the command holds (its memory cost in the history; estimated where the
	// values point to other memory).
	size() int
}

// multiCmd is several commands done as one step.
type multiCmd struct {
	name string
	cmds []command
}

func (c *multiCmd) label() string { return c.name }

func (c *multiCmd) size() int {
	n := 0
	for _, x := range c.cmds {
		n += x.size()
	}
	return n
}

func (c *multiCmd) apply(d *core) error {
	for _, x := range c.cmds {
		if err := x.apply(d); err != nil {
			return err
		}
	}
	return nil
}

func (c *multiCmd) revert(d *core) error {
	for i := len(c.cmds) - 1; i >= 0; i-- {
		if err := c.cmds[i].revert(d); err != nil {
			return err
		}
	}
	return nil
}
