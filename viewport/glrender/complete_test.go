package glrender

import (
	"image"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/viewport"
)

// distinctIDs counts the entities the picture on screen shows (its id attachment).
func distinctIDs(r *Renderer) int {
	w, h := r.Size()
	return len(r.ReadIDs(image.Rect(0, 0, w, h)))
}

// TestThinnedPictureGoesWhenTheViewStops: on a machine where drawing is slow (a busy llvmpipe), pictures drawn
// while the view moves are thinned to a handful of cubes; the first call once the view stopped, with a frame's
// budget far too small for the whole picture, puts the complete picture on screen: the thinned one never stays.
func TestThinnedPictureGoesWhenTheViewStops(t *testing.T) {
	dl := spread(t, 20, [4]float32{0.8, 0.8, 0.2, 1}) // 400 cubes
	cam := framed(dl, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		render(t, r, dl, cam)
		r.pics.pretendCost(12, time.Millisecond) // a cube costs a millisecond: at most a dozen or so fit a frame
		for range 3 {
			cam.Orbit(4, 0)
			if done, err := r.Draw(dl, cam, viewport.DrawOptions{Budget: 15 * time.Millisecond, Interactive: true}); !done || err != nil {
				t.Fatalf("interactive picture: done %v, %v", done, err)
			}
		}
		if s := r.Stats(); !s.Thinned || s.Instances*4 > dl.Len() {
			t.Fatalf("while the view moved: %d of %d cubes drawn (thinned %v); want a thinned picture", s.Instances, s.Total, s.Thinned)
		}
		// The view stops; a frame's budget fits a cube or two.
		done, err := r.Draw(dl, cam, viewport.DrawOptions{Budget: 2 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		s := r.Stats()
		if !done || s.Thinned || s.Instances != dl.Len() {
			t.Fatalf("the first frame after the view stopped shows %d of %d cubes (thinned %v, done %v): "+
				"the thinned picture stays on screen", s.Instances, s.Total, s.Thinned, done)
		}
		shown, ids := r.ReadImage(), distinctIDs(r)
		want := render(t, r, dl, cam)
		if n := distinctIDs(r); ids != n {
			t.Errorf("the picture shows %d cubes, one drawn at once %d", ids, n)
		}
		if _, n := diffImages(shown, want, 0); n != 0 {
			t.Errorf("the picture differs from one drawn at once in %d pixels", n)
		}
	})
}

// TestChangingListPicturesComplete: in play mode every instance changes at every call, and a picture costs many
// calls. The pictures still complete, each whole: every cube in it once, as the list was when the picture began,
// though the cubes move from chunk to chunk meanwhile.
func TestChangingListPicturesComplete(t *testing.T) {
	const side, w, h = 24, 640, 400
	dl := spread(t, side, [4]float32{0.3, 0.7, 0.9, 1})
	n := dl.Len()
	base := make([]mgl32.Mat4, n+1)
	for id := 1; id <= n; id++ {
		in, _, _ := dl.Get(uint32(id))
		base[id] = in.World
	}
	box := dl.Bounds()
	box.Max[0] += 2 * viewport.DefaultCellSize
	cam := viewport.DefaultCamera()
	cam.Frame(box, float32(w)/float32(h))
	withRenderer(t, w, h, func(r *Renderer) {
		render(t, r, dl, cam)
		if got := distinctIDs(r); got != n {
			t.Fatalf("a picture drawn at once shows %d of %d cubes: the test's view hides some", got, n)
		}
		renders, completed := r.Stats().Renders, 0
		for frame := 1; frame <= 400 && completed < 3; frame++ {
			// Every cube moves by a cell one way, then back: each leaves its chunk for another.
			shift := float32(frame%3) * viewport.DefaultCellSize
			for id := 1; id <= n; id++ {
				dl.SetWorld(uint32(id), mgl32.Translate3D(shift, 0, 0).Mul4(base[id]))
			}
			if _, err := r.Draw(dl, cam, viewport.DrawOptions{Budget: tiny, Changing: true}); err != nil {
				t.Fatal(err)
			}
			if s := r.Stats(); s.Renders != renders {
				renders = s.Renders
				completed++
				if s.Thinned || s.Stride != 1 {
					t.Errorf("frame %d: a thinned picture (stride %d)", frame, s.Stride)
				}
			}
			// The picture on screen, a new one or the last, shows every cube.
			if got := distinctIDs(r); got != n {
				t.Fatalf("frame %d: the picture on screen shows %d of %d cubes", frame, got, n)
			}
		}
		if completed < 3 {
			t.Fatalf("%d pictures completed in 400 calls while the list changed at each: the screen keeps an old one", completed)
		}
		// The list stops changing: the next picture shows it as it is.
		for done := false; !done; {
			var err error
			if done, err = r.Draw(dl, cam, viewport.DrawOptions{Budget: tiny}); err != nil {
				t.Fatal(err)
			}
		}
		got := r.ReadImage()
		if _, d := diffImages(got, render(t, r, dl, cam), 0); d != 0 {
			t.Errorf("once the list stopped changing, the picture differs from one drawn at once in %d pixels", d)
		}
	})
}

// pretendCost makes both pacers expect tris triangles to cost d, as if nothing else had been measured.
func (c *pictureCache) pretendCost(tris int, d time.Duration) {
	c.pacer, c.thinPacer = viewport.Pacer{}, viewport.Pacer{}
	c.pacer.Measure(tris, d)
	c.thinPacer.Measure(tris, d)
}
