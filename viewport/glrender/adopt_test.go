package glrender

import (
	"testing"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// allIDs reads the whole id attachment of the picture on screen, selected bits included.
func allIDs(r *Renderer) []uint32 {
	ids := make([]uint32, r.pics.t.w*r.pics.t.h)
	r.pics.t.readIDs(0, 0, r.pics.t.w, r.pics.t.h, unsafe.Pointer(&ids[0]))
	return ids
}

// TestAdoptEqualsDrawnPicture: the grid dialog's preview (the scene's instances, and new cubes under preview ids,
// drawn selected) adopted as the picture of the scene with the cubes spawned (under their entities' ids, selected)
// is the picture drawn of that list, pixel for pixel and id for id; and later changes of the scene patch it as they
// would patch a drawn one (the same picture as drawn whole).
func TestAdoptEqualsDrawnPicture(t *testing.T) {
	grey := [4]float32{0.6, 0.6, 0.6, 1}
	const previewBase, first, cubes = 1 << 30, 500, 60
	cube := builtin(t, assets.BuiltinCube)
	newCube := func(i int) viewport.Instance {
		return viewport.Instance{World: mgl32.Translate3D(float32(i%10)*3-15, 3, float32(i/10)*3-9),
			Color: [4]float32{0.2, 0.4 + float32(i)/200, 0.9, 1}}
	}
	scene := func() *viewport.DrawList { return spread(t, 12, grey) }
	preview := scene()
	var renamed []uint32 // the preview's ids the spawn renames: the editor's Adopt compares only those one by one
	for i := range cubes {
		in := newCube(i)
		in.ID, in.Flags = previewBase+uint32(i)+1, viewport.FlagSelected
		preview.Set(assets.BuiltinCube, in)
		renamed = append(renamed, in.ID)
	}
	spawn := func() *viewport.DrawList {
		dl := scene()
		var sel []uint32
		for i := cubes - 1; i >= 0; i-- { // added in another order: other chunks' order, the same picture
			in := newCube(i)
			in.ID = first + uint32(i)
			dl.Set(assets.BuiltinCube, in)
			sel = append(sel, in.ID)
		}
		dl.SetSelection(sel)
		return dl
	}
	spawned := spawn()
	rename := func(id uint32) uint32 {
		if id > previewBase && id <= previewBase+cubes {
			return first + id - previewBase - 1
		}
		return id
	}
	cam := framed(preview, testW, testH)
	cam.Pitch += 20
	same := func(r *Renderer, spawned *viewport.DrawList, what string, spawnedShown bool) {
		t.Helper()
		img, ids := r.ReadImage(), allIDs(r)
		whole := renderAll(t, r, spawned, cam)
		if _, n := diffImages(img, whole, 0); n != 0 {
			t.Errorf("%s: differs from the picture drawn in %d pixels", what, n)
		}
		drawn, seen := allIDs(r), 0
		for i := range ids {
			if ids[i] != drawn[i] {
				t.Fatalf("%s: id %#x at pixel %d, drawn %#x", what, ids[i], i, drawn[i])
			}
			if id := ids[i] &^ selectedBit; id >= first && id < first+cubes {
				seen++
			}
		}
		if spawnedShown != (seen > 0) {
			t.Fatalf("%s: %d pixels of the spawned cubes", what, seen)
		}
	}
	withRenderer(t, testW, testH, func(r *Renderer) {
		drawDone(t, r, preview, cam, viewport.DrawOptions{})
		// Not adopted: a list that draws something else, or a picture that is not complete.
		other := scene()
		other.SetMesh(assets.BuiltinCube, cube)
		if r.Adopt(preview, other, rename, renamed) {
			t.Fatal("adopted for a list without the cubes")
		}
		if _, err := r.Draw(spawned, cam, viewport.DrawOptions{Budget: tiny}); err != nil {
			t.Fatal(err)
		}
		if r.Adopt(preview, spawned, rename, renamed) {
			t.Fatal("adopted while another picture was being drawn")
		}
		drawDone(t, r, preview, cam, viewport.DrawOptions{})

		renders := r.Stats().Renders
		if !r.Adopt(preview, spawned, rename, renamed) {
			t.Fatal("the preview's picture was not adopted")
		}
		if s := r.Stats(); s.Renders != renders+1 || s.Total != spawned.Len() || s.Pending {
			t.Fatalf("after the adoption: %+v", s)
		}
		if done, err := r.Draw(spawned, cam, viewport.DrawOptions{Budget: tiny}); err != nil || !done {
			t.Fatalf("the adopted picture is not the list's: done %v, %v", done, err)
		}
		same(r, spawned, "adopted", true)

	})
	// Later changes are patches of the adopted picture (a list the renderer never drew).
	withRenderer(t, testW, testH, func(r *Renderer) {
		spawned := spawn()
		drawDone(t, r, preview, cam, viewport.DrawOptions{})
		if !r.Adopt(preview, spawned, rename, renamed) {
			t.Fatal("not adopted")
		}
		spawned.SetWorld(first+3, mgl32.Translate3D(0, 6, 0))
		spawned.Remove(first + 7)
		drawDone(t, r, spawned, cam, viewport.DrawOptions{})
		if s := r.Stats(); s.Instances*2 > spawned.Len() {
			t.Errorf("a change after the adoption drew %d of %d instances: not a patch", s.Instances, spawned.Len())
		}
		same(r, spawned, "moved and removed after the adoption", true)
		for i := range cubes { // the spawn undone
			spawned.Remove(first + uint32(i))
		}
		drawDone(t, r, spawned, cam, viewport.DrawOptions{})
		same(r, spawned, "the spawn undone", false)
	})
}

// TestKeptPictureComesBack: the picture a big change replaced is kept, and shown again without drawing when the
// list comes back to what it drew (the undo of a delete of everything, its redo), pixel for pixel and id for id
// the picture drawn of the list; later changes patch it; a list that only nearly came back is drawn.
func TestKeptPictureComesBack(t *testing.T) {
	grey := [4]float32{0.6, 0.6, 0.6, 1}
	dl := spread(t, 14, grey)
	all := make([]viewport.Instance, 0, dl.Len())
	for _, b := range dl.Batches() {
		all = b.AppendInstances(all)
	}
	cam := framed(dl, testW, testH)
	same := func(r *Renderer, what string) {
		t.Helper()
		img, ids := r.ReadImage(), allIDs(r)
		whole := renderAll(t, r, dl, cam)
		if _, n := diffImages(img, whole, 0); n != 0 {
			t.Errorf("%s: differs from the picture drawn in %d pixels", what, n)
		}
		for i, id := range allIDs(r) {
			if ids[i] != id {
				t.Fatalf("%s: id %#x at pixel %d, drawn %#x", what, ids[i], i, id)
			}
		}
	}
	step := func(r *Renderer, what string, change func(), restored bool) {
		t.Helper()
		change()
		restores := r.pics.kept.restores
		drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: tiny})
		s := r.Stats()
		if got := r.pics.kept.restores == restores+1; got != restored || got && s.Instances != 0 {
			t.Errorf("%s: restored %v (drew %d instances), want %v", what, got, s.Instances, restored)
		}
	}
	deleteAll := func() {
		for _, in := range all {
			dl.Remove(in.ID)
		}
	}
	undoDelete := func() {
		for i := len(all) - 1; i >= 0; i-- {
			dl.Set(assets.BuiltinCube, all[i])
		}
	}
	withRenderer(t, testW, testH, func(r *Renderer) {
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		step(r, "deleted", deleteAll, false)
		step(r, "the delete undone", undoDelete, true)
		same(r, "the delete undone")
	})
	withRenderer(t, testW, testH, func(r *Renderer) { // same's whole pictures not in between
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		step(r, "deleted", deleteAll, false)
		step(r, "the delete undone", undoDelete, true)
		step(r, "the delete redone", deleteAll, true)
		step(r, "the delete undone again", undoDelete, true)
		step(r, "one moved", func() { dl.SetWorld(30, mgl32.Translate3D(0, 4, 0)) }, false)
		same(r, "one moved after a restore")
		step(r, "deleted", deleteAll, false)
		step(r, "all back but one recoloured", func() {
			undoDelete()
			dl.SetColor(5, [4]float32{0, 1, 0, 1})
		}, false)
		same(r, "all back but one recoloured")
	})
	withRenderer(t, testW, testH, func(r *Renderer) { // a preview's pictures between: each list keeps its own
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		preview := spread(t, 9, [4]float32{0.2, 0.3, 0.9, 1})
		drawDone(t, r, preview, cam, viewport.DrawOptions{})
		preview.SetColor(3, [4]float32{0.9, 0.3, 0.2, 1})
		drawDone(t, r, preview, cam, viewport.DrawOptions{})
		// The dialog's values changed: a newer preview replaces it (the older one is forgotten, as the editor does).
		r.Forget(preview)
		preview = spread(t, 8, [4]float32{0.2, 0.9, 0.3, 1})
		drawDone(t, r, preview, cam, viewport.DrawOptions{})
		restores := r.pics.kept.restores
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		if r.pics.kept.restores != restores+1 {
			t.Error("the scene's picture from before the preview was not restored")
		}
		if s := r.Stats(); s.UploadedBytes != 0 {
			t.Errorf("the scene's buffers were uploaded again (%d bytes): its state was dropped for the previews'", s.UploadedBytes)
		}
		same(r, "the scene after the preview")
		// The preview closed: no picture of it stays kept, nor its target's memory.
		r.Forget(preview)
		dl.SetWorld(40, mgl32.Translate3D(2, 6, 0))
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		targets := 0
		for i, k := range r.pics.kept.pics {
			if k.key.dl == preview {
				t.Error("a picture of the forgotten preview is still kept")
			}
			if r.pics.t.kept(i).fbo != 0 {
				targets++
			}
		}
		if targets > 1 {
			t.Errorf("%d kept pictures' targets after the preview was forgotten, want at most the scene's", targets)
		}
	})
}

// TestKeptPictureOfTheStepBeforeAnEdit: the pictures drawn while an edit goes on (DrawOptions.Between: every
// instance moved, then moved again, as a field typed into with everything selected) do not replace the kept
// picture, so the undo of the edit shows the picture from before it without drawing (pixel for pixel the picture
// drawn of the list), and the redo the edit's last picture; without Between the kept picture is an edit's
// intermediate one and the undo draws.
func TestKeptPictureOfTheStepBeforeAnEdit(t *testing.T) {
	grey := [4]float32{0.6, 0.6, 0.6, 1}
	for _, between := range []bool{true, false} {
		dl := spread(t, 14, grey)
		all := make([]viewport.Instance, 0, dl.Len())
		for _, b := range dl.Batches() {
			all = b.AppendInstances(all)
		}
		cam := framed(dl, testW, testH)
		moveAll := func(x float32) {
			for _, in := range all {
				m := in.World
				m[12] = x
				dl.SetWorld(in.ID, m)
			}
		}
		undo := func() {
			for _, in := range all {
				dl.SetWorld(in.ID, in.World)
			}
		}
		withRenderer(t, testW, testH, func(r *Renderer) {
			drawDone(t, r, dl, cam, viewport.DrawOptions{})
			for _, x := range []float32{7, 7.2, 7.25} { // typed
				moveAll(x)
				drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: tiny, Between: between})
			}
			drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: tiny}) // Enter: the edit is a step
			restores := r.pics.kept.restores
			undo()
			drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: tiny})
			if got := r.pics.kept.restores == restores+1; got != between {
				t.Fatalf("between %v: the undo restored a kept picture: %v", between, got)
			}
			if !between {
				return
			}
			if s := r.Stats(); s.Instances != 0 {
				t.Errorf("the undo drew %d instances", s.Instances)
			}
			img := r.ReadImage()
			moveAll(7.25) // redo
			restores = r.pics.kept.restores
			drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: tiny})
			if r.pics.kept.restores != restores+1 {
				t.Error("the redo did not restore the edit's picture")
			}
			undo()
			if _, n := diffImages(img, renderAll(t, r, dl, cam), 0); n != 0 {
				t.Errorf("the undo's picture differs from the one drawn in %d pixels", n)
			}
		})
	}
}
