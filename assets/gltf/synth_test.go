package gltf

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestFanAndNormalizedColours(t *testing.T) {
	m, err := Decode(square().bytes(t), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p := m.Meshes[0].Primitives[0]
	if want := []uint32{0, 1, 2, 0, 2, 3}; !equal(p.Indices, want) {
		t.Errorf("fan indices %v, want %v", p.Indices, want)
	}
	if p.Colors[0] != (mgl32.Vec4{1, 0, 0, 1}) || p.Colors[3] != (mgl32.Vec4{1, 1, 1, 1}) {
		t.Errorf("colours %v", p.Colors)
	}
	for _, n := range p.Normals {
		if !n.ApproxEqual(mgl32.Vec3{0, 0, 1}) {
			t.Errorf("normal %v", n)
		}
	}
}

// Integer colours are normalized whether or not the accessor says so.
func TestIntegerColoursAlwaysNormalized(t *testing.T) {
	d := square()
	delete(d.get("accessors", 2), "normalized")
	m, err := Decode(d.bytes(t), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Meshes[0].Primitives[0].Colors[0]; c != (mgl32.Vec4{1, 0, 0, 1}) {
		t.Errorf("colour %v, want 1 0 0 1", c)
	}
}

func equal(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A strip flips every other triangle back to counter-clockwise.
func TestStrip(t *testing.T) {
	d := square()
	d.get("meshes", 0, "primitives", 0)["mode"] = 5
	m, err := Decode(d.bytes(t), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Meshes[0].Primitives[0].Indices, []uint32{0, 1, 2, 2, 1, 3}; !equal(got, want) {
		t.Errorf("strip indices %v, want %v", got, want)
	}
}

func TestPointsAndLinesSkipped(t *testing.T) {
	for _, mode := range []int{0, 1, 2, 3} {
		d := square()
		d.get("meshes", 0, "primitives", 0)["mode"] = mode
		m, err := Decode(d.bytes(t), "", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		c := m.Counts()
		if c.Primitives != 1 || c.Vertices != 0 || c.Triangles != 0 || len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], "meshes[0].primitives[0]: mode") {
			t.Errorf("mode %d: %+v %q", mode, c, m.Warnings)
		}
	}
}

// Sparse values replace elements of the base accessor; without a bufferView the base is zeros.
func TestSparse(t *testing.T) {
	d := square()
	var b bin
	// Rebuild the buffer with sparse data appended.
	views := d["bufferViews"].([]any)
	base := d.get("buffers", 0)
	raw := decodeURI(t, base["uri"].(string))
	b.b = raw
	iv := b.add([]uint8{2})
	vv := b.add([]float32{5, 6, 7})
	base["uri"], base["byteLength"] = dataURI(b.b), len(b.b)
	d["bufferViews"] = append(views, iv, vv)
	acc := d.get("accessors", 0)
	acc["sparse"] = map[string]any{"count": 1,
		"indices": map[string]any{"bufferView": 3, "componentType": 5121},
		"values":  map[string]any{"bufferView": 4}}
	m, err := Decode(d.bytes(t), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	pos := m.Meshes[0].Primitives[0].Positions
	if pos[2] != (mgl32.Vec3{5, 6, 7}) || pos[1] != (mgl32.Vec3{1, 0, 0}) {
		t.Errorf("positions %v", pos)
	}
	delete(acc, "bufferView")
	if m, err = Decode(d.bytes(t), "", Limits{}); err != nil {
		t.Fatal(err)
	}
	if pos := m.Meshes[0].Primitives[0].Positions; pos[0] != (mgl32.Vec3{}) || pos[2] != (mgl32.Vec3{5, 6, 7}) {
		t.Errorf("positions without base %v", pos)
	}
}

func decodeURI(t *testing.T, uri string) []byte {
	t.Helper()
	im := &importer{budget: 1 << 20, lim: Limits{}.withDefaults()}
	b, err := im.readURI(uri, "test")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every component type reads, normalized or not.
func TestComponentTypes(t *testing.T) {
	cases := []struct {
		ct   int
		norm bool
		data []byte
		want float32
	}{
		{5120, true, []byte{0x81}, -1}, // -127/127
		{5120, false, []byte{0xFE}, -2},
		{5121, true, []byte{255}, 1},
		{5122, true, []byte{0x01, 0x80}, -1}, // -32767 clamps; -32768 too
		{5123, true, []byte{0xFF, 0xFF}, 1},
		{5123, false, []byte{7, 0}, 7},
		{5125, false, []byte{9, 0, 0, 0}, 9},
		{5126, false, []byte{0, 0, 0x80, 0x3F}, 1},
	}
	for _, c := range cases {
		var got [1]float32
		readElem(got[:], c.data, c.ct, c.norm)
		if math.Abs(float64(got[0]-c.want)) > 1e-6 {
			t.Errorf("type %d normalized %v: %v, want %v", c.ct, c.norm, got[0], c.want)
		}
	}
}

func TestNodeTRSAndMatrix(t *testing.T) {
	d := square()
	s := float32(math.Sqrt(0.5))
	d["nodes"] = []any{
		map[string]any{"children": []any{1}, "translation": []float32{1, 2, 3}, "rotation": []float32{0, 0, s, s}},
		map[string]any{"matrix": []float32{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 10, 0, 0, 1}, "mesh": 0},
	}
	m, err := Decode(d.bytes(t), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// Node 1 is at x=10 in a parent turned 90° about Z and moved to (1,2,3): world (1,12,3).
	if got := m.Nodes[1].World.Mul4x1(mgl32.Vec4{0, 0, 0, 1}); !near(got, mgl32.Vec4{1, 12, 3, 1}) {
		t.Errorf("node 1 origin at %v", got)
	}
	if got := m.Nodes[1].World.Mul4x1(mgl32.Vec4{1, 0, 0, 0}); !near(got, mgl32.Vec4{0, 2, 0, 0}) {
		t.Errorf("node 1 x axis %v", got)
	}
	if m.Nodes[1].Parent != 0 || m.Nodes[0].Parent != -1 {
		t.Errorf("parents %d %d", m.Nodes[0].Parent, m.Nodes[1].Parent)
	}
}

func TestMaterialsLightsAndExtensions(t *testing.T) {
	d := square()
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewRGBA(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	base := d.get("buffers", 0)
	var b bin
	b.b = decodeURI(t, base["uri"].(string))
	iv := b.add(img.Bytes())
	base["uri"], base["byteLength"] = dataURI(b.b), len(b.b)
	d["bufferViews"] = append(d["bufferViews"].([]any), iv)
	d["images"] = []any{map[string]any{"bufferView": 3, "mimeType": "image/png"}}
	d["samplers"] = []any{map[string]any{"magFilter": 9728, "minFilter": 9987, "wrapS": 33071}}
	d["textures"] = []any{map[string]any{"source": 0, "sampler": 0}}
	d["extensionsUsed"] = []any{"KHR_lights_punctual", "KHR_texture_transform", "KHR_materials_emissive_strength", "EXT_nobody"}
	d["materials"] = []any{map[string]any{
		"pbrMetallicRoughness": map[string]any{"baseColorFactor": []float32{1, 0.5, 0.25, 0.5},
			"baseColorTexture": map[string]any{"index": 0, "extensions": map[string]any{"KHR_texture_transform": map[string]any{"offset": []float32{0.5, 0}, "scale": []float32{2, 2}, "rotation": 0.25}}},
			"metallicFactor":   0, "roughnessFactor": 0.5},
		"normalTexture":  map[string]any{"index": 0, "scale": 0.75},
		"emissiveFactor": []float32{1, 1, 0},
		"alphaMode":      "MASK", "alphaCutoff": 0.25, "doubleSided": true,
		"extensions": map[string]any{"KHR_materials_emissive_strength": map[string]any{"emissiveStrength": 5}},
	}}
	d.get("meshes", 0, "primitives", 0)["material"] = 0
	d["extensions"] = map[string]any{"KHR_lights_punctual": map[string]any{"lights": []any{
		map[string]any{"type": "spot", "color": []float32{1, 0, 0}, "intensity": 3, "range": 10, "spot": map[string]any{"innerConeAngle": 0.1, "outerConeAngle": 0.5}},
		map[string]any{"type": "directional"},
	}}}
	d.get("nodes", 0)["extensions"] = map[string]any{"KHR_lights_punctual": map[string]any{"light": 1}}
	m, err := Decode(d.bytes(t), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if img := m.Images[0]; img.Width != 3 || img.Height != 2 {
		t.Errorf("image %dx%d", img.Width, img.Height)
	}
	if s := m.Samplers[0]; s.MagFilter != 9728 || s.MinFilter != 9987 || s.WrapS != 33071 || s.WrapT != 10497 {
		t.Errorf("sampler %+v", s)
	}
	mat := m.Materials[0]
	tr := mat.BaseColorTexture.Transform
	if tr == nil || tr.Offset != (mgl32.Vec2{0.5, 0}) || tr.Scale != (mgl32.Vec2{2, 2}) || tr.Rotation != 0.25 {
		t.Errorf("texture transform %+v", tr)
	}
	if mat.EmissiveStrength != 5 || mat.AlphaMode != AlphaMask || mat.AlphaCutoff != 0.25 || !mat.DoubleSided ||
		mat.NormalTexture.Scale != 0.75 || mat.MetallicFactor != 0 || mat.BaseColorFactor[3] != 0.5 || m.Meshes[0].Primitives[0].Material != 0 {
		t.Errorf("material %+v", mat)
	}
	l := m.Lights[0]
	if l.Type != "spot" || l.Color != (mgl32.Vec3{1, 0, 0}) || l.Intensity != 3 || l.Range != 10 || l.InnerConeAngle != 0.1 || l.OuterConeAngle != 0.5 {
		t.Errorf("spot %+v", l)
	}
	if l := m.Lights[1]; l.Intensity != 1 || l.Color != (mgl32.Vec3{1, 1, 1}) || m.Nodes[0].Light != 1 {
		t.Errorf("directional %+v, node light %d", l, m.Nodes[0].Light)
	}
	if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], "EXT_nobody") {
		t.Errorf("warnings %q", m.Warnings)
	}
}

// A .glb whose first buffer is its BIN chunk reads like the same model with a data: URI.
func TestGLBChunks(t *testing.T) {
	d := square()
	raw := decodeURI(t, d.get("buffers", 0)["uri"].(string))
	delete(d.get("buffers", 0), "uri")
	m, err := Decode(glb(d.bytes(t), raw), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Counts(); c.Vertices != 4 || c.Triangles != 2 {
		t.Errorf("%+v", c)
	}
}

func near(a, b mgl32.Vec4) bool { return a.Sub(b).Len() < 1e-5 }

// Buffer views may overlap, and accessors may share one, as long as each stays in bounds.
func TestOverlappingViews(t *testing.T) {
	d := square()
	d["bufferViews"] = append(d["bufferViews"].([]any), map[string]any{"buffer": 0, "byteOffset": 12, "byteLength": 36})
	d["accessors"] = append(d["accessors"].([]any), map[string]any{"bufferView": 3, "componentType": 5126, "count": 3, "type": "VEC3"})
	d.get("meshes", 0, "primitives", 0, "attributes")["NORMAL"] = 0
	d.get("meshes", 0)["primitives"] = append(d.get("meshes", 0)["primitives"].([]any), map[string]any{"attributes": map[string]any{"POSITION": 3}})
	m, err := Decode(d.bytes(t), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p0, p1 := m.Meshes[0].Primitives[0], m.Meshes[0].Primitives[1]
	if p0.Normals[1] != p0.Positions[1] || p1.Positions[0] != p0.Positions[1] || len(p1.Indices) != 3 {
		t.Errorf("%v %v %v", p0.Normals, p1.Positions, p1.Indices)
	}
}

// Warnings stop at 100; the rest are counted.
func TestWarningsBounded(t *testing.T) {
	d := square()
	prims := []any{}
	for range 150 {
		prims = append(prims, map[string]any{"attributes": map[string]any{"POSITION": 0}, "mode": 0})
	}
	d.get("meshes", 0)["primitives"] = prims
	m, err := Decode(d.bytes(t), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings) != 101 || m.Warnings[100] != "… and 50 more warnings" || m.Counts().Primitives != 150 {
		t.Errorf("%d warnings, last %q", len(m.Warnings), m.Warnings[len(m.Warnings)-1])
	}
}

// A chain of 20,000 nodes, each one step along X from its parent: every world matrix composes
// its parent's, the last one 20,000 steps out.
func TestDeepChain(t *testing.T) {
	const n = 20_000
	d := square()
	nodes := make([]any, n)
	for i := range nodes {
		nd := map[string]any{"translation": []float32{1, 0, 0}}
		if i+1 < n {
			nd["children"] = []any{i + 1}
		}
		nodes[i] = nd
	}
	d["nodes"] = nodes
	m, err := Decode(d.bytes(t), "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if x := m.Nodes[n-1].World.Col(3).X(); x != n {
		t.Errorf("last node at x=%v, want %d", x, n)
	}
}
