package game_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/voltex-editor/voltex/serialize/game"
)

// Load an export (here the solar system example scene, exported by the
// editor) and walk its hierarchy.
func Example() {
	f, err := os.Open("testdata/solar.export.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	s, err := game.Load(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q: %d entities, meshes %v\n", s.Name, len(s.Entities), s.Meshes)
	var walk func(i, depth int)
	walk = func(i, depth int) {
		e := &s.Entities[i]
		pos := [3]float32{e.World[12], e.World[13], e.World[14]} // translation column
		line := fmt.Sprintf("%s%s at (%.2f, %.2f, %.2f)", strings.Repeat("  ", depth), e.Name, pos[0], pos[1], pos[2])
		if m := s.MeshOf(i); m != "" {
			line += " mesh " + m
		}
		if e.Spin != nil {
			line += fmt.Sprintf(" spins %g°/s", e.Spin.Speed)
		}
		if e.Camera != nil {
			line += fmt.Sprintf(" camera fov %g", e.Camera.FOV)
		}
		fmt.Println(line)
		for _, c := range s.Children(i) {
			walk(c, depth+1)
		}
	}
	for i, e := range s.Entities {
		if e.Parent < 0 {
			walk(i, 0)
		}
	}
	// Output:
	// "Solar system": 8 entities, meshes [builtin:sphere]
	// Sun at (0.00, 0.00, 0.00) mesh builtin:sphere spins 10°/s
	//   Earth orbit at (0.00, 0.00, 0.00) spins 30°/s
	//     Earth at (9.00, 0.00, 0.00) mesh builtin:sphere spins 120°/s
	//       Moon orbit at (9.00, 0.00, 0.00) spins 90°/s
	//         Moon at (11.31, 0.00, 0.00) mesh builtin:sphere spins 0°/s
	//   Mars orbit at (0.00, 0.00, 0.00) spins 16°/s
	//     Mars at (13.80, 0.00, 0.00) mesh builtin:sphere spins 110°/s
	// Game camera at (0.00, 12.00, 32.00) camera fov 50
}
