package serialize

import (
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// Scene is a scene as the editor holds it: the world plus what the file
// says outside the world.
type Scene struct {
	Name  string
	World *ecs.World
	// Camera is the editor camera saved with the scene; nil if none.
	Camera *scene.EditorCamera
	// Selection is the editor selection saved with the scene, in file order.
	Selection []ecs.Entity
	// Conflicts are the scene-level conflicts a merge left (the scene's name;
	// conflicts of entities are their scene.MergeConflicts components). Saved
	// in the editor section; a scene with any is not valid (ValidateFile).
	Conflicts []scene.MergeConflict
	// Warnings are the problems found by the load that did not stop it
	// (unknown components kept verbatim, selection entries that name no
	// entity, …).
	Warnings []Problem
	// Prefabs are the prefabs the scene's instances are built from (Load sets it; nil for a scene
	// without instances made in code). Save compares each instance with its prefab to write only
	// the differences.
	Prefabs *Prefabs
	// Dir is the folder the scene's prefab paths are relative to (Load sets it from the file).
	Dir string
	// Broken lists the problems of instances whose prefab could not be used, left as placeholders
	// (LoadOptions.KeepBroken): errors to show, though the scene loaded.
	Broken []Problem
	// Roots are the entities without a parent in sibling order, as scene.Roots lists them, from the
	// order the load links the hierarchy in (at a million roots, a sort less wherever the scene is first
	// shown); nil when the load does not know them (a scene with prefab instances).
	Roots []ecs.Entity
	// ByID are every entity in ascending id order with their ids, as scene.EnsureIDsWith returns them, from the
	// load's own check of the ids (an index of the ids needs no sort of its own then); nil when the load does not
	// know them (a scene with prefab instances).
	ByID    []ecs.Entity
	ByIDIDs []uint64

	used []*Template // templates the load instanced (their files are what the scene depends on)
	data int64       // world memory the load counted (Limits.MaxWorldBytes), prefab files it instanced left out
}
