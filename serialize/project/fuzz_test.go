package project_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"testing"

	"github.com/voltex-editor/voltex/serialize/project"
)

// FuzzParse feeds the project-file parser arbitrary bytes: it must never panic, and whatever it
// accepts must register with a world and generate Go code (or say why not).
func FuzzParse(f *testing.F) {
	for _, name := range []string{"testdata/game.project.json", "testdata/clash.project.json", "../testdata/declared/voltex.project.json"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		`{}`, `[]`, `null`, `{"format": "voltex.project", "version": 1}`,
		`{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [{"name": "a", "type": "array", "of": {"type": "list", "of": "vec3"}, "len": 2}]}]}`,
		`{"format": "voltex.project", "version": 1, "structs": [{"name": "N", "fields": [{"name": "k", "type": "list", "of": "N"}]}]}`,
		`{"format": "voltex.project", "version": 1, "enums": [{"name": "T", "values": ["A", {"name": "B", "value": 2147483647}, "C"]}]}`,
		`{"format": "voltex.project", "version": 1, "components": [{"name": "A", "formerNames": ["A"], "fields": [{"name": "x", "type": "struct", "fields": [{"name": "y", "type": "enum", "values": ["Q"]}]}]}]}`,
		`{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [{"name": "s", "type": "string", "description": "it's, \"quoted\"", "default": "x'y"}]}]}`,
		`{"format": "voltex.project", "version": 1, "enums": [{"name": "E", "values": ["A", "id", "ID"]}, {"name": "EA", "values": ["B"]}],
		  "structs": [{"name": "Register_", "fields": [{"name": "default", "type": "int"}]}],
		  "components": [{"name": "Register", "fields": [{"name": "Default", "type": "E"}]}, {"name": "EID"}, {"name": "EAB"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := project.Parse(data, "fuzz.json")
		if err != nil {
			return
		}
		for _, c := range p.Components {
			if c.Type == nil || c.Type.Size() > project.MaxTypeSize {
				t.Fatalf("component %s: type %v", c.Name, c.Type)
			}
		}
		if mk, err := p.NewWorld(nil); err == nil {
			mk()
		} else if !isProjectError(err) {
			t.Fatalf("NewWorld: %v", err)
		}
		src, err := project.Generate(p, project.GenOptions{})
		if err != nil {
			t.Fatalf("Generate: %v", err)
		}
		if err := goNamesClash(src); err != nil {
			t.Fatalf("Generate: %v\n%s", err, src)
		}
	})
}

// goNamesClash reports a name that Go source declares twice at package level, or as both a field
// and a method of one type.
func goNamesClash(src []byte) error {
	f, err := parser.ParseFile(token.NewFileSet(), "gen.go", src, 0)
	if err != nil {
		return err
	}
	top := map[string]bool{}
	members := map[string]map[string]bool{} // type → its fields and methods
	add := func(set map[string]bool, name, what string) error {
		if set[name] {
			return fmt.Errorf("%s %s is declared twice", what, name)
		}
		set[name] = true
		return nil
	}
	member := func(typ string) map[string]bool {
		if members[typ] == nil {
			members[typ] = map[string]bool{}
		}
		return members[typ]
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				err = add(top, d.Name.Name, "func")
			} else {
				typ := d.Recv.List[0].Type.(*ast.Ident).Name
				err = add(member(typ), d.Name.Name, typ+" member")
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					err = add(top, sp.Name.Name, "type")
					if st, ok := sp.Type.(*ast.StructType); ok {
						for _, fl := range st.Fields.List {
							for _, n := range fl.Names {
								if err == nil {
									err = add(member(sp.Name.Name), n.Name, sp.Name.Name+" member")
								}
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						if err == nil {
							err = add(top, n.Name, "const")
						}
					}
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func isProjectError(err error) bool {
	_, ok := err.(*project.Error)
	return ok
}
