package glrender

import (
	"flag"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/internal/pngfile"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/glrender/headless"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// sharedGL is one headless context for the whole test binary.
var sharedGL = sync.OnceValues(NewHeadless)

// glContext returns the shared headless context, failing the test if there is none.
func glContext(t testing.TB) *headless.Context {
	t.Helper()
	c, err := sharedGL()
	if err != nil {
		t.Fatalf("no headless OpenGL 4.1 context (EGL surfaceless, Mesa): %v", err)
	}
	return c
}

// withRenderer runs f on the GL thread with a fresh w×h renderer, deleted
// afterwards.
func withRenderer(t testing.TB, w, h int, f func(r *Renderer)) {
	t.Helper()
	withMade(t, w, h, New, f)
}

// withMade runs f with a renderer that newR makes (w×h) on the test's GL context, deleting it afterwards.
func withMade(t testing.TB, w, h int, newR func() (*Renderer, error), f func(r *Renderer)) {
	t.Helper()
	if err := glContext(t).Do(func() {
		r, err := newR()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Delete()
		if err := r.Resize(w, h); err != nil {
			t.Fatal(err)
		}
		f(r)
	}); err != nil {
		t.Fatal(err)
	}
}

func builtin(t testing.TB, ref string) *assets.Mesh {
	m, ok := assets.Builtin(ref)
	if !ok {
		t.Fatalf("no built-in mesh %s", ref)
	}
	return m
}

// cubesScene is a side×side grid of unit cubes, spacing 1.5, centred on the
// origin, resting on the ground, in a colour ramp; ids from 1 in row order.
func cubesScene(t testing.TB, side int) *viewport.DrawList {
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
	off := float32(side-1) * 1.5 / 2
	for z := range side {
		for x := range side {
			id := uint32(z*side + x + 1)
			u, v := float32(x)/float32(max(side-1, 1)), float32(z)/float32(max(side-1, 1))
			dl.Set(assets.BuiltinCube, viewport.Instance{
				World: mgl32.Translate3D(float32(x)*1.5-off, 0.5, float32(z)*1.5-off),
				Color: [4]float32{0.25 + 0.7*u, 0.35 + 0.3*(1-u*v), 0.25 + 0.7*v, 1},
				ID:    id,
			})
		}
	}
	return dl
}

// compareGolden compares img with testdata/name.png: a pixel differs when
// a channel is off by more than channelTol, and the images match when at
// most maxDiffFrac of the pixels differ (llvmpipe is deterministic on one
// machine; the slack covers other CPUs and Mesa versions). With -update it
// rewrites the reference; on failure it writes testdata/failed/name.png.
func compareGolden(t *testing.T, name string, img *image.RGBA) {
	t.Helper()
	const channelTol, maxDiffFrac = 16, 0.005
	path := filepath.Join("testdata", name+".png")
	if *update {
		if err := writePNG(path, img); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := pngfile.Read(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./viewport/glrender -run %s -update` to create it)", err, t.Name())
	}
	diff, n := diffImages(img, want, channelTol)
	if frac := float64(n) / float64(img.Bounds().Dx()*img.Bounds().Dy()); frac > maxDiffFrac {
		failed := filepath.Join("testdata", "failed", name+".png")
		_ = writePNG(failed, img)
		if diff != nil {
			_ = writePNG(filepath.Join("testdata", "failed", name+".diff.png"), diff)
		}
		t.Errorf("%s: %d pixels (%.2f%%) differ from %s by more than %d; got written to %s",
			name, n, 100*frac, path, channelTol, failed)
	}
}

// diffImages counts the pixels of a and b that differ by more than tol in
// some channel and returns an image marking them (nil when the sizes
// differ, which also counts as all pixels differing).
func diffImages(a *image.RGBA, b image.Image, tol int) (*image.RGBA, int) {
	if a.Bounds() != b.Bounds() {
		return nil, a.Bounds().Dx() * a.Bounds().Dy()
	}
	d := image.NewRGBA(a.Bounds())
	n := 0
	for y := a.Rect.Min.Y; y < a.Rect.Max.Y; y++ {
		for x := a.Rect.Min.X; x < a.Rect.Max.X; x++ {
			p := a.RGBAAt(x, y)
			r, g, bb, al := b.At(x, y).RGBA()
			q := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bb >> 8), uint8(al >> 8)}
			if absDiff(p.R, q.R) > tol || absDiff(p.G, q.G) > tol || absDiff(p.B, q.B) > tol || absDiff(p.A, q.A) > tol {
				n++
				d.SetRGBA(x, y, color.RGBA{255, 0, 255, 255})
			} else {
				d.SetRGBA(x, y, color.RGBA{p.R / 4, p.G / 4, p.B / 4, 255})
			}
		}
	}
	if n == 0 {
		return nil, 0
	}
	return d, n
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// writePNG writes img to path, creating the folder (testdata/failed) if needed.
func writePNG(path string, img image.Image) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return pngfile.Write(path, img)
}
