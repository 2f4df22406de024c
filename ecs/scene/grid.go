package scene

import (
	"fmt"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// GridParams describes a grid of cubes for [SpawnGrid].
type GridParams struct {
	Count   [3]int     // cubes along X, Y and Z; each at least 1
	Spacing mgl32.Vec3 // distance between neighbouring cube centres along each axis
	Origin  mgl32.Vec3 // the centre of the grid
	Mesh    string     // the cubes' mesh; "" means builtin:cube
	// ColorFrom and ColorTo are the colours of the first (-X,-Y,-Z) and last
	// (+X,+Y,+Z) corners; the cubes between get a linear blend along the
	// grid's diagonal. Equal colours give a solid grid.
	ColorFrom, ColorTo [4]float32
	// Spin, if not nil, is added to every cube.
	Spin *Spin
	// Group, if not empty, is the name of a new parent entity (with a
	// Transform at Origin) that holds the cubes, whose positions are then
	// relative to it.
	Group string
}

// DefaultGrid returns the many_cubes demo layout: 20×1×20 white cubes 1.5
// apart around the origin.
func DefaultGrid() GridParams {
	return GridParams{Count: [3]int{20, 1, 20}, Spacing: mgl32.Vec3{1.5, 1.5, 1.5},
		ColorFrom: [4]float32{1, 1, 1, 1}, ColorTo: [4]float32{1, 1, 1, 1}}
}

// MaxGridCubes bounds the cubes of one grid (Validate refuses more).
const MaxGridCubes = 10_000_000

// Validate reports what is wrong with p, or nil.
func (p GridParams) Validate() error {
	total := 1
	for i, n := range p.Count {
		if n < 1 {
			return fmt.Errorf("grid count along %c is %d; it must be at least 1", "XYZ"[i], n)
		}
		if total *= n; total > MaxGridCubes {
			return fmt.Errorf("grid of %d×%d×%d cubes is more than the limit of %d", p.Count[0], p.Count[1], p.Count[2], MaxGridCubes)
		}
	}
	for _, v := range [][]float32{p.Spacing[:], p.Origin[:], p.ColorFrom[:], p.ColorTo[:]} {
		for _, f := range v {
			if f != f || f > 3.4e38 || f < -3.4e38 {
				return fmt.Errorf("grid parameters must be finite numbers")
			}
		}
	}
	for _, c := range [][4]float32{p.ColorFrom, p.ColorTo} {
		for _, f := range c {
			if f < 0 || f > 1 {
				return fmt.Errorf("colour channels must be within 0..1, got %v", c)
			}
		}
	}
	return nil
}

// SpawnGrid adds a grid of cubes to w, each with a Transform, [Name]
// ("Cube x,z" for a one-layer grid, "Cube x,y,z" otherwise), [SceneID] (new
// ids from the world's [IDs]; sibling order in creation order, after the
// existing roots), [Mesh], [Color] and optionally [Spin], plus the group
// entity if p.Group is set. Cubes are created in X-fastest, then Z, then Y
// order. It returns the
// group (the zero Entity if none) and the cubes. w must have the scene
// components registered; p must be valid (see [GridParams.Validate]) or
// SpawnGrid panics with the reason.
func SpawnGrid(w *ecs.World, p GridParams) (group ecs.Entity, cubes []ecs.Entity) {
	if err := p.Validate(); err != nil {
		panic("scene.SpawnGrid: " + err.Error() + "; check GridParams.Validate first")
	}
	mustID[SceneID](w)
	mesh := p.Mesh
	if mesh == "" {
		mesh = MeshCube
	}
	base := p.Origin
	r := ids(w)
	// Order keys: the group (or the cubes, if they are roots) after the
	// current roots; cubes in a group 1, 2, 3, ….
	order := NextOrder(w, ecs.Entity{})
	if p.Group != "" {
		group = w.Spawn(&ecs.Transform{Position: p.Origin, Scale: mgl32.Vec3{1, 1, 1}}, &Name{Value: p.Group},
			&SceneID{ID: r.New(), Order: order})
		base = mgl32.Vec3{}
		order = 1
	}
	nx, ny, nz := p.Count[0], p.Count[1], p.Count[2]
	axes := 0
	for _, n := range p.Count {
		if n > 1 {
			axes++
		}
	}
	frac := func(i, n int) float32 {
		if n <= 1 {
			return 0
		}
		return float32(i) / float32(n-1)
	}
	cubes = make([]ecs.Entity, 0, nx*ny*nz)
	name := make([]byte, 0, 32)
	for y := range ny {
		for z := range nz {
			for x := range nx {
				off := mgl32.Vec3{
					(float32(x) - float32(nx-1)/2) * p.Spacing[0],
					(float32(y) - float32(ny-1)/2) * p.Spacing[1],
					(float32(z) - float32(nz-1)/2) * p.Spacing[2],
				}
				var t float32
				if axes > 0 {
					t = (frac(x, nx) + frac(y, ny) + frac(z, nz)) / float32(axes)
				}
				var rgba [4]float32
				for i := range rgba {
					rgba[i] = p.ColorFrom[i] + (p.ColorTo[i]-p.ColorFrom[i])*t
				}
				name = append(name[:0], "Cube "...)
				name = strconv.AppendInt(name, int64(x), 10)
				if ny > 1 {
					name = append(name, ',')
					name = strconv.AppendInt(name, int64(y), 10)
				}
				name = append(name, ',')
				name = strconv.AppendInt(name, int64(z), 10)
				vals := []any{
					&ecs.Transform{Position: base.Add(off), Scale: mgl32.Vec3{1, 1, 1}},
					&Name{Value: string(name)}, &SceneID{ID: r.New(), Order: order}, &Mesh{Asset: mesh}, &Color{RGBA: rgba},
				}
				order = After(order, true)
				if p.Spin != nil {
					vals = append(vals, p.Spin)
				}
				e := w.Spawn(vals...)
				if p.Group != "" {
					if err := w.SetParent(e, group); err != nil {
						panic("scene.SpawnGrid: " + err.Error())
					}
				}
				cubes = append(cubes, e)
			}
		}
	}
	return group, cubes
}
