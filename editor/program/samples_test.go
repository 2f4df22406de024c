package program

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/samples/")

// sampleRenders are the glTF sample models of ../shared/testdata/gltf, every file of each, placed as a prefab
// standing on the ground (lifted by y) and rendered from about where the model's reference screenshot looks.
var sampleRenders = []struct {
	model      string
	files      []string
	y          float32
	yaw, pitch int
}{
	{"BoxVertexColors", []string{"glTF/BoxVertexColors.gltf", "glTF-Embedded/BoxVertexColors.gltf", "glTF-Binary/BoxVertexColors.glb"}, 0.5, 30, -25},
	{"Cameras", []string{"glTF/Cameras.gltf", "glTF-Embedded/Cameras.gltf"}, 0, 0, -5},
	{"Cube", []string{"glTF/Cube.gltf"}, 1, -30, -15},
	{"OrientationTest", []string{"glTF/OrientationTest.gltf", "glTF-Embedded/OrientationTest.gltf", "glTF-Binary/OrientationTest.glb"}, 6, 45, -30},
	{"Triangle", []string{"glTF/Triangle.gltf", "glTF-Embedded/Triangle.gltf"}, 0, 0, -5},
	{"TriangleWithoutIndices", []string{"glTF/TriangleWithoutIndices.gltf", "glTF-Embedded/TriangleWithoutIndices.gltf"}, 0, 0, -5},
}

// TestRenderSampleModels: `render` of a scene placing each sample model (every one of its files: .gltf with
// external files, embedded, .glb) draws it as testdata/samples/MODEL.png shows — its vertex colours, textures,
// materials and node transforms — within a tolerance; the files of one model draw the same picture. Run with
// -update to rewrite the pictures (look at them beside the models' reference screenshots).
func TestRenderSampleModels(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared", "testdata", "gltf")
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("skipping: the shared sample models are absent: %v", err)
	}
	for _, s := range sampleRenders {
		t.Run(s.model, func(t *testing.T) {
			golden := filepath.Join("testdata", "samples", s.model+".png")
			for i, file := range s.files {
				dir := t.TempDir()
				src := filepath.Join(shared, s.model, filepath.Dir(file))
				if err := os.CopyFS(filepath.Join(dir, "model"), os.DirFS(src)); err != nil {
					t.Fatal(err)
				}
				scene := fmt.Sprintf(`{ "format": "voltex.scene", "version": 2, "entities": [
 { "id": 1, "name": "Model", "order": 1, "prefab": "model/%s", "components": { "Transform": { "position": [0, %g, 0] } } } ] }`,
					filepath.Base(file), s.y)
				path := filepath.Join(dir, "scene.json")
				if err := os.WriteFile(path, []byte(scene), 0o644); err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(dir, "out.png")
				code, _, stderr := runCLI("render", path, "-o", out, "--size", "256x192",
					"--yaw", fmt.Sprint(s.yaw), "--pitch", fmt.Sprint(s.pitch))
				if code != 0 || stderr != "" {
					t.Fatalf("%s: render: code %d\n%s", file, code, stderr)
				}
				got := readPNG(t, out)
				if *update && i == 0 {
					data, err := os.ReadFile(out)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, data, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want := readPNG(t, golden)
				if n, frac := differing(got, want, 16); frac > 0.005 {
					failed := filepath.Join(os.TempDir(), "voltex-sample-"+s.model+".png")
					_ = writeImage(failed, got)
					t.Errorf("%s: %d pixels (%.2f%%) differ from %s by more than 16; got written to %s", file, n, 100*frac, golden, failed)
				}
			}
		})
	}
}

// differing counts the pixels of a and b that differ by more than tol in a channel, and their fraction (all
// of them when the sizes differ).
func differing(a, b image.Image, tol uint32) (int, float64) {
	r := a.Bounds()
	if r != b.Bounds() {
		return r.Dx() * r.Dy(), 1
	}
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c1, c2 := [4]uint32{}, [4]uint32{}
			c1[0], c1[1], c1[2], c1[3] = a.At(x, y).RGBA()
			c2[0], c2[1], c2[2], c2[3] = b.At(x, y).RGBA()
			for k := range c1 {
				if max(c1[k], c2[k])>>8-min(c1[k], c2[k])>>8 > tol {
					n++
					break
				}
			}
		}
	}
	return n, float64(n) / float64(r.Dx()*r.Dy())
}

func writeImage(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		_ = f.Close() // the encoding error is the one to report
		return err
	}
	return f.Close()
}
