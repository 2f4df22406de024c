package viewport

import (
	"testing"

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
