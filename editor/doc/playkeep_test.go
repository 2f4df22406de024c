package doc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// userOnly returns the user's changes of ch.
func userOnly(ch *PlayChanges) []PlayChange {
	var out []PlayChange
	for _, c := range ch.Changes {
		if c.User {
			out = append(out, c)
		}
	}
	return out
}

func TestKeepPlayChangesSplitsUserAndSystems(t *testing.T) {
	d := openSmall(t)
	before := content(t, d)
	tr := cid[ecs.Transform](t, d)
	d.PlayMode().Start()
	for range 3 {
		d.PlayMode().Tick(0.1)
	}
	// The user moves the spinning B by hand while Spin turns it.
	must(t, d.SetField([]ecs.Entity{ent(t, d, 3)}, tr, "position[1]", 4))
	// and drags A with a whole Transform (a gizmo).
	a := get[ecs.Transform](t, d, d.World(), 2)
	a.Position = mgl32.Vec3{7, 0, 0}
	must(t, d.SetComponent([]ecs.Entity{ent(t, d, 2)}, tr, a))
	d.PlayMode().Tick(0.1)
	ch := d.PlayMode().Stop()
	if content(t, d) != before {
		t.Fatal("Stop changed the edit world")
	}
	var got []string
	for _, c := range ch.Changes {
		got = append(got, fmt.Sprintf("%d %s.%s user=%v %v->%v", c.ID, c.Component, c.Field, c.User, c.Old, c.New))
	}
	want := []string{
		"2 Transform.position user=true [1 0 0]->[7 0 0]",
		"3 Transform.position user=true [-1 0 0]->[-1 4 0]",
		"3 Transform.rotation user=false [0 0 0]->[0 36 0]",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("changes\n%q\nwant\n%q", got, want)
	}
	if ch.Spawned != 0 || len(ch.Despawned) != 0 || ch.Empty() {
		t.Fatalf("spawned %d despawned %v", ch.Spawned, ch.Despawned)
	}
	steps := d.History().Undos()
	must(t, d.KeepPlayChanges(userOnly(ch)))
	if d.History().Undos() != steps+1 || d.History().UndoLabel() != "Keep play changes" {
		t.Fatalf("%d steps, %q", d.History().Undos()-steps, d.History().UndoLabel())
	}
	b := get[ecs.Transform](t, d, d.EditWorld(), 3)
	if b.Position != (mgl32.Vec3{-1, 4, 0}) || b.Rotation != (mgl32.Vec3{}) {
		t.Fatalf("kept B %+v", b)
	}
	if p := get[ecs.Transform](t, d, d.EditWorld(), 2).Position; p != (mgl32.Vec3{7, 0, 0}) {
		t.Fatalf("kept A %v", p)
	}
	kept := content(t, d)
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("one undo does not revert the kept changes")
	}
	must(t, d.History().Redo())
	if content(t, d) != kept {
		t.Fatal("redo")
	}
	// Keeping nothing is no step.
	must(t, d.KeepPlayChanges(nil))
	if d.History().Undos() != steps+1 {
		t.Fatal("an empty keep made a step")
	}
}

// TestKeepAllUserEditsEqualsEditingBeforePlay: for random field edits made while playing (with
// the systems running in between), keeping the user's changes gives the scene that the same edits
// give when made without playing; discarding gives the scene from before Play; one undo reverts.
func TestKeepAllUserEditsEqualsEditingBeforePlay(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 7))
		d, ref := openSmall(t), openSmall(t)
		before := content(t, d)
		d.PlayMode().Start()
		for range 1 + rng.IntN(6) {
			id := uint64(1 + rng.IntN(5))
			e := ent(t, d, id)
			var path string
			var v any
			cidT := cid[ecs.Transform](t, d)
			c := cidT
			switch rng.IntN(3) {
			case 0:
				path, v = fmt.Sprintf("position[%d]", rng.IntN(3)), float32(rng.IntN(20)-10)
			case 1:
				path, v = fmt.Sprintf("scale[%d]", rng.IntN(3)), float32(1+rng.IntN(4))
			default:
				if !d.EditWorld().Has(e, cid[scene.Color](t, d)) {
					continue
				}
				c, path, v = cid[scene.Color](t, d), fmt.Sprintf("rgba[%d]", rng.IntN(4)), float32(rng.IntN(3))/2
			}
			must(t, d.SetField([]ecs.Entity{e}, c, path, v))
			must(t, ref.SetField([]ecs.Entity{ent(t, ref, id)}, c, path, v))
			d.PlayMode().Tick(float32(rng.IntN(5)) / 20)
		}
		ch := d.PlayMode().Stop()
		if content(t, d) != before {
			t.Fatalf("seed %d: discard is not the scene from before Play", seed)
		}
		for _, c := range ch.Changes {
			if !c.User && (c.Component != "Transform" || c.Field != "rotation" || c.ID != 3) {
				t.Fatalf("seed %d: a system change %+v", seed, c)
			}
		}
		must(t, d.KeepPlayChanges(userOnly(ch)))
		if got, want := content(t, d), content(t, ref); got != want {
			t.Fatalf("seed %d: kept\n%s\nwant\n%s", seed, got, want)
		}
		if len(userOnly(ch)) > 0 {
			must(t, d.History().Undo())
		}
		if content(t, d) != before {
			t.Fatalf("seed %d: one undo", seed)
		}
	}
}

func TestKeptPlayChangeOnAPrefabPartIsAnOverride(t *testing.T) {
	d, _ := openPrefabScene(t)
	before := content(t, d)
	weapon := part(t, d, 10, 2)
	d.PlayMode().Start()
	d.PlayMode().Tick(0.1)
	must(t, d.SetField([]ecs.Entity{weapon}, cid[scene.Color](t, d), "rgba", green))
	ch := d.PlayMode().Stop()
	if ov := d.Prefabs().Overrides(weapon); len(ov) != 0 {
		t.Fatalf("overrides before keeping %+v", ov)
	}
	must(t, d.KeepPlayChanges(userOnly(ch)))
	if ov := d.Prefabs().Overrides(weapon); len(ov) != 1 || ov[0].Component != "Color" {
		t.Fatalf("overrides %+v", ov)
	}
	if colorOf(t, d, weapon) != green {
		t.Fatal("color not kept")
	}
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("undo")
	}
}

func TestPlayChangesListDespawnedAndWholeComponents(t *testing.T) {
	d := openSmall(t)
	solo, a, color := ent(t, d, 5), ent(t, d, 2), cid[scene.Color](t, d)
	despawn := func(*ecs.World) ecs.System {
		return ecs.System{Name: "despawn", Run: func(w *ecs.World, cmds *ecs.Commands) {
			if w.Alive(solo) {
				cmds.Despawn(solo)
			}
			if w.Has(a, color) {
				cmds.Remove(a, color)
			}
			cmds.Spawn(scene.Name{Value: "new"})
		}}
	}
	d.opts.Systems = []func(*ecs.World) ecs.System{despawn}
	d.PlayMode().Start()
	d.PlayMode().Tick(0.1)
	ch := d.PlayMode().Stop()
	if len(ch.Despawned) != 1 || ch.Despawned[0] != 5 || ch.Spawned != 1 {
		t.Fatalf("despawned %v", ch.Despawned)
	}
	if len(ch.Changes) != 1 || ch.Changes[0].Field != "" || ch.Changes[0].New != nil || ch.Changes[0].User {
		t.Fatalf("changes %+v", ch.Changes)
	}
	must(t, d.KeepPlayChanges(ch.Changes))
	if d.EditWorld().Has(a, color) || !d.EditWorld().Alive(solo) {
		t.Fatal("removal not kept")
	}
}

// TestGizmoDragWhilePlayingIsTheUsers: a transform drag while playing moves the play world, makes no step, is
// listed at Stop as the user's (only the fields it moved); a cancelled drag puts the entity back.
func TestGizmoDragWhilePlayingIsTheUsers(t *testing.T) {
	d := openSmall(t)
	d.PlayMode().Start()
	d.PlayMode().Tick(0.1)
	b := ent(t, d, 3)
	d.BeginTransformDrag("Move", DragMove, []ecs.Entity{b})
	must(t, d.DragWorld(mgl32.Translate3D(0, 5, 0)))
	d.CancelEdit()
	if p := get[ecs.Transform](t, d, d.World(), 3).Position; p != (mgl32.Vec3{-1, 0, 0}) {
		t.Fatalf("cancelled drag left %v", p)
	}
	d.BeginTransformDrag("Move", DragMove, []ecs.Entity{b})
	must(t, d.DragWorld(mgl32.Translate3D(0, 1, 0)))
	d.PlayMode().Tick(0.1) // Spin turns B during the drag: the drag does not turn it back
	r := get[ecs.Transform](t, d, d.World(), 3).Rotation
	must(t, d.DragWorld(mgl32.Translate3D(0, 2, 0)))
	if got := get[ecs.Transform](t, d, d.World(), 3).Rotation; got != r {
		t.Fatalf("the move turned B back: %v, want %v", got, r)
	}
	d.EndEdit()
	if p := get[ecs.Transform](t, d, d.World(), 3).Position; p != (mgl32.Vec3{-1, 2, 0}) || d.Editing() || d.History().Undos() != 0 {
		t.Fatalf("drag while playing: %v, editing %v, %d steps", p, d.Editing(), d.History().Undos())
	}
	d.PlayMode().Tick(0.1)
	ch := d.PlayMode().Stop()
	var got []string
	for _, c := range ch.Changes {
		got = append(got, fmt.Sprintf("%d %s.%s user=%v", c.ID, c.Component, c.Field, c.User))
	}
	if want := []string{"3 Transform.position user=true", "3 Transform.rotation user=false"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("changes %q, want %q", got, want)
	}
	// A drag open at Stop ends with it.
	d.PlayMode().Start()
	d.BeginTransformDrag("Move", DragMove, []ecs.Entity{b})
	d.PlayMode().Stop()
	if d.Editing() {
		t.Fatal("a drag of the play world outlived Stop")
	}
}
