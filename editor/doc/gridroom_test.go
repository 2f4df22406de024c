package doc

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// A grid that would make the scene hold more entities than a scene file may (serialize's
// Limits.MaxEntities, lowered here) is refused before anything changes, so that what the editor
// saves always opens again; a grid that just fits is made.
func TestGridKeepsSceneLoadable(t *testing.T) {
	if maxSceneEntities != serialize.DefaultMaxEntities {
		t.Fatalf("maxSceneEntities = %d, want serialize.DefaultMaxEntities (%d)", maxSceneEntities, serialize.DefaultMaxEntities)
	}
	defer func(m int) { maxSceneEntities = m }(maxSceneEntities)
	d := openSmall(t)
	have := d.Len()
	maxSceneEntities = have + 24
	p := smallGrid("") // 24 cubes
	if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
		t.Fatalf("a grid that fits: %v", err)
	}
	for _, p := range []scene.GridParams{smallGrid(""), smallGrid("g")} {
		p.Count = [3]int{1, 1, 1}
		if _, _, err := d.SpawnGrid(context.Background(), p, nil); err == nil ||
			!strings.Contains(err.Error(), "more than a scene file may hold") {
			t.Errorf("a grid past the limit: err = %v", err)
		}
	}
	e, undos := d.Len(), d.History().Undos()
	if _, _, err := d.SpawnCopies(context.Background(), smallGrid(""), CopySource{Entity: ent(t, d, 1)}); err == nil ||
		!strings.Contains(err.Error(), "more than a scene file may hold") {
		t.Errorf("copies past the limit: err = %v", err)
	}
	if d.Len() != e || d.History().Undos() != undos {
		t.Errorf("a refused grid changed the scene: %d entities, %d steps, want %d, %d", d.Len(), d.History().Undos(), e, undos)
	}
}

// Instantiate keeps the scene loadable too: an instance that would make the scene hold more
// entities than a scene file may is refused, changing nothing (a scene of a few instance lines
// saved past the limit would not open again: its instances are counted when it loads).
func TestInstantiateKeepsSceneLoadable(t *testing.T) {
	defer func(m int) { maxSceneEntities = m }(maxSceneEntities)
	d, dir := openPrefabScene(t)
	prefab := filepath.Join(dir, "enemy.json")
	n0 := d.Len()
	if _, err := d.Prefabs().Instantiate(context.Background(), prefab, ecs.Entity{}, mgl32.Vec3{}); err != nil {
		t.Fatal(err)
	}
	maxSceneEntities = 2*d.Len() - n0 // room for one more instance
	if _, err := d.Prefabs().Instantiate(context.Background(), prefab, ecs.Entity{}, mgl32.Vec3{}); err != nil {
		t.Fatalf("an instance that fits: %v", err)
	}
	e, undos := d.Len(), d.History().Undos()
	if _, err := d.Prefabs().Instantiate(context.Background(), prefab, ecs.Entity{}, mgl32.Vec3{}); err == nil ||
		!strings.Contains(err.Error(), "more than a scene file may hold") {
		t.Errorf("an instance past the limit: err = %v", err)
	}
	if d.Len() != e || d.History().Undos() != undos {
		t.Errorf("a refused instance changed the scene: %d entities, %d steps, want %d, %d", d.Len(), d.History().Undos(), e, undos)
	}
}

// Paste and Duplicate keep the scene loadable the same way.
func TestPasteAndDuplicateKeepSceneLoadable(t *testing.T) {
	defer func(m int) { maxSceneEntities = m }(maxSceneEntities)
	d := openSmall(t)
	e1 := ent(t, d, 1)
	text, err := d.Copy(e1)
	must(t, err)
	maxSceneEntities = d.Len()
	e, undos := d.Len(), d.History().Undos()
	if _, err := d.Paste(context.Background(), text, ecs.Entity{}); err == nil || !strings.Contains(err.Error(), "more than a scene file may hold") {
		t.Errorf("a paste past the limit: err = %v", err)
	}
	if _, err := d.Duplicate(e1); err == nil || !strings.Contains(err.Error(), "more than a scene file may hold") {
		t.Errorf("a duplicate past the limit: err = %v", err)
	}
	if d.Len() != e || d.History().Undos() != undos {
		t.Errorf("refused copies changed the scene: %d entities, %d steps, want %d, %d", d.Len(), d.History().Undos(), e, undos)
	}
	maxSceneEntities = serialize.DefaultMaxEntities
	if _, err := d.Paste(context.Background(), text, ecs.Entity{}); err != nil {
		t.Errorf("a paste that fits: %v", err)
	}
	if _, err := d.Duplicate(e1); err != nil {
		t.Errorf("a duplicate that fits: %v", err)
	}
}
