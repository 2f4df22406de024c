package glrender

import (
	"image"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// spread is side×side cubes 4 units apart (many chunks), in colour c.
func spread(t *testing.T, side int, c [4]float32) *viewport.DrawList {
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
	for z := range side {
		for x := range side {
			dl.Set(assets.BuiltinCube, viewport.Instance{ID: uint32(z*side + x + 1), Color: c,
				World: mgl32.Translate3D(float32(x)*4-float32(side)*2, 0.5, float32(z)*4-float32(side)*2)})
		}
	}
	return dl
}

// tiny is a budget that lets a step draw one chunk.
const tiny = time.Nanosecond

// TestProgressiveKeepsLastPicture: a picture drawn over several calls leaves the last complete picture on screen
// (its pixels and its ids) until it is done, and then equals the same picture drawn at once.
func TestProgressiveKeepsLastPicture(t *testing.T) {
	red, blue := [4]float32{0.9, 0.1, 0.1, 1}, [4]float32{0.1, 0.2, 0.9, 1}
	a := spread(t, 12, red)
	cam := framed(a, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		before := render(t, r, a, cam)
		in, _, _ := a.Get(70)
		x, y, _ := cam.WorldToPixel(in.World.Col(3).Vec3().Add(mgl32.Vec3{0, 0.5, 0}), testW, testH)
		midX, midY := int(x), int(y)
		idBefore := r.ReadID(midX, midY)
		if idBefore != 70 {
			t.Fatalf("the top of cube 70 reads id %d", idBefore)
		}
		// The same cubes, blue, and a few more: drawn a chunk per call.
		for id := uint32(1); id <= 144; id++ {
			a.SetColor(id, blue)
		}
		a.Set(assets.BuiltinCube, viewport.Instance{ID: 500, Color: blue, World: mgl32.Translate3D(0, 3, 0)})
		calls, lastDone := 0, -1
		for {
			done, err := r.Draw(a, cam, viewport.DrawOptions{Budget: tiny})
			if err != nil {
				t.Fatal(err)
			}
			calls++
			if done {
				break
			}
			if _, n := diffImages(before, r.ReadImage(), 0); n != 0 {
				t.Fatalf("call %d: the image on screen changed in %d pixels while the new picture was drawn", calls, n)
			}
			if id := r.ReadID(midX, midY); id != idBefore {
				t.Fatalf("call %d: picking reads %d, the picture on screen shows %d", calls, id, idBefore)
			}
			s := r.Stats()
			if !s.Pending {
				t.Fatal("Stats does not say a picture is pending")
			}
			if s.PendingDone <= lastDone || s.PendingDone >= s.PendingOf {
				t.Fatalf("call %d: the pending picture's progress %d of %d (the last call's %d)", calls, s.PendingDone, s.PendingOf, lastDone)
			}
			lastDone = s.PendingDone
			if calls > 1000 {
				t.Fatal("the picture never completes")
			}
		}
		if calls < 3 {
			t.Errorf("a picture of %d chunks took %d calls with a one-chunk budget", r.Stats().DrawCalls, calls)
		}
		if s := r.Stats(); s.Steps != calls || s.Pending || s.Stride != 1 {
			t.Errorf("stats after the progressive picture: %+v", s)
		}
		progressive := r.ReadImage()
		if _, n := diffImages(before, progressive, 0); n == 0 {
			t.Fatal("the new picture is the old one")
		}
		if _, n := diffImages(progressive, render(t, r, a, cam), 0); n != 0 {
			t.Errorf("the picture drawn over %d calls differs from one drawn at once in %d pixels", calls, n)
		}
	})
}

// TestProgressiveRestartsOnChange: a change of the list or the camera while a picture is drawn starts it again;
// the screen keeps the last complete picture.
func TestProgressiveRestartsOnChange(t *testing.T) {
	dl := spread(t, 12, [4]float32{0.2, 0.8, 0.3, 1})
	cam := framed(dl, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		before := render(t, r, dl, cam)
		renders := r.Stats().Renders
		cam.Orbit(20, 0)
		if done, _ := r.Draw(dl, cam, viewport.DrawOptions{Budget: tiny}); done {
			t.Fatal("a many-chunk picture completed in one tiny step")
		}
		serial := r.pics.job.serial
		dl.SetWorld(1, mgl32.Translate3D(0, 5, 0))
		if done, _ := r.Draw(dl, cam, viewport.DrawOptions{Budget: tiny}); done {
			t.Fatal("completed in one tiny step")
		}
		if r.pics.job.serial == serial {
			t.Error("a change of the list did not start the picture again")
		}
		if _, n := diffImages(before, r.ReadImage(), 0); n != 0 {
			t.Errorf("the screen changed in %d pixels", n)
		}
		for done := false; !done; {
			done, _ = r.Draw(dl, cam, viewport.DrawOptions{Budget: tiny})
		}
		if r.Stats().Renders != renders+1 {
			t.Errorf("%d pictures completed, want 1", r.Stats().Renders-renders)
		}
	})
}

// TestSelectionOnlyRecomposes: selecting and deselecting re-tint the picture on screen without drawing it again.
func TestSelectionOnlyRecomposes(t *testing.T) {
	dl := cubesScene(t, 5)
	cam := framed(dl, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		plain := render(t, r, dl, cam)
		renders := r.Stats().Renders
		in, _, _ := dl.Get(13)
		x, y, _ := cam.WorldToPixel(in.World.Col(3).Vec3().Add(mgl32.Vec3{0, 0.5, 0}), testW, testH)
		dl.SetSelected(13, true)
		if done, err := r.Draw(dl, cam, viewport.DrawOptions{Budget: tiny}); !done || err != nil {
			t.Fatalf("selecting: done %v, %v", done, err)
		}
		tinted := r.ReadImage()
		if r.Stats().Renders != renders {
			t.Error("selecting drew the picture again")
		}
		if c0, c1 := plain.RGBAAt(int(x), int(y)), tinted.RGBAAt(int(x), int(y)); c0 == c1 || c1.R <= c0.R {
			t.Errorf("the selected cube's pixel %v → %v: not tinted towards orange", c0, c1)
		}
		if _, n := diffImages(plain, tinted, 0); n < 20 {
			t.Errorf("selecting changed %d pixels", n)
		}
		// What it shows is what a full render with that selection shows.
		if _, n := diffImages(tinted, render(t, r, dl, cam), 0); n != 0 {
			t.Errorf("the re-composed picture differs from a full render in %d pixels", n)
		}
		dl.SetSelected(13, false)
		renders = r.Stats().Renders
		if done, _ := r.Draw(dl, cam, viewport.DrawOptions{Budget: tiny}); !done || r.Stats().Renders != renders {
			t.Error("deselecting drew the picture again")
		}
		if _, n := diffImages(plain, r.ReadImage(), 0); n != 0 {
			t.Errorf("after deselecting the picture differs from the plain one in %d pixels", n)
		}
	})
}

// TestInteractiveThins: while the view moves, a picture that does not fit the budget is drawn thinned at once;
// once it stops, the full picture replaces it.
func TestInteractiveThins(t *testing.T) {
	dl := spread(t, 40, [4]float32{0.8, 0.8, 0.2, 1}) // 1600 cubes
	cam := framed(dl, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		render(t, r, dl, cam)
		r.pics.pretendCost(1000, time.Millisecond) // pretend a triangle costs 1 µs: 1600 cubes ≈ 19 ms
		cam.Orbit(10, 0)
		done, err := r.Draw(dl, cam, viewport.DrawOptions{Budget: 5 * time.Millisecond, Interactive: true})
		if !done || err != nil {
			t.Fatalf("interactive picture: done %v, %v", done, err)
		}
		s := r.Stats()
		if s.Stride < 2 || s.Instances >= dl.Len() || s.Total != dl.Len() || s.Steps != 1 {
			t.Errorf("interactive picture: %+v; want thinned, in one call", s)
		}
		thin := r.ReadImage()
		// The view stops: the next calls draw the full picture.
		calls := 0
		for done = false; !done; calls++ {
			done, _ = r.Draw(dl, cam, viewport.DrawOptions{Budget: tiny})
		}
		if s := r.Stats(); s.Stride != 1 || s.Instances != dl.Len() {
			t.Errorf("after the view stopped: %+v", s)
		}
		if _, n := diffImages(thin, r.ReadImage(), 0); n == 0 {
			t.Error("the full picture is the thinned one")
		}
		// Nothing changes any more: nothing is drawn.
		renders := r.Stats().Renders
		if done, _ := r.Draw(dl, cam, viewport.DrawOptions{Budget: tiny}); !done || r.Stats().Renders != renders {
			t.Error("an unchanged view drew again")
		}
	})
}

// TestThinnedPicturesLearnTheirOwnCost: what whole pictures cost a triangle (cheap: points and occlusion queries
// leave out most of their work) does not plan a thinned one; a thinned picture's steps teach only its own pacer.
func TestThinnedPicturesLearnTheirOwnCost(t *testing.T) {
	dl := spread(t, 40, [4]float32{0.8, 0.8, 0.2, 1}) // 1600 cubes
	cam := framed(dl, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		render(t, r, dl, cam)
		r.pics.pretendCost(1000, time.Millisecond) // a thinned picture's triangle: 1 µs (1600 cubes ≈ 19 ms)
		r.pics.pacer = viewport.Pacer{}
		r.pics.pacer.Measure(1000, time.Microsecond) // a whole picture's: 1 ns (everything fits 5 ms)
		whole := r.pics.pacer.PerTriangle()
		cam.Orbit(10, 0)
		if done, err := r.Draw(dl, cam, viewport.DrawOptions{Budget: 5 * time.Millisecond, Interactive: true}); !done || err != nil {
			t.Fatalf("interactive picture: done %v, %v", done, err)
		}
		if s := r.Stats(); s.Stride < 2 || s.Instances >= dl.Len() {
			t.Errorf("interactive picture planned by whole pictures' cost: %+v; want thinned", s)
		}
		if r.pics.pacer.PerTriangle() != whole {
			t.Errorf("a thinned picture's step changed whole pictures' cost: %v → %v", whole, r.pics.pacer.PerTriangle())
		}
	})
}

// TestZoomedInDrawsWhatIsVisible: close to a corner of a big grid, only the chunks in view are drawn.
func TestZoomedInDrawsWhatIsVisible(t *testing.T) {
	dl := spread(t, 100, [4]float32{0.5, 0.5, 0.9, 1}) // 10,000 cubes over 400 units
	cam := framed(dl, testW, testH)
	cam.Pivot, cam.Distance = mgl32.Vec3{-190, 0, -190}, 15
	withRenderer(t, testW, testH, func(r *Renderer) {
		img := render(t, r, dl, cam)
		s := r.Stats()
		if s.Instances*10 > dl.Len() || s.CulledChunks == 0 || s.Instances == 0 {
			t.Errorf("zoomed in: drew %d of %d instances, %d chunks culled", s.Instances, dl.Len(), s.CulledChunks)
		}
		// Culling lost nothing: the picture equals one with every chunk drawn.
		full := renderAll(t, r, dl, cam)
		if _, n := diffImages(img, full, 0); n != 0 {
			t.Errorf("the culled picture differs from drawing everything in %d pixels", n)
		}
	})
}

// renderAll draws every instance of dl, culling nothing, and returns the image (the picture on screen then).
func renderAll(t *testing.T, r *Renderer, dl *viewport.DrawList, cam viewport.Camera) *image.RGBA {
	t.Helper()
	r.pics.job, r.pics.have = nil, false
	r.pics.begin(pictureKey{dl: dl, version: dl.Version(), cam: cam, w: r.pics.t.w, h: r.pics.t.h, settings: r.Settings}, viewport.DrawOptions{})
	p := r.pics.job
	p.items = p.items[:0]
	for bi, b := range dl.Batches() {
		for ci, c := range b.Chunks() {
			if c.Len() > 0 && b.Mesh != nil {
				p.items = append(p.items, viewport.DrawItem{Batch: int32(bi), Chunk: int32(ci), Instances: int32(c.Len()), Triangles: c.Len() * 12})
			}
		}
	}
	r.pics.step(0)
	return r.ReadImage()
}

// TestTwoListsKeepTheirBuffers: switching between the scene's list and a preview's uploads only what changed.
func TestTwoListsKeepTheirBuffers(t *testing.T) {
	a, b := spread(t, 10, [4]float32{1, 0, 0, 1}), spread(t, 12, [4]float32{0, 1, 0, 1})
	cam := framed(b, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		render(t, r, a, cam)
		render(t, r, b, cam)
		render(t, r, a, cam)
		if s := r.Stats(); s.UploadedBytes != 0 {
			t.Errorf("back to the first list: %d bytes uploaded, want 0", s.UploadedBytes)
		}
		a.SetWorld(5, mgl32.Translate3D(-18, 1.5, -18))
		render(t, r, b, cam)
		render(t, r, a, cam)
		if s := r.Stats(); s.UploadedBytes != viewport.InstanceSize {
			t.Errorf("after one change in the first list: %d bytes uploaded, want one instance", s.UploadedBytes)
		}
		// A third list pushes out the one drawn least recently (b): b is uploaded whole again.
		c := spread(t, 3, [4]float32{0, 0, 1, 1})
		render(t, r, c, cam)
		render(t, r, b, cam)
		if s := r.Stats(); s.UploadedBytes < b.Len()*viewport.InstanceSize {
			t.Errorf("a list whose buffers were dropped: %d bytes uploaded, want all %d instances", s.UploadedBytes, b.Len())
		}
		sameAsFullUpload(t, r, b, cam)
	})
}
