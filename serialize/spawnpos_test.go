package serialize_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/game"
)

// A component value the game refuses is reported at its file:line:col, in the one-line layout
// `voltex-editor export` writes and in a hand-edited, pretty-printed one; before, SpawnExport named
// only entities[1].components.Enemy.team (the loader kept components as re-encoded JSON).
func TestSpawnExportProblemPositions(t *testing.T) {
	const src = `{
  "format": "voltex.export",
  "version": 1,
  "entities": [
    { "name": "A", "world": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1] },
    { "name": "B", "world": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1],
      "components": {
        "Enemy": { "target": 99, "team": 7, "speed": 2.5, "route": [{ "at": [1, 2, 3], "wait": "long" }] },
        "Health": {
          "current":   "full",
          "max": 100
        }
      } }
  ]
}`
	s, err := game.LoadWith(strings.NewReader(src), "level.export.json", game.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = serialize.SpawnExport(declaredWorld(t)(), s)
	var se *serialize.Error
	if !errors.As(err, &se) {
		t.Fatalf("%T %v", err, err)
	}
	want := []string{
		`level.export.json:8:42: entities[1].components.Enemy.team: 7 is not a value of this enum`,
		`level.export.json:8:96: entities[1].components.Enemy.route[0].wait: `,
		`level.export.json:10:24: entities[1].components.Health.current: `,
		`level.export.json:8:30: entities[1].components.Enemy.target: entity 99 does not exist (the export has 2)`,
	}
	got := err.Error()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
	if len(se.Problems) != len(want) {
		t.Errorf("%d problems, want %d:\n%s", len(se.Problems), len(want), got)
	}
}
