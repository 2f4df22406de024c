package doc

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
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
			op := rng.IntN(14)
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
			case 10:
				if spins(t, ref, ent(t, ref, id)) {
					continue // the copy would take the spin of the play world
				}
				both(func(d *Document, e ecs.Entity) error { _, err := d.Duplicate(e); return err })
			case 11:
				to := uint64(rng.IntN(9))
				if _, ok := ref.Entity(to); !ok {
					to = 0
				}
				_ = tryBoth(t, d, ref, func(d *Document) error { return d.Reparent(entOrRoot(t, d, to), ent(t, d, id)) })
			case 12:
				anchor := uint64(1 + rng.IntN(8))
				if _, ok := ref.Entity(anchor); !ok {
					continue
				}
				after := rng.IntN(2) == 0
				_ = tryBoth(t, d, ref, func(d *Document) error { return d.MoveNextTo(ent(t, d, anchor), after, false, ent(t, d, id)) })
			case 13:
				to := uint64(rng.IntN(9))
				if _, ok := ref.Entity(to); !ok {
					to = 0
				}
				if spins(t, ref, ent(t, ref, id)) || to != 0 && spins(t, ref, ent(t, ref, to)) {
					continue // a paste keeps the place in the world, which the spin changes
				}
				text, err := ref.Copy(ent(t, ref, id))
				must(t, err)
				_ = tryBoth(t, d, ref, func(d *Document) error {
					_, err := d.Paste(context.Background(), text, entOrRoot(t, d, to))
					return err
				})
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

// tryBoth does edit on d (playing) and ref (not playing): both succeed, or both fail alike.
func tryBoth(t *testing.T, d, ref *Document, edit func(d *Document) error) error {
	t.Helper()
	errD, errR := edit(d), edit(ref)
	if fmt.Sprint(errD) != fmt.Sprint(errR) {
		t.Fatalf("while playing: %v; outside play: %v", errD, errR)
	}
	return errD
}

// entOrRoot is ent, or the zero entity for id 0.
func entOrRoot(t *testing.T, d *Document, id uint64) ecs.Entity {
	if id == 0 {
		return ecs.Entity{}
	}
	return ent(t, d, id)
}

// spins reports whether e, one of its ancestors or one of its descendants has Spin (its place in
// the world, or theirs, moves while playing).
func spins(t *testing.T, d *Document, e ecs.Entity) bool {
	w := d.World()
	sp := cid[scene.Spin](t, d)
	for p := e; !p.IsZero(); p = w.Parent(p) {
		if w.Has(p, sp) {
			return true
		}
	}
	for _, x := range preorder(w, []ecs.Entity{e}) {
		if w.Has(x, sp) {
			return true
		}
	}
	return false
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
	// Solo's child, orphaned by the despawn, is a root of the play world.
	if got := describe(ch); fmt.Sprint(got) != "[2 Color. user=false removed 5 deleted user=false 7 moved user=false created new user=false]" {
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
	if e, ok := d.Entity(spawned); !ok || d.Name(e) != "new" || d.Len() != n || d.History().Undos() != 1 { // Solo deleted, its child a root, one spawned
		t.Fatalf("the spawned entity (scene id %d) is not kept: %v, %d entities (want %d)", spawned, ok, d.Len(), n)
	}
	if mystery, ok := d.Entity(7); !ok || !d.EditWorld().Parent(mystery).IsZero() {
		t.Fatal("the orphaned child is not kept as a root")
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
		case c.Moved:
			out = append(out, fmt.Sprintf("%d moved user=%v", c.ID, c.User))
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
		e7 := ent(t, d, 7)
		d.Selection().Select(ent(t, d, 5), e7, ent(t, d, 2))
		d.PlayMode().Start()
		d.PlayMode().Tick(0.1)
		edits(t, d)
		pw := d.World()
		if pw.Alive(e7) || !pw.Alive(ent(t, d, 6)) || !pw.Has(ent(t, d, 1), cid[scene.Spin](t, d)) ||
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
	_, err = d.Duplicate(ent(t, d, 3))
	must(t, err)
	must(t, d.ReparentKeepWorld(c, ent(t, d, 4)))
	n, cubeID := d.Len(), d.ID(c)
	must(t, d.KeepPlayChanges(userOnly(d.PlayMode().Stop())))
	if d.Len() != n+1 || d.ID(d.EditWorld().Parent(ent(t, d, 4))) != cubeID {
		t.Fatalf("%d entities kept, want %d (three created, two deleted), entity 4 moved", d.Len(), n+1)
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
		id := d.ID(c)
		if _, used := d.core.entity(id); used || id == 0 {
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

// TestKeepReparentDuplicatePasteWhilePlaying: each of Reparent (keeping the place in the world),
// MoveNextTo, Duplicate, Paste and a reparent under a new entity (the entity moved, not created)
// made while playing changes the play world only, is listed as the
// user's at Stop, and kept gives the scene the same edit outside play gives (ids, parents, sibling
// order, Transforms), as one step that one undo reverts; discarded, the scene is as before Play.
func TestKeepReparentDuplicatePasteWhilePlaying(t *testing.T) {
	edits := []struct {
		name string
		do   func(d *Document) error
		want string // the changes Stop lists
	}{
		{"reparent", func(d *Document) error { return d.ReparentKeepWorld(ent(t, d, 5), ent(t, d, 2)) },
			"[2 moved user=true 2 Transform.position user=true 2 Transform.rotation user=true 2 Transform.scale user=true 3 Transform.rotation user=false]"},
		{"move next to", func(d *Document) error { return d.MoveNextTo(ent(t, d, 1), false, true, ent(t, d, 4)) },
			"[3 Transform.rotation user=false 4 moved user=true 4 Transform.position user=true]"},
		{"duplicate", func(d *Document) error { _, err := d.Duplicate(ent(t, d, 2)); return err },
			"[3 Transform.rotation user=false created A (1) user=true created A1 user=true created A2 user=true]"},
		{"paste", func(d *Document) error {
			text, err := d.Copy(ent(t, d, 4))
			if err != nil {
				return err
			}
			_, err = d.Paste(context.Background(), text, ent(t, d, 5))
			return err
		}, "[3 Transform.rotation user=false created A1 user=true]"},
		{"reparent under a new entity", func(d *Document) error {
			e, err := d.SpawnEmpty(ent(t, d, 1))
			if err != nil {
				return err
			}
			return d.ReparentKeepWorld(e, ent(t, d, 2))
		}, "[2 moved user=true 3 Transform.rotation user=false created Empty user=true]"},
		{"new entities above and below a moved one", func(d *Document) error {
			e, err := d.SpawnEmpty(ent(t, d, 1))
			if err != nil {
				return err
			}
			if err := d.ReparentKeepWorld(e, ent(t, d, 2)); err != nil {
				return err
			}
			_, err = d.SpawnCube(ent(t, d, 2))
			return err
		}, "[2 moved user=true 3 Transform.rotation user=false created Empty user=true created Cube user=true]"},
	}
	for _, ed := range edits {
		for _, keep := range []bool{false, true} {
			d, ref := openSmall(t), openSmall(t)
			scene.SeedIDs(d.EditWorld(), 3)
			scene.SeedIDs(ref.EditWorld(), 3)
			before := content(t, d)
			must(t, ed.do(ref))
			d.PlayMode().Start()
			d.PlayMode().Tick(0.1)
			must(t, ed.do(d))
			d.PlayMode().Tick(0.1)
			if content(t, d) != before || d.History().Undos() != 0 {
				t.Fatalf("%s: the edit world changed while playing", ed.name)
			}
			ch := d.PlayMode().Stop()
			if got := fmt.Sprint(describe(ch)); got != ed.want {
				t.Fatalf("%s: changes\n%s\nwant\n%s", ed.name, got, ed.want)
			}
			if content(t, d) != before {
				t.Fatalf("%s: Stop changed the edit world", ed.name)
			}
			if !keep {
				continue
			}
			must(t, d.KeepPlayChanges(userOnly(ch)))
			if got, want := content(t, d), content(t, ref); got != want {
				t.Fatalf("%s: kept\n%s\nwant\n%s", ed.name, got, want)
			}
			if d.History().Undos() != 1 {
				t.Fatalf("%s: %d steps, want 1", ed.name, d.History().Undos())
			}
			must(t, d.History().Undo())
			if content(t, d) != before {
				t.Fatalf("%s: undo of the keep", ed.name)
			}
			must(t, d.History().Redo())
			if content(t, d) != content(t, ref) {
				t.Fatalf("%s: redo of the keep", ed.name)
			}
		}
	}
}

// TestKeepStructureOfPrefabInstancesWhilePlaying: a duplicated instance, an entity made a child of
// an instance's part and a pasted instance, made while playing and kept, give the scene (and its
// overrides) that the same edits give outside play; moving a part is refused as it is outside play.
func TestKeepStructureOfPrefabInstancesWhilePlaying(t *testing.T) {
	d, _ := openPrefabScene(t)
	ref, _ := openPrefabScene(t)
	scene.SeedIDs(d.EditWorld(), 5)
	scene.SeedIDs(ref.EditWorld(), 5)
	before := content(t, d)
	d.PlayMode().Start()
	for i, edit := range []func(d *Document) error{
		func(d *Document) error { _, err := d.Duplicate(ent(t, d, 10)); return err },
		func(d *Document) error { _, err := d.SpawnEmpty(ecs.Entity{}); return err },
		func(d *Document) error { return d.Reparent(part(t, d, 10, 1), d.Selection().Entities()...) },
		func(d *Document) error { return d.Reparent(ecs.Entity{}, part(t, d, 11, 2)) },
		func(d *Document) error {
			text, err := d.Copy(ent(t, d, 11))
			if err != nil {
				return err
			}
			_, err = d.Paste(context.Background(), text, ecs.Entity{})
			return err
		},
	} {
		if err := tryBoth(t, d, ref, edit); (err != nil) != (i == 3) {
			t.Fatalf("edit %d: %v", i, err)
		}
	}
	ch := d.PlayMode().Stop()
	must(t, d.KeepPlayChanges(userOnly(ch)))
	if got, want := content(t, d), content(t, ref); got != want {
		t.Fatalf("kept\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(content(t, d), `"Empty"`) {
		t.Fatal("the empty entity made a child of a part is not in the scene")
	}
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("undo")
	}
}

// TestEntitiesCreatedWhilePlayingAreSelectable: an entity the user or a system creates while
// playing can be selected (by handle and by id), is in the hierarchy's roots and ids, and can be
// edited, renamed and reparented; after Stop it leaves the selection, and keeping it keeps its edits.
func TestEntitiesCreatedWhilePlayingAreSelectable(t *testing.T) {
	d := openSmall(t)
	spawned := false
	d.opts.Systems = []func(*ecs.World) ecs.System{func(*ecs.World) ecs.System {
		return ecs.System{Name: "spawn", Run: func(w *ecs.World, cmds *ecs.Commands) {
			if !spawned {
				cmds.Spawn(ecs.Transform{}.Default()) // no scene id
				spawned = true
			}
		}}
	}}
	d.PlayMode().Start()
	d.PlayMode().Tick(0.1)
	var sysMade ecs.Entity
	d.World().EachEntity(func(e ecs.Entity) bool {
		if !d.EditWorld().Alive(e) {
			sysMade = e
		}
		return true
	})
	if sysMade.IsZero() {
		t.Fatal("the system spawned nothing")
	}
	cube, err := d.SpawnCube(ecs.Entity{})
	must(t, err)
	for _, e := range []ecs.Entity{cube, sysMade} {
		d.Selection().Select(e)
		if a, ok := d.Selection().Active(); !ok || a != e || !d.Selection().IsSelected(e) {
			t.Fatalf("%v created while playing is not selected", e)
		}
		id := d.ID(e)
		if got, ok := d.Entity(id); !ok || got != e || !slices.Contains(d.IDs(), id) || !slices.Contains(d.Roots(), e) {
			t.Fatalf("%v (id %d) is not in the world shown", e, id)
		}
		d.Selection().Clear()
		d.Selection().SelectIDs(id)
		if d.Selection().Len() != 1 || d.Selection().Entities()[0] != e {
			t.Fatalf("select id %d", id)
		}
		must(t, d.SetField([]ecs.Entity{e}, cid[ecs.Transform](t, d), "position[1]", 4))
	}
	d.BeginTransformDrag("Move", DragMove, []ecs.Entity{cube}) // a gizmo
	must(t, d.DragWorld(mgl32.Translate3D(1, 0, 0)))
	d.EndEdit()
	must(t, d.Rename([]ecs.Entity{sysMade}, "Spawned"))
	must(t, d.Reparent(cube, sysMade))
	d.Selection().Select(cube)
	ch := d.PlayMode().Stop()
	if d.Selection().Len() != 0 {
		t.Fatal("an entity created while playing stays selected after Stop")
	}
	got := describe(ch)
	slices.Sort(got)
	if fmt.Sprint(got) != "[created Cube user=true created Spawned user=false]" {
		t.Fatalf("changes %s", got)
	}
	must(t, d.KeepPlayChanges(ch.Changes))
	var cubeID uint64
	for _, x := range ch.Changes {
		if x.Name == "Cube" {
			cubeID = x.ID
		}
	}
	c, ok := d.Entity(cubeID)
	if !ok || get[ecs.Transform](t, d, d.EditWorld(), cubeID).Position != (mgl32.Vec3{1, 4, 0}) {
		t.Fatal("the created cube's edits are not kept")
	}
	if kids := d.EditWorld().Children(c); len(kids) != 1 || d.Name(kids[0]) != "Spawned" ||
		get[ecs.Transform](t, d, d.EditWorld(), d.ID(kids[0])).Position[1] != 4 {
		t.Fatal("the spawned entity's edits are not kept under the cube")
	}
}
