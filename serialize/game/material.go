package game

import (
	"math"

	"github.com/voltex-editor/voltex/internal/assetref"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Texture is a [Material]'s use of an image.
type Texture struct {
	// Image is "" for none, a PNG or JPEG file relative to the export's folder that stays inside it
	// ("textures/brick.png"), or an image inside a glTF model ("models/ship.glb#image/0": the
	// model's images[0]). Load refuses references that would leave the folder.
	Image string
	UV    int // which texture coordinates: 0 or 1
	// WrapS and WrapT: 0 repeat, 1 clamp to edge, 2 mirrored repeat.
	WrapS, WrapT int
	// MagFilter and MinFilter: 0 linear, 1 nearest. Mipmaps: 0 linear between levels, 1 the
	// nearest level, 2 none.
	MagFilter, MinFilter, Mipmaps int
	// Offset, Scale and Rotation (degrees, counter-clockwise) are KHR_texture_transform: the
	// coordinates read are Offset + R(Rotation) × (Scale ⊙ uv).
	Offset, Scale [2]float32
	Rotation      float32
}

// Material is a glTF metallic-roughness material (linear colours; see the editor's
// docs/scene-format.md).
type Material struct {
	BaseColor                [4]float32
	BaseColorTexture         Texture
	Metallic, Roughness      float32
	MetallicRoughnessTexture Texture // roughness in green, metalness in blue
	NormalTexture            Texture
	NormalScale              float32
	OcclusionTexture         Texture // occlusion in red
	OcclusionStrength        float32
	Emissive                 [3]float32
	EmissiveStrength         float32
	EmissiveTexture          Texture
	AlphaMode                int // 0 opaque, 1 mask (cut out below AlphaCutoff), 2 blend
	AlphaCutoff              float32
	DoubleSided              bool
}

// Light is a KHR_lights_punctual light; directional and spot lights shine down the entity's -Z
// axis.
type Light struct {
	Kind      int // 0 directional, 1 point, 2 spot
	Color     [3]float32
	Intensity float32 // candela (point, spot) or lux (directional)
	Range     float32 // 0: unlimited
	// InnerCone and OuterCone are a spot's angles from its axis in degrees: full light inside
	// InnerCone, none outside OuterCone.
	InnerCone, OuterCone float32
}

func defaultTexture() Texture { return Texture{Scale: [2]float32{1, 1}} }

func defaultMaterial() Material {
	t := defaultTexture()
	return Material{BaseColor: [4]float32{1, 1, 1, 1}, BaseColorTexture: t, Metallic: 1, Roughness: 1,
		MetallicRoughnessTexture: t, NormalTexture: t, NormalScale: 1, OcclusionTexture: t, OcclusionStrength: 1,
		EmissiveStrength: 1, EmissiveTexture: t, AlphaCutoff: 0.5}
}

// fieldReader reads one member of a component object into its destination, reporting what is
// wrong; it returns false if it did.
type fieldReader func(v *jsonpos.Value) bool

const unbounded = math.MaxFloat32

// object reads the members of v with the readers named by their keys; a key without one is an
// unknown field.
func (l *loader) object(v *jsonpos.Value, spec map[string]fieldReader) bool {
	if v.Kind() != jsonpos.Object {
		l.errAt(v, "expected an object")
		return false
	}
	ok := true
	for k := range v.Len() {
		m := v.Index(k)
		km := l.path.Key(m.Key())
		if read, known := spec[m.Key()]; !known {
			kp := m.KeyPos()
			l.probs.Errorf(kp.Line, kp.Col, l.path.String(), "unknown field")
			ok = false
		} else if !read(m) {
			ok = false
		}
		l.path.Truncate(km)
	}
	return ok
}

// number reads a finite number within lo..hi.
func (l *loader) number(dst *float32, lo, hi float64) fieldReader {
	return func(v *jsonpos.Value) bool {
		f, err := v.Float(32)
		if v.Kind() != jsonpos.Number || err != nil || f < lo || f > hi {
			if hi == unbounded {
				l.errAt(v, "expected a number of at least %g, got %s", lo, string(jsonpos.AppendInline(nil, v)))
			} else {
				l.errAt(v, "expected a number within %g..%g, got %s", lo, hi, string(jsonpos.AppendInline(nil, v)))
			}
			return false
		}
		*dst = float32(f)
		return true
	}
}

// anyNumber reads a finite number.
func (l *loader) anyNumber(dst *float32) fieldReader { return l.number(dst, -unbounded, unbounded) }

// numbers reads an array of len(dst) numbers within lo..hi (no range when both are 0).
func (l *loader) numbers(dst []float32, lo, hi float64) fieldReader {
	return func(v *jsonpos.Value) bool { return l.floats(v, dst, lo, hi) }
}

// choice reads an integer from 0 to hi.
func (l *loader) choice(dst *int, hi int) fieldReader {
	return func(v *jsonpos.Value) bool {
		n, err := v.Int()
		if v.Kind() != jsonpos.Number || err != nil || n < 0 || n > int64(hi) {
			l.errAt(v, "expected an integer from 0 to %d, got %s", hi, string(jsonpos.AppendInline(nil, v)))
			return false
		}
		*dst = int(n)
		return true
	}
}

func (l *loader) boolean(dst *bool) fieldReader {
	return func(v *jsonpos.Value) bool {
		if v.Kind() != jsonpos.Bool {
			l.errAt(v, "expected true or false, got %s", string(jsonpos.AppendInline(nil, v)))
			return false
		}
		*dst = v.Bool()
		return true
	}
}

// image reads an image reference: "" or a path that stays in the export's folder.
func (l *loader) image(dst *string) fieldReader {
	return func(v *jsonpos.Value) bool {
		if v.Kind() != jsonpos.String {
			l.errAt(v, "expected an image path, got %s", string(jsonpos.AppendInline(nil, v)))
			return false
		}
		if v.Str() == "" {
			*dst = ""
			return true
		}
		c, err := assetref.Check(v.Str())
		if err != nil {
			l.errAt(v, "%v", err)
			return false
		}
		*dst = c
		return true
	}
}

func (l *loader) texture(t *Texture) fieldReader {
	return func(v *jsonpos.Value) bool {
		return l.object(v, map[string]fieldReader{
			"image": l.image(&t.Image), "uv": l.choice(&t.UV, 1), "wrapS": l.choice(&t.WrapS, 2), "wrapT": l.choice(&t.WrapT, 2),
			"magFilter": l.choice(&t.MagFilter, 1), "minFilter": l.choice(&t.MinFilter, 1), "mipmaps": l.choice(&t.Mipmaps, 2),
			"offset": l.numbers(t.Offset[:], 0, 0), "scale": l.numbers(t.Scale[:], 0, 0), "rotation": l.anyNumber(&t.Rotation),
		})
	}
}

// material reads a Material component.
func (l *loader) material(v *jsonpos.Value) (*Material, bool) {
	m := defaultMaterial()
	ok := l.object(v, map[string]fieldReader{
		"baseColor": l.numbers(m.BaseColor[:], 0, 1), "baseColorTexture": l.texture(&m.BaseColorTexture),
		"metallic": l.number(&m.Metallic, 0, 1), "roughness": l.number(&m.Roughness, 0, 1),
		"metallicRoughnessTexture": l.texture(&m.MetallicRoughnessTexture), "normalTexture": l.texture(&m.NormalTexture),
		"normalScale": l.anyNumber(&m.NormalScale), "occlusionTexture": l.texture(&m.OcclusionTexture),
		"occlusionStrength": l.number(&m.OcclusionStrength, 0, 1), "emissive": l.numbers(m.Emissive[:], 0, 1),
		"emissiveStrength": l.number(&m.EmissiveStrength, 0, unbounded), "emissiveTexture": l.texture(&m.EmissiveTexture),
		"alphaMode": l.choice(&m.AlphaMode, 2), "alphaCutoff": l.number(&m.AlphaCutoff, 0, 1), "doubleSided": l.boolean(&m.DoubleSided),
	})
	return &m, ok
}

// light reads a Light component.
func (l *loader) light(v *jsonpos.Value) (*Light, bool) {
	g := Light{Kind: 1, Color: [3]float32{1, 1, 1}, Intensity: 1, OuterCone: 45}
	ok := l.object(v, map[string]fieldReader{
		"kind": l.choice(&g.Kind, 2), "color": l.numbers(g.Color[:], 0, 1), "intensity": l.number(&g.Intensity, 0, unbounded),
		"range": l.number(&g.Range, 0, unbounded), "innerCone": l.number(&g.InnerCone, 0, 90), "outerCone": l.number(&g.OuterCone, 0, 90),
	})
	return &g, ok
}

// Images returns the image references the materials of the scene use, each once, in the order
// of first use: what a game loads before it draws.
func (s *Scene) Images() []string {
	var out []string
	seen := map[string]bool{}
	for i := range s.Entities {
		m := s.Entities[i].Material
		if m == nil {
			continue
		}
		for _, t := range []*Texture{&m.BaseColorTexture, &m.MetallicRoughnessTexture, &m.NormalTexture, &m.OcclusionTexture, &m.EmissiveTexture} {
			if t.Image != "" && !seen[t.Image] {
				seen[t.Image] = true
				out = append(out, t.Image)
			}
		}
	}
	return out
}
