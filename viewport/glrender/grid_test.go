package glrender

import (
	"image"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// gridDiff renders dl from cam with and without the grid and returns the share of the pixels of
// the instance id (found through the id buffer of the render without grid) whose colour the grid
// changed by more than tol in some channel.
func gridDiff(t *testing.T, dl *viewport.DrawList, cam viewport.Camera, id uint32, tol int) float64 {
	t.Helper()
	const w, h = 320, 200
	with, without := DefaultSettings(), DefaultSettings()
	without.Grid = false
	var a, b *image.RGBA
	var ids []uint32
	withRenderer(t, w, h, func(r *Renderer) {
		r.Settings = with
		a = render(t, r, dl, cam)
		dl.Batch(assets.BuiltinCube).MarkAllDirty()
		r.Settings = without
		b = render(t, r, dl, cam)
		ids = make([]uint32, 0, w*h)
		for y := range h {
			for x := range w {
				ids = append(ids, r.ReadID(x, y))
			}
		}
	})
	n, changed := 0, 0
	for y := range h {
		for x := range w {
			if ids[y*w+x] != id {
				continue
			}
			n++
			p, q := a.RGBAAt(x, y), b.RGBAAt(x, y)
			if absDiff(p.R, q.R) > tol || absDiff(p.G, q.G) > tol || absDiff(p.B, q.B) > tol {
				changed++
			}
		}
	}
	if n < 500 {
		t.Fatalf("only %d pixels of instance %d on screen", n, id)
	}
	return float64(changed) / float64(n)
}

// A floor lying at y = 0 hides the ground grid instead of z-fighting with it (lines breaking up
// across it), and geometry below the ground is not washed out by the grid's lines (they are dimmed
// to a quarter over it).
func TestGridMeetsGeometry(t *testing.T) {
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinPlane, builtin(t, assets.BuiltinPlane))
	dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
	dl.Set(assets.BuiltinPlane, viewport.Instance{ID: 1, World: mgl32.Scale3D(12, 1, 12), Color: [4]float32{0.8, 0.75, 0.6, 1}})
	cam := viewport.DefaultCamera()
	cam.Pivot, cam.Yaw, cam.Pitch, cam.Distance = mgl32.Vec3{2, 0, 2}, 30, -10, 9
	if frac := gridDiff(t, dl, cam, 1, 2); frac > 0.002 { // it was 37%
		t.Errorf("the grid shows through a floor at y = 0 on %.1f%% of it", 100*frac)
	}

	dl = viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
	dl.Set(assets.BuiltinCube, viewport.Instance{ID: 2, World: mgl32.Translate3D(0, -1.5, 0).Mul4(mgl32.Scale3D(2, 2, 2)),
		Color: [4]float32{0.9, 0.3, 0.2, 1}})
	cam = viewport.DefaultCamera()
	cam.Pivot, cam.Yaw, cam.Pitch, cam.Distance = mgl32.Vec3{0, -1, 0}, 10, -55, 7
	// One pass at full strength changed 4.7% of the cube by more than 40 levels (the axes and
	// major lines), dimmed 0.5%.
	if frac := gridDiff(t, dl, cam, 2, 40); frac > 0.015 {
		t.Errorf("the grid washes out a cube below the ground: %.1f%% of it changed by more than 40 levels", 100*frac)
	}
	// The lines are still there, faintly: the ground is visible over what is under it.
	if frac := gridDiff(t, dl, cam, 2, 3); frac < 0.02 {
		t.Errorf("no grid line shows over the cube below the ground (%.2f%% of it changed)", 100*frac)
	}
}
