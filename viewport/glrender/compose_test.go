package glrender

import (
	"testing"
	"unsafe"

	"github.com/voltex-editor/voltex/viewport"
)

// TestOutlineIsItsDefinition: over many cubes, two in three selected, the outline is exactly where the definition
// puts it — a pixel with a selected entity other than its own within two pixels (x²+y² ≤ 5, the image's edge
// repeated) has the selection colour, and no other pixel has it.
func TestOutlineIsItsDefinition(t *testing.T) {
	const n = 20_000
	dl := bigScene(t, n)
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), 1)
	cam.Distance *= 0.04 // cubes of many pixels, and the grid fills the image (the outline's scissor is all of it)
	selected := map[uint32]bool{}
	var sel []uint32
	for id := uint32(1); id <= n; id++ {
		if id%3 != 0 {
			sel = append(sel, id)
			selected[id] = true
		}
	}
	const w, h = 240, 160
	withRenderer(t, w, h, func(r *Renderer) {
		r.Settings.Grid = false
		if err := r.Render(dl, cam); err != nil {
			t.Fatal(err)
		}
		dl.SetSelection(sel)
		if done, err := r.Draw(dl, cam, viewport.DrawOptions{}); !done || err != nil {
			t.Fatalf("compose: done %v, %v", done, err)
		}
		ids := make([]uint32, w*h) // GL's rows: bottom first
		r.pics.t.readIDs(0, 0, w, h, unsafe.Pointer(&ids[0]))
		img := r.ReadImage()
		at := func(x, y int) uint32 { return ids[min(max(y, 0), h-1)*w+min(max(x, 0), w-1)] }
		edges, mismatches, inside := 0, 0, 0
		for y := range h {
			for x := range w {
				want := false
				for dy := -2; dy <= 2; dy++ {
					for dx := -2; dx <= 2; dx++ {
						if m := at(x+dx, y+dy); dx*dx+dy*dy <= 5 && m != at(x, y) && selected[m] {
							want = true
						}
					}
				}
				got := near(img.RGBAAt(x, h-1-y), r.Settings.SelectColor, 1)
				if want {
					edges++
				}
				if !want && selected[at(x, y)] {
					inside++ // a selected pixel that is not outlined: the outline is not just the selection
				}
				if got != want {
					if mismatches++; mismatches <= 5 {
						t.Errorf("pixel (%d,%d) from the bottom: outlined %v, want %v", x, y, got, want)
					}
				}
			}
		}
		if mismatches > 0 {
			t.Errorf("%d of %d pixels differ from the definition", mismatches, w*h)
		}
		if edges < w*h/20 || inside < w*h/20 {
			t.Fatalf("%d outline pixels, %d selected inside: the scene does not test much", edges, inside)
		}
	})
}
