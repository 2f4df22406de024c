package doc

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
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
	if ch.Empty() {
		t.Fatal("no changes")
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

// TestKeepAllUserEditsEqualsEditingBeforePlay: for random edits made while playing (fields,
// adding and removing components, renames, deletions, creations, with the systems running in between),
// keeping the user's changes gives the scene that the same edits give when made without playing;
// discarding gives the scene from before Play; one undo reverts.
func TestKeepAllUserEditsEqualsEditingBeforePlay(t *testing.T) {
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 7))
		d, ref := openSmall(t), openSmall(t)
		// The same scene ids for what both create.
		scene.SeedIDs(d.EditWorld(), seed)
		scene.SeedIDs(ref.EditWorld(), seed)
		before := content(t, d)
		d.PlayMode().Start()
		for range 1 + rng.IntN(8) {
			id := uint64(1 + rng.IntN(8))
			if _, ok := ref.Entity(id); !ok {
				continue
			}
			both := func(edit func(d *Document, e ecs.Entity) error) {
				must(t, edit(d, ent(t, d, id)))
				must(t, edit(ref, ent(t, ref, id)))
			}
			color := cid[scene.Color](t, d)
			op := rng.IntN(10)
			if op < 3 && !ref.EditWorld().Has(ent(t, ref, id), cid[ecs.Transform](t, d)) {
				continue
			}
			switch op {
			case 0, 1:
				path, v := fmt.Sprintf("position[%d]", rng.IntN(3)), float32(rng.IntN(20)-10)
				both(func(d *Document, e ecs.Entity) error {
					return d.SetField([]ecs.Entity{e}, cid[ecs.Transform](t, d), path, v)
				})
			case 2:
				path, v := fmt.Sprintf("scale[%d]", rng.IntN(3)), float32(1+rng.IntN(4))
				both(func(d *Document, e ecs.Entity) error {
					return d.SetField([]ecs.Entity{e}, cid[ecs.Transform](t, d), path, v)
				})
			case 3:
				if !ref.EditWorld().Has(ent(t, ref, id), color) {
					continue
				}
				path, v := fmt.Sprintf("rgba[%d]", rng.IntN(4)), float32(rng.IntN(3))/2
				both(func(d *Document, e ecs.Entity) error { return d.SetField([]ecs.Entity{e}, color, path, v) })
			case 4:
				both(func(d *Document, e ecs.Entity) error { return d.AddComponent([]ecs.Entity{e}, color) })
			case 5:
				both(func(d *Document, e ecs.Entity) error { return d.RemoveComponent([]ecs.Entity{e}, color) })
			case 6:
				name := fmt.Sprintf("N%d", rng.IntN(3))
				both(func(d *Document, e ecs.Entity) error { return d.Rename([]ecs.Entity{e}, name) })
			case 8:
				both(func(d *Document, e ecs.Entity) error { _, err := d.SpawnCube(e); return err })
			case 9:
				both(func(d *Document, _ ecs.Entity) error { _, err := d.SpawnEmpty(ecs.Entity{}); return err })
			default:
				both(func(d *Document, e ecs.Entity) error { return d.Delete(e) })
			}
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

// TestKeptDeletionOfAPrefabPartIsARemovedEntity: a part of an instance deleted while playing and kept
// is saved as the instance's removed entity, as Delete does outside play mode.
func TestKeptDeletionOfAPrefabPartIsARemovedEntity(t *testing.T) {
	d, _ := openPrefabScene(t)
	before := content(t, d)
	d.PlayMode().Start()
	must(t, d.Delete(part(t, d, 10, 2)))
	ch := d.PlayMode().Stop()
	if got := fmt.Sprint(describe(ch)); !strings.HasSuffix(got, "deleted user=true]") {
		t.Fatalf("changes %s", got)
	}
	must(t, d.KeepPlayChanges(userOnly(ch)))
	if out := content(t, d); !strings.Contains(out, `"removed": true`) {
		t.Fatalf("no removed entity saved:\n%s", out)
	}
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("undo")
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

// TestPlayChangesListSystemsDeletionsAndWholeComponents: what systems despawn, remove and spawn
// (without a scene id) is listed as theirs, and can be kept too: the spawned entity with a fresh
// scene id; one undo reverts all.
func TestPlayChangesListSystemsDeletionsAndWholeComponents(t *testing.T) {
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
	before := content(t, d)
	ch := d.PlayMode().Stop()
	if got := describe(ch); fmt.Sprint(got) != "[2 Color. user=false removed 5 deleted user=false created new user=false]" {
		t.Fatalf("changes %q", got)
	}
	n := d.Len()
	must(t, d.KeepPlayChanges(ch.Changes))
	if d.EditWorld().Has(a, color) || d.EditWorld().Alive(solo) {
		t.Fatal("removal or deletion not kept")
	}
	var spawned uint64
	for _, c := range ch.Changes {
		if c.Created {
			spawned = c.ID
		}
	}
	if e, ok := d.Entity(spawned); !ok || d.Name(e) != "new" || d.Len() != n-1 || d.History().Undos() != 1 { // Solo and its child deleted, one spawned
		t.Fatalf("the spawned entity (scene id %d) is not kept: %v, %d entities (want %d)", spawned, ok, d.Len(), n-1)
	}
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("one undo")
	}
}

// describe lists ch one line a change.
func describe(ch *PlayChanges) []string {
	var out, made []string
	for _, c := range ch.Changes {
		switch {
		case c.Created:
			made = append(made, fmt.Sprintf("created %s user=%v", c.Name, c.User))
		case c.Deleted:
			out = append(out, fmt.Sprintf("%d deleted user=%v", c.ID, c.User))
		case c.Field == "" && c.New == nil:
			out = append(out, fmt.Sprintf("%d %s. user=%v removed", c.ID, c.Component, c.User))
		case c.Field == "" && c.Old == nil:
			out = append(out, fmt.Sprintf("%d %s. user=%v added", c.ID, c.Component, c.User))
		default:
			out = append(out, fmt.Sprintf("%d %s.%s user=%v", c.ID, c.Component, c.Field, c.User))
		}
	}
	return append(out, made...) // a created entity's scene id is random
}

// TestKeepStructureChangedWhilePlaying: while Spin runs, the user adds and removes components,
// renames and deletes entities: the play world changes, the edit world does not; at Stop they are
// listed as the user's beside the systems' changes; kept, they are one step that gives the scene the
// same edits give without playing, one undo reverts it; discarded, the scene is as before Play.
func TestKeepStructureChangedWhilePlaying(t *testing.T) {
	edits := func(t *testing.T, d *Document) {
		t.Helper()
		must(t, d.AddComponent([]ecs.Entity{ent(t, d, 1)}, cid[scene.Spin](t, d)))
		must(t, d.RemoveComponent([]ecs.Entity{ent(t, d, 2)}, cid[scene.Color](t, d)))
		must(t, d.Rename([]ecs.Entity{ent(t, d, 4)}, "Arm"))
		must(t, d.Delete(ent(t, d, 5)))
	}
	ref := openSmall(t)
	edits(t, ref)
	for _, keep := range []bool{false, true} {
		d := openSmall(t)
		before := content(t, d)
		d.Selection().Select(ent(t, d, 5), ent(t, d, 7), ent(t, d, 2))
		d.PlayMode().Start()
		d.PlayMode().Tick(0.1)
		edits(t, d)
		pw := d.World()
		if pw.Alive(ent(t, d, 7)) || !pw.Alive(ent(t, d, 6)) || !pw.Has(ent(t, d, 1), cid[scene.Spin](t, d)) ||
			d.Name(ent(t, d, 4)) != "Arm" || d.Selection().Len() != 1 {
			t.Fatal("the edits while playing")
		}
		if content(t, d) != before || d.History().Undos() != 0 {
			t.Fatal("the edit world changed while playing")
		}
		d.PlayMode().Tick(0.1)
		ch := d.PlayMode().Stop()
		want := "[1 Transform.rotation user=false 1 Spin. user=true added 2 Color. user=true removed " +
			"3 Transform.rotation user=false 4 Name.value user=true 5 deleted user=true]"
		if got := describe(ch); fmt.Sprint(got) != want {
			t.Fatalf("changes\n%q\nwant\n%s", got, want)
		}
		if content(t, d) != before {
			t.Fatal("Stop changed the edit world")
		}
		if !keep {
			continue
		}
		keepUsersIsOneStep(t, d, ref, ch, before)
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

// TestKeptPlayChangesAreJournaled: the step that keeps structure changes made while playing is in
// the session journal: recovery gives the kept scene, and its one undo the scene from before Play.
func TestKeptPlayChangesAreJournaled(t *testing.T) {
	d := openSmall(t)
	jpath := filepath.Join(t.TempDir(), "state", "small.journal")
	if _, err := d.StartJournal(jpath, JournalOptions{}); err != nil {
		t.Fatal(err)
	}
	before := content(t, d)
	d.PlayMode().Start()
	d.PlayMode().Tick(0.1)
	must(t, d.SetField([]ecs.Entity{ent(t, d, 2)}, cid[ecs.Transform](t, d), "position[1]", 3))
	must(t, d.RemoveComponent([]ecs.Entity{ent(t, d, 2)}, cid[scene.Color](t, d)))
	must(t, d.Delete(ent(t, d, 5)))
	c, err := d.SpawnCube(ent(t, d, 2))
	must(t, err)
	_, err = d.SpawnEmpty(c)
	must(t, err)
	n := d.Len()
	must(t, d.KeepPlayChanges(userOnly(d.PlayMode().Stop())))
	if d.Len() != n {
		t.Fatalf("%d entities kept, want %d (two created, two deleted)", d.Len(), n)
	}
	must(t, d.Journal().Flush())
	rc, err := Recover(context.Background(), jpath, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := content(t, rc.Doc), content(t, d); got != want || got == before {
		t.Fatalf("recovered\n%s\nwant\n%s", got, want)
	}
	must(t, rc.Doc.History().Undo())
	if content(t, rc.Doc) != before || rc.Doc.History().CanUndo() {
		t.Fatal("the recovered step does not undo to the scene from before Play")
	}
	must(t, d.CloseJournal(false))
}

// TestKeepCreatedWhilePlaying: an entity created while playing lives in the play world only, with a scene id the edit
// world does not use; Stop lists it as the user's; kept, it is in the scene as if created before Play (same
// components, parent), in one undoable step; discarded, the scene is as before.
func TestKeepCreatedWhilePlaying(t *testing.T) {
	const seed = 99
	ref := openSmall(t)
	scene.SeedIDs(ref.EditWorld(), seed)
	cube, err := ref.SpawnCube(ent(t, ref, 1))
	must(t, err)
	_, err = ref.SpawnEmpty(cube)
	must(t, err)
	for _, keep := range []bool{false, true} {
		d := openSmall(t)
		scene.SeedIDs(d.EditWorld(), seed)
		before := content(t, d)
		d.PlayMode().Start()
		c, err := d.SpawnCube(ent(t, d, 1))
		must(t, err)
		e, err := d.SpawnEmpty(c)
		must(t, err)
		if !d.World().Alive(c) || d.World().Parent(e) != c || d.EditWorld().Alive(c) || content(t, d) != before {
			t.Fatal("created while playing: not in the play world only")
		}
		id := d.worldIDOf(c)
		if _, used := d.Entity(id); used || id == 0 {
			t.Fatalf("scene id %d of the created cube is the edit world's", id)
		}
		d.PlayMode().Tick(0.1)
		ch := d.PlayMode().Stop()
		var made []PlayChange
		for _, x := range ch.Changes {
			if x.Created {
				made = append(made, x)
			}
		}
		if len(made) != 2 || !made[0].User || made[0].Name != "Cube" || made[0].Parent != 1 || made[1].Parent != made[0].ID {
			t.Fatalf("created changes %+v", made)
		}
		if content(t, d) != before {
			t.Fatal("Stop changed the edit world")
		}
		if !keep {
			continue
		}
		keepUsersIsOneStep(t, d, ref, ch, before)
	}
}

// keepUsersIsOneStep keeps the user's changes of ch: d must then be ref, in one step "Keep play changes" that one
// undo takes back to before and redo brings back.
func keepUsersIsOneStep(t *testing.T, d, ref *Document, ch *PlayChanges, before string) {
	t.Helper()
	must(t, d.KeepPlayChanges(userOnly(ch)))
	if got := content(t, d); got != content(t, ref) || d.History().Undos() != 1 || d.History().UndoLabel() != "Keep play changes" {
		t.Fatalf("kept %d steps %q:\n%s\nwant\n%s", d.History().Undos(), d.History().UndoLabel(), got, content(t, ref))
	}
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("one undo does not restore the scene")
	}
	must(t, d.History().Redo())
	if content(t, d) != content(t, ref) {
		t.Fatal("redo")
	}
}
