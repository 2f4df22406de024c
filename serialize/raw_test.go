package serialize

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs/scene"
)

func readRawString(t testing.TB, src string) (*RawScene, error) {
	t.Helper()
	return ReadRaw(context.Background(), strings.NewReader(src), LoadOptions{File: "t.json", NewWorld: testWorld})
}

func writeRawBytes(t testing.TB, s *RawScene) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteRaw(context.Background(), &b, s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRawRoundTrip: WriteRaw(ReadRaw(f)) is f for files the editor wrote, and a version 1 file
// comes out migrated exactly as Load + Save migrate it.
func TestRawRoundTrip(t *testing.T) {
	for _, f := range []string{"testdata/cubes.json", "testdata/solar.json", "testdata/empty.json", "testdata/declared/level.json"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ReadRaw(context.Background(), bytes.NewReader(data), LoadOptions{File: f})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := writeRawBytes(t, s); !bytes.Equal(got, data) {
			t.Errorf("%s: WriteRaw(ReadRaw(f)) differs:\n%s", f, firstDiff(data, got))
		}
	}
	for _, f := range []string{"testdata/solar-v1.json", "testdata/legacy-v0.json"} {
		data, _ := os.ReadFile(f)
		want, err := Format(data, f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ReadRaw(context.Background(), bytes.NewReader(data), LoadOptions{File: f})
		if err != nil {
			t.Fatal(err)
		}
		if got := writeRawBytes(t, s); !bytes.Equal(got, want) {
			t.Errorf("%s: migrated raw differs from Format:\n%s", f, firstDiff(want, got))
		}
	}
}

func TestRawProblems(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"duplicate id", `{"format": "voltex.scene", "version": 2, "entities": [{"id": 1}, {"id": 1}]}`,
			"t.json:1:73: entities[1].id: duplicate id 1 (also at 1:62)"},
		{"missing parent and cycle", `{"format": "voltex.scene", "version": 2, "entities": [
 {"id": 1, "parent": 9},
 {"id": 2, "parent": 3},
 {"id": 3, "parent": 2}]}`,
			"t.json:2:22: entities[0].parent: parent 9 does not exist\nt.json:4:22: entities[2].parent: parent cycle: 2 → 3 → 2 (each is the parent of the one before)"},
		{"dangling reference", `{"format": "voltex.scene", "version": 2, "entities": [{"id": 1, "components": {"Kinds": {"ref": 5}}}]}`,
			"t.json:1:62: entities[0].components.Kinds: entity 5 does not exist"},
		{"reserved and non-object components", `{"format": "voltex.scene", "version": 2, "entities": [{"id": 1, "components": {"SceneID": {}, "X": 3}}]}`,
			"t.json:1:80: entities[0].components.SceneID: SceneID cannot be stored here: the id is the entity's \"id\", not a component\nt.json:1:100: entities[0].components.X: a component must be an object, not the number 3"},
		{"broken JSON", `{"format": "voltex.scene", "version": 2, "entities": [{"id": 1,}]}`,
			"t.json:1:64: unexpected '}', expected a string key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readRawString(t, tc.src)
			if got := problemsText(err); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestRawRefs(t *testing.T) {
	s, err := readRawString(t, `{"format": "voltex.scene", "version": 2, "entities": [
 {"id": 1, "components": {"Kinds": {"ref": 2, "refs": [1, 0, 2]}, "Unknown9": {"ref": 7}}},
 {"id": 2, "name": "b", "parent": 1, "order": 3}]}`)
	if err != nil {
		t.Fatal(err)
	}
	e := s.Entity(1)
	if e == nil || len(e.Components) != 2 || e.Components[0].Name != "Kinds" {
		t.Fatalf("entity %+v", e)
	}
	if got := s.Refs(e.Components[0]); len(got) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 2 { // 0 (none) left out
		t.Errorf("refs %v", got)
	}
	if got := s.Refs(e.Components[1]); got != nil {
		t.Errorf("unknown component refs %v", got)
	}
	if b := s.Entity(2); b == nil || b.Name != "b" || !b.HasName || b.Parent != 1 || b.Order != 3 {
		t.Errorf("entity 2 %+v", b)
	}
}

// TestConflictsJSON: the conflicts component a merge writes is what a save of the same component
// writes, and validation refuses it with its position.
func TestConflictsJSON(t *testing.T) {
	items := []scene.MergeConflict{{Path: "components.Transform.position", Base: "[0, 0, 0]", Ours: "[1, 0, 0]", Theirs: "[2, 0, 0]"},
		{Path: "name", Base: `"a"`, Ours: `"b"`, Theirs: ""}}
	src := `{
  "format": "voltex.scene",
  "version": 2,
  "name": "",
  "editor": {
    "conflicts": [{ "path": "scene.name", "base": "\"x\"", "ours": "\"y\"", "theirs": "\"z\"" }]
  },
  "entities": [
    {
      "id": 1,
      "order": 1,
      "components": {
        "MergeConflicts": ` + ConflictsJSON(items) + `
      }
    }
  ]
}
`
	s, err := loadString(t, src)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(saveBytes(t, s)); got != src {
		t.Errorf("save differs:\n%s\nwant\n%s", got, src)
	}
	if len(s.Conflicts) != 1 || s.Conflicts[0].Theirs != `"z"` {
		t.Errorf("scene conflicts %v", s.Conflicts)
	}
	_, err = Load(context.Background(), strings.NewReader(src), LoadOptions{File: "t.json", RefuseConflicts: true})
	want := "t.json:13:9: entities[0].components.MergeConflicts: unresolved merge conflicts: components.Transform.position, name; open the scene in the editor and choose (Use ours / Use theirs), or edit the file\n" +
		"t.json:6:18: editor.conflicts: unresolved merge conflict: scene.name; open the scene in the editor and choose (Use ours / Use theirs), or edit the file"
	if got := problemsText(err); got != want {
		t.Errorf("refused:\n%s\nwant\n%s", got, want)
	}
}
