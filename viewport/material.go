package viewport

import (
	"math"
	"strconv"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// Material is what a batch's surface looks like: the entity's scene.Material and its images, resolved (nil: none,
// or it could not be read). A batch without one is drawn in its instances' colours with the default shading.
type Material struct {
	scene.Material
	BaseColorImage         *assets.Image
	MetallicRoughnessImage *assets.Image
	NormalImage            *assets.Image
	OcclusionImage         *assets.Image
	EmissiveImage          *assets.Image
}

// Blended reports whether the material's surface is blended over what is behind it (drawn after
// the opaque ones, far to near).
func (m *Material) Blended() bool { return m != nil && m.AlphaMode == scene.AlphaBlend }

// ImageSource resolves image references; *assets.Registry is one. A [MeshSource] that is also an
// ImageSource gives the builder its materials' textures.
type ImageSource interface {
	Image(ref string) (*assets.Image, error)
}

// SetMaterial sets the material drawn for batch ref (nil: the instances' colours).
func (d *DrawList) SetMaterial(ref string, m *Material) {
	b := d.Batch(ref)
	if b.Material != m {
		b.Material = m
		d.version++
		d.meshes++
	}
}

// material returns the resolved material for m (one per distinct value, until ReloadMeshes) and
// the suffix of the batch reference of a mesh drawn with it.
func (b *Builder) material(m scene.Material) (*Material, string) {
	if r, ok := b.materials[m]; ok {
		return r.mat, r.key
	}
	mat := &Material{Material: m}
	if src, ok := b.meshes.(ImageSource); ok {
		for _, t := range [...]struct {
			ref string
			img **assets.Image
		}{
			{m.BaseColorTexture.Image, &mat.BaseColorImage}, {m.MetallicRoughnessTexture.Image, &mat.MetallicRoughnessImage},
			{m.NormalTexture.Image, &mat.NormalImage}, {m.OcclusionTexture.Image, &mat.OcclusionImage},
			{m.EmissiveTexture.Image, &mat.EmissiveImage},
		} {
			if t.ref != "" {
				*t.img, _ = src.Image(t.ref)
			}
		}
	}
	r := resolvedMaterial{mat, "\x00material/" + strconv.Itoa(len(b.materials))}
	b.materials[m] = r
	return r.mat, r.key
}

type resolvedMaterial struct {
	mat *Material
	key string
}

// UVTransform returns the rows of t's transform of texture coordinates: Offset + R(Rotation) × (Scale ⊙ uv),
// R counter-clockwise.
func UVTransform(t scene.Texture) (row0, row1 [3]float32) {
	s, c := math.Sincos(float64(t.Rotation) * math.Pi / 180)
	sin, cos := float32(s), float32(c)
	return [3]float32{cos * t.Scale[0], -sin * t.Scale[1], t.Offset[0]}, [3]float32{sin * t.Scale[0], cos * t.Scale[1], t.Offset[1]}
}
