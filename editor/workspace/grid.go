package workspace

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/internal/words"
)

// The workspace's side of grids of copies (the grid dialog's gridCopies).

// ActiveID is the scene id of the active entity (0: none).
func (w *Workspace) ActiveID() uint64 {
	if e, ok := w.doc.Selection().Active(); ok {
		return w.doc.ID(e)
	}
	return 0
}

// DescribeEntity describes the entity with scene id id as a grid copies it: "Enemy, with 2 child entities".
func (w *Workspace) DescribeEntity(id uint64) (string, bool) {
	e, ok := w.doc.Entity(id)
	if !ok {
		return "", false
	}
	n := len(w.doc.Subtree(e))
	return fmt.Sprintf("%s, with %s", w.doc.Name(e), words.Count(n-1, "child entity", "child entities")), true
}

// EntityName names the entity with scene id id, if it exists.
func (w *Workspace) EntityName(id uint64) (string, bool) {
	e, ok := w.doc.Entity(id)
	if !ok {
		return "", false
	}
	return w.doc.Name(e), true
}

// PrefabChoices lists the scene files a grid can repeat, and their folder (absolute).
func (w *Workspace) PrefabChoices() ([]string, string) {
	root, _ := filepath.Abs(w.assets.Root())
	return w.prefabs.List(), root
}

// EntitySource is the entity with scene id id as what a grid copies, if it exists.
func (w *Workspace) EntitySource(id uint64) (doc.CopySource, bool) {
	e, ok := w.doc.Entity(id)
	return doc.CopySource{Entity: e}, ok
}

// CopyShape is what src draws, for the grid dialog's preview.
func (w *Workspace) CopyShape(src doc.CopySource) ([]doc.ShapeItem, error) {
	return w.doc.Shape(context.Background(), src)
}

// SpawnCopies makes the grid of copies as one undoable step, which selects it (its group, or its copies).
func (w *Workspace) SpawnCopies(p scene.GridParams, src doc.CopySource) {
	_, copies, err := w.doc.SpawnCopies(context.Background(), p, src)
	if err != nil {
		w.Report("spawn grid", err)
		return
	}
	w.log.Infof("spawned %s", words.Count(len(copies), "copy", "copies"))
	w.watcher.sync()
}
