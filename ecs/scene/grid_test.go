package scene

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// modelGrid is the simple model of a grid: every cube's name, position (world, or relative to the group) and
// colour, written the obvious way, cube by cube.
func modelGrid(p GridParams) (names []string, pos []mgl32.Vec3, rgba [][4]float32) {
	nx, ny, nz := p.Count[0], p.Count[1], p.Count[2]
	frac := func(i, n int) float32 {
		if n <= 1 {
			return 0
		}
		return float32(i) / float32(n-1)
	}
	axes := 0
	for _, n := range p.Count {
		if n > 1 {
			axes++
		}
	}
	var base mgl32.Vec3
	if p.Group == "" {
		base = p.Origin
	}
	for y := range ny {
		for z := range nz {
			for x := range nx {
				name := fmt.Sprintf("Cube %d,%d,%d", x, y, z)
				if ny == 1 {
					name = fmt.Sprintf("Cube %d,%d", x, z)
				}
				names = append(names, name)
				pos = append(pos, base.Add(mgl32.Vec3{
					(float32(x) - float32(nx-1)/2) * p.Spacing[0],
					(float32(y) - float32(ny-1)/2) * p.Spacing[1],
					(float32(z) - float32(nz-1)/2) * p.Spacing[2],
				}))
				var t float32
				if axes > 0 {
					t = (frac(x, nx) + frac(y, ny) + frac(z, nz)) / float32(axes)
				}
				var c [4]float32
				for i := range c {
					c[i] = p.ColorFrom[i] + (p.ColorTo[i]-p.ColorFrom[i])*t
				}
				rgba = append(rgba, c)
			}
		}
	}
	return names, pos, rgba
}

func randomGrid(r *rand.Rand) GridParams {
	p := GridParams{
		Count:   [3]int{1 + r.IntN(7), 1 + r.IntN(3), 1 + r.IntN(7)},
		Spacing: mgl32.Vec3{0.5 + r.Float32()*2, 0.5 + r.Float32()*2, -1 + r.Float32()*3},
		Origin:  mgl32.Vec3{r.Float32()*20 - 10, 0, r.Float32()*20 - 10},
	}
	for i := range 4 {
		p.ColorFrom[i], p.ColorTo[i] = r.Float32(), r.Float32()
	}
	if r.IntN(2) == 0 {
		p.Group = "Group"
	}
	if r.IntN(2) == 0 {
		p.Spin = &Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 10}
	}
	return p
}

// TestGridPlanMatchesModel: a plan computed in chunks of any size, then spawned, makes exactly the model's cubes
// (names, positions without -0, colours, ids from the world's generator, order keys, parents), in order.
func TestGridPlanMatchesModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		p := randomGrid(r)
		names, pos, rgba := modelGrid(p)
		g, err := NewGridPlan(p)
		if err != nil {
			t.Fatal(err)
		}
		for chunk := 1 + r.IntN(5); !g.Plan(chunk); {
			if g.Planned() == 0 || g.Planned() >= g.Len() {
				t.Fatalf("round %d: planned %d of %d", round, g.Planned(), g.Len())
			}
		}
		w := NewWorld()
		SeedIDs(w, uint64(round))
		gen := SeededIDs(uint64(round)) // the ids Spawn must hand out, in order
		w.Spawn(&Name{Value: "existing root"}, &SceneID{ID: 1, Order: 4.5})
		group, cubes := g.Spawn(w)
		if len(cubes) != len(names) || (p.Group != "") != !group.IsZero() {
			t.Fatalf("round %d: %d cubes (want %d), group %v", round, len(cubes), len(names), group)
		}
		nm, tr, col, sid := ecs.NewMap[Name](w), ecs.NewMap[ecs.Transform](w), ecs.NewMap[Color](w), ecs.NewMap[SceneID](w)
		spin := ecs.NewMap[Spin](w)
		order := 5.0 // after the existing root
		if !group.IsZero() {
			if nm.Get(group).Value != p.Group || tr.Get(group).Position != p.Origin || sid.Get(group) != (SceneID{gen.New(), 5}) {
				t.Fatalf("round %d: group %+v %+v %+v", round, nm.Get(group), tr.Get(group), sid.Get(group))
			}
			order = 1 // cubes in the group: 1, 2, 3, …
		}
		for i, e := range cubes {
			got := tr.Get(e).Position
			want := SceneID{gen.New(), order}
			if nm.Get(e).Value != names[i] || got != pos[i] || col.Get(e).RGBA != rgba[i] || sid.Get(e) != want {
				t.Fatalf("round %d cube %d: %q %v %v %+v; want %q %v %v %+v", round, i,
					nm.Get(e).Value, got, col.Get(e).RGBA, sid.Get(e), names[i], pos[i], rgba[i], want)
			}
			if strings.Contains(fmt.Sprint(got), "-0 ") || strings.Contains(fmt.Sprint(got), "-0]") {
				t.Fatalf("round %d cube %d: position %v has a -0", round, i, got)
			}
			if w.Parent(e) != group || spin.Has(e) != (p.Spin != nil) {
				t.Fatalf("round %d cube %d: parent %v spin %v", round, i, w.Parent(e), spin.Has(e))
			}
			order++
		}
		if next, want := NewID(w), gen.New(); next != want {
			t.Fatalf("round %d: the generator is at %d after the spawn, want %d", round, next, want)
		}
	}
}

func TestGridPlanMisuse(t *testing.T) {
	if _, err := NewGridPlan(GridParams{Count: [3]int{0, 1, 1}}); err == nil {
		t.Error("NewGridPlan accepted a zero count")
	}
	p := DefaultGrid()
	spin := &Spin{Speed: 5}
	p.Spin = spin
	g, err := NewGridPlan(p)
	if err != nil {
		t.Fatal(err)
	}
	spin.Speed = 99 // the plan keeps its own copy
	if g.Params().Spin.Speed != 5 || g.Params().Mesh != MeshCube {
		t.Errorf("params %+v", g.Params())
	}
	mustPanic(t, "Spawn before the plan is complete", func() { g.Spawn(NewWorld()) })
	if g.Plan(-3) || g.Planned() != 0 {
		t.Error("Plan(-3) planned something")
	}
	g.Plan(1 << 30)
	g.Spawn(NewWorld())
	mustPanic(t, "a second Spawn", func() { g.Spawn(NewWorld()) })
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}

// BenchmarkGridPlan100k and BenchmarkGridSpawn100k split SpawnGrid of 100,000 cubes into the part that can run
// on a background goroutine (plan) and the part that must run where the world lives (spawn).
func BenchmarkGridPlan100k(b *testing.B) {
	p := DefaultGrid()
	p.Count = [3]int{100, 10, 100}
	for b.Loop() {
		g, _ := NewGridPlan(p)
		g.Plan(4096)
		for !g.Plan(4096) {
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e5, "ns/cube")
}

func BenchmarkGridSpawn100k(b *testing.B) {
	p := DefaultGrid()
	p.Count = [3]int{100, 10, 100}
	for b.Loop() {
		b.StopTimer()
		g, _ := NewGridPlan(p)
		g.Plan(g.Len())
		w := NewWorld()
		b.StartTimer()
		g.Spawn(w)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e5, "ns/cube")
}
