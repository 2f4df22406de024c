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
	b.WriteString("Help → Shortcuts (F1) shows the same list. Shortcuts do not fire while a text field has the keyboard.\n\n")
	b.WriteString("| menu | command | keys |\n|---|---|---|\n")
	for i := range actions {
		ac := &actions[i]
		if len(ac.keys) == 0 {
			continue
		}
		menu := ac.menu
		if menu == "" {
			menu = "Viewport (mouse over it)"
		}
		b.WriteString("| " + menu + " | " + ac.label + " | " + ac.allShortcutText() + " |\n")
	}
	b.WriteString("\n## Viewport mouse\n\n| action | how |\n|---|---|\n")
	for _, m := range mouseHelp {
		b.WriteString("| " + m[0] + " | " + m[1] + " |\n")
	}
	return b.String()
}

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
