package gltfprefab_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/assets/gltf"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/gltfprefab"
)

// TestBuildDeepAndWide: a chain of 200,000 nested nodes builds (paths kept as strings, which grow
// with the depth, would take about 40 GB), and 20,000 meshes sharing one name each get a reference of its own.
func TestBuildDeepAndWide(t *testing.T) {
	const deep = 200_000
	var b strings.Builder
	b.WriteString(`{"asset": {"version": "2.0"}, "nodes": [`)
	for i := range deep {
		if i > 0 {
			b.WriteByte(',')
		}
		if i < deep-1 {
			b.WriteString(`{"name": "n", "children": [` + strconv.Itoa(i+1) + `]}`)
		} else {
			b.WriteString(`{"name": "n"}`)
		}
	}
	b.WriteString(`]}`)
	m, err := gltf.Decode([]byte(b.String()), "", gltf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	w := scene.NewWorld()
	start := time.Now()
	if _, err := gltfprefab.Build(m, "deep.gltf", w, 0); err != nil {
		t.Fatal(err)
	}
	if w.Len() != deep {
		t.Errorf("%d entities, want %d", w.Len(), deep)
	}
	t.Logf("%d nested nodes in %v", deep, time.Since(start))

	const wide = 20_000
	b.Reset()
	b.WriteString(`{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [`)
	for i := range wide {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteString(`]}], "nodes": [`)
	for i := range wide {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"mesh": ` + strconv.Itoa(i) + `}`)
	}
	b.WriteString(`], "meshes": [`)
	for i := range wide {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name": "same", "primitives": [{"attributes": {"POSITION": 0}}]}`)
	}
	b.WriteString(`], "buffers": [{"byteLength": 36, "uri": "` + triangleBuffer() + `"}], "bufferViews": [{"buffer": 0, "byteLength": 36}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}]}`)
	m, err = gltf.Decode([]byte(b.String()), "", gltf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	w = scene.NewWorld()
	if _, err := gltfprefab.Build(m, "wide.gltf", w, 0); err != nil {
		t.Fatal(err)
	}
	if w.Len() != wide {
		t.Errorf("%d entities, want %d", w.Len(), wide)
	}
	if got := gltf.MeshPart(m, wide-1, 0); got != "mesh/"+strconv.Itoa(wide-1)+"/0" {
		t.Errorf("a mesh sharing its name is named by its index: %s", got)
	}
}
