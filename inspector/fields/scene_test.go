package fields_test

import (
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/inspector/fields"
)

// TestSceneMaterialLightCamera: the inspector shows Material, Light and Camera with the widgets
// their tags ask for: colour pickers, enum combos with their names, textures as nested groups
// with an asset field, ranges and degrees.
func TestSceneMaterialLightCamera(t *testing.T) {
	w := scene.NewWorld()
	var cache fields.Cache
	comp := func(name string) *fields.Component {
		id, ok := w.ComponentByName(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		return cache.Component(w, id)
	}
	type want struct {
		path     string
		kind     fields.Kind
		enum     []string
		min, max float64
		format   string
		free     bool // no range
	}
	for name, wants := range map[string][]want{
		"Material": {
			{path: "baseColor", kind: fields.Color},
			{path: "baseColorTexture", kind: fields.Struct},
			{path: "baseColorTexture.image", kind: fields.Asset},
			{path: "baseColorTexture.wrapS", kind: fields.Enum, enum: []string{"Repeat", "Clamp", "Mirror"}},
			{path: "baseColorTexture.magFilter", kind: fields.Enum, enum: []string{"Linear", "Nearest"}},
			{path: "baseColorTexture.mipmaps", kind: fields.Enum, enum: []string{"Linear", "Nearest", "None"}},
			{path: "baseColorTexture.offset", kind: fields.Vector},
			{path: "baseColorTexture.rotation", kind: fields.Float, format: "%.1f°", free: true},
			{path: "baseColorTexture.uv", kind: fields.Uint, min: 0, max: 1},
			{path: "metallic", kind: fields.Float, min: 0, max: 1},
			{path: "roughness", kind: fields.Float, min: 0, max: 1},
			{path: "metallicRoughnessTexture.image", kind: fields.Asset},
			{path: "normalTexture.image", kind: fields.Asset},
			{path: "normalScale", kind: fields.Float, free: true},
			{path: "emissive", kind: fields.Color},
			{path: "emissiveStrength", kind: fields.Float, min: 0},
			{path: "emissiveTexture.image", kind: fields.Asset},
			{path: "alphaMode", kind: fields.Enum, enum: []string{"Opaque", "Mask", "Blend"}},
			{path: "alphaCutoff", kind: fields.Float, min: 0, max: 1},
			{path: "doubleSided", kind: fields.Bool},
		},
		"Light": {
			{path: "kind", kind: fields.Enum, enum: []string{"Directional", "Point", "Spot"}},
			{path: "color", kind: fields.Color},
			{path: "intensity", kind: fields.Float, min: 0},
			{path: "range", kind: fields.Float, min: 0},
			{path: "innerCone", kind: fields.Float, min: 0, max: 90, format: "%.1f°"},
			{path: "outerCone", kind: fields.Float, min: 0, max: 90, format: "%.1f°"},
		},
		"Camera": {
			{path: "fov", kind: fields.Float, min: 1, max: 179, format: "%.1f°"},
			{path: "projection", kind: fields.Enum, enum: []string{"Perspective", "Orthographic"}},
			{path: "aspect", kind: fields.Float, min: 0},
			{path: "xmag", kind: fields.Float, min: 0},
			{path: "ymag", kind: fields.Float, min: 0},
		},
	} {
		c := comp(name)
		for _, wt := range wants {
			f := c.Find(wt.path)
			if f == nil {
				t.Errorf("%s: no field %s", name, wt.path)
				continue
			}
			if f.Kind != wt.kind || f.ReadOnly || f.Hints.Hidden {
				t.Errorf("%s.%s: kind %v (read-only %v, hidden %v), want %v", name, wt.path, f.Kind, f.ReadOnly, f.Hints.Hidden, wt.kind)
			}
			if wt.enum != nil && !slices.Equal(f.EnumNames, wt.enum) {
				t.Errorf("%s.%s: enum %v, want %v", name, wt.path, f.EnumNames, wt.enum)
			}
			if (wt.kind == fields.Float || wt.kind == fields.Uint) && !wt.free && (f.Min != wt.min || wt.max != 0 && f.Max != wt.max) {
				t.Errorf("%s.%s: range [%g,%g], want [%g,%g]", name, wt.path, f.Min, f.Max, wt.min, wt.max)
			}
			if wt.format != "" && f.Format != wt.format {
				t.Errorf("%s.%s: format %q, want %q", name, wt.path, f.Format, wt.format)
			}
		}
		if c.Default == nil {
			t.Errorf("%s: no default", name)
		}
	}
	if c := comp("Material"); c.Default.(scene.Material).BaseColorTexture.Scale[0] != 1 || c.Find("baseColor").Len != 4 || c.Find("emissive").Len != 3 {
		t.Errorf("material default %+v", c.Default)
	}
}
