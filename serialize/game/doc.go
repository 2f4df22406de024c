// Package game loads the files that the Voltex editor exports for games
// (format "voltex.export", version 1; see docs/scene-format.md in the
// editor's repository). It is what a game imports: pure Go — no ECS, no
// cgo, no GL, no GUI.
//
// An export is a flat list of entities in hierarchy order (a parent always
// comes before its children), each with its world matrix already baked from
// the hierarchy, an index into a table of meshes, a colour, a name and the
// index of its parent. [Load] reads and checks one, reporting problems as
// "line:col: path: message"; [Scene] and [Entity] give typed access, and
// [Scene.Where] says where a game component's value was written in the file.
package game
