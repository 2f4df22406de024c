package doc

import (
	"context"
	"strings"
	"testing"

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
	e, undos := d.Len(), d.Undos()
	if _, _, err := d.SpawnCopies(context.Background(), smallGrid(""), CopySource{Entity: ent(t, d, 1)}); err == nil ||
		!strings.Contains(err.Error(), "more than a scene file may hold") {
		t.Errorf("copies past the limit: err = %v", err)
	}
	if d.Len() != e || d.Undos() != undos {
		t.Errorf("a refused grid changed the scene: %d entities, %d steps, want %d, %d", d.Len(), d.Undos(), e, undos)
	}
}
