package editor

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/shortcuts.md from the action table")

// shortcutsMarkdown renders the action table as docs/shortcuts.md.
func shortcutsMarkdown() string {
	var b strings.Builder
	b.WriteString("# Keyboard shortcuts and mouse controls\n\n")
	b.WriteString("Generated from the editor's action table (`editor/actions.go`) by `go test ./editor -run Shortcuts -update`;\n")
	b.WriteString("Help → Shortcuts (F1) shows the shortcuts and the mouse controls. Shortcuts do not fire while a text field has\n")
	b.WriteString("the keyboard.\n\n")
	b.WriteString("| menu | command | keys |\n|---|---|---|\n")
	for i := range actions {
		ac := &actions[i]
		if len(ac.keys) == 0 {
			continue
		}
		menu := ac.menu
		switch {
		case menu == "":
			menu = "Viewport (mouse over it)"
		case ac.viewportOnly:
			menu += " (keys: mouse over the viewport)"
		}
		b.WriteString("| " + menu + " | " + ac.label + " | " + ac.allShortcutText() + " |\n")
	}
	b.WriteString("\n## Viewport mouse\n\n| action | how |\n|---|---|\n")
	for _, m := range mouseHelp {
		b.WriteString("| " + m[0] + " | " + m[1] + " |\n")
	}
	b.WriteString("\n## Prefab commands\n\n| where | command | keys |\n|---|---|---|\n")
	for i := range actions {
		ac := &actions[i]
		if strings.Contains(ac.label, "Prefab") || strings.Contains(ac.label, "Instance") {
			keys := ac.allShortcutText()
			if keys == "" {
				keys = "none (menu)"
			}
			b.WriteString("| " + ac.menu + " menu | " + ac.label + " | " + keys + " |\n")
		}
	}
	for _, m := range prefabPlaces {
		b.WriteString("| " + m[0] + " | " + m[1] + " | " + m[2] + " |\n")
	}
	b.WriteString("\n" + prefabPlacement)
	return b.String()
}

// prefabPlaces are the prefab commands outside the menus (editor/assets.go, the drag and drop of editor/prefab.go,
// the inspector's prefab section).
var prefabPlaces = [][3]string{
	{"Assets panel", "Place (beside each prefab file)", "click"},
	{"Assets panel", "drag a prefab into the viewport, onto a hierarchy row, or onto the hierarchy's empty space", "left drag"},
	{"Assets panel", "drag a mesh into the viewport: a new entity with that mesh, standing on the ground where it is dropped (with Surface on, on the surface there, turned to its normal)", "left drag"},
	{"Inspector (an entity of an instance)", "Revert All, Apply All, Unpack; Revert and Apply beside each override", "click, or right-click an overridden field or a component header"},
}

// prefabPlacement says where each way of placing a prefab puts the instance (workspace.Prefabs.instantiate's callers).
const prefabPlacement = "Where a new instance goes: **Place** and **Instantiate Prefab...** put it beside what the scene holds, on its\n" +
	"floor (on the view's right, else its left, else the far side), never between the camera and the scene, as a root:\n" +
	"placing again puts the next one beside that; a drop on the viewport stands it (the bottom of what it draws) where\n" +
	"the mouse points on the ground plane (y = 0), or at the centre of the view when the mouse does not point at the\n" +
	"ground; a drop on a hierarchy row makes it that entity's child at the entity's origin, and a drop on the\n" +
	"hierarchy's empty space a root at the origin. With **Surface** on, a drop on the viewport stands it on the surface\n" +
	"under the mouse and Place on the surface in the middle of the view, when there is one, turned so that its up axis\n" +
	"is the surface's normal. The instance is named after the prefab file, with a scale of 1 and no rotation but that\n" +
	"turn.\n"

func TestShortcutsDocIsCurrent(t *testing.T) {
	const path = "../docs/shortcuts.md"
	want := shortcutsMarkdown()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./editor -run Shortcuts -update)", err)
	}
	if string(got) != want {
		t.Fatalf("docs/shortcuts.md is out of date with editor/actions.go: run go test ./editor -run Shortcuts -update")
	}
}

// TestShortcutsAreUnique: no chord runs two actions.
func TestShortcutsAreUnique(t *testing.T) {
	seen := map[string]string{}
	for i := range actions {
		for _, k := range actions[i].keys {
			name := chordName(k)
			if other, ok := seen[name]; ok && !(actions[i].viewportOnly != actionByLabel(other).viewportOnly) {
				t.Errorf("%s is both %q and %q", name, other, actions[i].label)
			}
			seen[name] = actions[i].label
		}
	}
}

func actionByLabel(l string) *action {
	for i := range actions {
		if actions[i].label == l {
			return &actions[i]
		}
	}
	return nil
}
