package viewport

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// TestThumbnailDrawsTheMeshesFramed: a grid of cubes from red to blue fills the middle of the thumbnail in
// their colours (lit, so shaded, but red stays red), the corners stay transparent, and an empty list has none.
func TestThumbnailDrawsTheMeshesFramed(t *testing.T) {
	w, _, _ := gridWorld(t)
	b := NewBuilder(w, BuiltinMeshes{})
	b.Update()
	img := Thumbnail(b.DrawList(), 64)
	if img == nil || img.Bounds().Dx() != 64 || img.Bounds().Dy() != 64 {
		t.Fatalf("thumbnail %v, want 64×64", img)
	}
	for _, p := range [][2]int{{0, 0}, {63, 0}, {0, 63}, {63, 63}} {
		if a := img.RGBAAt(p[0], p[1]).A; a != 0 {
			t.Errorf("corner %v has alpha %d, want the background transparent", p, a)
		}
	}
	opaque, reddish, bluish := 0, 0, 0
	for y := range 64 {
		for x := range 64 {
			c := img.RGBAAt(x, y)
			if c.A == 255 {
				opaque++
			}
			if c.A == 255 && c.R > 2*c.B+20 {
				reddish++
			}
			if c.A == 255 && c.B > 2*c.R+20 {
				bluish++
			}
		}
	}
	if opaque < 64*64/8 {
		t.Errorf("%d opaque pixels of %d: want the framed grid to fill a good part of it", opaque, 64*64)
	}
	if reddish == 0 || bluish == 0 {
		t.Errorf("%d red and %d blue pixels: want the grid's red to blue colours", reddish, bluish)
	}
	if c := img.RGBAAt(32, 32); c.A != 255 {
		t.Errorf("the centre %v is not covered", c)
	}

	empty := scene.NewWorld()
	eb := NewBuilder(empty, BuiltinMeshes{})
	eb.Update()
	if img := Thumbnail(eb.DrawList(), 64); img != nil {
		t.Errorf("an empty list's thumbnail is %v, want nil", img.Bounds())
	}
}

// TestThumbnailCutsAMaskedMaterialsHoles: a cube whose masked texture is transparent blue on its left half and
// red on its right is drawn red, with holes where the blue was; drawn opaque, the blue shows and covers more.
func TestThumbnailCutsAMaskedMaterialsHoles(t *testing.T) {
	img := &assets.Image{Ref: "half", Width: 2, Height: 1, Pix: []byte{0, 0, 255, 0, 255, 0, 0, 255}}
	drawn := func(mode scene.AlphaMode) (opaque, blue int) {
		m, err := BuiltinMeshes{}.Mesh(assets.BuiltinCube)
		if err != nil {
			t.Fatal(err)
		}
		mat := scene.Material{}.Default()
		mat.AlphaMode = mode
		mat.BaseColorTexture.Image = "half"
		dl := NewDrawList()
		dl.SetMesh("cube", m)
		dl.SetMaterial("cube", &Material{Material: mat, BaseColorImage: img})
		dl.Set("cube", Instance{ID: 1, World: mgl32.Ident4(), Color: [4]float32{1, 1, 1, 1}})
		pic := Thumbnail(dl, 64)
		for y := range 64 {
			for x := range 64 {
				if c := pic.RGBAAt(x, y); c.A == 255 {
					opaque++
					if c.B > c.R {
						blue++
					}
				}
			}
		}
		return opaque, blue
	}
	masked, maskedBlue := drawn(scene.AlphaMask)
	full, fullBlue := drawn(scene.AlphaOpaque)
	if maskedBlue != 0 || fullBlue == 0 {
		t.Errorf("%d blue pixels masked, %d opaque: want the transparent half cut out only when masked", maskedBlue, fullBlue)
	}
	if masked == 0 || masked >= full {
		t.Errorf("%d opaque pixels masked, %d unmasked: want the masked cube drawn with holes", masked, full)
	}
}
