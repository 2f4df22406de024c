// Package viewport is the pure (no cgo, no GL) half of the editor's 3D view.
//
// What lives here:
//
//   - [Camera]: the editor camera as stored in scene files (pivot, yaw, pitch,
//     distance in degrees/world units) plus its lens (FovY, Near, Far). It
//     orbits ([Camera.Orbit]), pans ([Camera.Pan]), zooms to the cursor
//     ([Camera.Zoom]), flies ([Camera.Fly]) and frames bounds ([Camera.Frame]),
//     and produces View/Proj matrices and picking rays ([Camera.Ray]).
//     [Controller] maps raw mouse/keyboard state to those operations.
//   - Geometry helpers: [AABB], [Sphere], [Ray], [Frustum] (plane extraction
//     from a view-projection matrix and AABB/sphere culling), ray-vs-box and
//     ray-vs-triangle tests.
//   - [DrawList]: what the renderer draws — instances grouped by mesh into
//     [Batch]es, one instance per entity in a stable slot, with a list of
//     dirty slot ranges so the GPU buffer is updated incrementally.
//   - [Builder]: fills a DrawList from an ecs world (entities with a
//     Transform and a scene.Mesh; colour from scene.Color; id [EntityID])
//     using change-detection queries, so an idle frame uploads nothing and
//     [DrawList.Version] only moves when the picture changes. A list emptied
//     at once (every entity gone) keeps what it held until it next changes,
//     and the builder puts it back in one pass when the same entities come
//     back with the same values (the undo of a delete of everything).
//   - [DrawList.Pick]: CPU ray picking over a DrawList (a fallback for the GPU id
//     buffer in viewport/glrender).
//   - [RedrawPolicy]: decides whether the viewport must be re-rendered this
//     frame and counts renders.
//
// Conventions: right-handed, Y up, the camera looks down -Z at yaw 0 and
// pitch 0; positive yaw turns the view to the left (counter-clockwise seen
// from +Y); negative pitch looks down. Angles in the public API are degrees.
// Pixel coordinates have their origin at the top-left of the viewport, x to
// the right and y down; pixel (i, j) covers [i, i+1)×[j, j+1), so its centre
// is (i+0.5, j+0.5).
//
// All vector and matrix maths uses github.com/go-gl/mathgl/mgl32.
//
// Colours are taken as the user sees them in the inspector's colour widget
// (sRGB-encoded 0..1); the renderer lights in linear space.
//
// May import: the standard library, mgl32, ecs, ecs/scene and assets.
// Never cgo, GL or giu: a purity test checks this.
package viewport
