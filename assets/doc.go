// Package assets holds the meshes a scene refers to: the built-in meshes generated in code
// (builtin:cube, builtin:plane, builtin:sphere), a fast and defensive Wavefront OBJ parser,
// path safety for asset references, and a Registry that resolves references to meshes and
// reloads them when files change.
//
// # Meshes
//
// A [Mesh] is ready for a GPU upload: one interleaved []float32 vertex buffer
// (position xyz, normal xyz, uv; [FloatsPerVertex] floats, [VertexStride] bytes per vertex,
// attribute byte offsets [OffsetPosition], [OffsetNormal], [OffsetUV]) and a []uint32 index
// buffer of counter-clockwise triangles. Bounds and a Version that grows on every reload let a
// renderer cache GPU buffers per (Ref, Version).
//
// # References
//
// A mesh reference is either "builtin:NAME" or a slash-separated path to an .obj file relative
// to the scene's folder ("models/ship.obj"). [ResolvePath] refuses references that would leave
// the folder tree: "..", absolute paths, and symlinks that resolve outside it. A refused or broken
// reference gives the [Placeholder] mesh plus an error for the console; loading a scene never
// fails because of a mesh. A reference to a glTF model may name one primitive of it
// ("models/ship.glb#mesh/Hull/0", [SplitRef]): the formats that have parts register a
// [PartLoader] ([RegisterMeshPartFormat]), and reloading one reference to a file reloads the others.
//
// # OBJ
//
// [ParseOBJ] reads v, vt, vn and f in all four index forms (v, v/vt, v//vn, v/vt/vn, and with
// empty trailing slots: 1//, 2/2/), negative (relative) indices and polygons of up to 1024 corners
// (convex ones fanned, concave ones ear-clipped on their plane); o, g, s, usemtl, mtllib and other
// statements are tolerated and ignored, as are comments after statements, a UTF-8 byte order
// mark and backslash line continuations. UTF-16 files are refused with a message saying so. Missing normals are computed (smooth,
// area-weighted). Errors read "file:line:col: message". [Limits] bound file size, vertices,
// triangles and face size so that a hostile file cannot exhaust memory. [DescribeOBJ] is the
// text behind `voltex-editor validate model.obj`. [ReadOBJMaterial] reads the material an OBJ's
// faces use from its .mtl library (Kd, d or Tr, map_Kd), every file confined to the scene folder.
//
// # Threads
//
// Meshes are immutable once returned: never write into their slices. A [Registry] is safe for
// concurrent use, but it is meant for the GUI loop: loading and reloading parse on the calling
// goroutine. File watching lives in the sub-package assets/watch, which only posts events.
package assets
