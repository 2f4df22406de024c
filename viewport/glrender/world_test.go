package glrender

import (
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// spinningGrid is the many_cubes demo: a 20×20 grid of coloured cubes with
// Spin under a group that is itself turned and lifted (the hierarchy).
func spinningGrid(t *testing.T) (*ecs.World, []ecs.Entity) {
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.ColorFrom, p.ColorTo = [4]float32{0.95, 0.35, 0.2, 1}, [4]float32{0.2, 0.45, 0.95, 1}
	p.Spin = &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 90}
	p.Group = "Cubes"
	p.Origin = mgl32.Vec3{0, 0.5, 0}
	g, cubes := scene.SpawnGrid(w, p)
	ecs.NewMap[ecs.Transform](w).Mut(g).Rotation = mgl32.Vec3{0, 15, 0}
	return w, cubes
}

// TestWorldPlayMode renders the world through the Builder for a few
// play-mode frames (every cube spins: each chunk is re-uploaded each
// frame, in one range) and checks the picture against a fresh full render
// and the golden image.
func TestWorldPlayMode(t *testing.T) {
	w, cubes := spinningGrid(t)
	b := viewport.NewBuilder(w, viewport.BuiltinMeshes{})
	b.SetSelection(slices.Values([]ecs.Entity{cubes[210]}))
	b.Update()
	dl := b.DrawList()
	cam := framed(dl, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		render(t, r, dl, cam)
		for frame := range 5 {
			scene.ApplySpin(w, 1.0/8)
			if !b.Update() {
				t.Fatalf("frame %d: spinning changed nothing", frame)
			}
			render(t, r, dl, cam)
			chunks := len(dl.Batches()[0].Chunks())
			if s := r.Stats(); s.UploadedBytes != 400*viewport.InstanceSize || s.UploadCalls != chunks || s.DrawCalls != chunks {
				t.Errorf("frame %d: uploaded %d bytes in %d calls, %d draws; want all 400 instances in %d calls and draws (a chunk each)",
					frame, s.UploadedBytes, s.UploadCalls, s.DrawCalls, chunks)
			}
		}
		// Paused: nothing changes, nothing is uploaded.
		if b.Update() {
			t.Error("Update without changes reported a change")
		}
		incremental := render(t, r, dl, cam)
		if s := r.Stats(); s.UploadedBytes != 0 {
			t.Errorf("paused frame uploaded %d bytes", s.UploadedBytes)
		}
		// The selected cube is where the builder put it.
		x, y, _ := cam.WorldToPixel(w.WorldMatrix(cubes[210]).Col(3).Vec3().Add(mgl32.Vec3{0, 0.5, 0}), testW, testH)
		if id := r.ReadID(int(x), int(y)); id != viewport.EntityID(cubes[210]) {
			t.Errorf("id at the selected cube's top: %d, want %d", id, viewport.EntityID(cubes[210]))
		}
		sameAsFullUpload(t, r, dl, cam)
		compareGolden(t, "world_spinning_grid", incremental)
	})
}

// TestWorldUndoOfDeleteAllShowsTheKeptPicture: a flat world's entities all despawned and spawned back from their
// columns (a delete of everything and its undo, redo and undo again) come back into the builder's list in one pass;
// the picture after each undo is the kept one, shown without drawing, pixel for pixel the picture a new renderer
// draws of the list, and a cube moved after it is patched onto a picture equal to a full upload's (the instances
// put back reach the GPU buffers).
func TestWorldUndoOfDeleteAllShowsTheKeptPicture(t *testing.T) {
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.Count = [3]int{12, 2, 12}
	p.ColorFrom, p.ColorTo = [4]float32{0.95, 0.35, 0.2, 1}, [4]float32{0.2, 0.45, 0.95, 1}
	_, cubes := scene.SpawnGrid(w, p)
	b := viewport.NewBuilder(w, viewport.BuiltinMeshes{})
	b.Update()
	dl := b.DrawList()
	cam := framed(dl, testW, testH)
	var cols []ecs.Values
	for _, cid := range w.AppendComponents(nil, cubes[0]) {
		if !w.ComponentInfo(cid).Computed {
			v, err := w.CopyValues(cid, cubes)
			if err != nil {
				t.Fatal(err)
			}
			cols = append(cols, v)
		}
	}
	withRenderer(t, testW, testH, func(r *Renderer) {
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		for round := range 2 {
			w.DespawnAll(cubes)
			b.Update()
			drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: tiny})
			cubes = w.SpawnValues(cols, 0, len(cubes))
			b.Update()
			restores := r.pics.kept.restores
			drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: tiny})
			if r.pics.kept.restores != restores+1 || r.Stats().Instances != 0 {
				t.Fatalf("round %d: the undo drew %d instances, the kept picture not shown", round, r.Stats().Instances)
			}
			sameAsFullUpload(t, r, dl, cam)
		}
		ecs.NewMap[ecs.Transform](w).Mut(cubes[30]).Position = mgl32.Vec3{1, 3, 1}
		b.Update()
		drawDone(t, r, dl, cam, viewport.DrawOptions{})
		sameAsFullUpload(t, r, dl, cam)
	})
}
