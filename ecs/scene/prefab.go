package scene

import "github.com/voltex-editor/voltex/ecs"

// Prefab marks an entity that instances a prefab: another scene file, whose entities appear in the
// world as the entity's descendants (each marked with a [PrefabPart]). Scene files store it as the
// entity's "prefab" key (the path), never as a component; package serialize builds the instance's
// entities from the prefab on load and writes back only how they differ from it.
//
// An entity that is itself part of an instance may carry a Prefab too: it is a nested instance,
// and Path is then relative to the folder of the prefab that contains it (it is shown, not loaded:
// the outer prefab already holds its entities).
type Prefab struct {
	// Path is the prefab file, relative to the scene's folder, as the file says.
	Path string `json:"path" voltex:"readonly,tooltip=The prefab file, relative to the scene's folder"`
	// Problem says why the prefab could not be instanced (no such file, a broken file, a cycle of
	// prefabs containing each other); "" when it was. An instance with a problem is a placeholder:
	// the entity keeps its own components, and what the file says about the prefab's entities is
	// kept as it is and written back.
	Problem string `json:"problem" voltex:"readonly"`
}

// Transient marks Prefab as never saved as a component: it is the entity's "prefab" key.
func (Prefab) Transient() {}

// PrefabPart marks an entity that comes from a prefab: one of the descendants of an entity with a
// [Prefab] (its instance). Its scene id is [InstanceID](Instance, Source), so the same entity of
// the same instance has the same id in every save.
type PrefabPart struct {
	// Instance is the scene id of the instance (the entity with the Prefab) in this world.
	Instance uint64 `json:"instance" voltex:"readonly,tooltip=The scene id of the prefab instance this entity belongs to"`
	// Source is the entity's id in the prefab. For entities of prefabs nested in the prefab, it is
	// their id there (an InstanceID of the nested instance and their own id in its file).
	Source uint64 `json:"source" voltex:"readonly,tooltip=The entity's id in the prefab file"`
}

// Transient marks PrefabPart as never saved as a component: parts are saved as override records.
func (PrefabPart) Transient() {}

// PrefabKept holds what a scene file says about an entity of a prefab instance that cannot be
// applied now, exactly as the file says it, so that saving writes it back and nothing is lost:
//
//   - Orphan: the prefab has no such entity (it was removed from the prefab, or the prefab file is
//     missing or broken). The entity is a placeholder under its instance; Name, HasName, Removed
//     and Components are the file's record (component values are the override JSON, "null" for a
//     removed component).
//   - otherwise: parts of the record that do not apply to the prefab entity as it is now (the
//     removal of a component the prefab entity does not have), in Components.
type PrefabKept struct {
	Orphan     bool           `json:"orphan" voltex:"readonly"`
	Name       string         `json:"name" voltex:"readonly"`
	HasName    bool           `json:"hasName" voltex:"readonly"`
	Removed    bool           `json:"removed" voltex:"readonly"`
	Components []RawComponent `json:"components" voltex:"readonly"`
}

// Transient marks PrefabKept as never saved as a component: kept records are written back as override records.
func (PrefabKept) Transient() {}

// registerPrefabs registers Prefab, PrefabPart and PrefabKept.
func registerPrefabs(w *ecs.World) {
	ecs.Register[Prefab](w, ecs.WithStorage(ecs.SparseSet))
	ecs.Register[PrefabPart](w)
	ecs.Register[PrefabKept](w, ecs.WithStorage(ecs.SparseSet))
}

// InstanceID is the scene id of the entity that has id source in a prefab, in the instance of
// that prefab whose own id is instance: a mix of both in 1..[MaxID]. Being computed, it is the
// same in every save, on every branch, so overrides of the same prefab entity merge as one record.
// Two different pairs collide (or hit another entity's id) about as rarely as random ids do.
func InstanceID(instance, source uint64) uint64 {
	s := instance ^ 0x6a09e667f3bcc909
	h := splitmix(&s) ^ source
	return splitmix(&h)%MaxID + 1
}
