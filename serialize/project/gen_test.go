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
	"github.com/voltex-editor/voltex/serialize/project/internal/gentest/clash"
)

var update = flag.Bool("update", false, "rewrite the generated golden files")

// The generated code for the test project files is checked in (and so compiled with the module):
// it must be what Generate writes today. clash.project.json declares names that would clash in Go
// (a component named Register, fields named default, an enum E with a value A beside an enum EA,
// an enum's values id and ID); that its code compiles is part of the test.
func TestGenerateGolden(t *testing.T) {
	for _, c := range []struct{ project, pkg, out string }{
		{"testdata/game.project.json", "gentest", "internal/gentest/components_gen.go"},
		{"testdata/clash.project.json", "clash", "internal/gentest/clash/components_gen.go"},
	} {
		p, err := project.Load(c.project)
		if err != nil {
			t.Fatal(err)
		}
		out, err := project.Generate(p, project.GenOptions{Package: c.pkg, Source: c.project})
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(c.out, out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(c.out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, want) {
			t.Errorf("%s is stale: run go test ./serialize/project -run Generate -update", c.out)
		}
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

// Names that would clash in Go get another Go name (a trailing _), and a renamed component keeps
// its name in scenes: the generated types agree with the declarations.
func TestGeneratedClashTypesAgree(t *testing.T) {
	p, err := project.Load("testdata/clash.project.json")
	if err != nil {
		t.Fatal(err)
	}
	w := scene.NewWorld()
	clash.Register(w)
	if err := p.Register(w); err != nil {
		t.Fatalf("the generated types differ from the declarations: %v", err)
	}
	if _, ok := w.ComponentByName("Register"); !ok {
		t.Fatal("the component Register is registered under another name")
	}
	// Register_ is a declared struct, so the component takes the next name.
	d := (clash.Register__{}).Default()
	if d.Default_ != 2 || d.E != clash.EID_ || d.Ea != clash.EAY || d.Inner.Default_ != 3 || d.Kind != clash.RegisterKindCard {
		t.Fatalf("Register default %+v", d)
	}
	if clash.EA_ != 0 || clash.EAX != 0 || clash.EB_ != 1 || clash.EID != 2 || clash.EID_ != 3 || (clash.EB{}).Default().E != clash.EB_ {
		t.Fatal("enum constants")
	}
	if !(clash.Default{}).Default().Default_ {
		t.Fatal("Default's default")
	}
}
