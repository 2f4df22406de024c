package doc

import (
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// An expression edit moves every entity from its own value and is one undo step.
func TestEditFieldsIsOneStep(t *testing.T) {
	d := openSmall(t)
	ids := []uint64{1, 2, 3}
	es := make([]ecs.Entity, len(ids))
	before := make([]float32, len(ids))
	for i, id := range ids {
		es[i] = ent(t, d, id)
		before[i] = get[ecs.Transform](t, d, d.world, id).Position[1]
	}
	undos := d.History().Undos()
	must(t, d.EditField(es, "Transform", "position[1]", "+= 10", 1))
	if n := d.History().Undos() - undos; n != 1 {
		t.Fatalf("the edit made %d undo steps, want 1", n)
	}
	for i, id := range ids {
		if y := get[ecs.Transform](t, d, d.world, id).Position[1]; y != before[i]+10 {
			t.Errorf("entity %d: y %v after += 10, want %v", id, y, before[i]+10)
		}
	}
	must(t, d.History().Undo())
	for i, id := range ids {
		if y := get[ecs.Transform](t, d, d.world, id).Position[1]; y != before[i] {
			t.Errorf("entity %d: y %v after undo, want %v", id, y, before[i])
		}
	}
	if err := d.EditField(es, "Transform", "position[1]", "+= nonsense", 1); err == nil {
		t.Error("a misspelt expression is no error")
	}
	if d.History().Undos() != undos {
		t.Error("a misspelt expression made an undo step")
	}
}
