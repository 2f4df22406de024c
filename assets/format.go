package assets

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// MeshLoader reads the mesh file at path within lim. It does no path-safety checks: the
// [Registry] resolves references with [ResolvePath] before it calls one.
type MeshLoader func(path string, lim Limits) (*Mesh, error)

// PartLoader reads one part of the model file at path: part is what follows the "#" of a
// reference such as "ship.glb#mesh/Hull/0" (see [SplitRef]).
type PartLoader func(path, part string, lim Limits) (*Mesh, error)

var formats = struct {
	sync.RWMutex
	load  map[string]MeshLoader // lower-case extension with its dot → loader
	parts map[string]PartLoader
}{load: map[string]MeshLoader{".obj": LoadOBJ}, parts: map[string]PartLoader{}}

// RegisterMeshFormat makes files whose names end in ext (".glb"; case-insensitive) mesh assets
// read by load: [Registry.Scan] finds them and [Registry.Mesh] loads them. .obj is built in;
// a package that reads another format registers it from its init function, as package
// assets/gltf does for .gltf and .glb.
func RegisterMeshFormat(ext string, load MeshLoader) {
	formats.Lock()
	defer formats.Unlock()
	formats.load[strings.ToLower(ext)] = load
}

// RegisterMeshPartFormat makes references to parts of files whose names end in ext
// ("ship.glb#mesh/Hull/0") mesh assets read by load. Package assets/gltf registers .gltf and .glb.
func RegisterMeshPartFormat(ext string, load PartLoader) {
	formats.Lock()
	defer formats.Unlock()
	formats.parts[strings.ToLower(ext)] = load
}

// partLoader returns the part loader for files ending in ext.
func partLoader(ext string) (PartLoader, bool) {
	formats.RLock()
	defer formats.RUnlock()
	l, ok := formats.parts[strings.ToLower(ext)]
	return l, ok
}

// MeshExtensions returns the registered mesh file extensions (".obj", …), sorted.
func MeshExtensions() []string {
	formats.RLock()
	defer formats.RUnlock()
	return slices.Sorted(maps.Keys(formats.load))
}

// meshLoader returns the loader for files ending in ext.
func meshLoader(ext string) (MeshLoader, bool) {
	formats.RLock()
	defer formats.RUnlock()
	l, ok := formats.load[strings.ToLower(ext)]
	return l, ok
}

// NewMesh returns a mesh of vertices (laid out as [FloatsPerVertex] describes) and triangle
// indices, with its bounds computed. The mesh owns both slices from then on.
func NewMesh(vertices []float32, indices []uint32) *Mesh {
	m := &Mesh{Vertices: vertices, Indices: indices}
	m.computeBounds()
	return m
}
