package serialize

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// namesOf lists the names of es.
func namesOf(w *ecs.World, es []ecs.Entity) string {
	m := ecs.NewMap[scene.Name](w)
	var out []string
	for _, e := range es {
		out = append(out, m.Get(e).Value)
	}
	return strings.Join(out, " ")
}

// TestSiblingOrder: a version 2 file's "order" keys decide the order of
// roots and children (ties by id), whatever the order of ids or of the
// file; saving writes the keys back unchanged; the export lists siblings in
// that order.
func TestSiblingOrder(t *testing.T) {
	src := `{"format": "voltex.scene", "version": 2, "entities": [
  {"id": 90, "name": "c", "parent": 5, "order": 1.5},
  {"id": 5, "name": "P", "order": 2},
  {"id": 7, "name": "a", "parent": 5, "order": 1},
  {"id": 3, "name": "d", "parent": 5, "order": 2},
  {"id": 8, "name": "b", "parent": 5, "order": 1},
  {"id": 9, "name": "R", "order": -1},
  {"id": 1, "name": "Q"}
]}`
	s, err := loadString(t, src)
	if err != nil {
		t.Fatal(err)
	}
	w := s.World
	p := scene.Roots(w)[2]
	if got := namesOf(w, scene.Roots(w)); got != "R Q P" {
		t.Errorf("roots %q, want R Q P", got)
	}
	if got := namesOf(w, w.Children(p)); got != "a b c d" {
		t.Errorf("children in the world %q, want a b c d", got)
	}
	out := saveBytes(t, s)
	for _, want := range []string{`"id": 90,
      "name": "c",
      "parent": 5,
      "order": 1.5,`, `"id": 1,
      "name": "Q",
      "order": 0,`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("saved file lacks %s:\n%s", want, out)
		}
	}
	s2, err := loadString(t, string(out))
	if err != nil {
		t.Fatal(err)
	}
	if again := saveBytes(t, s2); !bytes.Equal(again, out) {
		t.Errorf("save(load(save)) differs:\n%s", firstDiff(out, again))
	}
	var exp bytes.Buffer
	if err := Export(context.Background(), &exp, s); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, line := range strings.Split(exp.String(), "\n") {
		if i := strings.Index(line, `"name": "`); i >= 0 && strings.HasPrefix(strings.TrimSpace(line), `"name"`) && !strings.Contains(line, `"name": "",`) {
			names = append(names, strings.Trim(line[i+9:], `",`))
		}
	}
	if got := strings.Join(names, " "); !strings.HasSuffix(got, "R Q P a b c d") {
		t.Errorf("export order %q, want … R Q P a b c d", got)
	}
}

// TestV1Migration: a version 1 file keeps its ids, and its siblings keep
// the order they had (by id), now written as order keys 1, 2, ….
func TestV1Migration(t *testing.T) {
	src := `{"format": "voltex.scene", "version": 1, "entities": [
  {"id": 30, "name": "z", "parent": 2},
  {"id": 2, "name": "P"},
  {"id": 12, "name": "y", "parent": 2},
  {"id": 1, "name": "Q"}
]}`
	s, err := loadString(t, src)
	if err != nil {
		t.Fatal(err)
	}
	w := s.World
	if got := namesOf(w, scene.Roots(w)); got != "Q P" {
		t.Errorf("roots %q", got)
	}
	p := scene.Roots(w)[1]
	if got := namesOf(w, w.Children(p)); got != "y z" {
		t.Errorf("children %q", got)
	}
	want := []struct {
		id    uint64
		order float64
	}{{1, 1}, {2, 2}, {12, 1}, {30, 2}}
	for i, e := range scene.EnsureIDs(w) {
		if got := ecs.NewMap[scene.SceneID](w).Get(e); got.ID != want[i].id || got.Order != want[i].order {
			t.Errorf("entity %d: %+v, want %+v", i, got, want[i])
		}
	}
}
