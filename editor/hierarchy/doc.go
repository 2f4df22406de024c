// Package hierarchy is the Hierarchy panel's pure model: the scene's parent/child tree flattened into the rows a
// list shows — children of collapsed entities skipped; a search keeps the entities whose names match and their
// ancestors, every level open —, which entities are expanded, rows kept in a search while they are renamed, range
// selection from an anchor (Shift-click) and where a drop lands on a row.
//
// It has no giu: package editor draws [Model.Rows] with an ImGui list clipper (only the rows on screen are built,
// so 100,000 entities stay smooth) and forwards clicks and drops here. May import: the standard library and ecs.
package hierarchy
