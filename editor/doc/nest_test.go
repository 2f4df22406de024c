package doc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/prefabnest"
)

// The editor refuses a prefab nest over the entity limit without expanding it (it froze for
// minutes): opening a scene of one, placing one (Instantiate, a grid of copies), and a prefab that
// changes on disk into one, which leaves its instances placeholders that say why, the rest of the
// scene as it was.
func TestPrefabNestInTheEditor(t *testing.T) {
	dir := t.TempDir()
	must(t, prefabnest.Write(dir))
	nest := prefabnest.File("b.json")
	a := filepath.Join(dir, "a.json")
	must(t, os.WriteFile(a, []byte(prefabnest.File("")), 0o644))
	over := " entities, over the limit of 4,000,000 (Limits.MaxEntities): "
	aRefusal := "a.json:3:38: entities[0].prefab: prefab nest flattens to 11,111,110" + over + prefabnest.Chain
	check := func(what string, allocs uint64, err, want string) {
		t.Helper()
		if !strings.Contains(err, want) {
			t.Errorf("%s: %s\nwant %s", what, err, want)
		}
		if allocs > 20000 {
			t.Errorf("%s: %d allocations", what, allocs)
		}
	}

	// Placing a nest into a scene: one instance of nest.json (11,111,111 entities with the instance),
	// or a grid of four instances of b.json (1,111,111 each).
	must(t, os.WriteFile(filepath.Join(dir, "nest.json"), []byte(nest), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "empty.json"), []byte(`{ "format": "voltex.scene", "version": 2, "entities": [] }`), 0o644))
	e, err := Open(context.Background(), filepath.Join(dir, "empty.json"), testOpts, nil)
	must(t, err)
	var placeErr error
	allocs := prefabnest.Mallocs(func() {
		_, placeErr = e.Prefabs().Instantiate(context.Background(), filepath.Join(dir, "nest.json"), ecs.Entity{}, mgl32.Vec3{})
	})
	check("instantiate", allocs, placeErr.Error(), "instantiate nest.json: prefab nest flattens to 11,111,111"+over+"nest.json ×10 b.json ×10 c.json")
	p := scene.GridParams{Count: [3]int{2, 1, 2}, Spacing: mgl32.Vec3{1, 1, 1}}
	allocs = prefabnest.Mallocs(func() {
		_, _, placeErr = e.SpawnCopies(context.Background(), p, CopySource{Prefab: filepath.Join(dir, "b.json")})
	})
	check("grid of copies", allocs, placeErr.Error(), "instantiate b.json: prefab nest flattens to 4,444,444"+over+"empty.json ×4 b.json ×10 c.json")
	if e.Len() != 0 || e.History().CanUndo() {
		t.Errorf("%d entities after placing the nest", e.Len())
	}

	// level.json instances a.json, a prefab of ten entities: it opens; then a.json becomes the nest.
	d, err := Open(context.Background(), filepath.Join(dir, "level.json"), testOpts, nil)
	must(t, err)
	c, err := d.SpawnCube(ecs.Entity{})
	must(t, err)
	n := d.Len()
	must(t, os.WriteFile(a, []byte(nest), 0o644))
	var warnings []string
	allocs = prefabnest.Mallocs(func() { warnings = d.Prefabs().Changed(context.Background(), a).Warnings })
	check("live update", allocs, strings.Join(warnings, "\n"), aRefusal)
	if d.Len() >= n || !d.world.Alive(c) {
		t.Errorf("%d entities after the update (%d before), the cube alive: %v", d.Len(), n, d.world.Alive(c))
	}
	problems := 0
	ecs.NewQuery1[scene.Prefab](d.world).Each(func(_ ecs.Entity, pf *scene.Prefab) {
		if strings.Contains(pf.Problem, aRefusal) {
			problems++
		}
	})
	if problems != 10 {
		t.Errorf("%d placeholders say why, want 10", problems)
	}

	// Placing the changed prefab.
	allocs = prefabnest.Mallocs(func() { _, err = d.Prefabs().Instantiate(context.Background(), a, ecs.Entity{}, mgl32.Vec3{}) })
	check("instantiate after the change", allocs, err.Error(), aRefusal)

	// Opening a scene of the nest.
	var opened error
	allocs = prefabnest.Mallocs(func() { _, opened = Open(context.Background(), filepath.Join(dir, "level.json"), testOpts, nil) })
	check("open", allocs, opened.Error(), "level.json:3:38: entities[0].prefab: prefab nest flattens to 111,111,110"+over+
		"level.json ×10 "+prefabnest.Chain)
}
