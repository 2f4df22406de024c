// Package scene is the scene model that sits on top of package ecs: the
// built-in components every Voltex scene understands, their registration,
// the play-mode Spin system and the cube-grid generator.
//
// # Components
//
// The built-ins, with the names scene files use:
//
//   - ecs.Transform (registered by ecs itself): position, Euler rotation in
//     degrees applied as T·Ry·Rx·Rz·S, scale.
//   - [Name]: the entity's display name (stored as the entity's "name" in
//     scene files, not as a component).
//   - [SceneID]: the entity's stable id in its scene file ("id") and its
//     place among its siblings ("order"). New ids are random ([IDs],
//     [NewID], [AssignID], [EnsureIDs]) so that entities added on two
//     branches do not collide; siblings are ordered by key, then id
//     ([Compare], [Roots], [Siblings], [NextOrder], [OrderBetween]).
//   - [Mesh]: "builtin:cube", "builtin:plane", "builtin:sphere" or a path
//     relative to the scene's folder.
//   - [Color]: RGBA, each channel 0..1.
//   - [Spin]: rotation about an axis at a speed in degrees per second, run by
//     [SpinSystem] in play mode.
//   - [Camera]: a game camera, perspective (vertical field of view in
//     degrees, aspect) or orthographic (half width and height), near, far.
//   - [Material]: a glTF metallic-roughness material: base colour, metallic,
//     roughness, normal map, occlusion, emissive colour and strength, alpha
//     mode, double-sided; each map a [Texture] (an image reference, its
//     sampler and its KHR_texture_transform).
//   - [Light]: a directional, point or spot light (KHR_lights_punctual).
//   - [Unknown]: components named in a scene file that this build does not
//     know, kept verbatim so that saving writes them back.
//
// [EditorCamera] is not a component: it is the editor's view saved with a
// scene file (package serialize reads and writes it, package viewport turns
// it into its camera).
//
// Call [Register] on every world that holds a scene. Component types of other
// packages can mark themselves [EditorOnly] (saved, but stripped from game
// exports) or [Transient] (never written to a file).
//
// # Building scenes
//
// [SpawnGrid] is the one cube-grid generator: the editor's Spawn Cube Grid
// and the `voltex-editor grid` command both call it. It is [NewGridPlan],
// [GridPlan.Plan] (the cubes as plain data, in chunks, on any goroutine) and
// [GridPlan.Spawn] (into the world) in one go; [GridParams.Cube] is one
// cube's position and colour, for previews.
package scene
