// Package project reads Voltex project files (voltex.project.json, format "voltex.project"): a
// game's own components declared as data, so that the stock editor and command-line tools edit,
// validate and export them with no Go code and no rebuild. The format is specified in
// docs/project-file.md, with a JSON Schema in docs/schema/voltex.project.schema.json.
//
// [Find] locates the project file of a scene the way go finds go.mod: next to the scene, else in
// the nearest folder above. [Load] and [Parse] read one and report every problem as
// "file:line:col: path: message" (an *[Error]). A [Project] holds the declarations — components,
// named enums and structs, their fields with types, defaults, hints and former names — and the Go
// types built from them at run time with reflect.StructOf: vec3 is an mgl32.Vec3, entity an
// ecs.Entity, an enum an int32 whose voltex tag names its values, and so on. Because they are
// ordinary struct types with json and voltex tags, every path that works on Go components (the ecs
// schema, the scene loader and saver, the inspector, copy and paste, export) works on them
// unchanged.
//
// [Project.Register] registers the declared components with a world (or checks that the Go types a
// game registered under the same names agree with them), and [Project.NewWorld] wraps a world
// maker. [Generate] writes the Go source of the same types (json tags, voltex hints, Default
// methods, enum constants and a Register function), which is what `voltex-editor gen` prints: a
// game decodes exports and builds its own editor with them, from one source of truth.
package project
