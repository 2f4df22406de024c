package project_test

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/project"
	"github.com/voltex-editor/voltex/serialize/project/internal/gentest"
)

var update = flag.Bool("update", false, "rewrite the generated golden files")

const genFile = "internal/gentest/components_gen.go"

// The generated code for testdata/game.project.json is checked in (and so compiled with the module):
// it must be what Generate writes today.
func TestGenerateGolden(t *testing.T) {
	p := loadGame(t)
	out, err := project.Generate(p, project.GenOptions{Package: "gentest", Source: "testdata/game.project.json"})
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(genFile, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(genFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, want) {
		t.Fatalf("%s is stale: run go test ./serialize/project -run Generate -update", genFile)
	}
}

// The generated Go types are the declarations: a world that registers them accepts the project
// file (the checked equivalence), and their defaults are the declared ones.
func TestGeneratedTypesAgree(t *testing.T) {
	p := loadGame(t)
	w := scene.NewWorld()
	gentest.Register(w)
	if err := p.Register(w); err != nil {
		t.Fatalf("the generated types differ from the declarations: %v", err)
	}
	if d := (gentest.Enemy{}).Default(); d.Team != gentest.TeamEnemy || d.Home.Wait != 4 || d.Slots != [3]int32{1, 2, 3} {
		t.Fatalf("Enemy default %+v", d)
	}
	if gentest.TeamEnemy.String() != "Enemy" || gentest.Team(9).String() != "Team(9)" {
		t.Fatal("enum String")
	}
	// A changed declaration no longer agrees.
	src, _ := os.ReadFile("testdata/game.project.json")
	changed := strings.Replace(string(src), `"default": 2.5`, `"default": 3`, 1)
	p2, err := project.Parse([]byte(changed), "game.project.json")
	if err != nil {
		t.Fatal(err)
	}
	w = scene.NewWorld()
	gentest.Register(w)
	if err := p2.Register(w); err == nil || !strings.Contains(err.Error(), `default of "Speed": 3 in the file, 2.5 in Go`) {
		t.Fatalf("a changed default: %v", err)
	}
}
