// Package arena_test checks the example game as a whole: its Go types are what `voltex-editor gen`
// makes of its project file, and they agree with the declarations.
package arena_test

import (
	"bytes"
	"os"
	"testing"

	"example.com/arena/components"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/project"
)

// components_gen.go is what `voltex-editor gen` writes from voltex.project.json today (run
// go generate ./components after editing the project file).
func TestComponentsAreGenerated(t *testing.T) {
	p, err := project.Load("voltex.project.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := project.Generate(p, project.GenOptions{Package: "components", Source: "voltex.project.json"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("components/components_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("components/components_gen.go is stale: run go generate ./components")
	}
	// The stock editor (project file) and the game (Go types) agree on every field, hint and default.
	w := scene.NewWorld()
	components.Register(w)
	if err := p.Register(w); err != nil {
		t.Fatal(err)
	}
}
