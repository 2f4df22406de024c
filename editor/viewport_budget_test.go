package editor

import (
	"testing"
	"time"
)

// TestViewportBudgetAfterADiscreteKey: right after a key pressed and released (Ctrl+Z, Delete, Enter in a dialog),
// with nothing held or moving and no text field taking keys, a big picture gets the calm budget at once; while
// typing, something is held or moving, or the view moves, frames stay short.
func TestViewportBudgetAfterADiscreteKey(t *testing.T) {
	v := &inputClock{lastInput: time.Now()}
	if got := v.budget(false); got != idleDrawBudget {
		t.Errorf("right after a discrete key: budget %v, want %v", got, idleDrawBudget)
	}
	v.typing = true
	if got := v.budget(false); got != drawBudget {
		t.Errorf("while typing: budget %v, want %v", got, drawBudget)
	}
	v.lastInput = time.Now().Add(-2 * inputCalm)
	if got := v.budget(false); got != idleDrawBudget {
		t.Errorf("a while after typing: budget %v, want %v", got, idleDrawBudget)
	}
	v.typing, v.inputNow, v.lastInput = false, true, time.Now()
	if got := v.budget(false); got != drawBudget {
		t.Errorf("with input in this frame: budget %v, want %v", got, drawBudget)
	}
	v.inputNow = false
	if got := v.budget(true); got != drawBudget {
		t.Errorf("while the view moves: budget %v, want %v", got, drawBudget)
	}
}
