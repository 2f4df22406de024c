package editor

import (
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/settings"
)

// pathDoc is a document saved at path (as far as the flags can tell).
type pathDoc struct {
	*doc.Document
	path string
}

func (d *pathDoc) Path() string { return d.path }

func TestEntityFlagsHideIsolateLock(t *testing.T) {
	d := doc.New("Flags", doc.Options{})
	spawn := func(parent ecs.Entity) ecs.Entity {
		e, err := d.SpawnCube(parent)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	a := spawn(ecs.Entity{})
	child := spawn(a)
	b := spawn(ecs.Entity{})
	st := settings.Defaults()
	saves := 0
	f := &entityFlags{st: st, save: func() { saves++ }}
	pd := &pathDoc{d, "/p/scene.json"}
	f.sync(pd)
	check := func(step string, e ecs.Entity, hidden, locked bool) {
		t.Helper()
		if f.hidden(e) != hidden || f.locked(e) != locked {
			t.Errorf("%s: %s hidden %v locked %v, want %v %v", step, d.Name(e), f.hidden(e), f.locked(e), hidden, locked)
		}
		if hide := f.hideFunc(); (hide != nil && hide(e)) != hidden {
			t.Errorf("%s: the viewport's hide disagrees for %s", step, d.Name(e))
		}
	}
	check("nothing flagged", child, false, false)

	f.hide([]ecs.Entity{a})
	check("parent hidden", a, true, false)
	check("parent hidden", child, true, false)
	check("parent hidden", b, false, false)
	if got := st.View("/p/scene.json"); !got[d.ID(a)].Hidden || len(got) != 1 || saves != 1 {
		t.Errorf("the settings keep %v after %d saves", got, saves)
	}

	f.toggleLock([]ecs.Entity{b})
	check("locked", b, false, true)
	if !f.hasLocks() {
		t.Error("hasLocks is false with a lock")
	}
	f.unhideAll()
	check("unhidden", a, false, false)
	check("unhidden, lock kept", b, false, true)

	f.isolate([]ecs.Entity{a})
	check("a isolated", child, false, false)
	check("a isolated", b, true, true)
	f.isolate(nil) // again: everything shown
	check("isolation ended", b, false, true)
	f.toggleLock([]ecs.Entity{b})
	check("unlocked", b, false, false)
	if f.hasLocks() || len(st.Views) != 0 {
		t.Errorf("nothing flagged, yet hasLocks %v, settings %v", f.hasLocks(), st.Views)
	}

	// Saved under another path, the flags go with the scene; another document brings its own.
	f.toggleHidden([]ecs.Entity{b})
	pd.path = "/p/renamed.json"
	f.sync(pd)
	if !st.View("/p/renamed.json")[d.ID(b)].Hidden {
		t.Errorf("after Save As the flags are not kept under the new path: %v", st.Views)
	}
	other := &pathDoc{doc.New("Other", doc.Options{}), "/p/other.json"}
	f.sync(other)
	if len(f.flags) > 0 {
		t.Error("another scene shows the flags of the last")
	}
	f.sync(pd)
	check("back to the scene", b, true, false)
}

// TestLayerHidesItsMatches: hiding a layer hides exactly the entities its query matches; an entity that comes to
// match after a change to the scene is hidden too, and one that stops matching is shown; the layer is kept in the
// settings.
func TestLayerHidesItsMatches(t *testing.T) {
	d := doc.New("Layers", doc.Options{})
	named := func(name string) ecs.Entity {
		e, err := d.SpawnCube(ecs.Entity{})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Rename([]ecs.Entity{e}, name); err != nil {
			t.Fatal(err)
		}
		return e
	}
	orc1, orc2, wall := named("Orc 1"), named("Orc 2"), named("Wall")
	st := settings.Defaults()
	f := &entityFlags{st: st}
	pd := &pathDoc{d, "/p/layers.json"}
	f.sync(pd)
	f.addLayer("Orcs", `name~"Orc*"`)
	if got := f.layerMatches(0); got != 2 {
		t.Fatalf("the layer matches %d entities, want 2", got)
	}
	f.setLayer(0, func(fl *settings.Flags) { fl.Hidden = true })
	check := func(step string, want map[ecs.Entity]bool) {
		t.Helper()
		hide := f.hideFunc()
		for e, hidden := range want {
			if f.hidden(e) != hidden || (hide != nil && hide(e)) != hidden {
				t.Errorf("%s: %s hidden %v, want %v", step, d.Name(e), f.hidden(e), hidden)
			}
		}
	}
	check("layer hidden", map[ecs.Entity]bool{orc1: true, orc2: true, wall: false})

	before := f.changes()
	orc3 := named("Orc 3")
	if err := d.Rename([]ecs.Entity{orc2}, "Troll"); err != nil {
		t.Fatal(err)
	}
	f.sync(pd) // each frame
	check("after the scene changed", map[ecs.Entity]bool{orc1: true, orc2: false, orc3: true, wall: false})
	if f.changes() == before {
		t.Error("the viewport is not told that the layer's matches moved")
	}
	again := f.changes()
	f.sync(pd)
	if f.changes() != again {
		t.Error("the layers were evaluated again with the scene unchanged")
	}
	if l := st.Layers("/p/layers.json"); len(l) != 1 || l[0].Query != `name~"Orc*"` || !l[0].Hidden {
		t.Errorf("the settings keep %+v", l)
	}

	f.setLayer(0, func(fl *settings.Flags) { fl.Hidden, fl.Locked = false, true })
	check("layer locked", map[ecs.Entity]bool{orc1: false, orc3: false})
	if !f.locked(orc1) || f.locked(wall) || !f.hasLocks() {
		t.Error("a locked layer does not lock exactly its matches")
	}
	f.setLayer(0, func(fl *settings.Flags) { fl.Locked, fl.Isolated = false, true })
	check("layer isolated", map[ecs.Entity]bool{orc1: false, orc3: false, wall: true, orc2: true})
}

// TestLayersFollowABigSceneAfterAPause: in a big scene, changes that come frame after frame (a drag) run the layers'
// queries again only once queryPause has passed since they last ran.
func TestLayersFollowABigSceneAfterAPause(t *testing.T) {
	d := doc.New("Big", doc.Options{})
	e, err := d.SpawnCube(ecs.Entity{})
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Unix(1000, 0)
	f := &entityFlags{bigScene: 1, now: func() time.Time { return clock }}
	pd := &pathDoc{d, ""}
	f.sync(pd)
	f.addLayer("Orcs", `name~"Orc*"`)
	f.setLayer(0, func(fl *settings.Flags) { fl.Hidden = true })
	if err := d.Rename([]ecs.Entity{e}, "Orc"); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(queryPause / 10)
	f.sync(pd)
	if f.hidden(e) {
		t.Error("the layers ran again in the frame after they last ran")
	}
	clock = clock.Add(queryPause)
	f.sync(pd)
	if !f.hidden(e) {
		t.Error("the layers did not run again after the pause")
	}
}
