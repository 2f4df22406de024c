package gltf

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
)

// LoadImagePart returns the encoded bytes (PNG or JPEG) of the image part ("image/N") of the
// model file at path.
func LoadImagePart(path, part string, lim assets.Limits) ([]byte, error) {
	lim = lim.WithDefaults()
	m, err := lastModel.get(path, Limits{MaxBytes: lim.MaxFileBytes, MaxVertices: lim.MaxVertices, MaxTriangles: lim.MaxTriangles})
	if err != nil {
		return nil, err
	}
	s, ok := strings.CutPrefix(part, "image/")
	i, err := strconv.Atoi(s)
	if !ok || err != nil || i < 0 || i >= len(m.Images) {
		return nil, fmt.Errorf("%s: no image %q (the model holds %d images: image/0 …)", path, part, len(m.Images))
	}
	if len(m.Images[i].Data) == 0 {
		return nil, fmt.Errorf("%s: %s could not be read (see the import's warnings)", path, part)
	}
	return m.Images[i].Data, nil
}

// MeshPart returns the part of a reference ("model.glb#" + MeshPart(m, i, p)) that names primitive
// p of mesh i: "mesh/NAME/P", NAME being the mesh's name when that is unique in the model, not
// all digits and free of "/" (so that the reference survives a re-export that reorders meshes),
// else the mesh's index. The first call on a model indexes its meshes: calls on one Model must
// not run at the same time.
func MeshPart(m *Model, mesh, prim int) string {
	return "mesh/" + m.meshKey(mesh) + "/" + strconv.Itoa(prim)
}

// ImagePart returns the part of a reference that names image i: "image/I".
func ImagePart(i int) string { return "image/" + strconv.Itoa(i) }

// meshKey is the NAME of MeshPart.
func (m *Model) meshKey(i int) string {
	m.indexMeshes()
	return m.meshKeys[i]
}

// indexMeshes computes every mesh's key once (a model may have a million meshes).
func (m *Model) indexMeshes() {
	if len(m.meshKeys) == len(m.Meshes) && m.meshByKey != nil {
		return
	}
	count := make(map[string]int, len(m.Meshes))
	for i := range m.Meshes {
		count[m.Meshes[i].Name]++
	}
	m.meshKeys = make([]string, len(m.Meshes))
	m.meshByKey = make(map[string]int, len(m.Meshes))
	for i := range m.Meshes {
		key := strconv.Itoa(i)
		if name := m.Meshes[i].Name; usableName(name) && count[name] == 1 {
			key = name
		}
		m.meshKeys[i] = key
		m.meshByKey[key] = i
	}
}

// usableName reports whether a name can stand in a reference's part: not empty, not all digits
// (an index), no "/" and no control characters.
func usableName(s string) bool {
	if s == "" || len(s) > 256 || strings.ContainsRune(s, '/') {
		return false
	}
	digits := true
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
		digits = digits && r >= '0' && r <= '9'
	}
	return !digits
}

// findMesh resolves the NAME of a mesh part: the mesh whose key it is, else an index.
func (m *Model) findMesh(key string) (int, bool) {
	m.indexMeshes()
	if i, ok := m.meshByKey[key]; ok {
		return i, true
	}
	if n, err := strconv.Atoi(key); err == nil && n >= 0 && n < len(m.Meshes) && strconv.Itoa(n) == key {
		return n, true
	}
	return 0, false
}

// Primitive returns the primitive a mesh part ("mesh/NAME/P", see [MeshPart]) names.
func (m *Model) Primitive(part string) (*Primitive, error) {
	rest, ok := strings.CutPrefix(part, "mesh/")
	slash := strings.LastIndexByte(rest, '/')
	if !ok || slash < 0 {
		return nil, fmt.Errorf("%q is not a mesh part (mesh/NAME/PRIMITIVE)", part)
	}
	mi, ok := m.findMesh(rest[:slash])
	if !ok {
		return nil, fmt.Errorf("no mesh %q in the model (it has %d)", rest[:slash], len(m.Meshes))
	}
	p, err := strconv.Atoi(rest[slash+1:])
	if err != nil || p < 0 || p >= len(m.Meshes[mi].Primitives) {
		return nil, fmt.Errorf("mesh %q has no primitive %q (it has %d)", rest[:slash], rest[slash+1:], len(m.Meshes[mi].Primitives))
	}
	pr := &m.Meshes[mi].Primitives[p]
	if pr.Skipped {
		return nil, fmt.Errorf("primitive %d of mesh %q is made of points or lines, which are not drawn", p, rest[:slash])
	}
	return pr, nil
}

// LoadPart imports the .gltf or .glb file at path and returns the primitive a mesh part names
// ("mesh/NAME/P", see [MeshPart]) as one mesh asset, in its mesh's own space (the entity that
// uses it places it), with its vertex colours, second texture coordinates and tangents. lim bounds the file as for [LoadMesh]. The last model read is kept, so that
// loading every part of one model reads it once: it is read again when its file's size or
// modification time changes (a .gltf's external buffers are not looked at).
func LoadPart(path, part string, lim assets.Limits) (*assets.Mesh, error) {
	lim = lim.WithDefaults()
	m, err := lastModel.get(path, Limits{MaxBytes: lim.MaxFileBytes, MaxVertices: lim.MaxVertices, MaxTriangles: lim.MaxTriangles})
	if err != nil {
		return nil, err
	}
	p, err := m.Primitive(part)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(p.Indices) == 0 {
		return nil, fmt.Errorf("%s: %s has no triangles", path, part)
	}
	vb := make([]float32, 0, len(p.Positions)*assets.FloatsPerVertex)
	for i, pos := range p.Positions {
		nrm := p.Normals[i]
		var uv mgl32.Vec2
		if i < len(p.UVs) {
			uv = p.UVs[i]
		}
		vb = append(vb, pos[0], pos[1], pos[2], nrm[0], nrm[1], nrm[2], uv[0], uv[1])
	}
	mesh := assets.NewMesh(vb, append([]uint32(nil), p.Indices...))
	mesh.Colors = flatten4(p.Colors)
	for _, uv := range p.UVs1 {
		mesh.UVs1 = append(mesh.UVs1, uv[0], uv[1])
	}
	mesh.Tangents = flatten4(p.Tangents)
	return mesh, nil
}

// flatten4 returns vs as 4 floats each (nil for none).
func flatten4(vs []mgl32.Vec4) []float32 {
	if len(vs) == 0 {
		return nil
	}
	out := make([]float32, 0, 4*len(vs))
	for _, v := range vs {
		out = append(out, v[:]...)
	}
	return out
}

// modelCache keeps the last model LoadPart imported.
type modelCache struct {
	mu    sync.Mutex
	path  string
	size  int64
	mtime time.Time
	lim   Limits
	model *Model
}

var lastModel modelCache

// get returns the model at path, imported within lim, from the cache if the file has not changed.
func (c *modelCache) get(path string, lim Limits) (*Model, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.model != nil && c.path == path && c.size == st.Size() && c.mtime.Equal(st.ModTime()) && c.lim == lim {
		return c.model, nil
	}
	c.model = nil // not kept while the next one is read
	m, err := Import(path, lim)
	if err != nil {
		return nil, err
	}
	m.indexMeshes() // before it is shared: later lookups only read
	c.path, c.size, c.mtime, c.lim, c.model = path, st.Size(), st.ModTime(), lim, m
	return m, nil
}
