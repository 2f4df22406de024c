package glrender

import (
	"os"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	_ "github.com/voltex-editor/voltex/assets/gltf" // .gltf meshes and images
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// cubeDir is the glTF sample Cube (a textured cube), from this package's folder.
const cubeDir = "../../../shared/testdata/gltf/Cube/glTF"

// texturedCube returns the sample Cube's mesh and material as the glTF file has them, read through the assets
// registry as the editor reads them.
func texturedCube(t *testing.T) (*assets.Mesh, *viewport.Material) {
	t.Helper()
	if _, err := os.Stat(cubeDir); err != nil {
		t.Skipf("%s is absent: %v", cubeDir, err)
	}
	reg := assets.NewRegistry(cubeDir, assets.Limits{})
	m, err := reg.Mesh("Cube.gltf#mesh/Cube/0")
	if err != nil {
		t.Fatal(err)
	}
	img, err := reg.Image("Cube.gltf#image/0")
	if err != nil {
		t.Fatal(err)
	}
	mr, err := reg.Image("Cube.gltf#image/1")
	if err != nil {
		t.Fatal(err)
	}
	mat := &viewport.Material{Material: scene.Material{}.Default(), BaseColorImage: img, MetallicRoughnessImage: mr}
	mat.BaseColorTexture.Image = "Cube.gltf#image/0"
	mat.MetallicRoughnessTexture.Image = "Cube.gltf#image/1"
	return m, mat
}

// TestGoldenTexturedCube: the glTF sample Cube drawn with its base colour texture (sRGB, mipmapped, its
// texture coordinates) and its metallic-roughness texture (linear); picked by its id; outlined when selected.
func TestGoldenTexturedCube(t *testing.T) {
	m, mat := texturedCube(t)
	dl := viewport.NewDrawList()
	const ref = "Cube.gltf#mesh/Cube/0"
	dl.SetMesh(ref, m)
	dl.SetMaterial(ref, mat)
	dl.Set(ref, viewport.Instance{ID: 1, World: mgl32.Translate3D(0, 1, 0).Mul4(mgl32.HomogRotate3DY(0.5)), Color: white})
	cam := viewport.DefaultCamera()
	cam.Pivot = mgl32.Vec3{0, 1, 0}
	cam.Distance = 7
	withRenderer(t, testW, testH, func(r *Renderer) {
		compareGolden(t, "gltf_cube", render(t, r, dl, cam))
		if id := r.ReadID(testW/2, testH/2); id != 1 {
			t.Errorf("id at the centre = %d, want 1 (the textured cube)", id)
		}
		dl.SetSelected(1, true)
		compareGolden(t, "gltf_cube_selected", render(t, r, dl, cam))
	})
}

var white = [4]float32{1, 1, 1, 1}

// checker returns an n×n image of 2×2 texel squares: opaque colour a and, where odd, colour b with alpha 0.
func checker(n int, a, b [4]byte) *assets.Image {
	img := &assets.Image{Ref: "checker", Width: n, Height: n, Pix: make([]byte, 4*n*n)}
	for y := range n {
		for x := range n {
			c := a
			if (x/2+y/2)%2 == 1 {
				c = b
			}
			copy(img.Pix[4*(y*n+x):], c[:])
		}
	}
	return img
}

// TestGoldenAlphaModes: a masked plane (a checker whose odd squares have alpha 0) shows what is behind through
// its holes (the cube's id there, the plane's elsewhere), nearest-filtered and repeated twice by its texture
// transform; a blended half-transparent plane in front lets the cube show through, tinted, and is drawn after
// it whatever the order of the batches; neither plane's back face is drawn unless it is double-sided.
func TestGoldenAlphaModes(t *testing.T) {
	dl := viewport.NewDrawList()
	plane := builtin(t, assets.BuiltinPlane)
	blend := scene.Material{}.Default()
	blend.BaseColor = [4]float32{0.9, 0.1, 0.1, 0.5}
	blend.Metallic, blend.Roughness = 0, 0.6
	blend.AlphaMode = scene.AlphaBlend
	mask := scene.Material{}.Default()
	mask.Metallic, mask.Roughness = 0, 0.8
	mask.AlphaMode = scene.AlphaMask
	mask.DoubleSided = true
	mask.BaseColorTexture.MagFilter, mask.BaseColorTexture.Mipmaps = scene.FilterNearest, scene.MipmapsNone
	mask.BaseColorTexture.Scale = mgl32.Vec2{2, 2}
	// The blended plane's batch comes first: drawing it first would hide the cube behind it.
	dl.SetMesh("blend", plane)
	dl.SetMaterial("blend", &viewport.Material{Material: blend})
	dl.SetMesh("mask", plane)
	dl.SetMaterial("mask", &viewport.Material{Material: mask,
		BaseColorImage: checker(8, [4]byte{40, 160, 230, 255}, [4]byte{255, 255, 255, 0})})
	dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
	upright := mgl32.HomogRotate3DX(mgl32.DegToRad(90)) // the plane faces +Z
	dl.Set("blend", viewport.Instance{ID: 3, Color: white, World: mgl32.Translate3D(1.2, 1, 1.5).Mul4(upright).Mul4(mgl32.Scale3D(1.6, 1, 1.6))})
	dl.Set("mask", viewport.Instance{ID: 2, Color: white, World: mgl32.Translate3D(-1.2, 1, 1.5).Mul4(upright).Mul4(mgl32.Scale3D(1.6, 1, 1.6))})
	dl.Set(assets.BuiltinCube, viewport.Instance{ID: 1, Color: [4]float32{0.9, 0.8, 0.3, 1},
		World: mgl32.Translate3D(0, 1, 0).Mul4(mgl32.Scale3D(4, 2, 1))})
	cam := viewport.DefaultCamera()
	cam.Yaw, cam.Pitch = 0, 0.2
	cam.Pivot = mgl32.Vec3{0, 1, 0}
	cam.Distance = 7
	withRenderer(t, testW, testH, func(r *Renderer) {
		img := render(t, r, dl, cam)
		compareGolden(t, "alpha_modes", img)
		ids := map[uint32]int{}
		for y := range testH {
			for x := range testW {
				ids[r.ReadID(x, y)]++
			}
		}
		if ids[1] == 0 || ids[2] == 0 || ids[3] == 0 {
			t.Errorf("pixels by id: %v; want the cube (1), the masked plane (2) and the blended plane (3)", ids)
		}
	})
}

// TestEmptiedMaterialFreesItsTexture: once no instance uses a material (its entity moved to another material, as
// while a colour is dragged in the inspector), its texture is freed; the material in use keeps its one.
func TestEmptiedMaterialFreesItsTexture(t *testing.T) {
	dl := viewport.NewDrawList()
	cube := builtin(t, assets.BuiltinCube)
	img := checker(8, [4]byte{255, 0, 0, 255}, [4]byte{0, 0, 255, 255})
	for i, ref := range []string{"a", "b"} {
		m := scene.Material{}.Default()
		m.BaseColor[0] = float32(i) / 2
		dl.SetMesh(ref, cube)
		dl.SetMaterial(ref, &viewport.Material{Material: m, BaseColorImage: img})
	}
	dl.Set("a", viewport.Instance{ID: 1, Color: white, World: mgl32.Ident4()})
	cam := viewport.DefaultCamera()
	withRenderer(t, testW, testH, func(r *Renderer) {
		render(t, r, dl, cam)
		if n := len(r.d.materials); n != 1 {
			t.Fatalf("%d materials resident, want 1", n)
		}
		dl.Set("b", viewport.Instance{ID: 1, Color: white, World: mgl32.Ident4()})
		render(t, r, dl, cam)
		for m := range r.d.materials {
			if m != dl.Batch("b").Material {
				t.Errorf("material %v resident, not the one in use", m.BaseColor)
			}
		}
		if len(r.d.textures) != 1 || len(r.d.materials) != 1 {
			t.Errorf("%d textures, %d materials resident; want 1 each", len(r.d.textures), len(r.d.materials))
		}
	})
}
