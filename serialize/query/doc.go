// Package query is the one query language of the editor and the command line, and its batch
// edits: a query such as
//
//	Unit.team=Red Health.current<50 !Spin name~"Orc*" parent:"Wave 2"
//
// picks entities by their components (presence and absence), their fields (numbers, enums,
// strings with globs, vectors by item, entity references), their names and their place in the
// hierarchy, joined by and (or nothing), or, not and parentheses ([Parse], [Query.Eval]; the
// grammar is docs/query.md). An edit such as
//
//	Transform.position.y+=1
//
// changes a field of many entities: =, +=, -=, *=, /= with small arithmetic on x (the value
// before), per item of a vector, and rand(a, b) seeded per entity ([ParseEdit], [Edit.Apply]).
// Both are checked against the components registered in a world (the built-in ones, the game's
// and the project file's), and their errors give the column and the nearest name.
//
// Queries run over a world column by column (ecs.World.EachColumn), without copying values.
// [Patch] writes edits into a scene file's text, changing only the edited values' text (what
// `voltex-editor set` writes).
package query
