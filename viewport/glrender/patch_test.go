package glrender

import (
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// drawDone draws dl through Draw (as the editor does, so the picture on screen may be patched) until complete.
func drawDone(t testing.TB, r *Renderer, dl *viewport.DrawList, cam viewport.Camera, o viewport.DrawOptions) {
	t.Helper()
	for range 10000 {
		done, err := r.Draw(dl, cam, o)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			return
		}
	}
	t.Fatal("the picture never completes")
}

// TestPatchEqualsWholePicture: a few changed instances (moved, recoloured, removed, added) are drawn as a patch
// over the picture on screen — far fewer instances than the scene holds — and the result equals the whole picture
// drawn anew, pixels and ids; so does a patch begun again after an unfinished one.
func TestPatchEqualsWholePicture(t *testing.T) {
	red := [4]float32{0.9, 0.1, 0.1, 1}
	dl := spread(t, 20, red)
	cam := framed(dl, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		if s := r.Stats(); s.Instances != dl.Len() {
			t.Fatalf("the first picture drew %d of %d instances", s.Instances, dl.Len())
		}
		steps := []struct {
			name   string
			change func()
		}{
			{"moved", func() { dl.SetWorld(170, mgl32.Translate3D(1, 2.5, 1)) }},
			{"recoloured", func() { dl.SetColor(45, [4]float32{0.1, 0.9, 0.2, 1}) }},
			{"removed", func() { dl.Remove(211) }},
			{"added", func() {
				dl.Set(assets.BuiltinCube, viewport.Instance{ID: 900, Color: [4]float32{0.2, 0.3, 0.9, 1},
					World: mgl32.Translate3D(-6, 1.5, 6)})
			}},
			{"two moved, the second before the first was drawn", func() {
				dl.SetWorld(20, mgl32.Translate3D(34, 0.5, -38))
				if _, err := r.Draw(dl, cam, viewport.DrawOptions{Budget: tiny}); err != nil {
					t.Fatal(err)
				}
				dl.SetWorld(40, mgl32.Translate3D(33, 1.5, -33))
			}},
		}
		for _, st := range steps {
			st.change()
			drawDone(t, r, dl, cam, viewport.DrawOptions{})
			s := r.Stats()
			if s.Instances*2 > dl.Len() {
				t.Errorf("%s: the patch drew %d of %d instances", st.name, s.Instances, dl.Len())
			}
			patched := r.ReadImage()
			ids := make([]uint32, 0, testW*testH/64)
			for y := 0; y < testH; y += 8 {
				for x := 0; x < testW; x += 8 {
					ids = append(ids, r.ReadID(x, y))
				}
			}
			whole := renderAll(t, r, dl, cam)
			if _, n := diffImages(patched, whole, 0); n != 0 {
				t.Errorf("%s: the patched picture differs from the whole one in %d pixels", st.name, n)
			}
			i := 0
			for y := 0; y < testH; y += 8 {
				for x := 0; x < testW; x += 8 {
					if got, want := ids[i], r.ReadID(x, y); got != want {
						t.Fatalf("%s: the patched picture picks %d at %d,%d, the whole one %d", st.name, got, x, y, want)
					}
					i++
				}
			}
		}
		// A drag (the scene changing frame after frame): a patch that fits the frame, not a thinned picture.
		dl.SetWorld(100, mgl32.Translate3D(35, 1.5, -23))
		drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: time.Second, Interactive: true})
		if s := r.Stats(); s.Thinned || s.Stride != 1 || s.Instances*2 > dl.Len() {
			t.Errorf("an interactive change of one instance: %+v", s)
		}
		// A change all over the picture is drawn whole.
		for id := uint32(1); id <= 400; id++ {
			dl.SetColor(id, [4]float32{0.5, 0.5, 0.1, 1})
		}
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		if s := r.Stats(); s.Instances != dl.Len() {
			t.Errorf("every instance recoloured: drew %d of %d", s.Instances, dl.Len())
		}
	})
}
