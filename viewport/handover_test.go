package viewport

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// sceneAssets is a mesh and image source that knows one model file and one texture beside the built-in meshes,
// as the editor's registry knows a scene's folder.
type sceneAssets struct {
	model *assets.Mesh
	tex   *assets.Image
}

func (s sceneAssets) Mesh(ref string) (*assets.Mesh, error) {
	if ref == "rock.obj" {
		return s.model, nil
	}
	return BuiltinMeshes{}.Mesh(ref)
}

func (s sceneAssets) Image(ref string) (*assets.Image, error) {
	if ref == "rock.png" {
		return s.tex, nil
	}
	return nil, nil
}

// handoverWorld is a cube grid with, if asked, an entity drawn with a model file and one with a textured material.
func handoverWorld(model, texture bool) *ecs.World {
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.Count = [3]int{20, 2, 20}
	p.ColorFrom, p.ColorTo = [4]float32{1, 0, 0, 1}, [4]float32{0, 0, 1, 1}
	scene.SpawnGrid(w, p)
	if model {
		w.Spawn(&ecs.Transform{Position: mgl32.Vec3{3, 4, 5}, Scale: mgl32.Vec3{1, 1, 1}}, &scene.Mesh{Asset: "rock.obj"})
	}
	if texture {
		m := scene.Material{}.Default()
		m.BaseColorTexture = scene.Texture{}.Default()
		m.BaseColorTexture.Image = "rock.png"
		w.Spawn(&ecs.Transform{Position: mgl32.Vec3{-3, 4, 5}, Scale: mgl32.Vec3{1, 1, 1}}, &scene.Mesh{Asset: assets.BuiltinCube}, &m)
	}
	return w
}

// A list built beside a load with the built-in meshes and handed over to the scene's assets draws what a list
// built with those assets from the start draws: each instance in a batch of the same mesh and material.
func TestSetMeshSourceDrawsAsAFreshBuild(t *testing.T) {
	src := sceneAssets{model: &assets.Mesh{Ref: "rock.obj", Vertices: assets.Placeholder().Vertices,
		Indices: assets.Placeholder().Indices}, tex: &assets.Image{Ref: "rock.png", Width: 1, Height: 1, Pix: []byte{1, 2, 3, 4}}}
	for _, tc := range []struct {
		name           string
		model, texture bool
		kept           bool // the handed-over list is kept as built, not placed again
	}{
		{"built-in meshes", false, false, true},
		{"a model file", true, false, false},
		{"a textured material", false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := handoverWorld(tc.model, tc.texture)
			pre := NewBuilder(w, BuiltinMeshes{})
			pre.Update()
			before := pre.DrawList().Version()
			pre.SetMeshSource(src)
			if kept := pre.DrawList().Version() == before; kept != tc.kept {
				t.Errorf("list kept as built: %v, want %v", kept, tc.kept)
			}
			pre.Update()
			fresh := NewBuilder(w, src)
			fresh.Update()
			if pre.DrawList().Len() != fresh.DrawList().Len() || fresh.DrawList().Len() == 0 {
				t.Fatalf("handed over: %d instances, fresh: %d", pre.DrawList().Len(), fresh.DrawList().Len())
			}
			fresh.DrawList().IDs(func(id uint32) {
				want, wantRef, _ := fresh.DrawList().Get(id)
				got, gotRef, ok := pre.DrawList().Get(id)
				if !ok || got != want || gotRef != wantRef {
					t.Fatalf("instance %d: handed over %v in %q (%v), fresh %v in %q", id, got, gotRef, ok, want, wantRef)
				}
				pb, fb := pre.DrawList().Batch(gotRef), fresh.DrawList().Batch(wantRef)
				if pb.Mesh != fb.Mesh {
					t.Fatalf("instance %d: mesh %q, fresh %q", id, pb.Mesh.Ref, fb.Mesh.Ref)
				}
				if (pb.Material == nil) != (fb.Material == nil) ||
					pb.Material != nil && pb.Material.BaseColorImage != fb.Material.BaseColorImage {
					t.Fatalf("instance %d: material %+v, fresh %+v", id, pb.Material, fb.Material)
				}
			})
			if pre.World() != w {
				t.Error("World() is not the world built from")
			}
		})
	}
}
