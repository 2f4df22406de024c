package inspector

import (
	"flag"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/voltex-editor/voltex/internal/pngfile"
)

var update = flag.Bool("update", false, "rewrite the golden screenshots in testdata/")

var background = color.RGBA{R: 15, G: 15, B: 15, A: 255}

// shoot renders the last frame's top-left w×h pixels and compares them with testdata/name.png
// (rewritten with -update). A failed image is written to testdata/failed/ to look at.
func shoot(t *testing.T, name string, w, hgt int) {
	t.Helper()
	img := rasterize(w, hgt, background)
	golden := filepath.Join("testdata", name+".png")
	if *update {
		writePNG(t, golden, img)
		return
	}
	want, err := pngfile.Read(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run Screenshot -update to create it)", err)
	}
	if want.Bounds() != img.Bounds() {
		t.Fatalf("%s: size %v, want %v", name, img.Bounds(), want.Bounds())
	}
	differ := 0
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			a := img.RGBAAt(x, y)
			r, g, b, _ := want.At(x, y).RGBA()
			if absDiff(a.R, uint8(r>>8)) > 24 || absDiff(a.G, uint8(g>>8)) > 24 || absDiff(a.B, uint8(b>>8)) > 24 {
				differ++
			}
		}
	}
	if limit := img.Rect.Dx() * img.Rect.Dy() / 500; differ > limit {
		failed := filepath.Join("testdata", "failed", name+".png")
		writePNG(t, failed, img)
		t.Errorf("%s: %d pixels differ from %s (limit %d); see %s", name, differ, golden, limit, failed)
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := pngfile.Write(path, img); err != nil {
		t.Fatal(err)
	}
}

// The inspector of one entity with every kind of field, trees open, and one field (Angle) just
// changed by someone else (highlighted).
func TestScreenshotEveryKind(t *testing.T) {
	s := newScene(t)
	h := newHarness(t, s.w)
	h.size = imgui.Vec2{X: 520, Y: 1500}
	h.ed.names[s.es[0]] = "Hero"
	h.sel = s.es[:1]
	h.frames(2)
	for _, path := range []string{"inner", "weights", "tags", "points"} {
		h.click(center(h.widget(s.everything, s.ord(t, path))))
	}
	h.moveTo(imgui.Vec2{X: 510, Y: 1490}) // no hover effects
	if err := s.w.SetField(s.es[0], s.everything, "angle", 30); err != nil {
		t.Fatal(err)
	}
	h.frames(10)
	shoot(t, "inspector", 520, 1500)
}

// Three entities with differing values: mixed fields show "--".
func TestScreenshotMixed(t *testing.T) {
	s := newScene(t)
	h := newHarness(t, s.w)
	h.size = imgui.Vec2{X: 520, Y: 800}
	h.ed.names[s.es[0]], h.ed.names[s.es[1]], h.ed.names[s.es[2]] = "a", "b", "c"
	h.sel = s.es
	h.moveTo(imgui.Vec2{X: 510, Y: 790})
	h.frames(3)
	shoot(t, "inspector_mixed", 520, 800)
}
