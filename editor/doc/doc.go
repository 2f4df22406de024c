// Package doc is the editor's pure document model: the open scene (ECS world, file path, scene
// name, editor camera), the selection, the undo/redo history of commands, the dirty state, play
// mode, and what to do when the file changes on disk. It is what the giu editor (package editor)
// drives; everything here is testable without a window.
//
// # Shape
//
// A [Document] is the scene's file, world and camera with the edits of the scene itself (spawn,
// delete, duplicate, reparent, component edits, copy and paste, grids, open, save, reload). It
// composes sub-objects that own their state and methods, each reached by an accessor:
// [Document.Selection] ([Selection]), [Document.History] ([History]: the undo/redo stack of
// commands, its memory budget, the open transaction), [Document.PlayMode] ([Play]: the play copy of
// the world), [Document.Conflicts] ([Conflicts]: merge conflicts) and [Document.Prefabs] ([Prefabs]:
// instances, apply, revert, unpack, live updates). They share the scene state (the world, its
// scene-id index, name, conflicts and prefab files) and never the whole Document. Every undoable edit
// is a command value with apply and revert on that scene state alone (commands_*.go, by domain).
//
// # Documents
//
// [New] makes an empty scene, [Open] loads a file (any goroutine: it touches nothing shared).
// [Document.Save] and [Document.SaveAs] write atomically through package serialize, with the
// editor camera ([Document.Camera], the one copy of the view) but not the selection (editor state: saving it would change
// the file on every click); [Document.PrepareSave] /
// [WriteJob.Run] / [Document.Finish] do the same with the writing on a background goroutine
// (the job holds a clone of the world). [Document.Export] writes the game export. Components this
// build does not know stay in the world as scene.Unknown and are written back verbatim.
//
// # Commands and history
//
// Every change of the scene is a command recorded in the history: [Document.Spawn],
// [Document.SpawnEmpty], [Document.SpawnCube], [Document.Delete] (with descendants),
// [Document.Duplicate], [Document.Paste] (of [Document.Copy] text), [Document.Reparent],
// [Document.ReparentKeepWorld], [Document.MoveNextTo] (reorder siblings, or move next to a row of
// another parent),
// [Document.Rename], [Document.SetField], [Document.SetComponent], [Document.SetComponents],
// [Document.AddComponent], [Document.RemoveComponent], [Document.ResetComponent],
// [Document.PasteComponent], [Document.SpawnGrid], [Document.SetSceneName] and [Conflicts.Resolve] (a merge
// conflict: Use Ours, Use Theirs or Keep Edited; see [Conflicts.List]). Commands take the edit
// world's entity handles but store scene ids (scene.SceneID), never handles, so undoing a delete
// brings the entities back with the same ids, components, parents and child order, and the saved
// file is byte-identical to the one before. [History.Undo] and [History.Redo] also restore the
// selection each step was done with.
//
// A transaction groups edits into one step: [Document.BeginEdit], any number of SetField /
// SetComponent(s) calls (applied at once, so the viewport follows a drag live),
// [Document.EndEdit] (one step, or none if nothing changed) or [Document.CancelEdit] (everything
// put back). SetField outside a transaction is a step of its own. A field set on many entities of a
// component without pointers (everything selected, a value typed) is kept as one column: the values
// before in one ecs.Values, the value typed once, undo and redo loops over the entities. A gizmo drag is a transaction
// opened by [Document.BeginTransformDrag]; each frame [Document.DragWorld] applies the world-space
// change of the dragged pivot to the selected entities' Transforms, writing only what the drag
// changes (a move keeps rotations and scales bit for bit). No edit stores -0.
//
// The history keeps at most Options.MaxHistory steps and Options.MaxHistoryBytes bytes (the oldest
// steps go first, never the newest done one: [History.TakeDropped] says how many went). Deleted
// and spawned entities are kept compactly, each component of a group of entities in one column (a
// cube takes about 140 bytes). A Spawn Cube Grid step holds only its parameters: redo runs the
// generator again with the same ids.
//
// [Document.Dirty] is true when the history position differs from the one at the last save: undoing
// back to the saved state makes the document clean again; a new command after undoing past the save
// point makes that state unreachable, so the document stays dirty until saved. [Document.Version]
// changes whenever the content, the file or the name changes (not on a save to the same file, which
// only makes it clean); [Selection.Version] when the selection does.
//
// # Prefabs
//
// Instances of prefabs (other scene files) are opened with the scene (placeholders when a prefab
// cannot be used: [Prefabs.Broken]) and saved as overrides (package serialize). [Prefabs.Instantiate],
// [Prefabs.SaveAs], [Prefabs.RevertOverride], [Prefabs.RevertInstances],
// [Prefabs.Apply] (undo writes the prefab file back), [Prefabs.ApplyInstance],
// [Prefabs.Unpack] and [Document.SpawnCopies] (a grid of copies of an entity or of a prefab) are
// commands; [Prefabs.Changed] brings the instances up to date in place when prefab files change on
// disk (serialize.UpdateInstances, the one update path, which Apply's writes go through too; not a
// step). Entities of an instance keep the place their prefab gives them (ErrPrefab);
// duplicates and pastes of an instance are instances with ids of their own; Save As into another
// folder names the prefabs relative to it.
//
// # Clipboard
//
// [Document.Copy] returns scene JSON text (a complete voltex.scene file holding the copied
// entities), so copy and paste work between editor processes through the system clipboard, and a
// scene file's text pastes too. Paste gives new ids and remaps references between the pasted
// entities.
//
// # Selection
//
// The selection is an ordered set of scene ids (the last one is active): [Selection.Select],
// [Selection.Add], [Selection.Toggle], [Selection.Deselect], [Selection.Clear],
// [Selection.SelectAll], [Selection.Invert], [Selection.Entities]. Being kept by id, it survives
// undo, redo and reload.
//
// # Play mode
//
// [Play.Start] clones the edit world (ecs.World.Clone keeps the entity handles) and runs the
// play systems (scene.SpinSystem by default) on the clone at every [Play.Tick];
// [Play.SetPaused], [Play.Step] (one tick of [FixedStep]), [Play.Stop] throws the clone
// away, leaving the edit world exactly as it was, and returns the differences ([PlayChanges]):
// per entity: component fields, whole components added or removed, deletions and creations, those
// the user made and those the systems made. [Document.KeepPlayChanges] keeps a chosen subset as one
// step. [Document.World] is the world to show, and Roots, IDs, Entity, ID and the selection are of
// it (entities created while playing, by the user or a system, can be selected and edited). While
// playing, field edits, the component commands (add, remove, reset, paste), Rename, Delete, Spawn,
// Duplicate, Paste, Reparent and MoveNextTo (the same commands as outside play, on the clone's own
// scene-id index, with scene ids the edit world does not use) change the clone and are recorded as
// the user's; every other command returns [ErrPlaying].
//
// # Outside changes
//
// [Document.OnDisk] turns a file-watcher event into an action: reload when clean, ask when dirty,
// warn when the file was removed (the document is then dirty, so Save writes it back).
// [Document.Reload] (or [Open] in the background and [Document.ReloadFrom]) keeps the selection and
// the camera; [Document.KeepMine] keeps the user's version.
//
// # Long work
//
// Open, Save, SaveAs, Reload and SpawnGrid take a context (cancel: the document is left as it
// was) and a progress callback; Export and Paste take a context. Only the goroutine that owns the
// document writes its world; long work is split so that its slow half writes nothing of it:
// [Open] builds a new document, [Document.PrepareSave] / [WriteJob.Run] / [Document.Finish] write the
// world lent to the job (ecs.World.Lend: an edit meanwhile waits for its encoding), and
// [Document.PrepareGrid] / [GridJob.Run] / [Document.FinishGrid] compute a cube grid as plain data in
// chunks (progress per chunk, cancellable between chunks) and then add it to the world in one step.
//
// # Handles
//
// Entity handles of the edit world change when entities come back (undo of a delete, redo of a
// spawn) and, to restore the child order of a long sibling list cheaply, a parent may be respawned
// in place (same scene id and slot, new generation). Keep UI state (tree nodes open, caches) by
// scene id ([Document.ID], [Document.Entity]), and re-read handles after any command.
package doc
