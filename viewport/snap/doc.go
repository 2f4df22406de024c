// Package snap finds what a moved object snaps to: the surface under the mouse (ray against real mesh triangles,
// with the surface's normal) and the vertex nearest the mouse on screen.
//
// Each mesh asset gets one [Index], built once and shared by all its instances ([Cache]): bounding-volume
// hierarchies over its triangles and over its distinct vertex positions. A query over a [viewport.DrawList]
// culls the list's chunks and then each instance by its world box before it walks an instance's index in the
// instance's local space, so a query costs about the instances near the ray, not all of them.
//
// May import: the standard library, mgl32, viewport and assets. Never cgo, GL or giu.
package snap
