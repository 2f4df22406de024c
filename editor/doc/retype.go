package doc

import (
	"bytes"
	"context"

	"github.com/voltex-editor/voltex/serialize"
)

// Retype moves the document into worlds made by opts (its NewWorld registering other component
// types: a project file was edited). The scene goes through its saved form — saved with the old
// types, loaded with the new — so every value is read as the new declarations say: renamed
// components and fields (former names) move over, added fields take their defaults, removed
// components are kept verbatim as unknown ones. A value the new types cannot hold (a removed field,
// a changed type, an enum value that is gone) makes Retype fail with the load's error, listing each,
// and change nothing — unless lossy is set: then such values are dropped (the field keeps its
// default) and listed in the returned warnings. The selection, camera, name and path are kept; the
// history is cleared (its steps hold values of the old types) and play mode stops. The document is
// dirty afterwards if it was, or if its saved form changed.
func (d *Document) Retype(ctx context.Context, opts Options, lossy bool) ([]serialize.Problem, error) {
	d.EndEdit()
	var before bytes.Buffer
	if err := serialize.Save(ctx, &before, d.fileScene(), serialize.SaveOptions{}); err != nil {
		return nil, err
	}
	file := d.path // positions are those of the scene as saved: the file's own when it is unchanged
	if file == "" || d.Dirty() {
		file = d.name + " (as it would be saved)"
	}
	s, err := serialize.Load(ctx, bytes.NewReader(before.Bytes()),
		serialize.LoadOptions{File: file, Limits: opts.Limits, NewWorld: opts.NewWorld, Lossy: lossy})
	if err != nil {
		return nil, err
	}
	var after bytes.Buffer
	if err := serialize.Save(ctx, &after, s, serialize.SaveOptions{}); err != nil {
		return nil, err
	}
	dirty := d.Dirty() || !bytes.Equal(before.Bytes(), after.Bytes())
	d.opts = opts
	d.play.off()
	d.setWorld(s.World)
	d.warnings = s.Warnings
	d.hist.reset()
	if dirty {
		d.hist.saved = -1
	}
	d.sel.prune()
	d.version++
	return s.Warnings, nil
}
