package program

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sharedGLTF returns a sample of ../shared/testdata/gltf, or skips the test when it is absent.
func sharedGLTF(t *testing.T, name string) string {
	t.Helper()
	p := repoFile("../shared/testdata/gltf/" + name)
	if _, err := os.Stat(p); err != nil {
		t.Skip("../shared/testdata is not beside this checkout")
	}
	return p
}

func TestModelJSON(t *testing.T) {
	p := sharedGLTF(t, "BoxVertexColors/glTF-Binary/BoxVertexColors.glb")
	code, out, errOut := runCLI("model", "--json", p)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := map[string]any{"nodes": 4.0, "meshes": 1.0, "primitives": 1.0, "vertices": 24.0, "triangles": 12.0,
		"materials": 1.0, "textures": 0.0, "lights": 0.0, "cameras": 0.0, "warnings": []any{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestModelText(t *testing.T) {
	p := sharedGLTF(t, "Cameras/glTF/Cameras.gltf")
	code, out, _ := runCLI("model", p)
	want := p + ": 3 nodes, 1 mesh, 1 primitive, 4 vertices, 2 triangles, 0 materials, 0 textures, 0 lights, 2 cameras\n"
	if code != 0 || out != want {
		t.Errorf("exit %d\n got %q\nwant %q", code, out, want)
	}
}

// Warnings go in the JSON's list; a refused model says why on stderr, exit 1.
func TestModelWarningsAndRefusal(t *testing.T) {
	dir := t.TempDir()
	tri := `{"asset":{"version":"2.0"},"extensionsUsed":["EXT_unknown"],
	"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
	"bufferViews":[{"buffer":0,"byteLength":36}],
	"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
	"meshes":[{"primitives":[{"attributes":{"POSITION":0}},{"attributes":{"POSITION":0},"mode":1}]}]}`
	p := filepath.Join(dir, "m.gltf")
	if err := os.WriteFile(p, []byte(tri), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("model", p, "--json")
	var got modelReport
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("exit %d %v: %s %s", code, err, out, errOut)
	}
	if got.Primitives != 2 || got.Triangles != 1 || len(got.Warnings) != 2 || !strings.Contains(got.Warnings[0], "EXT_unknown") {
		t.Errorf("%+v", got)
	}
	bad := strings.Replace(tri, `"count":3`, `"count":3000000000`, 1)
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI("model", "--json", p)
	if code != 1 || out != "" || !strings.Contains(errOut, p+": meshes[0].primitives[0].attributes.POSITION: accessor 0: count 3000000000") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := runCLI("model"); code != 2 || !strings.Contains(errOut, "usage: voltex-editor model") {
		t.Errorf("no file: exit %d %s", code, errOut)
	}
}
