package viewport

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// imageMeshes is BuiltinMeshes that also resolves images: every reference is a 1×1 image.
type imageMeshes struct {
	BuiltinMeshes
	asked []string
}

func (s *imageMeshes) Image(ref string) (*assets.Image, error) {
	s.asked = append(s.asked, ref)
	return &assets.Image{Ref: ref, Width: 1, Height: 1, Pix: []byte{1, 2, 3, 4}}, nil
}

// TestBuilderBatchesByMeshAndMaterial: entities of one mesh and one material value share a batch (instanced
// together) with that material, its texture resolved once; another material value is another batch; an entity
// without a material is in the mesh's own batch; a material edited moves its entity.
func TestBuilderBatchesByMeshAndMaterial(t *testing.T) {
	w := scene.NewWorld()
	src := &imageMeshes{}
	b := NewBuilder(w, src)
	textured := scene.Material{}.Default()
	textured.BaseColorTexture.Image = "stone.png"
	red := scene.Material{}.Default()
	red.BaseColor = [4]float32{1, 0, 0, 1}
	spawn := func(x float32, mat *scene.Material) ecs.Entity {
		if mat != nil {
			return w.Spawn(&ecs.Transform{Position: mgl32.Vec3{x, 0, 0}, Scale: mgl32.Vec3{1, 1, 1}}, &scene.Mesh{Asset: assets.BuiltinCube}, mat)
		}
		return w.Spawn(&ecs.Transform{Position: mgl32.Vec3{x, 0, 0}, Scale: mgl32.Vec3{1, 1, 1}}, &scene.Mesh{Asset: assets.BuiltinCube})
	}
	var ents []ecs.Entity
	for i := range 100 {
		ents = append(ents, spawn(float32(i), &textured))
	}
	spawn(-1, &red)
	spawn(-2, nil)
	b.Update()
	byLen := map[int]*Batch{}
	for _, bt := range b.DrawList().Batches() {
		if bt.Len() > 0 {
			byLen[bt.Len()] = bt
		}
	}
	if len(byLen) != 2 || byLen[100] == nil || len(b.DrawList().Batches()) != 3 {
		t.Fatalf("batches: %v; want 3: 100 textured cubes, 1 red, 1 plain", byLen)
	}
	if m := byLen[100].Material; m == nil || m.BaseColorImage == nil || m.BaseColorImage.Ref != "stone.png" {
		t.Errorf("the textured batch's material = %+v, want the stone.png image", m)
	}
	if len(src.asked) != 1 {
		t.Errorf("images asked for: %v, want stone.png once", src.asked)
	}
	for _, bt := range b.DrawList().Batches() {
		if bt.Len() == 1 && (bt.Material == nil) == (bt.Ref != assets.BuiltinCube) {
			t.Errorf("batch %q has material %v", bt.Ref, bt.Material)
		}
	}
	ecs.NewMap[scene.Material](w).Set(ents[0], red)
	b.Update()
	_, ref, _ := b.DrawList().Get(EntityID(ents[0]))
	if bt := b.DrawList().Batch(ref); bt.Len() != 2 || bt.Material.BaseColor != red.BaseColor {
		t.Errorf("the edited entity is in batch %q of %d instances, material %+v; want the red one's", ref, bt.Len(), bt.Material)
	}
	if err := b.DrawList().Check(); err != nil {
		t.Error(err)
	}
}

// TestVisibleDrawsBlendedLastFarFirst: chunks of blended materials come after all others, farthest first.
func TestVisibleDrawsBlendedLastFarFirst(t *testing.T) {
	dl := NewDrawList()
	cube, _ := assets.Builtin(assets.BuiltinCube)
	blend := &Material{Material: scene.Material{}.Default()}
	blend.AlphaMode = scene.AlphaBlend
	dl.SetMesh("glass", cube)
	dl.SetMaterial("glass", blend)
	dl.SetMesh("stone", cube)
	id := uint32(1)
	for _, z := range []float32{-10, -40, -25} {
		for _, ref := range []string{"glass", "stone"} {
			dl.Set(ref, Instance{ID: id, World: mgl32.Translate3D(0, 0, z), Color: [4]float32{1, 1, 1, 1}})
			id++
		}
	}
	cam := DefaultCamera()
	cam.Pivot, cam.Distance, cam.Yaw, cam.Pitch, cam.Far = mgl32.Vec3{}, 1, 0, 0, 1000
	f := NewFrustum(cam.ViewProj(100, 100))
	items := dl.Visible(&f, cam.Eye(), nil)
	var order []string
	for _, it := range items {
		order = append(order, dl.Batches()[it.Batch].Ref)
	}
	if len(items) != 6 {
		t.Fatalf("%d items, want 6", len(items))
	}
	for i, want := range []string{"stone", "stone", "stone", "glass", "glass", "glass"} {
		if order[i] != want {
			t.Fatalf("order %v: want the stone chunks first", order)
		}
	}
	for i := 4; i < 6; i++ {
		if items[i].Dist > items[i-1].Dist {
			t.Errorf("blended chunks at distances %v, %v: want the farthest first", items[i-1].Dist, items[i].Dist)
		}
	}
}

// TestBuilderPlacesLights: the world's Light entities become the draw list's lights, placed and aimed by their
// world transforms (a spot shines down its entity's -Z axis), its cone's cosines from its angles; moving one
// changes the list's version, an idle update does not; despawning it removes it.
func TestBuilderPlacesLights(t *testing.T) {
	w := scene.NewWorld()
	b := NewBuilder(w, BuiltinMeshes{})
	spot := scene.Light{}.Default()
	spot.Kind, spot.InnerCone, spot.OuterCone, spot.Intensity = scene.LightSpot, 10, 30, 5
	down := mgl32.Vec3{-90, 0, 0} // -Z turned to -Y
	e := w.Spawn(&ecs.Transform{Position: mgl32.Vec3{1, 4, 2}, Rotation: down, Scale: mgl32.Vec3{1, 1, 1}}, &spot)
	b.Update()
	ls := b.DrawList().Lights()
	if len(ls) != 1 {
		t.Fatalf("%d lights, want 1", len(ls))
	}
	l := ls[0]
	if !l.Position.ApproxEqual(mgl32.Vec3{1, 4, 2}) || l.Direction.Sub(mgl32.Vec3{0, -1, 0}).Len() > 1e-5 ||
		l.Color != (mgl32.Vec3{5, 5, 5}) || l.Kind != scene.LightSpot {
		t.Errorf("light %+v: want a white spot of 5 at (1,4,2) shining down", l)
	}
	if cos30 := float32(0.8660254); l.CosOuter < cos30-1e-5 || l.CosOuter > cos30+1e-5 || l.CosInner <= l.CosOuter {
		t.Errorf("cone cosines inner %v outer %v, want cos 10°, cos 30°", l.CosInner, l.CosOuter)
	}
	v := b.DrawList().Version()
	if b.Update(); b.DrawList().Version() != v {
		t.Error("an idle update changed the list")
	}
	ecs.NewMap[ecs.Transform](w).Set(e, ecs.Transform{Position: mgl32.Vec3{3, 4, 2}, Rotation: down, Scale: mgl32.Vec3{1, 1, 1}})
	if !b.Update() || b.DrawList().Lights()[0].Position[0] != 3 {
		t.Errorf("moved light: %+v", b.DrawList().Lights())
	}
	w.Despawn(e)
	if b.Update(); len(b.DrawList().Lights()) != 0 {
		t.Errorf("despawned light still listed: %+v", b.DrawList().Lights())
	}
}

// TestBuilderResolvesEveryTexture: a material's normal, occlusion and emissive textures are resolved beside its
// base colour and metallic-roughness ones.
func TestBuilderResolvesEveryTexture(t *testing.T) {
	w := scene.NewWorld()
	src := &imageMeshes{}
	b := NewBuilder(w, src)
	m := scene.Material{}.Default()
	m.NormalTexture.Image = "n.png"
	m.OcclusionTexture.Image = "o.png"
	m.EmissiveTexture.Image = "e.png"
	w.Spawn(&ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}}, &scene.Mesh{Asset: assets.BuiltinCube}, &m)
	b.Update()
	var got *Material
	for _, bt := range b.DrawList().Batches() {
		if bt.Material != nil {
			got = bt.Material
		}
	}
	if got == nil || got.NormalImage == nil || got.NormalImage.Ref != "n.png" || got.OcclusionImage == nil ||
		got.OcclusionImage.Ref != "o.png" || got.EmissiveImage == nil || got.EmissiveImage.Ref != "e.png" || got.BaseColorImage != nil {
		t.Errorf("material %+v; want the normal, occlusion and emissive images and no base colour image", got)
	}
}
