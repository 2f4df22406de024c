package doc

import (
	"github.com/voltex-editor/voltex/ecs/scene"
)

// sceneNameCmd renames the scene itself.
type sceneNameCmd struct{ from, to string }

func (c *sceneNameCmd) label() string { return "Rename Scene" }

func (c *sceneNameCmd) size() int { return len(c.from) + len(c.to) }

func (c *sceneNameCmd) apply(d *core) error {
	d.name = c.to
	return nil
}

func (c *sceneNameCmd) revert(d *core) error {
	d.name = c.from
	return nil
}

// sceneConflictsCmd changes the scene-level conflict records.
type sceneConflictsCmd struct{ from, to []scene.MergeConflict }

func (c *sceneConflictsCmd) label() string { return "Resolve Conflict" }

func (c *sceneConflictsCmd) size() int {
	n := 0
	for _, l := range [][]scene.MergeConflict{c.from, c.to} {
		for _, m := range l {
			n += 64 + len(m.Path) + len(m.Base) + len(m.Ours) + len(m.Theirs)
		}
	}
	return n
}

func (c *sceneConflictsCmd) apply(d *core) error {
	d.sceneConflicts = c.to
	return nil
}

func (c *sceneConflictsCmd) revert(d *core) error {
	d.sceneConflicts = c.from
	return nil
}
