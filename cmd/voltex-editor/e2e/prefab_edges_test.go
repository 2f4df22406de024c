package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// The files of TestPrefabEdgesInTheEditor: a tree prefab holding an instance of a leaf prefab (nested), a level
// with a tree, an instance of a file that does not exist and one of a prefab that contains itself through another.
var edgeFiles = map[string]string{
	"leaf.json": `{ "format": "voltex.scene", "version": 2, "name": "leaf", "entities": [
    { "id": 1, "name": "Leaf", "order": 1, "components": { "Color": { "rgba": [0, 0.8, 0, 1] }, "Mesh": { "asset": "builtin:sphere" }, "Transform": { "position": [0, 2, 0] } } } ] }
`,
	"tree.json": `{ "format": "voltex.scene", "version": 2, "name": "tree", "entities": [
    { "id": 1, "name": "Trunk", "order": 1, "components": { "Color": { "rgba": [0.5, 0.3, 0.1, 1] }, "Mesh": { "asset": "builtin:cube" }, "Transform": {} } },
    { "id": 2, "name": "Crown", "order": 2, "prefab": "leaf.json", "components": { "Transform": {} } } ] }
`,
	"a.json": `{ "format": "voltex.scene", "version": 2, "name": "a", "entities": [
    { "id": 1, "name": "B inside A", "order": 1, "prefab": "b.json", "components": { "Transform": {} } } ] }
`,
	"b.json": `{ "format": "voltex.scene", "version": 2, "name": "b", "entities": [
    { "id": 1, "name": "A inside B", "order": 1, "prefab": "a.json", "components": { "Transform": {} } } ] }
`,
	"level.json": `{ "format": "voltex.scene", "version": 2, "name": "Level",
  "editor": { "camera": { "pivot": [0, 1, 0], "yaw": 0, "pitch": -15, "distance": 9 } },
  "entities": [
    { "id": 1, "name": "Tree", "order": 1, "prefab": "tree.json", "components": { "Transform": {} } },
    { "id": 2, "name": "Ghost", "order": 2, "prefab": "gone.json", "components": { "Transform": { "position": [3, 0, 0] } } },
    { "id": 3, "name": "Loop", "order": 3, "prefab": "a.json", "components": { "Transform": { "position": [-3, 0, 0] } } }
  ] }
`,
}

// TestPrefabEdgesInTheEditor (prefab edge cases as a user meets them): a nested prefab opens with its entities,
// a missing prefab and a cycle are placeholders with their errors (the cycle's chain named) and saving keeps them;
// an override typed in the Inspector is reverted, applied to the prefab (the file written; undo puts it back) and
// the instance unpacked (undo makes it an instance again); the prefab edited outside updates the instance.
func TestPrefabEdgesInTheEditor(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-game", "scenes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range edgeFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "level.json")
	e := launchOn(t, path)
	failShot(t, e, t.Name())

	// Nested: Tree > Trunk, Crown > Leaf, all of the instance; placeholders for the missing file and the cycle.
	p := e.WaitProbe(20*time.Second, "the scene", func(p *guitest.Probe) bool { return p.Entities == 6 })
	kinds := map[string]string{}
	for _, r := range p.Hierarchy {
		kinds[r.Name] = r.Prefab
	}
	if kinds["Tree"] != "instance" || kinds["Ghost"] != "broken" || kinds["Loop"] != "broken" {
		t.Errorf("rows: %v", kinds)
	}
	for _, want := range []string{"gone.json", "prefab cycle: a.json → b.json → a.json"} {
		if !strings.Contains(strings.Join(p.Console, "\n"), want) {
			t.Errorf("the console does not say %q:\n%s", want, strings.Join(p.Console, "\n"))
		}
	}
	lookShot(t, e, "prefab-edges-open.png")
	search(t, e, "Leaf")
	p = clickRow(t, e, "Leaf", 0)
	if r, _ := p.Row("Leaf"); r.Prefab != "part" {
		t.Errorf("the nested leaf row is %q, want part", r.Prefab)
	}

	// Override the leaf's colour, revert it, undo the revert.
	typeIntoChannel(e, widget(t, p, "Color.rgba"), 0, 4, widget(t, p, "Color.rgba").H, "1")
	p = e.WaitProbe(10*time.Second, "the override", func(p *guitest.Probe) bool { return p.Inspector["revert:Color.rgba"].W > 0 })
	lookShot(t, e, "prefab-edges-override.png")
	x, y := p.Inspector["revert:Color.rgba"].Center()
	if x == 0 {
		t.Fatalf("no Revert button: %v", keys(p.Inspector))
	}
	e.Click(x, y, 1)
	e.WaitProbe(10*time.Second, "reverted", func(p *guitest.Probe) bool {
		return p.Inspector["revert:Color.rgba"].W == 0 && strings.HasPrefix(p.Inspector["Color.rgba"].Shown, "0,0.8,0,")
	})
	e.Key("ctrl+z")
	p = e.WaitProbe(10*time.Second, "the revert undone", func(p *guitest.Probe) bool {
		return p.Inspector["revert:Color.rgba"].W > 0 && strings.HasPrefix(p.Inspector["Color.rgba"].Shown, "1,0.8,0,")
	})

	// Apply it to the prefab: the instance's prefab, tree.json, takes it as an override of its leaf (Unity's "Apply as
	// Override in Prefab"); undo writes it back.
	x, y = p.Inspector["apply:Color.rgba"].Center()
	e.Click(x, y, 1)
	guitest.WaitFor(t, 10*time.Second, "tree.json to take the colour", func() error {
		if b, _ := os.ReadFile(filepath.Join(dir, "tree.json")); !strings.Contains(string(b), `"rgba": [1, 0.8, 0, 1]`) {
			return errorf("tree.json:\n%s", b)
		}
		return nil
	})
	e.WaitProbe(10*time.Second, "no override left", func(p *guitest.Probe) bool { return p.Inspector["revert:Color.rgba"].W == 0 })
	e.Key("ctrl+z")
	guitest.WaitFor(t, 10*time.Second, "tree.json back", func() error {
		if b, _ := os.ReadFile(filepath.Join(dir, "tree.json")); string(b) != edgeFiles["tree.json"] {
			return errorf("tree.json:\n%s", b)
		}
		return nil
	})

	// The tree prefab edited outside: the trunk turns grey in the instance.
	edited := strings.Replace(edgeFiles["tree.json"], `[0.5, 0.3, 0.1, 1]`, `[0.5, 0.5, 0.5, 1]`, 1)
	if err := os.WriteFile(filepath.Join(dir, "tree.json"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	e.WaitProbe(20*time.Second, "the instance updated", func(p *guitest.Probe) bool {
		return hasMessage(p, "info: tree.json changed: 1 instance updated")
	})
	search(t, e, "Trunk")
	e.WaitProbe(10*time.Second, "", func(p *guitest.Probe) bool { _, ok := p.Row("Trunk"); return ok })
	p = clickRow(t, e, "Trunk", 0)
	e.WaitProbe(10*time.Second, "grey trunk", func(p *guitest.Probe) bool {
		return strings.HasPrefix(p.Inspector["Color.rgba"].Shown, "0.5,0.5,0.5,")
	})

	// Unpack the tree: plain entities; undo: an instance again.
	x, y = p.Inspector["prefab:Unpack"].Center()
	e.Click(x, y, 1)
	search(t, e, "")
	e.WaitProbe(10*time.Second, "unpacked", func(p *guitest.Probe) bool { r, ok := p.Row("Tree"); return ok && r.Prefab == "" })
	lookShot(t, e, "prefab-edges-unpacked.png")
	e.Key("ctrl+z")
	e.WaitProbe(10*time.Second, "packed again", func(p *guitest.Probe) bool { r, ok := p.Row("Tree"); return ok && r.Prefab == "instance" })

	// Save: the placeholders keep their references as the file had them.
	e.Key("ctrl+z") // the leaf's colour override
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"prefab": "gone.json"`, `"prefab": "a.json"`, `"prefab": "tree.json"`, `"position": [3, 0, 0]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the saved level lost %s:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), `"instance"`) {
		t.Errorf("an override left after undoing every edit:\n%s", b)
	}
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
