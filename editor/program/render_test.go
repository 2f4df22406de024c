package program

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// render --size states the range it refuses, and caps the image to what the memory budget allows
// (16384x16384 took 5.4 GB; about 20 bytes per pixel).
func TestRenderSizeRange(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.png")
	for size, want := range map[string]string{
		"16384x16384": "16384x16384 is out of range: each side must be within 64..8192",
		"32x100":      "32x100 is out of range: each side must be within 64..8192",
		"8192x8192":   "8192x8192 is 67,108,864 pixels, more than the limit of 33,554,432 (8192x4096",
		"big":         `"big" is not a size like 1600x1000`,
	} {
		code, _, stderr := runCLI("render", "testdata/cubes.json", "-o", out, "--size", size)
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("--size %s: code %d %q", size, code, stderr)
		}
	}
}

// Read-only targets are refused by every subcommand that writes (fmt -w, export -o, grid -o,
// render -o) with a message naming the file, which stays as it was.
func TestWritersRefuseReadOnly(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "s.json")
	if err := os.WriteFile(scene, []byte(`{"format": "voltex.scene", "version": 2, "entities": [{"id": 5}]}`), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(scene, 0o444); err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(dir, "ro.out")
	if err := os.WriteFile(ro, []byte("keep"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o444); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"fmt", "-w", scene},
		{"export", "testdata/solar.json", "-o", ro},
		{"grid", "--nx", "2", "--nz", "2", "-o", ro},
		{"render", "testdata/cubes.json", "-o", ro, "--size", "64x64"},
	} {
		code, _, stderr := runCLI(args...)
		target := args[len(args)-1]
		if args[0] == "render" {
			target = ro
		}
		if code != 1 || !strings.Contains(stderr, target+" is read-only (-r--r--r--)") {
			t.Errorf("%s: code %d %q", args[0], code, stderr)
		}
	}
	if b, _ := os.ReadFile(ro); string(b) != "keep" {
		t.Errorf("the read-only file changed: %q", b)
	}
}

// A scene whose entity uses a .glb mesh validates, exports and renders like one with an .obj:
// no warning, and the box (red from the entity's Color, framed by the default camera) covers
// the middle of the picture.
func TestRenderGLBMesh(t *testing.T) {
	dir := t.TempDir()
	glb, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", "gltf", "BoxVertexColors", "glTF-Binary", "BoxVertexColors.glb"))
	if err != nil {
		t.Skipf("skipping: the shared glTF samples are absent: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Box.glb"), glb, 0o644); err != nil {
		t.Fatal(err)
	}
	scene := filepath.Join(dir, "box.json")
	if err := os.WriteFile(scene, []byte(`{"format": "voltex.scene", "version": 2, "name": "Box", "entities": [
  {"id": 1, "name": "Box", "order": 0, "components": {
    "Color": {"rgba": [0.9, 0.1, 0.1, 1]},
    "Mesh": {"asset": "Box.glb"},
    "Transform": {"position": [0, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI("validate", scene); code != 0 {
		t.Fatalf("validate: %d %s %s", code, out, errOut)
	}
	if code, _, errOut := runCLI("export", scene, "-o", filepath.Join(dir, "box.voltex.export")); code != 0 {
		t.Fatalf("export: %d %s", code, errOut)
	}
	pic := filepath.Join(dir, "box.png")
	code, _, errOut := runCLI("render", scene, "-o", pic, "--size", "200x200")
	if code != 0 || errOut != "" {
		t.Fatalf("render: code %d, stderr %q", code, errOut)
	}
	img := readPNG(t, pic)
	red := 0
	for y := 70; y < 130; y++ {
		for x := 70; x < 130; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 > max(g, b)>>8+60 {
				red++
			}
		}
	}
	if red < 60*60*9/10 {
		t.Fatalf("only %d of the middle 3,600 pixels show the red box", red)
	}
}

// readPNG decodes the PNG file at path.
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}
