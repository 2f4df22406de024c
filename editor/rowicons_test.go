package editor

import (
	"image"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/settings"
)

// TestIconAtlasPaintsTheToggles: the texture of the rows' toggles holds an eye (its pupil covered, its corners
// clear), the eye crossed out, the open lock (its body hollow) and the shut one (its body filled), side by side.
func TestIconAtlasPaintsTheToggles(t *testing.T) {
	const side = 19
	img := iconAtlas(side)
	if b := img.Bounds(); b.Dx() != int(iconKinds)*(side+1) || b.Dy() != side {
		t.Fatalf("atlas %v, want %d×%d", b, int(iconKinds)*(side+1), side)
	}
	alpha := func(k iconKind, x, y int) uint8 { return img.RGBAAt(int(k)*(side+1)+x, y).A }
	mid := side / 2
	for _, k := range []iconKind{iconEye, iconEyeShut} {
		if a := alpha(k, mid, mid); a < 200 {
			t.Errorf("icon %d: the pupil's alpha %d", k, a)
		}
		if a := alpha(k, 1, 1); a != 0 {
			t.Errorf("icon %d: a corner's alpha %d", k, a)
		}
	}
	// The slash of the shut eye crosses (3, side-3), which the open eye leaves clear.
	if alpha(iconEyeShut, 3, side-3) < 100 || alpha(iconEye, 3, side-3) != 0 {
		t.Errorf("the slash: shut eye %d, open eye %d", alpha(iconEyeShut, 3, side-3), alpha(iconEye, 3, side-3))
	}
	body := side * 7 / 10 // inside the lock's body, away from its edges
	if alpha(iconLockShut, mid, body) < 200 || alpha(iconLockOpen, mid, body) != 0 {
		t.Errorf("the lock's body: shut %d, open %d", alpha(iconLockShut, mid, body), alpha(iconLockOpen, mid, body))
	}
	if pixelsSet(img, int(iconKinds)*(side+1)) == 0 {
		t.Fatal("nothing painted")
	}
	// The pixel columns between the icons stay clear: a picture never bleeds into its neighbour when drawn.
	for k := 1; k < int(iconKinds); k++ {
		for y := range side {
			if a := img.RGBAAt(k*(side+1)-1, y).A; a != 0 {
				t.Fatalf("the gap before icon %d has alpha %d at row %d", k, a, y)
			}
		}
	}
}

// TestToggleIcons: the eye is the first toggle, the lock the second; set, each is its shut picture.
func TestToggleIcons(t *testing.T) {
	for _, c := range []struct {
		k    int
		set  bool
		want iconKind
	}{{0, false, iconEye}, {0, true, iconEyeShut}, {1, false, iconLockOpen}, {1, true, iconLockShut}} {
		if got := toggleIcon(c.k, c.set); got != c.want {
			t.Errorf("toggleIcon(%d, %v) = %d, want %d", c.k, c.set, got, c.want)
		}
	}
}

func pixelsSet(img *image.RGBA, w int) int {
	n := 0
	for y := range img.Bounds().Dy() {
		for x := range w {
			if img.RGBAAt(x, y).A != 0 {
				n++
			}
		}
	}
	return n
}

// noFlags is a Hierarchy's rowFlags with nothing hidden or locked.
type noFlags struct{}

func (noFlags) own(ecs.Entity) settings.Flags { return settings.Flags{} }
func (noFlags) hidden(ecs.Entity) bool        { return false }
func (noFlags) toggleHidden([]ecs.Entity)     {}
func (noFlags) toggleLock([]ecs.Entity)       {}

// TestRowTogglesCostTwoTrianglesEach: with a texture, the eye and lock of each row the Hierarchy shows add a quad
// each (4 vertices) to the frame's draw data; drawn as shapes, they added dozens of vertices a row, which a
// software renderer pays for in every frame.
func TestRowTogglesCostTwoTrianglesEach(t *testing.T) {
	d := doc.New("Rows", doc.Options{})
	for range 200 {
		if _, err := d.SpawnCube(ecs.Entity{}); err != nil {
			t.Fatal(err)
		}
	}
	h := newUIHarness(t, d)
	vertices := func() int {
		h.frame()
		h.frame()
		return int(imgui.CurrentDrawData().TotalVtxCount())
	}
	bare := vertices()
	rows := len(hierRows(h.hier))
	h.hier.flags = noFlags{}
	shapes := vertices()
	h.hier.icons.newTexture = func(*image.RGBA) *g.Texture { return &g.Texture{} }
	textured := vertices()
	if extra := textured - bare; extra > 2*4*rows { // rows: of the model; those shown are fewer
		t.Errorf("the toggles add %d vertices (%d drawn as shapes), want at most %d (4 a toggle, %d rows)", extra, shapes-bare, 2*4*rows, rows)
	}
	if shapes-bare <= textured-bare {
		t.Errorf("drawn as shapes the toggles add %d vertices, from the texture %d", shapes-bare, textured-bare)
	}
}
