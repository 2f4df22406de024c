package glrender

import (
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// samePicture fails the test when the picture on screen differs from the whole picture of dl drawn anew, in a
// pixel or in an id (every 4th pixel of every 4th row).
func samePicture(t *testing.T, what string, r *Renderer, dl *viewport.DrawList, cam viewport.Camera) {
	t.Helper()
	got := r.ReadImage()
	ids := make([]uint32, 0, testW*testH/16)
	for y := 0; y < testH; y += 4 {
		for x := 0; x < testW; x += 4 {
			ids = append(ids, r.ReadID(x, y))
		}
	}
	whole := renderAll(t, r, dl, cam)
	if _, n := diffImages(got, whole, 0); n != 0 {
		t.Errorf("%s: the picture differs from the whole one in %d pixels", what, n)
	}
	i := 0
	for y := 0; y < testH; y += 4 {
		for x := 0; x < testW; x += 4 {
			if got, want := ids[i], r.ReadID(x, y); got != want {
				t.Fatalf("%s: the picture picks %d at %d,%d, the whole one %d", what, got, x, y, want)
			}
			i++
		}
	}
}

// block adds side×side cubes 4 units apart from (x0, z0) with ids from first, in colour c; it returns their ids.
func block(dl *viewport.DrawList, side int, x0, z0 float32, first uint32, c [4]float32) []uint32 {
	var ids []uint32
	for z := range side {
		for x := range side {
			id := first + uint32(z*side+x)
			dl.Set(assets.BuiltinCube, viewport.Instance{ID: id, Color: c,
				World: mgl32.Translate3D(x0+float32(x)*4, 0.5, z0+float32(z)*4)})
			ids = append(ids, id)
		}
	}
	return ids
}

// TestBigChangesArePatches: a block of cubes spawned beside the scene is drawn over the picture on screen with
// its depth (only the new cubes: an additive patch), its undo is a patch of the rectangle it covered, its redo
// additive again; each equals the whole picture drawn anew, pixel for pixel and id for id. A block that touches
// the scene is not additive, and its picture equals the whole one too; a block below the ground is additive, with
// the grid over it.
func TestBigChangesArePatches(t *testing.T) {
	red, blue := [4]float32{0.9, 0.1, 0.1, 1}, [4]float32{0.1, 0.2, 0.9, 1}
	dl := spread(t, 20, red) // 400 cubes, x and z in [-40, 36]
	spawned := block(dl, 14, -40, 44, 1000, blue)
	cam := framed(dl, testW, testH)
	for _, id := range spawned {
		dl.Remove(id)
	}
	withRenderer(t, testW, testH, func(r *Renderer) {
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		samePicture(t, "the scene", r, dl, cam)
		steps := []struct {
			name    string
			change  func()
			maxDraw int // instances the picture may draw
		}{
			{"spawned beside", func() { block(dl, 14, -40, 44, 1000, blue) }, len(spawned)},
			{"the spawn undone", func() {
				for _, id := range spawned {
					dl.Remove(id)
				}
			}, dl.Len() - len(spawned)},
			{"the spawn redone", func() { block(dl, 14, -40, 44, 1000, blue) }, len(spawned)},
			{"the spawn undone again", func() {
				for _, id := range spawned {
					dl.Remove(id)
				}
			}, dl.Len() - len(spawned)},
			{"a block touching the scene", func() { block(dl, 3, -40, 38, 3000, blue) }, -1},
			{"a block below the ground (the grid over it)", func() {
				for i := range uint32(9) {
					dl.Set(assets.BuiltinCube, viewport.Instance{ID: 4000 + i, Color: blue,
						World: mgl32.Translate3D(-40+float32(i)*4, -0.7, 70)})
				}
			}, 9},
		}
		for _, st := range steps {
			st.change()
			drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: tiny})
			s := r.Stats()
			if st.maxDraw >= 0 && s.Instances > st.maxDraw {
				t.Errorf("%s: the picture drew %d instances, want at most %d (of %d)", st.name, s.Instances, st.maxDraw, dl.Len())
			}
			if st.maxDraw >= 0 && s.UploadedBytes > st.maxDraw*viewport.InstanceSize {
				t.Errorf("%s: the picture uploaded %d bytes, more than the %d instances it may draw", st.name, s.UploadedBytes, st.maxDraw)
			}
			samePicture(t, st.name, r, dl, cam)
		}
	})
}

// TestSmallPatchInPlace: a change of one instance in a dense scene whose patch fits the budget is drawn at once
// into the picture on screen — the texture shown stays the same one, so the frame that asked shows it — and only
// the instances that reach into its rectangle are drawn (not the whole chunks of 2,048 around it); the picture
// equals the whole one. The patch's rectangle is where the cube was and is (the chunk's Damage), not its chunk's.
func TestSmallPatchInPlace(t *testing.T) {
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
	for z := range 80 {
		for x := range 80 {
			dl.Set(assets.BuiltinCube, viewport.Instance{ID: uint32(z*80 + x + 1), Color: [4]float32{0.3, 0.6, 0.2, 1},
				World: mgl32.Translate3D(float32(x)*1.5-60, 0.5, float32(z)*1.5-60)})
		}
	}
	cam := framed(dl, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		tex := r.Texture()
		dl.SetWorld(3240, mgl32.Translate3D(0.3, 2.5, 0))
		done, err := r.Draw(dl, cam, viewport.DrawOptions{Budget: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if !done || r.Texture() != tex {
			t.Errorf("a one-cube patch within the budget: done %v, texture %d (was %d): not drawn in place", done, r.Texture(), tex)
		}
		// The whole chunks that reach into the rectangle of the moved cube's chunk hold 1,707 instances; those whose
		// box reaches into that rectangle 874; into the rectangle of the cube's old and new place, 259.
		if s := r.Stats(); s.Instances > 600 {
			t.Errorf("the one-cube patch drew %d instances of %d", s.Instances, dl.Len())
		}
		samePicture(t, "one cube moved", r, dl, cam)
		// The same with something selected (the image shown is the composed one).
		dl.SetSelection([]uint32{3240})
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		tex = r.Texture()
		dl.SetWorld(3240, mgl32.Translate3D(0.3, 3.5, 0.4))
		if done, _ := r.Draw(dl, cam, viewport.DrawOptions{Budget: time.Second}); !done || r.Texture() != tex {
			t.Errorf("a one-cube patch of a selected cube: done %v, texture changed %v", done, r.Texture() != tex)
		}
		samePicture(t, "the selected cube moved", r, dl, cam)

		// PatchOnly: a change all over the picture that does not fit the budget is left alone (nothing begun), a
		// small one is drawn in place.
		tex = r.Texture()
		for id := uint32(1); id <= 6400; id += 3 {
			dl.SetColor(id, [4]float32{0.8, 0.8, 0.1, 1})
		}
		if done, err := r.Draw(dl, cam, viewport.DrawOptions{Budget: tiny, PatchOnly: true}); done || err != nil ||
			r.Stats().Pending || r.Texture() != tex {
			t.Errorf("PatchOnly with a change all over: done %v, err %v, pending %v", done, err, r.Stats().Pending)
		}
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		tex = r.Texture()
		dl.SetWorld(100, mgl32.Translate3D(-50, 3, -50))
		if done, err := r.Draw(dl, cam, viewport.DrawOptions{Budget: time.Second, PatchOnly: true}); !done || err != nil ||
			r.Texture() != tex {
			t.Errorf("PatchOnly with one cube moved: done %v, err %v, texture changed %v", done, err, r.Texture() != tex)
		}
		samePicture(t, "one cube moved, PatchOnly", r, dl, cam)
	})
}

// TestForgetFreesAList: a list the renderer was told to forget (a closed dialog's preview) loses its GPU state when
// another list is drawn — only the drawn list keeps buffers — and drawn again later it is uploaded whole and gives
// the same picture.
func TestForgetFreesAList(t *testing.T) {
	red, blue := [4]float32{0.9, 0.1, 0.1, 1}, [4]float32{0.1, 0.2, 0.9, 1}
	scene := spread(t, 12, red)
	preview := spread(t, 12, red)
	block(preview, 6, -40, 44, 1000, blue)
	cam := framed(preview, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		drawDone(t, r, scene, cam, viewport.DrawOptions{})
		drawDone(t, r, preview, cam, viewport.DrawOptions{})
		if len(r.pics.lists.all) != 2 {
			t.Fatalf("%d lists kept after drawing two, want 2", len(r.pics.lists.all))
		}
		r.Forget(preview)
		drawDone(t, r, preview, cam, viewport.DrawOptions{}) // drawn again: kept
		if len(r.pics.lists.all) != 2 {
			t.Fatalf("%d lists kept after drawing the forgotten list again, want 2", len(r.pics.lists.all))
		}
		r.Forget(preview)
		drawDone(t, r, scene, cam, viewport.DrawOptions{})
		if len(r.pics.lists.all) != 1 || r.pics.lists.all[0].dl != scene {
			t.Fatalf("after forgetting the preview and drawing the scene: %d lists kept, want the scene's only", len(r.pics.lists.all))
		}
		uploaded := r.Stats().TotalUploaded
		drawDone(t, r, preview, cam, viewport.DrawOptions{})
		if got, want := r.Stats().TotalUploaded-uploaded, uint64(preview.Len()*viewport.InstanceSize); got < want {
			t.Errorf("the forgotten list drawn again uploaded %d bytes, want its %d instances whole (%d)", got, preview.Len(), want)
		}
		samePicture(t, "the forgotten list drawn again", r, preview, cam)
	})
}
