package fields_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields"
	"github.com/voltex-editor/voltex/inspector/fields/fieldstest"
)

// look runs one tracker frame over e's Everything.
func look(tr *fields.Tracker, w *ecs.World, now float64, e ecs.Entity, id ecs.ComponentID, c *fields.Component) {
	tr.BeginFrame(w, now)
	tr.Observe(e, id, c, reflectZero)
}

func near(a float32, b float64) bool { return math.Abs(float64(a)-b) < 1e-4 }

func TestTrackerHighlightsOutsideChanges(t *testing.T) {
	w, c, id := model(t)
	e := w.Spawn(fieldstest.Sample(0))
	var tr fields.Tracker
	look(&tr, w, 10, e, id, c)
	if h := tr.Heat(id, 0, 89); h != 0 {
		t.Fatalf("first look highlighted: %v", h)
	}
	// a system (or undo) changes speed (node 7) and inner.offset.z (node 46)
	if err := w.SetField(e, id, "speed", 3); err != nil {
		t.Fatal(err)
	}
	if err := w.SetField(e, id, "inner.offset[2]", 5); err != nil {
		t.Fatal(err)
	}
	look(&tr, w, 10.1, e, id, c)
	if h := tr.Heat(id, 7, 8); h != 1 {
		t.Errorf("speed heat %v, want 1", h)
	}
	if h := tr.Heat(id, 40, 47); h != 1 {
		t.Errorf("inner subtree heat %v, want 1", h)
	}
	if h := tr.Heat(id, 1, 7); h != 0 {
		t.Errorf("unchanged fields heat %v", h)
	}
	look(&tr, w, 10.6, e, id, c)
	if h := tr.Heat(id, 7, 8); !near(h, 0.5) {
		t.Errorf("heat after 0.5 s = %v, want 0.5", h)
	}
	look(&tr, w, 11.2, e, id, c)
	if h := tr.Heat(id, 0, 89); h != 0 {
		t.Errorf("heat after 1.1 s = %v, want 0", h)
	}
	tr.Hold = 5
	if h := tr.Heat(id, 7, 8); !near(h, 1-1.1/5) {
		t.Errorf("Hold 5: heat %v", h)
	}
}

func TestTrackerIgnoresOwnEdits(t *testing.T) {
	w, c, id := model(t)
	e := w.Spawn(fieldstest.Sample(0))
	var tr fields.Tracker
	look(&tr, w, 1, e, id, c)
	// the user drags position.x (node 17): the editor applies it, the inspector says it is its own
	tr.Own(id, 17, 18)
	if err := w.SetField(e, id, "position[0]", 4); err != nil {
		t.Fatal(err)
	}
	look(&tr, w, 1.02, e, id, c)
	if h := tr.Heat(id, 16, 20); h != 0 {
		t.Errorf("own edit highlighted: %v", h)
	}
	// an edit applied a frame late is still the user's (grace)
	tr.Own(id, 17, 18)
	look(&tr, w, 1.04, e, id, c)
	if err := w.SetField(e, id, "position[0]", 5); err != nil {
		t.Fatal(err)
	}
	look(&tr, w, 1.06, e, id, c)
	if h := tr.Heat(id, 16, 20); h != 0 {
		t.Errorf("late own edit highlighted: %v", h)
	}
	// ...but another field changed at the same time is not, and neither is the same field later
	for range 5 {
		look(&tr, w, 1.1, e, id, c)
	}
	if err := w.SetField(e, id, "position[0]", 6); err != nil {
		t.Fatal(err)
	}
	if err := w.SetField(e, id, "position[1]", 6); err != nil {
		t.Fatal(err)
	}
	look(&tr, w, 1.2, e, id, c)
	if tr.Heat(id, 17, 18) != 1 || tr.Heat(id, 18, 19) != 1 {
		t.Errorf("outside changes after the grace: heat %v %v", tr.Heat(id, 17, 18), tr.Heat(id, 18, 19))
	}
}

// The change ticks gate the comparison: a component not written since the last look is not read.
// A write that bypasses the ticks (through memory shared with a copy) is therefore not seen, which
// proves the gate is there; a proper write is.
func TestTrackerUsesChangeTicks(t *testing.T) {
	w, c, id := model(t)
	e := w.Spawn(fieldstest.Sample(0))
	var tr fields.Tracker
	look(&tr, w, 1, e, id, c)
	w.Update()
	look(&tr, w, 1.05, e, id, c) // written at the snapshot's tick: compared, and snapshot again
	w.Update()                   // the tick advances past the snapshot
	v, _ := w.Get(e, id)
	v.(fieldstest.Everything).Tags[0] = "sneaky" // shares the world's slice memory, no tick
	look(&tr, w, 1.1, e, id, c)
	if h := tr.Heat(id, 0, 89); h != 0 {
		t.Errorf("a component with an old changed tick was compared: heat %v", h)
	}
	if err := w.SetField(e, id, "title", "x"); err != nil {
		t.Fatal(err)
	}
	look(&tr, w, 1.2, e, id, c)
	if tr.Heat(id, 10, 11) != 1 {
		t.Error("a ticked change was not seen")
	}
	// the earlier sneaky change is seen too now that the component is compared: the snapshot held
	// its own copy of the tags
	if tr.Heat(id, 51, 54) != 1 {
		t.Error("the snapshot shared memory with the world")
	}
}

// Switching worlds (play mode starting or stopping) compares with what was shown before.
func TestTrackerWorldSwitch(t *testing.T) {
	w, c, id := model(t)
	e := w.Spawn(fieldstest.Sample(0))
	var tr fields.Tracker
	look(&tr, w, 1, e, id, c)
	play := w.Clone()
	look(&tr, play, 1.1, e, id, c)
	if h := tr.Heat(id, 0, 89); h != 0 {
		t.Errorf("an identical clone highlighted: %v", h)
	}
	if err := play.SetField(e, id, "angle", 90); err != nil {
		t.Fatal(err)
	}
	look(&tr, play, 1.2, e, id, c)
	if tr.Heat(id, 9, 10) != 1 {
		t.Error("play-mode change not seen")
	}
	look(&tr, w, 3, e, id, c) // stop: back to the edit world, angle jumps back
	if tr.Heat(id, 9, 10) != 1 {
		t.Error("the jump back to the edit world's value was not seen")
	}
}

func TestTrackerForgetsAndSkipsTags(t *testing.T) {
	w, c, id := model(t)
	_, mid := fieldstest.Register(w)
	e := w.Spawn(fieldstest.Sample(0), fieldstest.Marker{})
	var tr fields.Tracker
	mc := fields.New(w.ComponentInfo(mid))
	for i := range 200 {
		tr.BeginFrame(w, float64(i))
		if i < 10 {
			tr.Observe(e, id, c, reflectZero)
		}
		tr.Observe(e, mid, mc, reflectZero)
	}
	// e's Everything was forgotten: seeing it again is a first look, not a change
	if err := w.SetField(e, id, "speed", 9); err != nil {
		t.Fatal(err)
	}
	look(&tr, w, 300, e, id, c)
	if h := tr.Heat(id, 0, 89); h != 0 {
		t.Errorf("a forgotten entity's first look highlighted: %v", h)
	}
	// an entity without the component is skipped
	other := w.Spawn(fieldstest.Marker{})
	tr.Observe(other, id, c, reflectZero)
	if tr.Heat(mid, 0, 1) != 0 {
		t.Error("tag heat")
	}
}

var reflectZero reflect.Value
