package serialize

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs/scene"
)

// The roots a load hands on are scene.Roots of the world it built: in sibling order (order keys, then
// ids; keys repeated, negative, fractional; ids in any order in the file), children left out, and the
// order keys a version 1 file gets from its ids.
func TestLoadRootsAreSceneRoots(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	for round := range 40 {
		n := 1 + rng.IntN(300)
		ids := rng.Perm(n * 3)[:n]
		var sb strings.Builder
		sb.WriteString(`{"format": "voltex.scene", "version": 2, "entities": [`)
		for k, id := range ids {
			if k > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"id": %d`, id+1)
			if k > 0 && rng.IntN(3) == 0 { // a parent listed before it: no cycles
				fmt.Fprintf(&sb, `, "parent": %d`, ids[rng.IntN(k)]+1)
			}
			switch rng.IntN(4) {
			case 0: // no key: 0
			case 1:
				fmt.Fprintf(&sb, `, "order": %d`, rng.IntN(5)-2) // repeated keys: the ids decide
			default:
				fmt.Fprintf(&sb, `, "order": %g`, rng.Float64()*100-50)
			}
			sb.WriteByte('}')
		}
		sb.WriteString("]}")
		s, err := Load(context.Background(), strings.NewReader(sb.String()), LoadOptions{File: "roots.json"})
		if err != nil {
			t.Fatal(err)
		}
		if want := scene.Roots(s.World); !slices.Equal(s.Roots, want) {
			t.Fatalf("round %d: the load's roots %v, scene.Roots %v", round, s.Roots, want)
		}
	}
	for _, name := range []string{"solar-v1.json", "solar.json", "legacy-v0.json", "cubes.json"} {
		s, err := LoadFile(context.Background(), filepath.Join("testdata", name), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if want := scene.Roots(s.World); len(want) == 0 || !slices.Equal(s.Roots, want) {
			t.Fatalf("%s: the load's roots %v, scene.Roots %v", name, s.Roots, want)
		}
	}
}

// A scene with prefab instances has its roots found in its world, not handed on by the load.
func TestLoadRootsUnknownWithInstances(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("p.json", `{"format": "voltex.scene", "version": 2, "entities": [{"id": 1, "name": "part"}]}`)
	write("s.json", `{"format": "voltex.scene", "version": 2, "entities": [{"id": 5, "prefab": "p.json"}, {"id": 6}]}`)
	s, err := LoadFile(context.Background(), filepath.Join(dir, "s.json"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Roots != nil {
		t.Fatalf("roots %v handed on for a scene with an instance", s.Roots)
	}
	if got := scene.Roots(s.World); len(got) != 2 {
		t.Fatalf("%d roots, want the instance and the other entity", len(got))
	}
}
