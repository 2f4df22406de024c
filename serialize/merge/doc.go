// Package merge compares and merges Voltex scene files by entity, component and field — what
// `voltex-editor diff` and `voltex-editor merge` (git's diff and merge drivers for scenes) run.
//
// Both work on [serialize.RawScene]s (scene files read without building a world, see
// serialize.ReadRaw): entities are matched by id, components by name, fields by key, recursing
// into nested objects; arrays are compared as one value.
//
// [Diff] lists what changed from one scene to another ([Change]: added and removed entities,
// name, parent and sibling order changes, added and removed components, changed fields);
// [WriteText] prints it for people and [WriteJSON] for tools.
//
// [Merge] is a three-way merge: changes made on one side are taken, the same change made on both
// sides is taken once, and a value changed two different ways is a conflict. A conflict never
// leaves a broken file: the merged scene keeps ours (or, for an entity deleted on one side and
// changed on the other, the changed entity) and records base, ours and theirs in the entity's
// scene.MergeConflicts component (scene-level ones in the editor section), where the editor shows
// them and `validate` refuses them until they are resolved. Entities still needed as parents or
// reference targets come back, and moves that together would make a parent cycle keep ours. An
// instance unpacked on one side stays unpacked, the other side's changed overrides recorded as
// conflicts; sides that could be merged only with their prefabs' contents are refused
// (Result.Unmergeable).
//
// Records are keyed by entity id, component name and field path, so the same machinery can merge
// any keyed records (prefab instance overrides keyed by prefab entity id, for instance) that are
// expressed as entities and JSON components.
package merge
