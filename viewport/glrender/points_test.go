package glrender

import (
	"image"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// cubeBlock is an n×n×n block of unit cubes 1.5 apart centred on the origin, in a colour ramp; ids from 1.
func cubeBlock(t testing.TB, n int) *viewport.DrawList {
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
	addBlock(dl, n, 0, 1)
	return dl
}

// addBlock adds to dl an n×n×n block of unit cubes 1.5 apart centred on (x0, 0, 0), ids from first on.
func addBlock(dl *viewport.DrawList, n int, x0 float32, first uint32) {
	off := float32(n-1) * 0.75
	f := func(i int) float32 { return 0.2 + 0.7*float32(i)/float32(n) }
	for z := range n {
		for y := range n {
			for x := range n {
				dl.Set(assets.BuiltinCube, viewport.Instance{
					World: mgl32.Translate3D(x0+float32(x)*1.5-off, float32(y)*1.5-off, float32(z)*1.5-off),
					Color: [4]float32{f(x), f(y), f(z), 1},
					ID:    first + uint32((z*n+y)*n+x),
				})
			}
		}
	}
}

// drawRead draws dl seen by cam whole, anew, and returns the image and the id attachment of the w×h picture.
func drawRead(t *testing.T, r *Renderer, dl *viewport.DrawList, cam viewport.Camera, w, h int) (*image.RGBA, []uint32) {
	t.Helper()
	r.pics.drop()
	if err := r.Render(dl, cam); err != nil {
		t.Fatal(err)
	}
	ids := make([]uint32, w*h)
	r.pics.t.readIDs(0, 0, w, h, unsafe.Pointer(&ids[0]))
	return r.ReadImage(), ids
}

// pictureBothWays draws dl seen by cam with small cubes as points and with every cube as triangles, and returns
// both images and id attachments, and the instances drawn as points.
func pictureBothWays(t *testing.T, r *Renderer, dl *viewport.DrawList, cam viewport.Camera, w, h int) (pts, tris *image.RGBA, ptsIDs, trisIDs []uint32, points int) {
	t.Helper()
	pts, ptsIDs = drawRead(t, r, dl, cam, w, h)
	points = r.pics.shown.points
	r.d.noPoints = true
	tris, trisIDs = drawRead(t, r, dl, cam, w, h)
	r.d.noPoints = false
	return
}

// idsDiffer counts the pixels whose ids differ.
func idsDiffer(a, b []uint32) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// TestPointsDrawAsCubes: a block of 27,000 cubes framed whole, each a few pixels on the screen, is drawn with its
// cubes as points, and the picture and the ids match the cubes drawn as triangles but for a few pixels on the
// boxes' edges; points a pixel too small a side do not.
func TestPointsDrawAsCubes(t *testing.T) {
	const w, h = 320, 240
	dl := cubeBlock(t, 30)
	cam := framed(dl, w, h)
	// At most this share of the pixels (a channel off by more than 24) and of the ids differ.
	const maxShare = 0.005
	withRenderer(t, w, h, func(r *Renderer) {
		check := func(name string, off float32, wantMatch bool) {
			r.d.pointMarginOff = off
			pts, tris, pi, ti, points := pictureBothWays(t, r, dl, cam, w, h)
			if points != dl.Len() {
				t.Fatalf("%s: %d of %d instances drawn as points", name, points, dl.Len())
			}
			d, n := diffImages(pts, tris, 24)
			ids := idsDiffer(pi, ti)
			match := float64(n) <= maxShare*w*h && float64(ids) <= maxShare*w*h
			t.Logf("%s: %d pixels and %d ids differ of %d", name, n, ids, w*h)
			if match != wantMatch {
				if d != nil {
					_ = writePNG(filepath.Join(t.TempDir(), name+"-diff.png"), d)
				}
				t.Errorf("%s: %d pixels and %d ids of %d differ from the triangles' picture: match %v, want %v",
					name, n, ids, w*h, match, wantMatch)
			}
		}
		check("points", 0, true)
		check("points a pixel smaller a side", -1.5, false)
		check("points bigger", 0.75, true) // the rays decide the pixels, not the point's size
		r.d.pointMarginOff = 0

		// A third of the cubes selected: tinted and outlined alike (the composed image), picked alike by a click at
		// the centre and by a box.
		var sel []uint32
		for id := uint32(1); id <= uint32(dl.Len()); id += 3 {
			sel = append(sel, id)
		}
		dl.SetSelection(sel)
		defer dl.SetSelection(nil)
		check("points with a selection", 0, true)
		box := image.Rect(w/4, h/4, w*3/4, h*3/4)
		r.pics.drop()
		render(t, r, dl, cam)
		click, boxed := r.ReadID(w/2, h/2), r.ReadIDs(box)
		r.d.noPoints = true
		r.pics.drop()
		render(t, r, dl, cam)
		r.d.noPoints = false
		if id := r.ReadID(w/2, h/2); id != click || id == 0 {
			t.Errorf("a click at the centre picks %d drawn as points, %d as triangles", click, id)
		}
		tb := r.ReadIDs(box)
		both := 0
		for _, id := range boxed {
			if _, ok := slices.BinarySearch(tb, id); ok {
				both++
			}
		}
		if len(boxed)-both > len(tb)/100 || len(tb)-both > len(tb)/100 {
			t.Errorf("a box picks %d ids drawn as points, %d as triangles, %d of them the same", len(boxed), len(tb), both)
		}
	})
}

// hiddenInLastWave counts the chunks of the last picture's last wave of occlusion queries that were hidden.
func hiddenInLastWave(r *Renderer) int {
	hidden := 0
	o := &r.pics.occ
	for k, asked := range o.asked {
		var passed uint32
		if asked {
			gl.GetQueryObjectuiv(o.ids[k], gl.QUERY_RESULT, &passed)
			if passed == 0 {
				hidden++
			}
		}
	}
	return hidden
}

// TestStackedCopiesDrawnOnce: instances with the matrix of one drawn before them in the picture, in their chunk or
// another, are left out of the points drawn, and the picture and the ids are those of every instance drawn, again
// in a picture after it. A block of 64,000 cubes added in a random order whose rows were then set to one X (each
// row's 40 cubes stacked, in different colours and ids, some selected) draws 1,600 points (a cube three times as
// tall as those in its place is drawn too); the same block with every cube twice draws not much more than 64,000 (a
// chunk with few copies of its own draws them all), its inner chunks hidden by their occlusion queries.
func TestStackedCopiesDrawnOnce(t *testing.T) {
	const w, h, n = 320, 240, 40
	block := cubeBlock(t, n)
	shuffled := func(copies int) *viewport.DrawList {
		dl := viewport.NewDrawList()
		dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
		for _, k := range rand.New(rand.NewPCG(1, 2)).Perm(copies * block.Len()) {
			in, _, _ := block.Get(uint32(k%block.Len() + 1))
			in.ID += uint32(k / block.Len() * block.Len())
			dl.Set(assets.BuiltinCube, in)
		}
		return dl
	}
	rows := shuffled(1)
	cam := framed(rows, w, h)
	for id := uint32(1); id <= uint32(rows.Len()); id++ {
		in, _, _ := rows.Get(id)
		m := in.World
		m[12] = 2
		rows.SetWorld(id, m)
	}
	var sel []uint32
	for id := uint32(1); id <= uint32(rows.Len()); id += 7 {
		sel = append(sel, id)
	}
	rows.SetSelection(sel)
	// The rows again, every third cube of them three times as tall: in the same place as others, not their copy.
	tall := shuffled(1)
	for id := uint32(1); id <= uint32(tall.Len()); id++ {
		in, _, _ := tall.Get(id)
		m := in.World
		m[12] = 2
		if id%3 == 0 {
			m[5] *= 3
		}
		tall.SetWorld(id, m)
	}
	twice := shuffled(2)
	withRenderer(t, w, h, func(r *Renderer) {
		for _, c := range []struct {
			name   string
			dl     *viewport.DrawList
			drawn  int
			hidden bool
		}{{"rows set to one X", rows, n * n, false}, {"every third of them taller", tall, tall.Len(), false},
			{"every cube twice", twice, n * n * n * 5 / 4, true}} {
			once, onceIDs := drawRead(t, r, c.dl, cam, w, h)
			hidden := hiddenInLastWave(r)
			if r.pics.shown.points != c.dl.Len() {
				t.Fatalf("%s: %d of %d instances drawn as points", c.name, r.pics.shown.points, c.dl.Len())
			}
			lists, drawn := 0, 0 // chunks drawn from lists, instances drawn
			for _, bs := range r.pics.lists.cur.batches {
				for _, cs := range bs.chunks {
					if len(cs.buf.keptIdx) > 0 {
						lists++
						drawn += cs.buf.pkept
					} else {
						drawn += cs.buf.n
					}
				}
			}
			if lists == 0 || drawn > c.drawn {
				t.Errorf("%s: %d instances drawn of %d (%d chunks from lists); want at most %d", c.name, drawn,
					c.dl.Len(), lists, c.drawn)
			}
			if c.hidden && hidden == 0 {
				t.Errorf("%s: no chunk of the last wave was hidden by its occlusion query", c.name)
			}
			r.d.allCopies = true
			all, allIDs := drawRead(t, r, c.dl, cam, w, h)
			r.d.allCopies = false
			again, againIDs := drawRead(t, r, c.dl, cam, w, h)
			for _, p := range []struct {
				name string
				img  *image.RGBA
				ids  []uint32
			}{{"the picture", once, onceIDs}, {"a picture after it", again, againIDs}} {
				if _, d := diffImages(p.img, all, 0); d != 0 {
					t.Errorf("%s, %s: %d pixels differ from the picture with every copy drawn", c.name, p.name, d)
				}
				if d := idsDiffer(p.ids, allIDs); d != 0 {
					t.Errorf("%s, %s: %d ids differ from the picture with every copy drawn", c.name, p.name, d)
				}
			}
		}
	})
}

// TestCopiesFoundAgainAfterAChangeInPlace: a chunk's copies are found again when its instances change where they
// are (the same count, the same cells): a block whose rows were set to one X, then every other cube of it made
// three times as tall, draws the picture of every instance drawn.
func TestCopiesFoundAgainAfterAChangeInPlace(t *testing.T) {
	const w, h = 320, 240
	dl := cubeBlock(t, 40)
	cam := framed(dl, w, h)
	setEach := func(f func(id uint32, m *mgl32.Mat4)) {
		for id := uint32(1); id <= uint32(dl.Len()); id++ {
			in, _, _ := dl.Get(id)
			m := in.World
			f(id, &m)
			dl.SetWorld(id, m)
		}
	}
	setEach(func(_ uint32, m *mgl32.Mat4) { m[12] = 2 })
	withRenderer(t, w, h, func(r *Renderer) {
		drawRead(t, r, dl, cam, w, h)
		lists := 0
		for _, bs := range r.pics.lists.cur.batches {
			for _, cs := range bs.chunks {
				if len(cs.buf.keptIdx) > 0 {
					lists++
				}
			}
		}
		if lists == 0 {
			t.Fatal("no chunk of the stacked rows was drawn from a list")
		}
		setEach(func(id uint32, m *mgl32.Mat4) {
			if id%2 == 0 {
				m[5] *= 3
			}
		})
		got, gotIDs := drawRead(t, r, dl, cam, w, h)
		if r.pics.shown.points != dl.Len() {
			t.Fatalf("%d of %d instances drawn as points", r.pics.shown.points, dl.Len())
		}
		r.d.allCopies = true
		all, allIDs := drawRead(t, r, dl, cam, w, h)
		r.d.allCopies = false
		if _, d := diffImages(got, all, 0); d != 0 {
			t.Errorf("%d pixels differ from the picture with every copy drawn", d)
		}
		if d := idsDiffer(gotIDs, allIDs); d != 0 {
			t.Errorf("%d ids differ from the picture with every copy drawn", d)
		}
	})
}

// TestPointsZoomedIn: cubes many pixels across are drawn as triangles, whatever else is on the screen.
func TestPointsZoomedIn(t *testing.T) {
	const w, h = 320, 240
	dl := cubeBlock(t, 4)
	cam := framed(dl, w, h)
	withRenderer(t, w, h, func(r *Renderer) {
		pts, tris, pi, ti, points := pictureBothWays(t, r, dl, cam, w, h)
		if points != 0 {
			t.Errorf("%d instances drawn as points", points)
		}
		if _, n := diffImages(pts, tris, 0); n != 0 || idsDiffer(pi, ti) != 0 {
			t.Errorf("%d pixels differ", n)
		}
	})
}

// TestOcclusionDrawsTheSamePicture: the chunks of a block of 125,000 cubes drawn on their boxes' occlusion queries
// make the picture and the ids drawn without them, and the queries leave out some chunks (hidden inside the block).
func TestOcclusionDrawsTheSamePicture(t *testing.T) {
	const w, h = 320, 240
	dl := cubeBlock(t, 50)
	cam := framed(dl, w, h)
	withRenderer(t, w, h, func(r *Renderer) {
		if !r.pics.software {
			t.Skip("occlusion is a software renderer's path")
		}
		for _, points := range []bool{false, true} {
			r.d.noPoints = !points
			occ, oi := drawRead(t, r, dl, cam, w, h)
			hidden := hiddenInLastWave(r)
			r.pics.noOcclusion = true
			all, ai := drawRead(t, r, dl, cam, w, h)
			r.pics.noOcclusion = false
			_, n := diffImages(occ, all, 0)
			ids := idsDiffer(oi, ai)
			t.Logf("points %v: %d chunks of the last wave hidden; %d pixels and %d ids differ", points, hidden, n, ids)
			if hidden == 0 {
				t.Errorf("points %v: no chunk of the last wave was hidden", points)
			}
			// Points are drawn at their box's centre's depth, which may be nearer than their chunk's box at a
			// silhouette's edge: a hidden chunk's point could have won a pixel there.
			if slack := b2i(points) * w * h / 1000; n > slack || ids > slack {
				t.Errorf("points %v: with the occlusion queries %d pixels and %d ids differ", points, n, ids)
			}
		}
		r.d.noPoints = false
	})
}

// TestOcclusionInPatches: a patch drawn on occlusion queries — every cube of a block moved (the block's rectangle
// drawn again), a block added beside (drawn over the picture, the grid only where its cubes are) — makes the
// picture drawn whole without them, to the pixel.
func TestOcclusionInPatches(t *testing.T) {
	const w, h, n = 320, 240, 40
	dl := cubeBlock(t, n)
	addBlock(dl, n, 70, 100_001)
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), float32(w)/h)
	cam.Distance *= 1.6 // a block's rectangle small enough to be patched
	for i := range uint32(n * n * n) {
		dl.Remove(100_001 + i)
	}
	withRenderer(t, w, h, func(r *Renderer) {
		if !r.pics.software {
			t.Skip("patches and occlusion are a software renderer's paths")
		}
		r.d.noPoints = true // triangles: the pictures are the same to the pixel
		defer func() { r.d.noPoints = false }()
		drawRead(t, r, dl, cam, w, h)
		for _, e := range []struct {
			name     string
			edit     func()
			additive bool
		}{
			{"every cube moved", func() {
				for id := uint32(1); id <= n*n*n; id++ {
					in, _, _ := dl.Get(id)
					dl.SetWorld(id, mgl32.Translate3D(0, 0.25, 0).Mul4(in.World))
				}
			}, false},
			{"a block added beside", func() { addBlock(dl, n, 70, 100_001) }, true},
		} {
			e.edit()
			drawDone(t, r, dl, cam, viewport.DrawOptions{})
			if s := r.pics.shown; !s.patch || s.additive != e.additive || s.stats.DrawCalls <= occludeFrom {
				t.Fatalf("%s: patch %v, additive %v, %d chunks: want a patch, additive %v, of more than %d chunks",
					e.name, s.patch, s.additive, s.stats.DrawCalls, e.additive, occludeFrom)
			}
			got := r.ReadImage()
			gotIDs := make([]uint32, w*h)
			r.pics.t.readIDs(0, 0, w, h, unsafe.Pointer(&gotIDs[0]))
			r.pics.noOcclusion = true
			want, wantIDs := drawRead(t, r, dl, cam, w, h)
			r.pics.noOcclusion = false
			_, px := diffImages(got, want, 0)
			ids := idsDiffer(gotIDs, wantIDs)
			t.Logf("%s: %d pixels and %d ids differ", e.name, px, ids)
			if px > 0 || ids > 0 {
				t.Errorf("%s: the patch drawn on occlusion queries differs from the picture drawn whole by %d pixels and %d ids", e.name, px, ids)
			}
		}
	})
}
