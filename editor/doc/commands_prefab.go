package doc

import (
	"context"
	"fmt"
	"io"

	"github.com/voltex-editor/voltex/internal/atomicfile"
)

// subtreeState is the entities of some subtrees as the history holds them (see removeTrees), to
// replace them by another state of the same subtrees.
type subtreeState struct {
	rm    removal
	roots []uint64
}

// replaceCmd replaces some subtrees by another state of them (a prefab operation that changes an
// instance structurally: revert all, unpack, save as prefab).
type replaceCmd struct {
	name          string
	before, after subtreeState
}

func (c *replaceCmd) label() string { return c.name }

func (c *replaceCmd) size() int { return c.before.rm.size() + c.after.rm.size() }

func (c *replaceCmd) apply(d *core) error { return d.replaceState(c.before, c.after) }

func (c *replaceCmd) revert(d *core) error { return d.replaceState(c.after, c.before) }

// applyCmd writes a prefab file (Apply to Prefab) and puts the applying instance in its state.
type applyCmd struct {
	name          string
	file          string
	old, new      []byte
	before, after subtreeState
}

func (c *applyCmd) label() string { return c.name }

func (c *applyCmd) size() int {
	return len(c.old) + len(c.new) + c.before.rm.size() + c.after.rm.size()
}

func (c *applyCmd) apply(d *core) error {
	if err := c.write(context.Background(), d, c.new); err != nil {
		return err
	}
	return d.replaceState(c.after, c.after)
}

func (c *applyCmd) revert(d *core) error {
	if err := c.write(context.Background(), d, c.old); err != nil {
		return err
	}
	return d.replaceState(c.after, c.before)
}

// write writes the prefab file and brings the instances up to date.
func (c *applyCmd) write(ctx context.Context, d *core, data []byte) error {
	if err := atomicfile.WriteFileFunc(c.file, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return fmt.Errorf("writing the prefab: %w", err)
	}
	d.updateInstances(ctx, c.file)
	return nil
}
