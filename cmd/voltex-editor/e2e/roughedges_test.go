package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// Words, titles, dialogs and windows a user notices.

// TestShortcutsWindowFitsAndF1Toggles: Help → Shortcuts (F1) is tall enough for its whole table, and F1 closes it.
func TestShortcutsWindowFitsAndF1Toggles(t *testing.T) {
	doc, err := os.ReadFile(repoPath("docs/shortcuts.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	shown, _, _ := strings.Cut(string(doc), "\n## Prefab commands") // the window shows the shortcuts and the mouse
	for _, l := range strings.Split(shown, "\n") {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| menu") && !strings.HasPrefix(l, "| action") {
			rows++
		}
	}
	e := launchOn(t, copyScene(t, "cubes.json"))
	e.Key("F1")
	p := e.WaitProbe(10*time.Second, "the shortcuts window", func(p *guitest.Probe) bool { return p.Panels["Shortcuts"].H > 0 })
	p = e.Presented(p) // it sizes itself to its table over a frame or two
	w := p.Panels["Shortcuts"]
	docShot(t, e, "shortcuts.png")
	if least := rows * 17; w.H < least {
		t.Errorf("the shortcuts window is %d px tall for %d rows (want ≥ %d): it needs scrolling", w.H, rows, least)
	}
	if w.Y < 0 || w.Y+w.H > 1000 {
		t.Errorf("the shortcuts window %+v is not on the screen", w)
	}
	e.Key("F1")
	e.WaitProbe(10*time.Second, "F1 to close the shortcuts window", func(p *guitest.Probe) bool { _, ok := p.Panels["Shortcuts"]; return !ok })
}

// TestOddFileNameIsShownAsIs: a scene file whose name contains printf verbs is opened and shown as it is (the
// status bar passed it to ImGui as a format, and the editor crashed).
func TestOddFileNameIsShownAsIs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "100%s %n %d.json")
	if err := os.WriteFile(path, fixture(t, "cubes.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, path)
	p := e.WaitProbe(10*time.Second, "the status bar", func(p *guitest.Probe) bool { return p.Status != "" })
	p = e.Presented(p) // and a few frames later it still runs
	if !e.Running() {
		t.Fatalf("the editor died showing %q", path)
	}
	if want := "100%s %n %d.json  |  saved  |  400 entities"; !strings.HasPrefix(p.Status, want) {
		t.Errorf("status bar %q does not show the path as it is", p.Status)
	}
	if p.Title != "Voltex Editor — 100%s %n %d.json" {
		t.Errorf("title %q", p.Title)
	}
}

// TestNewSceneWords: a new scene is "new scene" (not "(not saved yet) | saved"), titled Untitled; counts agree with
// their numbers ("1 entity"); a file's title is its file name, not the scene's internal name.
func TestNewSceneWords(t *testing.T) {
	t.Parallel()
	d := guitest.StartDisplay(t, 1600, 1000)
	e := guitest.Launch(t, d, "--size", "1600x1000", "--settings", t.TempDir())
	failShot(t, e, t.Name())
	p := e.WaitProbe(10*time.Second, "status", func(p *guitest.Probe) bool { return p.Status != "" })
	if !strings.HasPrefix(p.Status, "new scene  |  0 entities  |  0 selected") || p.Title != "Voltex Editor — Untitled" {
		t.Errorf("new scene: status %q, title %q", p.Status, p.Title)
	}
	e.Key("ctrl+shift+n")
	p = e.WaitProbe(10*time.Second, "one entity", func(p *guitest.Probe) bool { return p.Entities == 1 })
	p = e.Presented(p) // the status bar of a few frames later
	if !strings.HasPrefix(p.Status, "new scene, not saved yet  |  1 entity  |  1 selected") || p.Title != "*Voltex Editor — Untitled" {
		t.Errorf("after Create Empty: status %q, title %q", p.Status, p.Title)
	}
	e.Key("ctrl+c")
	e.WaitProbe(10*time.Second, "copied", func(p *guitest.Probe) bool { return hasMessage(p, "info: copied 1 entity") })
	e.Key("Delete")
	e.WaitProbe(10*time.Second, "deleted", func(p *guitest.Probe) bool { return hasMessage(p, "info: deleted 1 entity") })
	p, _ = e.ReadProbe()
	for _, m := range p.Console {
		if strings.Contains(m, "entities") || strings.Contains(m, "children") {
			t.Errorf("console says %q for one entity without children", m)
		}
	}
}

// TestOpenErrorNamesThePathOnce: the dialog for a file that does not open names the file once, then lists its
// problems by line and column; beyond eight it says how many more there are.
func TestOpenErrorNamesThePathOnce(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.json")
	var b strings.Builder
	b.WriteString("{\n  \"format\": \"voltex.scene\",\n  \"version\": 1,\n  \"entities\": [\n")
	for i := 1; i <= 10; i++ {
		if i > 1 {
			b.WriteString(",\n")
		}
		b.WriteString(`    {"id": ` + strconv.Itoa(i) + `, "components": {"Transform": {"position": ["a", 0, 0]}}}`)
	}
	b.WriteString("\n  ]\n}\n")
	if err := os.WriteFile(bad, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, copyScene(t, "cubes.json"))
	e.Key("ctrl+o")
	e.WaitProbe(10*time.Second, "the open dialog", func(p *guitest.Probe) bool { return p.Modal == "file:Open Scene" })
	e.Key("ctrl+a")
	e.Type(bad)
	e.Key("Return")
	p := e.WaitProbe(20*time.Second, "the error dialog", func(p *guitest.Probe) bool { return p.Modal == "prompt:Cannot open scene" })
	docShot(t, e, "open-error.png")
	if n := strings.Count(p.Prompt, bad); n != 1 {
		t.Errorf("the dialog names %s %d times:\n%s", bad, n, p.Prompt)
	}
	if !strings.Contains(p.Prompt, "line 5, column ") || !strings.Contains(p.Prompt, "… and 2 more (see the Console)") {
		t.Errorf("the dialog does not list the problems by line, or the rest by count:\n%s", p.Prompt)
	}
}
