package doc

import (
	"context"
	"errors"
)

// DiskEvent is what happened to the open scene's file outside the editor (the editor maps the
// file watcher's events to these).
type DiskEvent int

// Disk events.
const (
	DiskChanged DiskEvent = iota // written or re-created by another program
	DiskRemoved                  // deleted or renamed away
)

// DiskAction is what the editor should do about a DiskEvent (see OnDisk).
type DiskAction int

// Disk actions.
const (
	// ActionNone: nothing to do (the document has no file).
	ActionNone DiskAction = iota
	// ActionReload: the document is clean: reload it now (Reload, or Open in the background then
	// ReloadFrom); selection and camera are kept.
	ActionReload
	// ActionAsk: the document has unsaved changes: ask "Reload and lose my changes" (Reload) or
	// "Keep mine" (KeepMine).
	ActionAsk
	// ActionWarnRemoved: the file is gone: warn in the console. The document stays open and counts
	// as dirty, so Save writes the file back and quitting asks first.
	ActionWarnRemoved
)

// String names the action.
func (a DiskAction) String() string {
	return [...]string{"none", "reload", "ask", "warn-removed"}[a]
}

// OnDisk decides what to do about an outside change of the document's file: clean → reload,
// dirty → ask, removed → warn (and the document becomes dirty until saved). Own saves must not be
// reported (the watcher suppresses them).
func (d *Document) OnDisk(ev DiskEvent) DiskAction {
	if d.path == "" {
		return ActionNone
	}
	switch ev {
	case DiskRemoved:
		if !d.missing {
			d.missing = true
			d.version++
		}
		return ActionWarnRemoved
	case DiskChanged:
		if d.Dirty() {
			return ActionAsk
		}
		return ActionReload
	}
	return ActionNone
}

// KeepMine answers ActionAsk with "keep my changes": the file on disk is no longer any state of the
// history, so the document stays dirty (even after undoing everything) until it is saved.
func (d *Document) KeepMine() {
	if d.hist.saved != -1 {
		d.hist.saved = -1
		d.version++
	}
}

// Reload reads the document's file again and replaces the scene with it (see ReloadFrom). On
// failure (the load's error) the document is unchanged. progress and ctx as for Open.
func (d *Document) Reload(ctx context.Context, progress func(done, total int64)) error {
	if d.path == "" {
		return ErrNoPath
	}
	nd, err := Open(ctx, d.path, d.opts, progress)
	if err != nil {
		return err
	}
	d.ReloadFrom(nd)
	return nil
}

// ReloadFrom replaces the scene with nd, a fresh Open of the same file (made on a background
// goroutine, say): the world, name and warnings come from nd; the selection (by scene id: entities
// that are gone drop out) and the editor camera are kept; play mode stops, an open transaction is
// dropped, the history is cleared and the document is clean.
func (d *Document) ReloadFrom(nd *Document) {
	if nd == nil || nd == d {
		panic(errors.New("doc.ReloadFrom: pass a newly opened document (doc.Open of this document's Path)"))
	}
	d.play.off()
	d.setWorld(nd.world)
	d.opened = nd.opened
	d.name = nd.name
	d.warnings = nd.warnings
	d.prefabSet, d.dir, d.prefabs.broken = nd.prefabSet, nd.dir, nd.prefabs.broken
	d.sceneConflicts = nd.sceneConflicts
	d.missing = false
	// The journal starts again on the file read (not on a snapshot of it): the history's reset
	// records nothing.
	jr := d.jr
	d.jr = nil
	d.hist.reset()
	if d.jr = jr; jr != nil {
		jr.reloaded(&d.hist, d.opened)
		d.opened = nil
	}
	d.sel.prune()
	d.version++
}
