package gltf

import "github.com/go-gl/mathgl/mgl32"

// Model is what [Import] read from a glTF file. Indices between its lists (Node.Mesh,
// Primitive.Material, Texture.Source, …) are checked; -1 means none.
type Model struct {
	Scenes    []Scene
	Scene     int // the default scene, -1 if the file names none
	Nodes     []Node
	Meshes    []Mesh
	Materials []Material
	Textures  []Texture
	Images    []Image
	Samplers  []Sampler
	Cameras   []Camera
	Lights    []Light
	// Warnings are what was skipped or ignored (points and lines, optional extensions nothing here
	// reads, images of a type that is not decoded); the model is usable without it.
	Warnings []string

	meshKeys  []string       // each mesh's NAME in references (MeshPart), made on first use
	meshByKey map[string]int // the inverse
}

// Scene lists the root nodes of one scene.
type Scene struct {
	Name  string
	Nodes []int
}

// Node is one node of the hierarchy. World is the product of its ancestors' Local matrices and
// its own (column vectors: World = parent.World × Local).
type Node struct {
	Name     string
	Parent   int
	Children []int
	Mesh     int
	Camera   int
	Light    int
	Local    mgl32.Mat4
	World    mgl32.Mat4
}

// Mesh is a list of primitives.
type Mesh struct {
	Name       string
	Primitives []Primitive
}

// Primitive modes (glTF's mesh.primitive.mode).
const (
	ModePoints        = 0
	ModeLines         = 1
	ModeLineLoop      = 2
	ModeLineStrip     = 3
	ModeTriangles     = 4
	ModeTriangleStrip = 5
	ModeTriangleFan   = 6
)

// Primitive is one draw of a mesh, as a triangle list: Indices holds three vertex indices per
// triangle (strips and fans already unrolled, counter-clockwise front faces). Normals always has
// one entry per position (computed when the file has none); UVs and Colors are empty when the
// file has none. Tangents are the file's, else computed from the normal texture's texture
// coordinates for a primitive whose material has a normal texture, else empty. A primitive of points or lines (Skipped) has its Mode and no data.
type Primitive struct {
	Mode      int
	Skipped   bool
	Material  int
	Positions []mgl32.Vec3
	Normals   []mgl32.Vec3
	UVs       []mgl32.Vec2 // TEXCOORD_0
	UVs1      []mgl32.Vec2 // TEXCOORD_1
	Colors    []mgl32.Vec4 // COLOR_0 (vec3 colours get alpha 1)
	Tangents  []mgl32.Vec4 // TANGENT: xyz along +u, w the sign of the bitangent (up the image, −v = w × normal × tangent)
	Indices   []uint32
}

// Alpha modes of a material.
const (
	AlphaOpaque = "OPAQUE"
	AlphaMask   = "MASK"
	AlphaBlend  = "BLEND"
)

// Material is a metallic-roughness material with glTF's defaults filled in.
type Material struct {
	Name                     string
	BaseColorFactor          mgl32.Vec4
	BaseColorTexture         *TextureRef
	MetallicFactor           float32
	RoughnessFactor          float32
	MetallicRoughnessTexture *TextureRef
	NormalTexture            *TextureRef // Scale is the normal scale
	OcclusionTexture         *TextureRef // Scale is the occlusion strength
	EmissiveTexture          *TextureRef
	EmissiveFactor           mgl32.Vec3
	EmissiveStrength         float32 // KHR_materials_emissive_strength; 1 without it
	AlphaMode                string
	AlphaCutoff              float32
	DoubleSided              bool
}

// TextureRef is a material's use of a texture.
type TextureRef struct {
	Texture   int
	TexCoord  int
	Scale     float32
	Transform *TextureTransform // KHR_texture_transform; nil without it
}

// TextureTransform is KHR_texture_transform: uv' = T × R × S × uv.
type TextureTransform struct {
	Offset   mgl32.Vec2
	Rotation float32
	Scale    mgl32.Vec2
	TexCoord int // -1: the reference's own
}

// Texture pairs an image with a sampler (-1: the default sampler).
type Texture struct {
	Name    string
	Source  int
	Sampler int
}

// Image is an image the file holds or names. Data is the encoded file (PNG or JPEG); Width and
// Height come from its header.
type Image struct {
	Name     string
	URI      string // "" for an image in a buffer view or a data: URI
	MimeType string
	Width    int
	Height   int
	Data     []byte
}

// Sampler filters and wrap modes (OpenGL enums; 0 for a filter the file leaves unset).
type Sampler struct {
	Name      string
	MagFilter int
	MinFilter int
	WrapS     int
	WrapT     int
}

// Camera is a perspective or orthographic camera. ZFar 0 is an infinite perspective projection;
// AspectRatio 0 means the viewport's.
type Camera struct {
	Name        string
	Type        string // "perspective" or "orthographic"
	AspectRatio float32
	YFov        float32
	XMag, YMag  float32
	ZNear, ZFar float32
}

// Light is a KHR_lights_punctual light. Range 0 means unlimited.
type Light struct {
	Name           string
	Type           string // "directional", "point" or "spot"
	Color          mgl32.Vec3
	Intensity      float32
	Range          float32
	InnerConeAngle float32
	OuterConeAngle float32
}

// Counts are what `voltex-editor model` prints. Vertices and Triangles count each mesh once,
// however many nodes use it; primitives of points and lines count as primitives only.
type Counts struct {
	Nodes, Meshes, Primitives, Vertices, Triangles, Materials, Textures, Lights, Cameras int
}

// Counts counts m's contents.
func (m *Model) Counts() Counts {
	c := Counts{Nodes: len(m.Nodes), Meshes: len(m.Meshes), Materials: len(m.Materials),
		Textures: len(m.Textures), Lights: len(m.Lights), Cameras: len(m.Cameras)}
	for _, me := range m.Meshes {
		c.Primitives += len(me.Primitives)
		for _, p := range me.Primitives {
			c.Vertices += len(p.Positions)
			c.Triangles += len(p.Indices) / 3
		}
	}
	return c
}
