package scene

import (
	"reflect"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

func TestFreeName(t *testing.T) {
	taken := map[string]bool{"Cube": true, "Cube (1)": true, "Cube (3)": true, "A (b)": true}
	for in, want := range map[string]string{"Cube": "Cube (2)", "Cube (1)": "Cube (2)", "Cube (3)": "Cube (2)", "A (b)": "A (b) (1)", "": " (1)"} {
		if got := FreeName(in, taken); got != want {
			t.Errorf("FreeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSpawnGridNamesNoSiblingHas: a grid spawned where the roots already hold its names gives its cubes (or its
// group, whose cubes are the only children) the next free "name (k)"; the first grid keeps the plain names.
func TestSpawnGridNamesNoSiblingHas(t *testing.T) {
	for _, group := range []string{"", "Grid"} {
		w := NewWorld()
		p := GridParams{Count: [3]int{2, 1, 2}, Spacing: mgl32.Vec3{1, 1, 1}, Group: group}
		var made [][]string
		for range 3 {
			g, cubes := SpawnGrid(w, p)
			var names []string
			if !g.IsZero() {
				names = append(names, ecs.NewMap[Name](w).Get(g).Value)
			}
			names = append(names, ecs.NewMap[Name](w).Get(cubes[0]).Value, ecs.NewMap[Name](w).Get(cubes[len(cubes)-1]).Value)
			made = append(made, names)
		}
		want := [][]string{{"Cube 0,0", "Cube 1,1"}, {"Cube 0,0 (1)", "Cube 1,1 (1)"}, {"Cube 0,0 (2)", "Cube 1,1 (2)"}}
		if group != "" {
			want = [][]string{{"Grid", "Cube 0,0", "Cube 1,1"}, {"Grid (1)", "Cube 0,0", "Cube 1,1"}, {"Grid (2)", "Cube 0,0", "Cube 1,1"}}
		}
		if !reflect.DeepEqual(made, want) {
			t.Fatalf("group %q: names %v, want %v", group, made, want)
		}
	}
}

// Only roots' names are taken: a grid of roots spawned beside a group's cubes of the same names keeps its names.
func TestSpawnGridNamesOnlyRootsCount(t *testing.T) {
	w := NewWorld()
	p := GridParams{Count: [3]int{2, 1, 2}, Spacing: mgl32.Vec3{1, 1, 1}, Group: "Grid"}
	SpawnGrid(w, p)
	p.Group = ""
	_, cubes := SpawnGrid(w, p)
	if n := ecs.NewMap[Name](w).Get(cubes[0]).Value; n != "Cube 0,0" {
		t.Fatalf("root cube named %q beside a group's cube \"Cube 0,0\", want \"Cube 0,0\"", n)
	}
	_, cubes = SpawnGrid(w, p)
	if n := ecs.NewMap[Name](w).Get(cubes[0]).Value; n != "Cube 0,0 (1)" {
		t.Fatalf("root cube named %q beside a root \"Cube 0,0\", want \"Cube 0,0 (1)\"", n)
	}
}

// A plan given the names of an earlier spawn of its grid (UseNames, as a redo does) names its cubes and group as
// that spawn did, whatever roots the world holds: it does not look at them again.
func TestSpawnGridUsesKeptNames(t *testing.T) {
	for _, group := range []string{"", "Grid"} {
		p := GridParams{Count: [3]int{2, 1, 2}, Spacing: mgl32.Vec3{1, 1, 1}, Group: group}
		w := NewWorld()
		SpawnGrid(w, p)
		first, err := NewGridPlan(p)
		if err != nil {
			t.Fatal(err)
		}
		first.Plan(first.Len())
		g, cubes := first.Spawn(w)
		names := func(w *ecs.World, g ecs.Entity, cubes []ecs.Entity) []string {
			var ns []string
			if !g.IsZero() {
				ns = append(ns, ecs.NewMap[Name](w).Get(g).Value)
			}
			for _, c := range cubes {
				ns = append(ns, ecs.NewMap[Name](w).Get(c).Value)
			}
			return ns
		}
		want := names(w, g, cubes)
		if want[0] != "Cube 0,0 (1)" && want[0] != "Grid (1)" {
			t.Fatalf("group %q: the second grid's names %v", group, want)
		}
		again, err := NewGridPlan(p)
		if err != nil {
			t.Fatal(err)
		}
		again.Plan(again.Len())
		again.UseNames(first.Names())
		w2 := NewWorld() // no root has these names: only the kept names rename them
		g2, cubes2 := again.Spawn(w2)
		if got := names(w2, g2, cubes2); !reflect.DeepEqual(got, want) {
			t.Fatalf("group %q: spawned with the kept names %v, want %v", group, got, want)
		}
	}
}
