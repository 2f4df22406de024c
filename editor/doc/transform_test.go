package doc

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

func nearMat(a, b mgl32.Mat4, eps float32) bool {
	for i := range a {
		if d := a[i] - b[i]; d > eps || d < -eps {
			return false
		}
	}
	return true
}

func TestReparentKeepWorld(t *testing.T) {
	d := openSmall(t)
	start := saved(t, d)
	b, a1 := ent(t, d, 3), ent(t, d, 4)
	tr := cid[ecs.Transform](t, d)
	must(t, d.SetComponent([]ecs.Entity{ent(t, d, 2)}, tr,
		ecs.Transform{Position: mgl32.Vec3{1, 0, 0}, Rotation: mgl32.Vec3{0, 90, 0}, Scale: mgl32.Vec3{2, 2, 2}}))
	before := d.world.WorldMatrix(b)
	must(t, d.ReparentKeepWorld(a1, b))
	if parentID(t, d, 3) != 4 || !nearMat(d.world.WorldMatrix(b), before, 1e-5) || d.History().Undos() != 2 {
		t.Fatalf("B moved in the world: %v vs %v", d.world.WorldMatrix(b), before)
	}
	if get[ecs.Transform](t, d, d.world, 3).Scale[0] != 1 {
		t.Fatalf("local scale under a parent scaled 2×0.5: %v", get[ecs.Transform](t, d, d.world, 3))
	}
	d.Selection().Select(b)
	must(t, d.ReparentSelection(ecs.Entity{}, true))
	if !nearMat(d.world.WorldMatrix(b), before, 1e-5) || d.world.Parent(b) != (ecs.Entity{}) {
		t.Fatal("back to the root")
	}
	undoAll(t, d)
	if saved(t, d) != start {
		t.Fatal("undo")
	}
}

// changedLines returns the lines of b that differ from a's (same line count expected).
func changedLines(t *testing.T, a, b string) []string {
	t.Helper()
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(la) != len(lb) {
		t.Fatalf("line count changed: %d → %d\n%s", len(la), len(lb), b)
	}
	var out []string
	for i := range la {
		if la[i] != lb[i] {
			out = append(out, strings.TrimSpace(lb[i]))
		}
	}
	return out
}

func isNegZero(f float32) bool { return f == 0 && math.Signbit(float64(f)) }

func hasNegZeroT(tr ecs.Transform) bool {
	for _, v := range []mgl32.Vec3{tr.Position, tr.Rotation, tr.Scale} {
		for _, f := range v {
			if isNegZero(f) {
				return true
			}
		}
	}
	return false
}

// A move-only drag changes the position line and nothing else: no "-0" rotation.
func TestDragMoveChangesOnlyPosition(t *testing.T) {
	d := openSmall(t)
	before := content(t, d)
	solo := ent(t, d, 5)
	d.BeginTransformDrag("Move", DragMove, []ecs.Entity{solo})
	for i := range 10 { // a drag is many frames, each from the start
		must(t, d.DragWorld(mgl32.Translate3D(float32(i)*0.2, 0, 0.5)))
	}
	d.EndEdit()
	if d.History().Undos() != 1 || d.History().UndoLabel() != "Move" {
		t.Fatalf("%d steps, %q", d.History().Undos(), d.History().UndoLabel())
	}
	got := get[ecs.Transform](t, d, d.world, 5)
	if got.Position != (mgl32.Vec3{6.8, 0, 0.5}) || got.Rotation != (mgl32.Vec3{0, 45, 0}) || got.Scale != one {
		t.Fatalf("after the move: %v", got)
	}
	if ch := changedLines(t, before, content(t, d)); len(ch) != 1 || !strings.HasPrefix(ch[0], `"Transform": { "position": [6.8, 0, 0.5], "rotation": [0, 45, 0], "scale": [1, 1, 1] }`) {
		t.Fatalf("changed lines: %q", ch)
	}
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("undo did not restore the file")
	}
}

// Under a turned and scaled parent the move is converted to the parent's space; the axes the move
// does not touch keep their exact values.
func TestDragMoveUnderTransformedParent(t *testing.T) {
	d := openSmall(t)
	tr := cid[ecs.Transform](t, d)
	must(t, d.SetComponent([]ecs.Entity{ent(t, d, 1)}, tr,
		ecs.Transform{Position: mgl32.Vec3{0, 1, 0}, Rotation: mgl32.Vec3{0, 90, 0}, Scale: mgl32.Vec3{2, 2, 2}}))
	a := ent(t, d, 2)
	w0 := d.world.WorldMatrix(a)
	start := get[ecs.Transform](t, d, d.world, 2)
	d.BeginTransformDrag("Move", DragMove, []ecs.Entity{a})
	must(t, d.DragWorld(mgl32.Translate3D(0, 0, -3)))
	d.EndEdit()
	got := get[ecs.Transform](t, d, d.world, 2)
	if !nearMat(d.world.WorldMatrix(a), mgl32.Translate3D(0, 0, -3).Mul4(w0), 1e-5) {
		t.Fatalf("world matrix %v", d.world.WorldMatrix(a))
	}
	// World -Z is the parent's local +X (turned 90° about Y), halved by its scale.
	if got.Position != (mgl32.Vec3{start.Position[0] + 1.5, start.Position[1], start.Position[2]}) ||
		got.Rotation != start.Rotation || got.Scale != start.Scale || hasNegZeroT(got) {
		t.Fatalf("got %v from %v", got, start)
	}
}

// A turn about Y changes the Y angle only: X and Z stay exactly 0 (not -0, not 1e-7), the position and
// scale keep their bits.
func TestDragRotateChangesOnlyRotation(t *testing.T) {
	d := openSmall(t)
	before := content(t, d)
	solo := ent(t, d, 5)
	w0 := d.world.WorldMatrix(solo)
	pivot := w0.Col(3).Vec3()
	turn := mgl32.Translate3D(pivot[0], pivot[1], pivot[2]).Mul4(mgl32.HomogRotate3DY(mgl32.DegToRad(30))).
		Mul4(mgl32.Translate3D(-pivot[0], -pivot[1], -pivot[2]))
	d.BeginTransformDrag("Rotate", DragRotate, []ecs.Entity{solo})
	must(t, d.DragWorld(turn))
	d.EndEdit()
	got := get[ecs.Transform](t, d, d.world, 5)
	if got.Position != (mgl32.Vec3{5, 0, 0}) || got.Scale != one || got.Rotation[0] != 0 || got.Rotation[2] != 0 ||
		math.Abs(float64(got.Rotation[1])-75) > 1e-3 || hasNegZeroT(got) {
		t.Fatalf("after the turn: %v", got)
	}
	if ch := changedLines(t, before, content(t, d)); len(ch) != 1 || !strings.Contains(ch[0], `"position": [5, 0, 0], "rotation": [0, 75`) {
		t.Fatalf("changed lines: %q", ch)
	}
}

// A scale along X keeps the rotation and the other scale axes exactly.
func TestDragScaleChangesOnlyScale(t *testing.T) {
	d := openSmall(t)
	solo := ent(t, d, 5)
	w0 := d.world.WorldMatrix(solo)
	// A local-axis scale as the gizmo makes it: W0·S·W0⁻¹.
	delta := w0.Mul4(mgl32.Scale3D(2, 1, 1)).Mul4(w0.Inv())
	d.BeginTransformDrag("Scale", DragScale, []ecs.Entity{solo})
	must(t, d.DragWorld(delta))
	d.EndEdit()
	got := get[ecs.Transform](t, d, d.world, 5)
	if got.Rotation != (mgl32.Vec3{0, 45, 0}) || got.Position != (mgl32.Vec3{5, 0, 0}) || got.Scale[1] != 1 ||
		got.Scale[2] != 1 || math.Abs(float64(got.Scale[0])-2) > 1e-5 {
		t.Fatalf("after the scale: %v", got)
	}
}

// Several entities turn around the pivot together; a selected child follows its selected parent
// instead of being turned twice; Cancel puts everything back.
func TestDragSeveralAroundPivot(t *testing.T) {
	d := openSmall(t)
	before := content(t, d)
	root, a, b, solo := ent(t, d, 1), ent(t, d, 2), ent(t, d, 3), ent(t, d, 5)
	wa, wb, ws := d.world.WorldMatrix(a), d.world.WorldMatrix(b), d.world.WorldMatrix(solo)
	turn := mgl32.HomogRotate3DY(mgl32.DegToRad(90))
	d.BeginTransformDrag("Rotate", DragRotate, []ecs.Entity{a, root, solo, b})
	must(t, d.DragWorld(turn))
	for _, c := range []struct {
		e  ecs.Entity
		w0 mgl32.Mat4
	}{{a, wa}, {b, wb}, {solo, ws}} {
		if !nearMat(d.world.WorldMatrix(c.e), turn.Mul4(c.w0), 1e-5) {
			t.Fatalf("%v: world %v, want %v", c.e, d.world.WorldMatrix(c.e), turn.Mul4(c.w0))
		}
	}
	if got := get[ecs.Transform](t, d, d.world, 2); got.Position != (mgl32.Vec3{1, 0, 0}) || got.Rotation != (mgl32.Vec3{}) {
		t.Fatalf("the selected child was moved itself: %v", got)
	}
	d.CancelEdit()
	if content(t, d) != before || d.History().Undos() != 0 {
		t.Fatal("cancel did not put the scene back")
	}
	if err := d.DragWorld(turn); err != nil || content(t, d) != before {
		t.Fatal("DragWorld without a drag changed something")
	}
}

// Property: random move drags of random transforms never touch rotation or scale and never write -0.
func TestDragMoveProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	angles := []float32{0, 90, -90, 180, -180, 45, 30}
	pick := func() float32 { return angles[rng.IntN(len(angles))] }
	d := openSmall(t)
	tr := cid[ecs.Transform](t, d)
	for range 300 {
		id := uint64(1 + rng.IntN(7))
		e := ent(t, d, id)
		start := ecs.Transform{
			Position: mgl32.Vec3{float32(rng.IntN(9) - 4), 0, float32(rng.IntN(5))},
			Rotation: mgl32.Vec3{pick(), pick(), pick()},
			Scale:    mgl32.Vec3{1, float32(1 + rng.IntN(3)), 1},
		}
		must(t, d.SetComponent([]ecs.Entity{e}, tr, start))
		var delta mgl32.Vec3
		delta[rng.IntN(3)] = float32(rng.IntN(21)-10) / 4
		d.BeginTransformDrag("Move", DragMove, []ecs.Entity{e})
		must(t, d.DragWorld(mgl32.Translate3D(delta[0], delta[1], delta[2])))
		d.EndEdit()
		got := get[ecs.Transform](t, d, d.world, id)
		if got.Rotation != start.Rotation || got.Scale != start.Scale || hasNegZeroT(got) {
			t.Fatalf("entity %d from %v moved by %v: %v", id, start, delta, got)
		}
	}
	if strings.Contains(content(t, d), "-0,") || strings.Contains(content(t, d), "-0]") {
		t.Fatalf("a -0 in the file:\n%s", content(t, d))
	}
}

// No edit writes -0: values given with -0 are stored as 0.
func TestEditsNeverStoreNegativeZero(t *testing.T) {
	d := openSmall(t)
	nz := float32(math.Copysign(0, -1))
	solo := []ecs.Entity{ent(t, d, 5)}
	tr := cid[ecs.Transform](t, d)
	must(t, d.SetField(solo, tr, "rotation[1]", nz))
	must(t, d.SetField(solo, tr, "position", mgl32.Vec3{nz, 1, nz}))
	if got := get[ecs.Transform](t, d, d.world, 5); hasNegZeroT(got) || got.Position[1] != 1 {
		t.Fatalf("SetField: %v", got)
	}
	must(t, d.SetComponent(solo, tr, ecs.Transform{Position: mgl32.Vec3{nz, nz, 2}, Rotation: mgl32.Vec3{nz, 0, nz}, Scale: one}))
	if got := get[ecs.Transform](t, d, d.world, 5); hasNegZeroT(got) || got.Position[2] != 2 {
		t.Fatalf("SetComponent: %v", got)
	}
	must(t, d.PasteComponent(solo, tr, &ecs.Transform{Rotation: mgl32.Vec3{nz, nz, nz}, Scale: one}))
	if got := get[ecs.Transform](t, d, d.world, 5); hasNegZeroT(got) {
		t.Fatalf("PasteComponent: %v", got)
	}
	if strings.Contains(content(t, d), "-0") {
		t.Fatalf("a -0 in the file:\n%s", content(t, d))
	}
}
