package doc

import (
	"context"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

func TestPlayRunsOnACloneAndStopRestores(t *testing.T) {
	d := openSmall(t)
	d.Selection().Select(ent(t, d, 3))
	start := saved(t, d)
	if d.World() != d.EditWorld() || d.PlayMode().Playing() || d.PlayMode().Tick(0.1) {
		t.Fatal("not playing yet")
	}
	d.PlayMode().Start()
	d.PlayMode().Start() // no-op
	pw := d.World()
	if pw == d.EditWorld() || !d.PlayMode().Playing() || d.PlayMode().Paused() {
		t.Fatal("play world")
	}
	// B spins at 90°/s.
	for range 5 {
		if !d.PlayMode().Tick(0.1) {
			t.Fatal("tick did not run")
		}
	}
	if r := get[ecs.Transform](t, d, pw, 3).Rotation; !near(r[1], 45) {
		t.Fatalf("after 0.5 s: %v", r)
	}
	if r := get[ecs.Transform](t, d, d.EditWorld(), 3).Rotation; r != (mgl32.Vec3{}) {
		t.Fatalf("the edit world moved: %v", r)
	}
	// The selection works on the play world (same handles) and can change.
	if sel := d.Selection().Entities(); len(sel) != 1 || !pw.Alive(sel[0]) {
		t.Fatal("selection in play")
	}
	// Field edits and creations change the play world only; other edits are refused.
	must(t, d.SetField([]ecs.Entity{ent(t, d, 3)}, cid[ecs.Transform](t, d), "scale[0]", 2))
	if get[ecs.Transform](t, d, pw, 3).Scale[0] != 2 || get[ecs.Transform](t, d, d.EditWorld(), 3).Scale[0] == 2 {
		t.Fatal("a field edit while playing")
	}
	c, err := d.SpawnCube(ecs.Entity{})
	must(t, err)
	if !pw.Alive(c) || d.EditWorld().Alive(c) {
		t.Fatal("a cube created while playing is not in the play world only")
	}
	if sel := d.Selection().Entities(); len(sel) != 1 || sel[0] != c {
		t.Fatalf("selection after a creation while playing: %v, want the cube %v", sel, c)
	}
	d.Selection().Select(ent(t, d, 3))
	must(t, d.Reparent(ecs.Entity{}, ent(t, d, 3)))
	if !pw.Parent(ent(t, d, 3)).IsZero() || d.EditWorld().Parent(ent(t, d, 3)).IsZero() {
		t.Fatal("a reparent while playing does not change the play world only")
	}
	mustErr(t, d.SetSceneName("x"), ErrPlaying)
	mustErr(t, d.History().Undo(), ErrPlaying)
	d.BeginEdit("x")
	if d.Editing() || d.History().CanUndo() {
		t.Fatal("transactions while playing")
	}
	// Pause, Step.
	d.PlayMode().SetPaused(true)
	if d.PlayMode().Tick(0.1) || !d.PlayMode().Paused() {
		t.Fatal("paused tick ran")
	}
	d.PlayMode().Step()
	if ticks, secs := d.PlayMode().Time(); ticks != 6 || !near(float32(secs), 0.5+FixedStep) {
		t.Fatalf("play time %d %v", ticks, secs)
	}
	if r := get[ecs.Transform](t, d, pw, 3).Rotation; !near(r[1], 45+90*FixedStep) {
		t.Fatalf("after a step: %v", r)
	}
	d.PlayMode().SetPaused(false)
	d.PlayMode().Tick(10) // clamped to MaxTick
	if _, secs := d.PlayMode().Time(); !near(float32(secs), 0.5+FixedStep+MaxTick) {
		t.Fatalf("tick not clamped: %v", secs)
	}
	// Saving while playing saves the edit world.
	must(t, d.SaveAs(context.Background(), t.TempDir()+"/p.json", nil))
	d.PlayMode().Stop()
	if d.PlayMode().Playing() || d.World() != d.EditWorld() || saved(t, d) != start {
		t.Fatal("stop did not restore the edit world")
	}
	d.PlayMode().Stop()
	d.PlayMode().Step()
	if d.PlayMode().Playing() {
		t.Fatal("step outside play mode")
	}
}

func near(a, b float32) bool { return a-b < 1e-3 && b-a < 1e-3 }

// A component added while playing whose value refers to an entity made in play refers to that entity (a value's
// references are the play world's), not to nothing or to an edit entity in the same slot.
func TestPlayAddComponentReferringToAPlayEntity(t *testing.T) {
	d := New("", testOpts)
	a, err := d.SpawnCube(ecs.Entity{})
	must(t, err)
	gone, err := d.SpawnCube(ecs.Entity{})
	must(t, err)
	must(t, d.Delete(gone)) // a freed edit slot, which the play world reuses
	d.PlayMode().Start()
	made, err := d.SpawnCube(ecs.Entity{})
	must(t, err)
	fid, _ := ecs.ComponentIDOf[Follow](d.World())
	pa, _ := d.Entity(d.shown().idOf(a))
	must(t, d.AddComponentValue([]ecs.Entity{pa}, fid, Follow{Target: made, Others: []ecs.Entity{made, pa}}))
	got := ecs.NewMap[Follow](d.World()).Get(pa)
	if got.Target != made || len(got.Others) != 2 || got.Others[0] != made || got.Others[1] != pa {
		t.Fatalf("Follow %+v, want the target %v (made in play) and %v", got, made, pa)
	}
}
