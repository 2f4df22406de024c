package gltf

import (
	"os"
	"path/filepath"

	"github.com/voltex-editor/voltex/assets"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// normalMapped is the square with texture coordinates (accessor 3: the image upright, its top row
// v = 0 at y = 1, or mirrored in u) and a material with a normal texture (the image is never decoded
// for tangents).
func normalMapped(t *testing.T, mirrorU bool) doc {
	d := square()
	base := d.get("buffers", 0)
	var b bin
	b.b = decodeURI(t, base["uri"].(string))
	uv := []float32{0, 1, 1, 1, 1, 0, 0, 0}
	if mirrorU {
		uv = []float32{1, 1, 0, 1, 0, 0, 1, 0}
	}
	views := append(d["bufferViews"].([]any), b.add(uv))
	base["uri"], base["byteLength"] = dataURI(b.b), len(b.b)
	d["bufferViews"] = views
	d["accessors"] = append(d["accessors"].([]any),
		map[string]any{"bufferView": len(views) - 1, "componentType": 5126, "count": 4, "type": "VEC2"})
	d["images"] = []any{map[string]any{"uri": "n.png"}}
	d["textures"] = []any{map[string]any{"source": 0}}
	d["materials"] = []any{map[string]any{"normalTexture": map[string]any{"index": 0}}}
	p := d.get("meshes", 0, "primitives", 0)
	p["material"] = 0
	p["attributes"].(map[string]any)["TEXCOORD_0"] = 3
	return d
}

// Tangents are computed from positions and texture coordinates when a normal-mapped primitive has
// none: along +u, with w +1 where normal × tangent is up the image (−v: an image seen as it is, as
// glTF's viewers take it) and −1 where the coordinates are mirrored.
func TestTangentsComputedForNormalMaps(t *testing.T) {
	for _, mirror := range []bool{false, true} {
		d := normalMapped(t, mirror)
		delete(d, "images") // an image is not needed for tangents
		d["textures"] = []any{map[string]any{}}
		m, err := Decode(d.bytes(t), "", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want := mgl32.Vec4{1, 0, 0, 1}
		if mirror {
			want = mgl32.Vec4{-1, 0, 0, -1}
		}
		tg := m.Meshes[0].Primitives[0].Tangents
		if len(tg) != 4 {
			t.Fatalf("mirrored %v: %d tangents, want 4", mirror, len(tg))
		}
		for i, v := range tg {
			if !v.ApproxEqualThreshold(want, 1e-5) {
				t.Errorf("mirrored %v: tangent %d = %v, want %v", mirror, i, v, want)
			}
		}
	}
}

// A file's TANGENT attribute is read as it is; a primitive without a normal map gets none computed.
func TestTangentsFromTheFile(t *testing.T) {
	d := normalMapped(t, false)
	delete(d, "images")
	d["textures"] = []any{map[string]any{}}
	base := d.get("buffers", 0)
	var b bin
	b.b = decodeURI(t, base["uri"].(string))
	views := append(d["bufferViews"].([]any), b.add([]float32{0, 1, 0, -1, 0, 1, 0, -1, 0, 1, 0, -1, 0, 1, 0, -1}))
	base["uri"], base["byteLength"] = dataURI(b.b), len(b.b)
	d["bufferViews"] = views
	d["accessors"] = append(d["accessors"].([]any),
		map[string]any{"bufferView": len(views) - 1, "componentType": 5126, "count": 4, "type": "VEC4"})
	attrs := d.get("meshes", 0, "primitives", 0)["attributes"].(map[string]any)
	attrs["TANGENT"] = 4
	m, err := Decode(d.bytes(t), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if tg := m.Meshes[0].Primitives[0].Tangents; len(tg) != 4 || tg[2] != (mgl32.Vec4{0, 1, 0, -1}) {
		t.Errorf("tangents %v, want the file's 0 1 0 -1", tg)
	}
	// A TANGENT of the wrong type is refused, naming the attribute.
	d.get("accessors", 4)["type"] = "VEC3"
	if _, err := Decode(d.bytes(t), "", Limits{}); err == nil || !strings.Contains(err.Error(), "attributes.TANGENT") {
		t.Errorf("a VEC3 TANGENT: %v", err)
	}

	plain := square()
	m, err = Decode(plain.bytes(t), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if tg := m.Meshes[0].Primitives[0].Tangents; tg != nil {
		t.Errorf("tangents %v for a primitive without a normal map", tg)
	}
}

// A mesh part carries its primitive's vertex colours, second texture coordinates and tangents; one
// without has none.
func TestPartsCarryColoursAndTangents(t *testing.T) {
	d := normalMapped(t, false)
	d.get("meshes", 0, "primitives", 0)["attributes"].(map[string]any)["TEXCOORD_1"] = 3
	delete(d, "images")
	d["textures"] = []any{map[string]any{}}
	path := filepath.Join(t.TempDir(), "m.gltf")
	if err := os.WriteFile(path, d.bytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := LoadPart(path, "mesh/0/0", assets.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Colors) != 16 || m.Colors[0] != 1 || m.Colors[1] != 0 || m.Colors[3] != 1 || m.Colors[5] != 1 {
		t.Errorf("colours %v, want red, green, blue, white (alpha 1)", m.Colors)
	}
	if len(m.Tangents) != 16 || m.Tangents[0] != 1 || m.Tangents[3] != 1 {
		t.Errorf("tangents %v, want 1 0 0 1 each", m.Tangents)
	}
	if len(m.UVs1) != 8 || m.UVs1[1] != 1 || m.UVs1[4] != 1 {
		t.Errorf("second texture coordinates %v, want the first ones", m.UVs1)
	}
	plain := square()
	delete(plain.get("meshes", 0, "primitives", 0)["attributes"].(map[string]any), "COLOR_0")
	if err := os.WriteFile(path, plain.bytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if m, err = LoadPart(path, "mesh/0/0", assets.Limits{}); err != nil {
		t.Fatal(err)
	}
	if m.Colors != nil || m.Tangents != nil || m.UVs1 != nil {
		t.Errorf("a plain part has colours %v, tangents %v, second texture coordinates %v", m.Colors, m.Tangents, m.UVs1)
	}
}
