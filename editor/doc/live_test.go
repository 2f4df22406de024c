package doc

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/live"
)

// sinkLog records what an attached document sends to the game.
type sinkLog []string

func (s *sinkLog) SetField(h uint64, comp, path string, v json.RawMessage) {
	*s = append(*s, fmt.Sprintf("set %d %s.%s %s", h, comp, path, v))
}
func (s *sinkLog) SetComponent(h uint64, comp, js string) {
	*s = append(*s, fmt.Sprintf("setc %d %s %s", h, comp, js))
}
func (s *sinkLog) AddComponent(h uint64, comp string) {
	*s = append(*s, fmt.Sprintf("add %d %s", h, comp))
}
func (s *sinkLog) RemoveComponent(h uint64, comp string) {
	*s = append(*s, fmt.Sprintf("remove %d %s", h, comp))
}
func (s *sinkLog) Spawn(parent uint64, comps map[string]string) {
	*s = append(*s, fmt.Sprintf("spawn %d %d", parent, len(comps)))
}
func (s *sinkLog) Despawn(h uint64) { *s = append(*s, fmt.Sprintf("despawn %d", h)) }

// An attached document's world follows the game's deltas (new entities, changed values, parents,
// removed components and entities), sends the user's edits to the game instead of the history, and
// refuses everything once the connection is lost.
func TestLiveDocumentMirrorsTheGameAndSendsEdits(t *testing.T) {
	var sent sinkLog
	d := NewLive("game", Options{}, &sent)
	tr := func(x float32) string { return fmt.Sprintf(`{"position": [%g, 0, 0]}`, x) }
	if errs := d.ApplyLive([]live.Entity{
		{Handle: 7, Components: map[string]string{"Name": `{"value": "Scout"}`, "Transform": tr(1), "SceneID": `{"id": 42}`}},
		{Handle: 9, Parent: 7, Components: map[string]string{"Transform": tr(2), "Color": `{}`}},
	}, nil); errs != nil {
		t.Fatal(errs)
	}
	scout, ok := d.LiveEntity(7)
	if !ok || d.Name(scout) != "Scout" || d.ID(scout) != 42 || d.Len() != 2 {
		t.Fatalf("after the first delta: scout %v %q id %d, %d entities", ok, d.Name(scout), d.ID(scout), d.Len())
	}
	child, _ := d.LiveEntity(9)
	if d.World().Parent(child) != scout {
		t.Fatal("the child is not under the Scout")
	}
	pos := func(e ecs.Entity) mgl32.Vec3 {
		v, _ := ecs.NewMap[ecs.Transform](d.World()).TryGet(e)
		return v.Position
	}
	// A later delta moves the Scout and takes the child's Color and parent away.
	d.ApplyLive([]live.Entity{
		{Handle: 7, Components: map[string]string{"Name": `{"value": "Scout"}`, "Transform": tr(5), "SceneID": `{"id": 42}`}},
		{Handle: 9, Components: map[string]string{"Transform": tr(2)}},
	}, nil)
	if pos(scout).X() != 5 || !d.World().Parent(child).IsZero() || d.World().Has(child, colorID(d)) {
		t.Fatalf("after the second delta: scout at %v, child's parent %v, has Color %v", pos(scout), d.World().Parent(child), d.World().Has(child, colorID(d)))
	}

	trID, _ := ecs.ComponentIDOf[ecs.Transform](d.World())
	if err := d.SetField([]ecs.Entity{scout}, trID, "position[1]", float32(3)); err != nil {
		t.Fatal(err)
	}
	if pos(scout).Y() != 3 || d.History().CanUndo() || d.Dirty() {
		t.Fatalf("a set field: shown %v, undoable %v, dirty %v", pos(scout), d.History().CanUndo(), d.Dirty())
	}
	if err := d.AddComponent([]ecs.Entity{scout}, colorID(d)); err != nil {
		t.Fatal(err)
	}
	if err := d.Rename([]ecs.Entity{scout}, "Hero"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.SpawnEmpty(scout); err != nil {
		t.Fatal(err)
	}
	if err := d.Delete(child); err != nil {
		t.Fatal(err)
	}
	want := []string{"set 7 Transform.position[1] 3", "add 7 Color", `setc 7 Name {"value":"Hero"}`, "spawn 7 2", "despawn 9"}
	if fmt.Sprint(sent) != fmt.Sprint(want) {
		t.Fatalf("sent\n%q\nwant\n%q", sent, want)
	}
	if err := d.History().Undo(); !errors.Is(err, ErrAttached) {
		t.Fatalf("undo while attached: %v", err)
	}
	if _, err := d.Duplicate(scout); !errors.Is(err, ErrAttached) {
		t.Fatalf("duplicate while attached: %v", err)
	}

	d.ApplyLive(nil, []uint64{9})
	if d.World().Alive(child) || d.Len() != 1 {
		t.Fatal("a removed entity stayed")
	}
	d.SetLiveReadOnly()
	if err := d.SetField([]ecs.Entity{scout}, trID, "position[1]", float32(4)); !errors.Is(err, ErrLinkLost) || pos(scout).Y() != 3 {
		t.Fatalf("an edit after the connection was lost: %v, shown %v", err, pos(scout))
	}
}

func colorID(d *Document) ecs.ComponentID {
	id, _ := ecs.ComponentIDOf[scene.Color](d.World())
	return id
}
