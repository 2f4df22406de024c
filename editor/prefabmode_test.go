package editor

import "testing"

// TestPrefabTrail: entering a prefab shows the breadcrumb once the prefab is open; Back (the scene open again)
// leaves it, nested steps come back one at a time, and opening another scene ends prefab mode.
func TestPrefabTrail(t *testing.T) {
	var tr prefabTrail
	tr.push("/g/level.json", "/g/enemy.json")
	tr.sync("/g/level.json") // still opening
	if _, ok := tr.current(); ok {
		t.Fatal("in prefab mode before the prefab is open")
	}
	tr.sync("/g/enemy.json")
	if s, ok := tr.current(); !ok || s.scene != "/g/level.json" || tr.crumbs() != "level.json > enemy.json" {
		t.Fatalf("in the prefab: %+v %v %q", s, ok, tr.crumbs())
	}
	tr.push("/g/enemy.json", "/g/hat.json")
	tr.sync("/g/hat.json")
	if tr.crumbs() != "level.json > enemy.json > hat.json" {
		t.Fatalf("nested: %q", tr.crumbs())
	}
	tr.sync("/g/enemy.json") // Back
	if s, ok := tr.current(); !ok || s.prefab != "/g/enemy.json" {
		t.Fatalf("back one step: %+v %v", s, ok)
	}
	tr.sync("/g/level.json") // Back again
	if _, ok := tr.current(); ok || len(tr.steps) != 0 {
		t.Fatalf("back in the level, still in prefab mode: %+v", tr.steps)
	}
	tr.push("/g/level.json", "/g/enemy.json")
	tr.sync("/g/enemy.json")
	tr.sync("/g/other.json")
	if len(tr.steps) != 0 {
		t.Fatalf("another scene opened, the trail stays: %+v", tr.steps)
	}
	tr.push("/g/level.json", "/g/enemy.json")
	tr.sync("/g/level.json")
	tr.sync("/g/other.json") // the open was cancelled, then another scene opened
	if len(tr.steps) != 0 {
		t.Fatalf("a step never entered stays: %+v", tr.steps)
	}
}
