package game

import (
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
2:38: entities[0].color[0]: expected a number within 0..1, got 2
2:60: entities[0].world: expected an array of 16 numbers
2:68: entities[0].bogus: unknown key (an entity has name, parent, mesh, color, world and components)
3:47: entities[1].world[15]: expected a finite 32-bit number, got "x"
3:91: entities[1].components.Transform.scale: expected an array of 3 numbers
3:108: entities[1].components.Spin: a component must be an object
2:25: entities[0].mesh: mesh 3 does not exist (the mesh table has 0)`},
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
		s, err := LoadWith(strings.NewReader(string(data)), "f", Limits{MaxDepth: 16})
		if err != nil {
			if s != nil {
				t.Fatal("a scene and an error")
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
