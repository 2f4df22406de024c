// Package serialize reads and writes Voltex scene files (format
// "voltex.scene") and writes game exports (format "voltex.export"). The
// formats are specified in docs/scene-format.md, with JSON Schemas in
// docs/schema/.
//
// # Scenes
//
// [LoadFile] and [Load] read a scene into a fresh world (made by
// LoadOptions.NewWorld, scene.NewWorld by default) and return a [Scene]: the
// world plus the scene's name and the editor state saved with it (camera,
// selection). A load that fails returns no scene and changes nothing, and its
// error is an *[Error] listing every problem found (up to
// [Limits].MaxProblems) as "file:line:col: json.path: message":
//
//	scenes/bad.json:14:40: entities[2].components.Transform.scale: expected 3 items, got 2
//
// [Save] and [SaveFile] write a scene deterministically — entities by id,
// components by name, fields in schema order, 2-space indent, one line per
// component, shortest round-trip floats, a final newline — so that saving
// what was loaded gives the same bytes. [SaveFile] replaces the file
// atomically and keeps the previous version as FILE.bak (package
// internal/atomicfile). Loads and saves report progress and stop when their
// context is cancelled.
//
// Component values are read and written through the ecs schemas of the
// registered components (JSON names, field order, ranges from voltex:"min=,max="
// hints), so any registered component type is stored without extra code.
// ecs.Entity fields are written as scene ids and remapped on load. Names of
// components this build does not know are kept verbatim in a scene.Unknown
// component and written back (with a warning). Older file versions are
// migrated on load through a chain of steps (version 0 → 1 is the first);
// newer ones are refused.
//
// # Prefabs
//
// Any scene file is a prefab: an entity with a "prefab" key instances it, and a load builds the
// prefab's entities as the instance's descendants (scene.PrefabPart, ids from scene.InstanceID)
// from a [Template] that a [Prefabs] set loads once per file (LoadOptions.Prefabs, kept in
// Scene.Prefabs), nested prefabs flattened into it, cycles refused with their chain. The file keeps
// only the differences, as override records keyed by the instance and the prefab entity's id;
// [Save] computes them by comparing each instance with its template. A prefab that cannot be used
// fails the load, or with LoadOptions.KeepBroken leaves a placeholder that keeps the file's records
// as they were (scene.PrefabKept). When prefab files change, [Prefabs.Reload] and
// [UpdateInstances] bring live instances up to date keeping their overrides (the same result as a
// save and reload). [Overrides], [PrefabValue] (revert), [ApplyToPrefab],
// [ApplyInstanceToPrefab] and [Unpack] are what the editor's prefab commands are made of; exports
// flatten instances like any entities.
//
// # Tools
//
// [Format] is `voltex-editor fmt` (canonical form = save(load(f))),
// [ValidateFile] is `validate` (scenes and exports), [Grid] is `grid` (with
// scene.SpawnGrid, the generator of the editor's Spawn Cube Grid) and
// [ExportFile] is `export`.
//
// # Exports
//
// [Export] flattens a scene for games: world matrices baked from the
// hierarchy, a mesh table, colours, names and parent indices, without
// editor-only data. Games read exports with package serialize/game, which
// depends on the standard library only.
//
// # Limits
//
// [Limits] bound the file, its entities, the bytes and values of one
// entity, strings, nesting, and the memory of the loaded world
// (MaxWorldBytes: values, strings, kept JSON, references, bookkeeping); every
// input is read once, as a stream, from a file, standard input ("-",
// [OpenInput]) or any reader ([Input]). Within the default limits any scene
// loads within 3 GiB of peak memory; docs/limits.md states the limits and
// the budget, TestWorstCaseMemory checks it on the worst files (scaled
// down), TestPeakRSSWorstCases at full size (make bench).
package serialize
