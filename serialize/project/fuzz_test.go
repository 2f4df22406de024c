package project_test

import (
	"os"
	"testing"

	"github.com/voltex-editor/voltex/serialize/project"
)

// FuzzParse feeds the project-file parser arbitrary bytes: it must never panic, and whatever it
// accepts must register with a world and generate Go code (or say why not).
func FuzzParse(f *testing.F) {
	for _, name := range []string{"testdata/game.project.json", "../testdata/declared/voltex.project.json"} {
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
		if _, err := project.Generate(p, project.GenOptions{}); err != nil {
			t.Fatalf("Generate: %v", err)
		}
	})
}

func isProjectError(err error) bool {
	_, ok := err.(*project.Error)
	return ok
}
