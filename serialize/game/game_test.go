package game

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var positioned = regexp.MustCompile(`\.json:\d+:\d+: `)

const good = `{
  "format": "voltex.export",
  "version": 1,
  "name": "T",
  "meshes": ["builtin:cube", "ship.obj"],
  "entities": [
    { "name": "root", "parent": -1, "mesh": 1, "color": [1, 0, 0, 1], "world": [1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1],
      "components": { "Transform": { "position": [5, 6, 7], "rotation": [0, 0, 0], "scale": [1, 1, 1] },
        "Health": { "hp": 10, "target": 1 } } },
    { "name": "kid", "parent": 0, "mesh": -1, "world": [1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1] }
  ]
}`

func TestLoad(t *testing.T) {
	s, err := Load(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "T" || len(s.Entities) != 2 || s.MeshOf(0) != "ship.obj" || s.MeshOf(1) != "" {
		t.Fatalf("%+v", s)
	}
	root, kid := s.Entities[0], s.Entities[1]
	if !root.HasColor || root.Color != [4]float32{1, 0, 0, 1} || kid.HasColor || kid.Color != [4]float32{1, 1, 1, 1} {
		t.Errorf("colours %v %v", root.Color, kid.Color)
	}
	if root.World[12] != 5 || root.Transform == nil || root.Transform.Position != [3]float32{5, 6, 7} || kid.Transform != nil {
		t.Errorf("transforms %+v %+v", root, kid)
	}
	var h struct {
		HP     int `json:"hp"`
		Target int `json:"target"`
	}
	if err := root.Decode("Health", &h); err != nil || h.HP != 10 || h.Target != 1 {
		t.Errorf("Decode: %v %+v", err, h)
	}
	if err := kid.Decode("Health", &h); err == nil {
		t.Error("Decode of a missing component")
	}
	if c := s.Children(0); len(c) != 1 || c[0] != 1 {
		t.Errorf("children %v", c)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`[]`, "1:1: an export must be a JSON object, not a array"},
		{`{"format": "voltex.export", "version": 2, "entities": []}`, "1:40: version: export version 2 is newer than this loader supports (1)"},
		{`{"format": "voltex.scene", "version": 1}`, `1:12: format: expected "voltex.export", got "voltex.scene"`},
		{`{"entities": []}`, "1:1: missing \"format\" (this does not look like a voltex.export file)\n1:1: missing \"version\" (this does not look like a voltex.export file)"},
		{`{"format": "voltex.export", "version": 1, "meshes": [], "entities": [
  {"parent": 0, "mesh": 3, "color": [2, 0, 0, 1], "world": [1, 2], "bogus": 1},
  {"world": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,"x"], "components": {"Transform": {"scale": [1, 1]}, "Spin": 3}}
]}`, `2:14: entities[0].parent: parent 0 is not an earlier entity (entities must list parents first)
2:25: entities[0].mesh: mesh 3 does not exist (the mesh table has 0)
2:38: entities[0].color[0]: expected a number within 0..1, got 2
2:60: entities[0].world: expected an array of 16 numbers
2:68: entities[0].bogus: unknown key (an entity has name, parent, mesh, color, world and components)
3:47: entities[1].world[15]: expected a finite 32-bit number, got "x"
3:91: entities[1].components.Transform.scale: expected an array of 3 numbers
3:108: entities[1].components.Spin: a component must be an object`},
		{`{"format": "voltex.export", "version": 1, "entities": [{"world": [1e39, 0]}`, "1:66: entities[0].world: expected an array of 16 numbers\n1:76: unexpected end of input, expected ',' or ']'"},
	} {
		_, err := Load(strings.NewReader(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

// Every JSONTestSuite file is refused (none is an export) with an error,
// without a panic or a hang.
func TestJSONTestSuite(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/testdata/jsontestsuite/*.json")
	if len(files) == 0 {
		t.Skip("../shared/testdata/jsontestsuite is absent (clone outside the project setup)")
	}
	for _, f := range files {
		s, err := LoadFile(f)
		if err == nil || s != nil {
			t.Errorf("%s: loaded", f)
		}
		if strings.HasPrefix(filepath.Base(f), "n_") && !positioned.MatchString(err.Error()) {
			t.Errorf("%s: no position in %v", f, err)
		}
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte(good))
	if data, err := os.ReadFile("testdata/solar.export.json"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"format": "voltex.export", "version": 1, "entities": [{"parent": -1, "world": []}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := LoadWith(strings.NewReader(string(data)), "f", Limits{MaxDepth: 16, MaxEntities: 50})
		if err != nil {
			if s != nil {
				t.Fatal("a scene and an error")
			}
			var e *Error
			if !errors.As(err, &e) || len(e.Problems) == 0 {
				t.Fatalf("the error is a %T, not a *game.Error with problems: %v", err, err)
			}
			for _, p := range e.Problems {
				if p.File != "f" || p.Msg == "" {
					t.Fatalf("problem without its file or message: %+v", p)
				}
			}
			return
		}
		for i, e := range s.Entities {
			if e.Parent >= i || e.Parent < -1 || e.Mesh >= len(s.Meshes) || e.Mesh < -1 {
				t.Fatalf("entity %d: parent %d mesh %d of %d", i, e.Parent, e.Mesh, len(s.Meshes))
			}
		}
	})
}

// The problem list is kept whatever stops the load, and says how many more there were; before,
// 100 problems or the entity limit gave a bare "too many problems" without positions.
func TestProblemListKept(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"format": "voltex.export", "version": 1, "entities": [`)
	for i := range 10_000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"name": 1, "world": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}`)
	}
	b.WriteString("]}")
	_, err := LoadWith(strings.NewReader(b.String()), "e.json", Limits{})
	var e *Error
	if !errors.As(err, &e) || len(e.Problems) != 100 || e.Dropped != 9_900 || e.Problems[0].String() != "e.json:1:65: entities[0].name: expected a string" {
		t.Fatalf("%T %v", err, err)
	}
	if !strings.HasSuffix(err.Error(), "\n… and 9,900 more problems") {
		t.Fatalf("no count of the rest")
	}
	_, err = LoadWith(strings.NewReader(b.String()), "e.json", Limits{MaxEntities: 3})
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "e.json:4:1: entities: more than the limit of 3 entities") {
		t.Fatalf("entity limit: %T %v", err, err)
	}
	_, err = LoadWith(io.MultiReader(strings.NewReader(`{"format": `), iotestErr{}), "e.json", Limits{})
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("read error: %T %v", err, err)
	}
}

type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, fmt.Errorf("disk on fire") }

// Duplicate keys inside components are errors, as in scene files (encoding/json would take the
// last one silently).
func TestDuplicateKeysInComponents(t *testing.T) {
	src := `{"format": "voltex.export", "version": 1, "entities": [{"world": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1], "components": {
  "Health": {"hp": 1, "hp": 2},
  "Bag": {"items": [{"n": 1, "n": 1}]},
  "Transform": {"position": [1, 2, 3], "position": [4, 5, 6]},
  "Health": {"hp": 3}
}}]}`
	_, err := LoadWith(strings.NewReader(src), "e.json", Limits{})
	want := `e.json:2:23: entities[0].components.Health.hp: duplicate key (first at 2:14)
e.json:3:30: entities[0].components.Bag.items[0].n: duplicate key (first at 3:22)
e.json:4:40: entities[0].components.Transform.position: duplicate key (first at 4:17)
e.json:5:3: entities[0].components.Health: duplicate key (first at 2:3)`
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
}
