package serialize

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// readSummary reads src and describes what the reader handed on: one line
// per entity (id, name, parent, components inline), then the problems.
func readSummary(t *testing.T, src string, lim Limits) string {
	t.Helper()
	var out []string
	h, probs, err := readDoc(context.Background(), NewInput(strings.NewReader(src), ""), "f.json", lim, nil,
		func(e *entityDoc) {
			s := fmt.Sprintf("#%d id=%d", e.index, e.id)
			if e.name != nil {
				s += " name=" + e.name.Str()
			}
			if e.parent != 0 {
				s += fmt.Sprintf(" parent=%d@%v", e.parent, e.parentPos)
			}
			if e.order != 0 {
				s += fmt.Sprintf(" order=%v", e.order)
			}
			if e.components != nil {
				s += " " + string(jsonpos.AppendInline(nil, e.components))
			}
			out = append(out, s)
		})
	if err != nil {
		t.Fatal(err)
	}
	if h != nil {
		out = append(out, fmt.Sprintf("header v%d name=%q editor=%v", h.version, h.name, h.editor != nil))
	}
	for _, p := range probs.Problems {
		out = append(out, p.String())
	}
	return strings.Join(out, "\n")
}

func TestReadStructure(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"minimal", `{"format": "voltex.scene", "version": 1, "entities": [{"id": 1}]}`,
			"#0 id=1\nheader v1 name=\"\" editor=false"},
		{"full", `{"format": "voltex.scene", "version": 1, "name": "N", "editor": {"camera": {}},
 "entities": [{"id": 2, "name": "a", "parent": 1, "components": {"X": {"v": 1}}}]}`,
			"#0 id=2 name=a parent=1@2:48 { \"X\": { \"v\": 1 } }\nheader v1 name=\"N\" editor=true"},
		{"not an object", `[1, 2]`, "f.json:1:1: a scene file must be a JSON object, not a array"},
		{"broken JSON wins over kind", `[1, 2`, "f.json:1:6: unexpected end of input, expected ',' or ']'"},
		{"newer", `{"format": "voltex.scene", "version": 3, "entities": [{"id": 1}]}`,
			"f.json:1:39: version: scene version 3 is newer than this editor supports (2)"},
		{"newer after entities", `{"entities": [{"id": 1}], "format": "voltex.scene", "version": 3}`,
			"f.json:1:64: version: scene version 3 is newer than this editor supports (2)"},
		{"export", `{"format": "voltex.export", "version": 1}`,
			"f.json:1:12: format: this is a game export (voltex.export), not a scene; exports cannot be opened, load the scene they came from"},
		{"export with its entities", `{"format": "voltex.export", "version": 1, "meshes": ["builtin:cube"],
 "entities": [{"name": "a", "parent": -1, "mesh": 0, "world": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}]}`,
			"f.json:1:12: format: this is a game export (voltex.export), not a scene; exports cannot be opened, load the scene they came from"},
		{"entity problems", `{"format": "voltex.scene", "version": 1, "entities": [
  {"id": 1.5, "name": 3, "parent": -1, "components": [], "colour": 1},
  {"name": "x", "id": 2, "id": 3},
  7
]}`, `#0 id=0
#1 id=2 name=x
#2 id=0
header v1 name="" editor=false
f.json:2:10: entities[0].id: must be a positive integer id, not the number 1.5
f.json:2:23: entities[0].name: must be a string, not the number 3
f.json:2:36: entities[0].parent: must be a positive integer id, not the number -1
f.json:2:54: entities[0].components: must be an object mapping component names to values, not an array
f.json:2:58: entities[0].colour: unknown key (an entity has id, name, parent, order, prefab and components; an entity of a prefab instance has id, instance, source, name, removed and components)
f.json:3:26: entities[1].id: duplicate key (first at 3:17)
f.json:4:3: entities[2]: an entity must be an object, not the number 7`},
		{"missing id", `{"format": "voltex.scene", "version": 1, "entities": [{}]}`,
			"#0 id=0\nheader v1 name=\"\" editor=false\nf.json:1:55: entities[0]: missing \"id\" (every entity needs a unique positive integer id)"},
		{"header problems", `{"format": 1, "version": "1", "name": [], "editor": 2, "extra": 0, "name": "x"}`,
			`header v2 name="" editor=false
f.json:1:56: unknown key "extra" (a scene has format, version, name, editor and entities)
f.json:1:68: duplicate key "name" (first at 1:31)
f.json:1:12: format: must be the string "voltex.scene", not a number
f.json:1:26: version: must be an integer version number, not the string "1"
f.json:1:39: name: must be a string, not an array
f.json:1:53: editor: must be an object, not the number 2`},
		{"version 1 without format", `{"version": 1}`, "header v2 name=\"\" editor=false\nf.json:1:1: missing \"format\": \"voltex.scene\" (required since version 1)"},
		{"format without version", `{"format": "voltex.scene"}`, "header v2 name=\"\" editor=false\nf.json:1:1: missing \"version\""},
		{"v0 migration", `{"name": "old", "entities": [
  {"id": 1, "color": [1, 0, 0, 1], "components": {"Transform": {"rotation": [0, 3.1415927, -1.5707964]}}},
  {"id": 2, "color": [0, 1, 0, 1]},
  {"id": 3, "color": [0, 0, 1, 1], "components": {"Color": {"rgba": [1, 1, 1, 1]}}}]}`,
			`#0 id=1 { "Transform": { "rotation": [0, 180, -90] }, "Color": { "rgba": [1, 0, 0, 1] } }
#1 id=2 { "Color": { "rgba": [0, 1, 0, 1] } }
#2 id=3 { "Color": { "rgba": [1, 1, 1, 1] } }
header v0 name="old" editor=false
f.json:4:22: entities[2].color: version 0 entity has both "color" and components.Color; keep one`},
		{"order", `{"format": "voltex.scene", "version": 2, "entities": [{"id": 1, "order": 2.5}, {"id": 2, "order": "a"}, {"id": 3, "order": -1e3}]}`,
			"#0 id=1 order=2.5\n#1 id=2\n#2 id=3 order=-1000\nheader v2 name=\"\" editor=false\nf.json:1:99: entities[1].order: must be a number (the entity's place among its siblings), not the string \"a\""},
		{"order in a v1 file", `{"format": "voltex.scene", "version": 1, "entities": [{"id": 1, "order": 2}]}`,
			"#0 id=1 order=2\nheader v1 name=\"\" editor=false\nf.json:1:74: entities[0].order: \"order\" is new in version 2; this file says version 1"},
		{"too many entities", `{"format": "voltex.scene", "version": 1, "entities": [{"id": 1}, {"id": 2}, {"id": 3}]}`,
			"#0 id=1\n#1 id=2\nf.json:1:77: entities: more than the limit of 2 entities"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := Limits{}
			if tc.name == "too many entities" {
				lim.MaxEntities = 2
			}
			if got := readSummary(t, tc.src, lim); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestReadDeferredEntitiesAreReadOnce(t *testing.T) {
	// Entities before the version: the first pass skips them, the second
	// reads them; every entity is handed on exactly once.
	src := `{"entities": [{"id": 1}, {"id": 2}], "version": 1, "format": "voltex.scene"}`
	if got := readSummary(t, src, Limits{}); got != "#0 id=1\n#1 id=2\nheader v1 name=\"\" editor=false" {
		t.Errorf("got\n%s", got)
	}
}

func TestReadFileSizeLimit(t *testing.T) {
	src := `{"format": "voltex.scene", "version": 1, "entities": []}`
	_, probs, _ := readDoc(context.Background(), NewInput(strings.NewReader(src), ""), "f.json", Limits{MaxFileSize: 10}, nil, func(*entityDoc) {})
	if got := probs.Err(); got == nil || got.Error() != "f.json: file is 56 bytes, larger than the limit of 10 bytes" {
		t.Errorf("got %v", got)
	}
	// A reader that lies about (or does not know) its size is stopped while reading.
	_, probs, _ = readDoc(context.Background(), NewInput(struct{ io.Reader }{bytes.NewReader([]byte(src))}, ""), "f.json", Limits{MaxFileSize: 10}, nil, func(*entityDoc) {})
	if got := probs.Err(); got == nil || !strings.Contains(got.Error(), "larger than the limit of 10 bytes") {
		t.Errorf("got %v", got)
	}
}

func TestMigrationChain(t *testing.T) {
	for i, m := range migrations {
		if m.from != i || m.what == "" {
			t.Errorf("migrations[%d] is from version %d; the chain must be contiguous from 0", i, m.from)
		}
	}
	if len(migrations) != CurrentVersion {
		t.Errorf("%d migrations for current version %d", len(migrations), CurrentVersion)
	}
}
