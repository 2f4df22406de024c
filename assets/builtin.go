package assets

import (
	"math"
	"slices"
	"sync"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/internal/assetref"
)

// References of the built-in meshes. All are unit-sized and centred on the origin.
const (
	// BuiltinPrefix starts every built-in mesh reference.
	BuiltinPrefix = assetref.BuiltinPrefix
	// BuiltinCube is a cube from -0.5 to 0.5 on each axis: 24 vertices (per-face normals),
	// 12 triangles, each face mapped to the full 0..1 UV square.
	BuiltinCube = "builtin:cube"
	// BuiltinPlane is a 1×1 square in the XZ plane at y = 0 facing +Y: 4 vertices, 2 triangles.
	BuiltinPlane = "builtin:plane"
	// BuiltinSphere is a UV sphere of radius 0.5 with smooth normals and a longitude/latitude
	// UV mapping (SphereSlices × SphereStacks).
	BuiltinSphere = "builtin:sphere"
)

// Tessellation of [BuiltinSphere].
const (
	// SphereSlices is the number of segments around the sphere's Y axis.
	SphereSlices = 32
	// SphereStacks is the number of segments from pole to pole.
	SphereStacks = 16
)

// builtinVersion is the Version of every built-in mesh; registries start counting above it.
const builtinVersion = 1

var builtins = sync.OnceValue(func() map[string]*Mesh {
	return map[string]*Mesh{
		BuiltinCube:   finish(BuiltinCube, cubeMesh()),
		BuiltinPlane:  finish(BuiltinPlane, planeMesh()),
		BuiltinSphere: finish(BuiltinSphere, sphereMesh()),
	}
})

var placeholder = sync.OnceValue(func() *Mesh {
	m := finish("builtin:placeholder", octahedronMesh())
	m.Placeholder = true
	return m
})

// Builtin returns the built-in mesh for ref ("builtin:cube", …) and whether it exists.
// The returned mesh is shared: do not modify it.
func Builtin(ref string) (*Mesh, bool) {
	m, ok := builtins()[ref]
	return m, ok
}

// BuiltinRefs returns the references of all built-in meshes, sorted.
func BuiltinRefs() []string {
	refs := make([]string, 0, len(builtins()))
	for ref := range builtins() {
		refs = append(refs, ref)
	}
	slices.Sort(refs)
	return refs
}

// IsBuiltinRef reports whether ref uses the "builtin:" scheme (whether or not the name exists).
func IsBuiltinRef(ref string) bool { return assetref.IsBuiltin(ref) }

// Placeholder returns the stand-in mesh for refused or broken references: an octahedron
// (a diamond) from -0.5 to 0.5 on each axis with flat normals, so it reads as "not the real
// thing" next to cubes. Its Placeholder field is true. The returned mesh is shared.
func Placeholder() *Mesh { return placeholder() }

// finish sets ref, version and bounds of a generated mesh.
func finish(ref string, b *meshBuilder) *Mesh {
	m := &Mesh{Ref: ref, Vertices: slices.Clip(b.v), Indices: slices.Clip(b.idx), Version: builtinVersion}
	m.computeBounds()
	return m
}

// meshBuilder accumulates interleaved vertices and triangle indices for generated meshes.
type meshBuilder struct {
	v   []float32
	idx []uint32
}

func (b *meshBuilder) vertex(p, n mgl32.Vec3, uv mgl32.Vec2) uint32 {
	i := uint32(len(b.v) / FloatsPerVertex)
	b.v = append(b.v, p[0], p[1], p[2], n[0], n[1], n[2], uv[0], uv[1])
	return i
}

func (b *meshBuilder) tri(a, c, d uint32) { b.idx = append(b.idx, a, c, d) }

// quad adds a square face centred on c spanned by the half-axes u and v; u × v points to the
// front (the normal), so the two triangles are counter-clockwise seen from the front.
func (b *meshBuilder) quad(c, u, v mgl32.Vec3) {
	n := u.Cross(v).Normalize()
	i0 := b.vertex(c.Sub(u).Sub(v), n, mgl32.Vec2{0, 0})
	i1 := b.vertex(c.Add(u).Sub(v), n, mgl32.Vec2{1, 0})
	i2 := b.vertex(c.Add(u).Add(v), n, mgl32.Vec2{1, 1})
	i3 := b.vertex(c.Sub(u).Add(v), n, mgl32.Vec2{0, 1})
	b.tri(i0, i1, i2)
	b.tri(i0, i2, i3)
}

func cubeMesh() *meshBuilder {
	b := &meshBuilder{}
	const h = 0.5
	faces := [6][3]mgl32.Vec3{ // centre, u, v with u × v = outward normal
		{{h, 0, 0}, {0, 0, -h}, {0, h, 0}},  // +X
		{{-h, 0, 0}, {0, 0, h}, {0, h, 0}},  // -X
		{{0, h, 0}, {h, 0, 0}, {0, 0, -h}},  // +Y
		{{0, -h, 0}, {h, 0, 0}, {0, 0, h}},  // -Y
		{{0, 0, h}, {h, 0, 0}, {0, h, 0}},   // +Z
		{{0, 0, -h}, {-h, 0, 0}, {0, h, 0}}, // -Z
	}
	for _, f := range faces {
		b.quad(f[0], f[1], f[2])
	}
	return b
}

func planeMesh() *meshBuilder {
	b := &meshBuilder{}
	b.quad(mgl32.Vec3{}, mgl32.Vec3{0.5, 0, 0}, mgl32.Vec3{0, 0, -0.5})
	return b
}

func sphereMesh() *meshBuilder {
	const r = 0.5
	b := &meshBuilder{}
	for i := 0; i <= SphereStacks; i++ {
		theta := math.Pi * float64(i) / SphereStacks // 0 at +Y
		st, ct := math.Sincos(theta)
		for j := 0; j <= SphereSlices; j++ {
			phi := 2 * math.Pi * float64(j) / SphereSlices
			sp, cp := math.Sincos(phi)
			n := mgl32.Vec3{float32(st * cp), float32(ct), float32(-st * sp)}
			if j == SphereSlices { // close the seam exactly
				n[0], n[2] = float32(st), 0
			}
			uv := mgl32.Vec2{float32(j) / SphereSlices, 1 - float32(i)/SphereStacks}
			b.vertex(n.Mul(r), n, uv)
		}
	}
	const row = SphereSlices + 1
	for i := range SphereStacks {
		for j := range SphereSlices {
			a := uint32(i*row + j) // upper left; a+1 upper right, a+row lower left
			if i != 0 {
				b.tri(a, a+row, a+1)
			}
			if i != SphereStacks-1 {
				b.tri(a+1, a+row, a+row+1)
			}
		}
	}
	return b
}

func octahedronMesh() *meshBuilder {
	b := &meshBuilder{}
	const h = 0.5
	for _, sx := range [2]float32{1, -1} {
		for _, sy := range [2]float32{1, -1} {
			for _, sz := range [2]float32{1, -1} {
				p := [3]mgl32.Vec3{{sx * h, 0, 0}, {0, sy * h, 0}, {0, 0, sz * h}}
				n := mgl32.Vec3{sx, sy, sz}.Normalize()
				if p[1].Sub(p[0]).Cross(p[2].Sub(p[0])).Dot(n) < 0 {
					p[1], p[2] = p[2], p[1]
				}
				uvs := [3]mgl32.Vec2{{0, 0}, {1, 0}, {0.5, 1}}
				var ids [3]uint32
				for k := range 3 {
					ids[k] = b.vertex(p[k], n, uvs[k])
				}
				b.tri(ids[0], ids[1], ids[2])
			}
		}
	}
	return b
}
