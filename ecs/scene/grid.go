package scene

import (
	"fmt"
	"math"
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
	// RotationStep (Euler angles in degrees) and ScaleStep turn and scale the
	// copies step by step: copy i (in creation order) is rotated by i ×
	// RotationStep and scaled by ScaleStep^i on each axis (a zero axis of
	// ScaleStep counts as 1). Zero values leave every copy unturned and at
	// scale 1.
	RotationStep, ScaleStep mgl32.Vec3
}

// DefaultGrid returns the many_cubes demo layout: 20×1×20 white cubes 1.5
// apart around the origin.
func DefaultGrid() GridParams {
	return GridParams{Count: [3]int{20, 1, 20}, Spacing: mgl32.Vec3{1.5, 1.5, 1.5},
		ColorFrom: [4]float32{1, 1, 1, 1}, ColorTo: [4]float32{1, 1, 1, 1}}
}

// MaxGridCubes bounds the cubes of one grid (Validate refuses more). A grid
// this big, with every option, is a scene file the loaders accept: about
// 540 MB and 400 MB of world memory, within serialize's default limits
// (MaxEntities, MaxFileSize, MaxWorldBytes; serialize's TestMaxGridLoads).
const MaxGridCubes = 1_000_000

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
	for _, f := range append(p.RotationStep[:], p.ScaleStep[:]...) {
		if f != f || f > 3.4e38 || f < -3.4e38 {
			return fmt.Errorf("grid parameters must be finite numbers")
		}
	}
	for a, f := range p.ScaleStep {
		if f < 0 {
			return fmt.Errorf("scale step along %c is %v; it must not be negative", "XYZ"[a], f)
		}
	}
	if last := p.Len() - 1; last > 0 {
		_, s := p.Step(last)
		for a, f := range s {
			if f != f || f > 1e6 || (f < 1e-6 && p.ScaleStep[a] != 0) {
				return fmt.Errorf("with a scale step of %v along %c, copy %d would be scaled by %v; use a step nearer 1 or fewer copies",
					p.ScaleStep[a], "XYZ"[a], last+1, f)
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

// Len returns the number of cubes p describes (Count[0]×Count[1]×Count[2]).
func (p GridParams) Len() int { return p.Count[0] * p.Count[1] * p.Count[2] }

// Cube returns the position and colour of cube i (0 ≤ i < p.Len(); cubes are
// numbered X-fastest, then Z, then Y). The position is relative to the group
// when p.Group is set, else in the world. p must be valid. It is the
// arithmetic of [SpawnGrid], for previews that need no entities.
func (p GridParams) Cube(i int) (pos mgl32.Vec3, rgba [4]float32) {
	nx, ny, nz := p.Count[0], p.Count[1], p.Count[2]
	x, z, y := i%nx, (i/nx)%nz, i/(nx*nz)
	var base mgl32.Vec3 // adding to a zero base turns -0 into 0
	if p.Group == "" {
		base = p.Origin
	}
	pos = base.Add(mgl32.Vec3{
		(float32(x) - float32(nx-1)/2) * p.Spacing[0],
		(float32(y) - float32(ny-1)/2) * p.Spacing[1],
		(float32(z) - float32(nz-1)/2) * p.Spacing[2],
	})
	axes := 0
	var t float32
	for a, n := range [3]int{x, y, z} {
		if c := p.Count[a]; c > 1 {
			axes++
			t += float32(n) / float32(c-1)
		}
	}
	if axes > 0 {
		t /= float32(axes)
	}
	for k := range rgba {
		rgba[k] = p.ColorFrom[k] + (p.ColorTo[k]-p.ColorFrom[k])*t
	}
	return pos, rgba
}

// Step returns the rotation (Euler degrees) and scale of copy i: i ×
// RotationStep and ScaleStep^i (see GridParams).
func (p GridParams) Step(i int) (rotation, scale mgl32.Vec3) {
	for a := range 3 {
		rotation[a] = p.RotationStep[a] * float32(i)
		if rotation[a] != 0 {
			rotation[a] = float32(math.Remainder(float64(rotation[a]), 360)) // -180..180, as the gizmo writes them
		}
		scale[a] = 1
		if s := p.ScaleStep[a]; s != 0 && s != 1 {
			scale[a] = float32(math.Pow(float64(s), float64(i)))
		}
	}
	return rotation, scale
}

// Transform returns copy i's Transform: its position (see Cube), rotation and
// scale (see Step).
func (p GridParams) Transform(i int) ecs.Transform {
	pos, _ := p.Cube(i)
	rot, scale := p.Step(i)
	return ecs.Transform{Position: pos, Rotation: rot, Scale: scale}
}

// CopyName returns copy i's name made from base: "base x,z" for a one-layer
// grid, "base x,y,z" otherwise (the cubes are "Cube x,z").
func (p GridParams) CopyName(base string, i int) string {
	b := p.cubeName(nil, i)
	return base + string(b[len("Cube"):])
}

// stepped reports whether copies are turned or scaled.
func (p GridParams) stepped() bool {
	return p.RotationStep != (mgl32.Vec3{}) || (p.ScaleStep != (mgl32.Vec3{}) && p.ScaleStep != mgl32.Vec3{1, 1, 1})
}

// cubeName appends cube i's name ("Cube x,z" for a one-layer grid, "Cube
// x,y,z" otherwise) to b.
func (p GridParams) cubeName(b []byte, i int) []byte {
	nx, ny, nz := p.Count[0], p.Count[1], p.Count[2]
	x, z, y := i%nx, (i/nx)%nz, i/(nx*nz)
	b = append(b, "Cube "...)
	b = strconv.AppendInt(b, int64(x), 10)
	if ny > 1 {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(y), 10)
	}
	b = append(b, ',')
	return strconv.AppendInt(b, int64(z), 10)
}

// GridPlan is a cube grid computed as plain data — every cube's position,
// colour and name — but not yet in any world. [GridPlan.Plan] computes it
// chunk by chunk and touches nothing but the plan, so it may run on a
// background goroutine (with progress and cancellation between chunks);
// [GridPlan.Spawn] then adds the entities to a world on the world's own
// goroutine. Planning is most of [SpawnGrid]'s work; spawning is the rest.
type GridPlan struct {
	p      GridParams
	pos    []mgl32.Vec3
	colors [][4]float32
	names  []string
	group  string    // the group's name as spawned (see uniqueNames)
	spawn  bool      // Spawn has run
	room   *ecs.Room // see PlanRoom
	named  *GridNames
}

// GridNames are the names a spawned plan gave the entities that became roots where a root of the world had
// theirs, and the order key of the first (see [GridPlan.Spawn]): what a plan of the same grid spawned into the same
// world again takes ([GridPlan.UseNames]) instead of looking at every root of the world again. It costs 4 bytes a
// cube at most.
type GridNames struct {
	Group string   // the group's name ("" without a group)
	K     []uint32 // K[i] > 0: cube i was named "base (K[i])" (FreeName); nil when none was renamed
	Order float64  // the order key after the roots' (NextOrder)
}

// Names returns the names Spawn gave (nil before Spawn).
func (g *GridPlan) Names() *GridNames { return g.named }

// UseNames makes Spawn give the names n (of a spawn of the same grid into the same world, as it was then)
// instead of finding the names the world's roots leave free. A redo spawns a million-root scene's grid again
// at the cost of its cubes, not of the scene.
func (g *GridPlan) UseNames(n *GridNames) { g.named = n }

// PlanRoom plans room in w's table for the plan's cubes (see [ecs.Room]) and keeps it for Spawn: the room's
// memory can then be made (Room.Make) on any goroutine, beside or after Plan, and Spawn writes the cubes into it
// instead of growing the table on w's goroutine. Call it on w's goroutine; it returns nil when the table has
// room already.
func (g *GridPlan) PlanRoom(w *ecs.World) *ecs.Room {
	if g.p.Spin != nil {
		g.room = ecs.NewMap6[ecs.Transform, Name, SceneID, Mesh, Color, Spin](w).PlanRoom(g.Len())
	} else {
		g.room = ecs.NewMap5[ecs.Transform, Name, SceneID, Mesh, Color](w).PlanRoom(g.Len())
	}
	return g.room
}

// NewGridPlan returns an empty plan for p, or p's [GridParams.Validate]
// error.
func NewGridPlan(p GridParams) (*GridPlan, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.Mesh == "" {
		p.Mesh = MeshCube
	}
	if p.Spin != nil {
		s := *p.Spin // the plan owns its copy: the caller may change theirs
		p.Spin = &s
	}
	n := p.Len()
	return &GridPlan{p: p, pos: make([]mgl32.Vec3, 0, n), colors: make([][4]float32, 0, n), names: make([]string, 0, n)}, nil
}

// Params returns the grid the plan makes.
func (g *GridPlan) Params() GridParams { return g.p }

// Len returns the number of cubes of the grid; Planned how many are computed.
func (g *GridPlan) Len() int { return g.p.Len() }

// Planned returns how many cubes are computed so far.
func (g *GridPlan) Planned() int { return len(g.pos) }

// Done reports whether every cube is computed.
func (g *GridPlan) Done() bool { return len(g.pos) == g.Len() }

// Plan computes up to n more cubes and reports whether the plan is complete.
func (g *GridPlan) Plan(n int) bool {
	from := len(g.pos)
	to := min(g.Len(), from+max(n, 0))
	// The chunk's names are cut from one string: one allocation, not one per cube.
	buf := make([]byte, 0, (to-from)*14)
	ends := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		pos, rgba := g.p.Cube(i)
		g.pos = append(g.pos, pos)
		g.colors = append(g.colors, rgba)
		buf = g.p.cubeName(buf, i)
		ends = append(ends, len(buf))
	}
	all, start := string(buf), 0
	for _, end := range ends {
		g.names = append(g.names, all[start:end])
		start = end
	}
	return g.Done()
}

// Spawn adds the planned grid to w, each cube with a Transform, [Name],
// [SceneID] (ids from w's generator, the group's first; order keys after the
// current roots for the group, or for the cubes if they are roots), [Mesh],
// [Color] and optionally [Spin], plus the group entity if the grid has one,
// and returns the group (the zero Entity if none) and the cubes in plan
// order. Whichever become roots (the group, else the cubes) are renamed where
// a root of w has their name ("Cube 0,0 (1)": [FreeName]), or as [GridPlan.UseNames] says. w must have the scene components registered. It panics if the plan
// is not complete or was spawned already (plan again for another world).
func (g *GridPlan) Spawn(w *ecs.World) (group ecs.Entity, cubes []ecs.Entity) {
	if !g.Done() {
		panic(fmt.Sprintf("scene.GridPlan.Spawn: the plan has %d of %d cubes; call Plan until it reports true", len(g.pos), g.Len()))
	}
	if g.spawn {
		panic("scene.GridPlan.Spawn: the plan was spawned already; make a new plan (NewGridPlan) for another spawn")
	}
	g.spawn = true
	mustID[SceneID](w)
	p := g.p
	r := ids(w)
	// Order keys: the group (or the cubes, if they are roots) after the
	// current roots; cubes in a group 1, 2, 3, ….
	g.uniqueNames(w)
	order := g.named.Order
	if p.Group != "" {
		group = w.Spawn(&ecs.Transform{Position: p.Origin, Scale: mgl32.Vec3{1, 1, 1}}, &Name{Value: g.group},
			&SceneID{ID: r.New(), Order: order})
		order = 1
	}
	cubes = make([]ecs.Entity, 0, len(g.pos))
	stepped := p.stepped()
	// SpawnBatch reserves the rows once and writes the values in place: no per-cube allocation or lookup.
	fill := func(e ecs.Entity, tr *ecs.Transform, name *Name, id *SceneID, mesh *Mesh, color *Color) {
		i := len(cubes)
		*tr = ecs.Transform{Position: g.pos[i], Scale: mgl32.Vec3{1, 1, 1}}
		if stepped {
			tr.Rotation, tr.Scale = p.Step(i)
		}
		*id = SceneID{ID: r.New(), Order: order}
		order = After(order, true)
		name.Value, mesh.Asset, color.RGBA = g.names[i], p.Mesh, g.colors[i]
		cubes = append(cubes, e)
	}
	w.UseRoom(g.room) // nil, not made or no longer current: the spawn grows the table itself
	g.room = nil
	if p.Spin != nil {
		ecs.NewMap6[ecs.Transform, Name, SceneID, Mesh, Color, Spin](w).SpawnBatch(len(g.pos),
			func(e ecs.Entity, tr *ecs.Transform, name *Name, id *SceneID, mesh *Mesh, color *Color, spin *Spin) {
				fill(e, tr, name, id, mesh, color)
				*spin = *p.Spin
			})
	} else {
		ecs.NewMap5[ecs.Transform, Name, SceneID, Mesh, Color](w).SpawnBatch(len(g.pos), fill)
	}
	if !group.IsZero() {
		for _, e := range cubes {
			if err := w.SetParent(e, group); err != nil {
				panic("scene.GridPlan.Spawn: " + err.Error())
			}
		}
	}
	return group, cubes
}

// uniqueNames gives the entities that become roots — the group, or else the cubes — names no root of w has
// (FreeName: "Cube 0,0 (1)" beside "Cube 0,0"), as Paste names what it adds.
func (g *GridPlan) uniqueNames(w *ecs.World) {
	if g.named == nil {
		g.named = g.freeNames(rootNamesAmong(w, g.wanted()))
		g.named.Order = NextOrder(w, ecs.Entity{})
	}
	n := g.named
	g.group = n.Group
	for i, k := range n.K {
		if k > 0 && i < len(g.names) {
			g.names[i] = suffixed(baseName(g.names[i]), int(k))
		}
	}
}

// FindNames finds the names Spawn gives beside the roots w has now (see [GridPlan.UseNames]), reading w as a
// reader of a lent world may ([ecs.World.Lend]: no queries), so on any goroutine while w is lent: the names of a
// big grid are found beside its plan, not on w's goroutine when it is spawned. The plan must be complete.
func (g *GridPlan) FindNames(w *ecs.World) *GridNames {
	n := g.freeNames(rootNamesRead(w, g.wanted()))
	n.Order = nextRootOrder(w, w.ReadEntities)
	return n
}

// wanted is the names that become roots' names: the group's, or else the cubes'.
func (g *GridPlan) wanted() []string {
	if g.p.Group != "" {
		return []string{g.p.Group}
	}
	return g.names
}

// freeNames returns the names the roots named in taken leave the group, or else the cubes.
func (g *GridPlan) freeNames(taken map[string]bool) *GridNames {
	n := &GridNames{Group: g.p.Group}
	if taken == nil {
		return n
	}
	if n.Group != "" {
		if taken[n.Group] {
			n.Group = FreeName(n.Group, taken)
		}
		return n
	}
	for i, name := range g.names {
		if taken[name] {
			free, k := freeName(name, taken)
			taken[free] = true
			if n.K == nil {
				n.K = make([]uint32, len(g.names))
			}
			n.K[i] = uint32(k)
		}
	}
	return n
}

// SpawnGrid adds a grid of cubes to w, each with a Transform, [Name]
// ("Cube x,z" for a one-layer grid, "Cube x,y,z" otherwise; "Cube x,z (1)"
// where a root has that name, as in Spawn), [SceneID] (new
// ids from the world's [IDs]; sibling order in creation order, after the
// existing roots), [Mesh], [Color] and optionally [Spin], plus the group
// entity if p.Group is set. Cubes are created in X-fastest, then Z, then Y
// order. It returns the group (the zero Entity if none) and the cubes. w must
// have the scene components registered; p must be valid (see
// [GridParams.Validate]) or SpawnGrid panics with the reason. It is
// [NewGridPlan], [GridPlan.Plan] and [GridPlan.Spawn] in one go.
func SpawnGrid(w *ecs.World, p GridParams) (group ecs.Entity, cubes []ecs.Entity) {
	g, err := NewGridPlan(p)
	if err != nil {
		panic("scene.SpawnGrid: " + err.Error() + "; check GridParams.Validate first")
	}
	g.Plan(g.Len())
	return g.Spawn(w)
}
