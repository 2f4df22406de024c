package gltf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each broken or hostile model is refused with a message naming what and where.
func TestRefusals(t *testing.T) {
	cases := []struct {
		name string
		edit func(d doc)
		want []string
	}{
		{"huge count", func(d doc) { d.get("accessors", 0)["count"] = 1_000_000_000 },
			[]string{"meshes[0].primitives[0].attributes.POSITION: accessor 0: count 1000000000", "Limits.MaxVertices"}},
		{"count past the view", func(d doc) { d.get("accessors", 0)["count"] = 1000 },
			[]string{"meshes[0].primitives[0].attributes.POSITION: accessor 0: 1000 elements", "bufferView 0 (buffer 0) has 48"}},
		{"offset past the buffer", func(d doc) { d.get("bufferViews", 1)["byteOffset"] = 4000 },
			[]string{"bufferViews[1]: bytes 4000..4008 are outside buffer 0"}},
		{"accessor offset past the view", func(d doc) { d.get("accessors", 1)["byteOffset"] = 100 },
			[]string{"meshes[0].primitives[0].indices: accessor 1: byteOffset 100 is outside bufferView 1"}},
		{"negative offset", func(d doc) { d.get("accessors", 0)["byteOffset"] = -4 },
			[]string{"accessor 0: byteOffset -4"}},
		{"stride too small", func(d doc) { d.get("bufferViews", 0)["byteStride"] = 8 },
			[]string{"attributes.POSITION: accessor 0: bufferView 0: byteStride 8 is smaller than an element (12 bytes)"}},
		{"stride out of range", func(d doc) { d.get("bufferViews", 0)["byteStride"] = 1 << 30 },
			[]string{"bufferViews[0].byteStride: 1073741824"}},
		{"index past the vertices", func(d doc) {
			d.get("accessors", 1)["componentType"] = 5121
			d.get("accessors", 1)["count"] = 8 // the ushorts 0,1,2,3 as bytes: 0,0,1,0,2,0,3,0 — fine; then:
			d.get("bufferViews", 1)["byteLength"] = 8
			d.get("accessors", 2)["count"] = 4
			d.get("accessors", 0)["count"] = 2
			d.get("accessors", 2)["count"] = 2
		}, []string{"indices: accessor 1: index 4 is 2, past the 2 vertices"}},
		{"cycle", func(d doc) {
			d["nodes"] = []any{map[string]any{"mesh": 0}, map[string]any{"children": []any{2}}, map[string]any{"children": []any{1}}}
		}, []string{"in a cycle of children"}},
		{"own child", func(d doc) { d.get("nodes", 0)["children"] = []any{0} }, []string{"nodes[0].children[0]: node 0 is its own child"}},
		{"two parents", func(d doc) {
			d["nodes"] = []any{map[string]any{"children": []any{2}}, map[string]any{"children": []any{2}}, map[string]any{}}
		}, []string{"nodes[1].children[0]: node 2 is already a child of node 0"}},
		{"missing buffer", func(d doc) { d.get("bufferViews", 1)["buffer"] = 5 }, []string{"bufferViews[1].buffer: buffer 5 does not exist (1 buffer)"}},
		{"missing accessor", func(d doc) { d.get("meshes", 0, "primitives", 0, "attributes")["POSITION"] = 9 },
			[]string{"meshes[0].primitives[0].attributes.POSITION: accessor 9 does not exist (3 accessors)"}},
		{"missing node", func(d doc) { d.get("scenes", 0)["nodes"] = []any{3} }, []string{"scenes[0].nodes[0]: node 3 does not exist"}},
		{"missing material", func(d doc) { d.get("meshes", 0, "primitives", 0)["material"] = 0 }, []string{"meshes[0].primitives[0].material: material 0 does not exist (0 materials)"}},
		{"bad base64", func(d doc) { d.get("buffers", 0)["uri"] = "data:application/octet-stream;base64,@@@" }, []string{"buffers[0].uri: bad base64"}},
		{"short buffer", func(d doc) { d.get("buffers", 0)["byteLength"] = 4096 }, []string{"buffers[0]: byteLength is 4096, the data has only"}},
		{"required extension", func(d doc) { d["extensionsRequired"] = []any{"KHR_draco_mesh_compression"} },
			[]string{"extensionsRequired[0]: extension KHR_draco_mesh_compression is required and not supported"}},
		{"no POSITION", func(d doc) { delete(d.get("meshes", 0, "primitives", 0, "attributes"), "POSITION") }, []string{"attributes: no POSITION"}},
		{"colour count", func(d doc) { d.get("accessors", 2)["count"] = 2 }, []string{"attributes.COLOR_0: accessor 2 has 2 elements, POSITION has 4"}},
		{"external file without folder", func(d doc) { d.get("buffers", 0)["uri"] = "a.bin" }, []string{"buffers[0].uri: external file \"a.bin\""}},
		{"version 1", func(d doc) { d["asset"] = map[string]any{"version": "1.0"} }, []string{"asset.version"}},
		{"wrong JSON type", func(d doc) { d.get("accessors", 0)["count"] = "four" }, []string{"1:", "accessors.count: string"}},
		{"alpha mode", func(d doc) { d["materials"] = []any{map[string]any{"alphaMode": "GLASS"}} }, []string{"materials[0].alphaMode: \"GLASS\""}},
		{"spot cone", func(d doc) {
			d["extensions"] = map[string]any{"KHR_lights_punctual": map[string]any{"lights": []any{map[string]any{"type": "spot", "spot": map[string]any{"innerConeAngle": 1, "outerConeAngle": 0.5}}}}}
		}, []string{"extensions.KHR_lights_punctual.lights[0].spot: cone angles"}},
	}
	for _, c := range cases {
		d := square()
		c.edit(d)
		_, err := Decode(d.bytes(t), "", Limits{})
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v\nwant it to say %q", c.name, err, w)
			}
		}
	}
}

// The huge count is refused from the numbers: nothing near its size is allocated.
func TestHugeCountAllocatesNothingBig(t *testing.T) {
	d := square()
	d.get("accessors", 0)["count"] = 1_999_999
	data := d.bytes(t)
	if _, err := Decode(data, "", Limits{}); err == nil {
		t.Fatal("accepted")
	}
	var before, after runtimeMem
	before.read()
	for range 5 {
		_, _ = Decode(data, "", Limits{}) // only the memory it keeps matters here
	}
	after.read()
	if grew := after.total - before.total; grew > 5<<20 {
		t.Errorf("five refusals allocated %d bytes", grew)
	}
}

func TestSyntaxErrorHasLineAndColumn(t *testing.T) {
	_, err := Decode([]byte("{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [}\n"), "", Limits{})
	if err == nil || !strings.HasPrefix(err.Error(), "3:13: JSON:") {
		t.Errorf("err %v, want 3:13: JSON: …", err)
	}
}

func TestRequiredSupportedExtensionAccepted(t *testing.T) {
	d := square()
	d["extensionsRequired"] = []any{"KHR_texture_transform"}
	d["extensionsUsed"] = []any{"KHR_texture_transform"}
	if _, err := Decode(d.bytes(t), "", Limits{}); err != nil {
		t.Error(err)
	}
}

func TestTruncatedGLB(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(sampleDir(t), "BoxVertexColors", "glTF-Binary", "BoxVertexColors.glb"))
	if err != nil {
		t.Fatal(err)
	}
	for n := range data {
		if _, err := Decode(data[:n], "", Limits{}); err == nil {
			t.Errorf("%d of %d bytes accepted", n, len(data))
		}
	}
	for _, n := range []int{4, 11, 20, len(data) - 1} {
		_, err := Decode(data[:n], "", Limits{})
		if n >= 4 && !strings.Contains(err.Error(), "glb:") {
			t.Errorf("%d bytes: %v, want a glb: message", n, err)
		}
	}
}

// URIs stay in the model's folder: "..", absolute paths and symlinks out are refused; a file
// inside is read, percent-escapes decoded.
func TestURIsStayInTheFolder(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "model")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	d := square()
	raw := decodeURI(t, d.get("buffers", 0)["uri"].(string))
	if err := os.WriteFile(filepath.Join(root, "outside.bin"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "in side.bin"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "outside.bin"), filepath.Join(dir, "link.bin")); err != nil {
		t.Fatal(err)
	}
	write := func(uri string) string {
		d.get("buffers", 0)["uri"] = uri
		p := filepath.Join(dir, "m.gltf")
		if err := os.WriteFile(p, d.bytes(t), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if m, err := Import(write("in%20side.bin"), Limits{}); err != nil || m.Counts().Vertices != 4 {
		t.Errorf("file inside: %v", err)
	}
	for uri, want := range map[string]string{
		"../outside.bin":             "climbs out",
		filepath.Join(root, "x.bin"): "absolute path",
		"link.bin":                   "resolves through a symlink",
		"file:///etc/passwd":         "is a URL",
		"missing.bin":                "no such file",
		"%2e%2e/outside.bin":         "climbs out",
	} {
		_, err := Import(write(uri), Limits{})
		if err == nil || !strings.Contains(err.Error(), "buffers[0].uri") || !strings.Contains(err.Error(), want) {
			t.Errorf("uri %q: %v, want %q", uri, err, want)
		}
	}
}

// The bytes of a model and its external files count against MaxBytes together.
func TestMaxBytesCountsExternalFiles(t *testing.T) {
	dir := t.TempDir()
	d := square()
	raw := decodeURI(t, d.get("buffers", 0)["uri"].(string))
	if err := os.WriteFile(filepath.Join(dir, "b.bin"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	d.get("buffers", 0)["uri"] = "b.bin"
	p := filepath.Join(dir, "m.gltf")
	if err := os.WriteFile(p, d.bytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	if _, err := Import(p, Limits{MaxBytes: st.Size() + int64(len(raw))}); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	if _, err := Import(p, Limits{MaxBytes: st.Size() + int64(len(raw)) - 1}); err == nil || !strings.Contains(err.Error(), "Limits.MaxBytes") {
		t.Errorf("over the limit: %v", err)
	}
}

// Objects are counted before the JSON is decoded: "nodes": [{}, {}, …] of a few bytes each would
// decode to hundreds of bytes each.
func TestMaxObjects(t *testing.T) {
	text := `{"asset":{"version":"2.0"},"nodes":[` + strings.Repeat(`{},`, 20) + `{}], "x": "[[[["}`
	if _, err := Decode([]byte(text), "", Limits{MaxObjects: 24}); err != nil {
		t.Errorf("24 objects and arrays: %v", err)
	}
	_, err := Decode([]byte(text), "", Limits{MaxObjects: 23})
	if err == nil || !strings.Contains(err.Error(), "1:97: more than 23 objects and arrays (Limits.MaxObjects)") {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := Decode([]byte(text), "", Limits{MaxJSONBytes: 50}); err == nil || !strings.Contains(err.Error(), "Limits.MaxJSONBytes") {
		t.Errorf("JSON over its limit: %v", err)
	}
}

// The cheapest objects in the text cost at most 1,200 bytes each decoded (allocated, garbage
// included): the figure docs/limits.md's budget rests on.
func TestBytesPerObject(t *testing.T) {
	const n = 50_000
	for _, list := range []string{"nodes", "materials", "accessors", "bufferViews", "textures", "samplers", "scenes", "meshes"} {
		text := `{"asset":{"version":"2.0"},"` + list + `":[` + strings.Repeat(`{},`, n-1) + `{}]}`
		var before, after runtimeMem
		before.read()
		_, err := Decode([]byte(text), "", Limits{})
		after.read()
		per := float64(after.total-before.total-uint64(len(text))) / n
		t.Logf("%s: %.0f bytes an object (%v)", list, per, err)
		if per > 1200 {
			t.Errorf("%s: %.0f bytes an object, over the 1,200 docs/limits.md counts", list, per)
		}
	}
}
