package editor

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

func randomGrid(r *rand.Rand) scene.GridParams {
	p := scene.GridParams{
		Count:   [3]int{1 + r.IntN(30), 1 + r.IntN(4), 1 + r.IntN(30)},
		Spacing: mgl32.Vec3{0.5 + 3*r.Float32(), 0.5 + 3*r.Float32(), 0.5 + 3*r.Float32()},
		Origin:  mgl32.Vec3{40*r.Float32() - 20, 10*r.Float32() - 5, 40*r.Float32() - 20},
	}
	for i := range 4 {
		p.ColorFrom[i], p.ColorTo[i] = r.Float32(), r.Float32()
	}
	if r.IntN(2) == 0 {
		p.Group = "G"
	}
	return p
}

func overlaps(a, b viewport.AABB) bool {
	for i := range 3 {
		if a.Max[i] <= b.Min[i] || b.Max[i] <= a.Min[i] {
			return false
		}
	}
	return true
}

// TestPreviewListIsTheSpawn: the preview's cubes are where and as coloured as the cubes the spawn makes (same
// generator, world matrices through the group), after the scene's own instances, drawn selected with ids that
// cannot be an entity's; a bigger grid previews its first cubes; a cancelled preview gives nothing.
func TestPreviewListIsTheSpawn(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cube, err := assets.NewRegistry(".", assets.DefaultLimits()).Mesh(scene.MeshCube)
	if err != nil {
		t.Fatal(err)
	}
	sceneList := viewport.NewDrawList()
	sceneList.SetMesh(scene.MeshCube, cube)
	sceneList.Set(scene.MeshCube, viewport.Instance{World: mgl32.Ident4(), ID: 7})
	snap := snapshotOf(sceneList, nil)
	for range 50 {
		p := randomGrid(r)
		w := scene.NewWorld()
		_, cubes := scene.SpawnGrid(w, p)
		w.PropagateTransforms()
		col := ecs.NewMap[scene.Color](w)
		limit := len(cubes)
		if r.IntN(3) == 0 {
			limit = 1 + r.IntN(len(cubes))
		}
		dl, n := previewList(context.Background(), snap, p, cube, nil, limit)
		if n != limit || dl.Len() != limit+1 {
			t.Fatalf("%d preview cubes, %d instances; want %d + 1", n, dl.Len(), limit)
		}
		if in, _, ok := dl.Get(7); !ok || in.World != mgl32.Ident4() {
			t.Fatal("the scene's instance is missing from the preview")
		}
		for i, e := range cubes[:limit] {
			in, ref, ok := dl.Get(previewIDBase + uint32(i) + 1)
			if !ok || ref != scene.MeshCube || !in.Selected() {
				t.Fatalf("preview cube %d: %v %q", i, ok, ref)
			}
			if !in.World.ApproxEqualThreshold(w.WorldMatrix(e), 1e-4) || in.Color != col.Get(e).RGBA {
				t.Fatalf("preview cube %d at %v colour %v; the spawn puts it at %v colour %v",
					i, in.World.Col(3), in.Color, w.WorldMatrix(e).Col(3), col.Get(e).RGBA)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 1, 100}
	if dl, _ := previewList(ctx, snap, p, cube, nil, maxPreview); dl != nil {
		t.Fatal("a cancelled preview gave a list")
	}
}

// TestPreviewStateKeepsTypingCheap: while a field is being edited, a big computed preview is not shown (its render
// would hold up the keystrokes; the outline is shown instead); a small one is; a preview for values that are no
// longer the dialog's is never shown; once the field is left, the big one is.
func TestPreviewStateKeepsTypingCheap(t *testing.T) {
	list := func(n int) *viewport.DrawList {
		dl := viewport.NewDrawList()
		for i := range n {
			dl.Set("m", viewport.Instance{ID: uint32(i + 1)})
		}
		return dl
	}
	p := scene.DefaultGrid()
	k1 := keyOf(p, 1, nil)
	p.Count[0]++
	k2 := keyOf(p, 1, nil)
	var s previewState
	s.setWant(k1)
	if s.mode(true) != "box" || s.mode(false) != "" {
		t.Fatalf("before any preview: %q %q", s.mode(true), s.mode(false))
	}
	big, small := list(livePreview+1), list(livePreview)
	if s.offer(k1, big, 400, true) {
		t.Fatal("a big preview was shown while a field is edited")
	}
	if !s.offer(k1, small, 400, true) || s.mode(true) != "cubes" {
		t.Fatal("a small preview was not shown while a field is edited")
	}
	s.setWant(k2) // the user typed on
	if s.current() || s.mode(true) != "box" || s.list != small {
		t.Fatal("after a change the old cubes should stay, flagged stale, until the new ones are shown")
	}
	if s.offer(k1, small, 400, false) {
		t.Fatal("a preview of old values was shown")
	}
	if !s.offer(k2, big, 420, false) || !s.current() || s.cubes != 420 {
		t.Fatal("a big preview was not shown once the field was left")
	}
	// Spin's pointer changes every frame; it does not change the key.
	p.Spin = &scene.Spin{Speed: 1}
	q := p
	q.Spin = &scene.Spin{Speed: 2}
	if keyOf(p, 1, nil) != keyOf(q, 1, nil) || keyOf(p, 1, nil) == k2 {
		t.Fatal("keys: spin speed and pointer must not count, spin on/off must")
	}
}
