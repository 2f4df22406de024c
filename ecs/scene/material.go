package scene

import (
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// AlphaMode says how a [Material]'s alpha is used (glTF's alphaMode).
type AlphaMode uint8

// Alpha modes.
const (
	AlphaOpaque AlphaMode = iota // alpha ignored: the surface is opaque
	AlphaMask                    // cut out where alpha is below AlphaCutoff, opaque elsewhere
	AlphaBlend                   // blended over what is behind
)

// EnumValues names the alpha modes for inspectors and scene files.
func (AlphaMode) EnumValues() []ecs.EnumValue {
	return []ecs.EnumValue{{Name: "Opaque", Value: 0}, {Name: "Mask", Value: 1}, {Name: "Blend", Value: 2}}
}

// Wrap says how texture coordinates outside 0..1 are read (glTF's sampler wrapS/wrapT).
type Wrap uint8

// Wrap modes.
const (
	WrapRepeat Wrap = iota
	WrapClamp       // CLAMP_TO_EDGE
	WrapMirror      // MIRRORED_REPEAT
)

// EnumValues names the wrap modes.
func (Wrap) EnumValues() []ecs.EnumValue {
	return []ecs.EnumValue{{Name: "Repeat", Value: 0}, {Name: "Clamp", Value: 1}, {Name: "Mirror", Value: 2}}
}

// Filter picks texels within one mip level.
type Filter uint8

// Filters.
const (
	FilterLinear Filter = iota
	FilterNearest
)

// EnumValues names the filters.
func (Filter) EnumValues() []ecs.EnumValue {
	return []ecs.EnumValue{{Name: "Linear", Value: 0}, {Name: "Nearest", Value: 1}}
}

// Mipmaps says how a minified texture uses its mip levels.
type Mipmaps uint8

// Mipmap modes: glTF's minFilter is MinFilter (the filter within a level) with one of these.
const (
	MipmapsLinear  Mipmaps = iota // blend the two nearest levels (…_MIPMAP_LINEAR)
	MipmapsNearest                // the nearest level (…_MIPMAP_NEAREST)
	MipmapsNone                   // the full-size image only (NEAREST or LINEAR)
)

// EnumValues names the mipmap modes.
func (Mipmaps) EnumValues() []ecs.EnumValue {
	return []ecs.EnumValue{{Name: "Linear", Value: 0}, {Name: "Nearest", Value: 1}, {Name: "None", Value: 2}}
}

// Texture is a [Material]'s use of an image: which image, how it is sampled and where it lies on
// the surface.
//
// Image is an asset reference: a PNG or JPEG file relative to the scene's folder
// ("textures/brick.png"), or an image held inside a glTF model, written as the model's path, "#image/"
// and the image's index in the model's images ("models/ship.glb#image/0"). "" means no texture.
//
// Offset, Scale and Rotation are KHR_texture_transform: the coordinates read are
// Offset + R(Rotation) × (Scale ⊙ uv), R turning counter-clockwise in texture space.
type Texture struct {
	Image     string     `json:"image" voltex:"asset,tooltip='A PNG or JPEG file in the scene folder, or model.glb#image/N'"`
	UV        uint8      `json:"uv" voltex:"max=1,tooltip=Which texture coordinates: 0 or 1"`
	WrapS     Wrap       `json:"wrapS" voltex:"tooltip=Horizontal wrap"`
	WrapT     Wrap       `json:"wrapT" voltex:"tooltip=Vertical wrap"`
	MagFilter Filter     `json:"magFilter" voltex:"tooltip=Filter when magnified"`
	MinFilter Filter     `json:"minFilter" voltex:"tooltip=Filter when minified"`
	Mipmaps   Mipmaps    `json:"mipmaps"`
	Offset    mgl32.Vec2 `json:"offset" voltex:"step=0.01"`
	Scale     mgl32.Vec2 `json:"scale" voltex:"step=0.01"`
	Rotation  float32    `json:"rotation" voltex:"degrees,tooltip=Counter-clockwise"`
}

// Default returns no image, repeated, trilinear, untransformed.
func (Texture) Default() Texture { return Texture{Scale: mgl32.Vec2{1, 1}} }

// Material is a glTF metallic-roughness material: what a mesh's surface looks like. Colours are
// linear (not sRGB) RGB(A); each texture multiplies its factor (base colour and emissive textures
// hold sRGB colours, the metallic-roughness texture roughness in green and metalness in blue, the
// occlusion texture occlusion in red).
type Material struct {
	BaseColor                [4]float32 `json:"baseColor" voltex:"color,min=0,max=1,step=0.01,tooltip=Linear RGBA"`
	BaseColorTexture         Texture    `json:"baseColorTexture"`
	Metallic                 float32    `json:"metallic" voltex:"min=0,max=1,step=0.01"`
	Roughness                float32    `json:"roughness" voltex:"min=0,max=1,step=0.01"`
	MetallicRoughnessTexture Texture    `json:"metallicRoughnessTexture" voltex:"tooltip=Roughness in green, metalness in blue"`
	NormalTexture            Texture    `json:"normalTexture" voltex:"tooltip=A tangent-space normal map"`
	NormalScale              float32    `json:"normalScale" voltex:"step=0.01,tooltip=Scales the normal map's X and Y"`
	OcclusionTexture         Texture    `json:"occlusionTexture" voltex:"tooltip=Ambient occlusion in red"`
	OcclusionStrength        float32    `json:"occlusionStrength" voltex:"min=0,max=1,step=0.01"`
	Emissive                 [3]float32 `json:"emissive" voltex:"color,min=0,max=1,step=0.01,tooltip=Linear RGB light the surface gives off"`
	EmissiveStrength         float32    `json:"emissiveStrength" voltex:"min=0,step=0.1,tooltip=Multiplies Emissive (KHR_materials_emissive_strength)"`
	EmissiveTexture          Texture    `json:"emissiveTexture"`
	AlphaMode                AlphaMode  `json:"alphaMode"`
	AlphaCutoff              float32    `json:"alphaCutoff" voltex:"min=0,max=1,step=0.01,tooltip=Mask mode: alpha below this is cut out"`
	DoubleSided              bool       `json:"doubleSided" voltex:"tooltip=Draw back faces too (lit as seen)"`
}

// Default returns glTF's default material: opaque white, fully metallic and rough, no textures.
func (Material) Default() Material {
	t := Texture{}.Default()
	return Material{
		BaseColor: [4]float32{1, 1, 1, 1}, BaseColorTexture: t,
		Metallic: 1, Roughness: 1, MetallicRoughnessTexture: t,
		NormalTexture: t, NormalScale: 1,
		OcclusionTexture: t, OcclusionStrength: 1,
		EmissiveStrength: 1, EmissiveTexture: t,
		AlphaCutoff: 0.5,
	}
}

// LightKind is the kind of a [Light].
type LightKind uint8

// Light kinds (KHR_lights_punctual).
const (
	LightDirectional LightKind = iota // parallel rays along the entity's -Z axis
	LightPoint                        // from the entity's position in every direction
	LightSpot                         // from the entity's position, in a cone about its -Z axis
)

// EnumValues names the light kinds.
func (LightKind) EnumValues() []ecs.EnumValue {
	return []ecs.EnumValue{{Name: "Directional", Value: 0}, {Name: "Point", Value: 1}, {Name: "Spot", Value: 2}}
}

// Light is a KHR_lights_punctual light placed by its entity's transform (spot and directional
// lights shine down the entity's -Z axis). Intensity is in candela for point and spot lights and
// lux for directional ones. Range 0 means unlimited; otherwise the light fades to nothing at
// Range. A spot's light is full inside InnerCone and falls to nothing at OuterCone (angles from
// the axis, in degrees; an InnerCone wider than OuterCone counts as OuterCone).
type Light struct {
	Kind      LightKind  `json:"kind"`
	Color     [3]float32 `json:"color" voltex:"color,min=0,max=1,step=0.01,tooltip=Linear RGB"`
	Intensity float32    `json:"intensity" voltex:"min=0,step=0.1,tooltip=Candela (point, spot) or lux (directional)"`
	Range     float32    `json:"range" voltex:"min=0,step=0.1,tooltip=Where the light ends; 0: unlimited"`
	InnerCone float32    `json:"innerCone" voltex:"degrees,min=0,max=90,tooltip=Spot: full light inside this angle"`
	OuterCone float32    `json:"outerCone" voltex:"degrees,min=0,max=90,tooltip=Spot: no light outside this angle"`
}

// Default returns glTF's defaults for a white point light of intensity 1 (with the spot cone
// glTF gives spots: 0 to 45°).
func (Light) Default() Light {
	return Light{Kind: LightPoint, Color: [3]float32{1, 1, 1}, Intensity: 1, OuterCone: 45}
}

// Projection is a [Camera]'s projection.
type Projection uint8

// Projections.
const (
	Perspective  Projection = iota // FOV, Aspect, Near, Far
	Orthographic                   // XMag, YMag, Near, Far
)

// EnumValues names the projections.
func (Projection) EnumValues() []ecs.EnumValue {
	return []ecs.EnumValue{{Name: "Perspective", Value: 0}, {Name: "Orthographic", Value: 1}}
}
