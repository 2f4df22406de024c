package e2e

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestPaletteRunsSave: Ctrl+Shift+P opens the command palette, "save" puts Save first, Enter runs it (the file is
// written) and closes the palette; Escape closes it without running anything.
func TestPaletteRunsSave(t *testing.T) {
	path := copyScene(t, "cubes.json")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, path)
	e.WaitProbe(20*time.Second, "the scene", func(p *guitest.Probe) bool { return p.Entities > 0 && p.MenuBar })
	e.Key("ctrl+shift+n") // a new entity: something to save
	e.WaitProbe(10*time.Second, "the new entity", func(p *guitest.Probe) bool { return p.Dirty })

	e.Key("ctrl+shift+p")
	e.WaitProbe(10*time.Second, "the palette", func(p *guitest.Probe) bool { return p.Panels["Command Palette"].H > 0 && p.TextInput })
	e.Key("Escape")
	e.WaitProbe(10*time.Second, "Escape to close the palette", func(p *guitest.Probe) bool { _, ok := p.Panels["Command Palette"]; return !ok })

	e.Key("ctrl+shift+p")
	e.WaitProbe(10*time.Second, "the palette again", func(p *guitest.Probe) bool { return p.Panels["Command Palette"].H > 0 && p.TextInput })
	e.Type("save")
	p := e.Settle()
	lookShot(t, e, "palette.png")
	docShot(t, e, "palette.png")
	if !p.Dirty {
		t.Fatal("typing into the palette saved the scene")
	}
	e.Key("Return")
	p = e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	if _, ok := p.Panels["Command Palette"]; ok {
		t.Error("the palette stays open after running Save")
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(before, after) || bytes.Count(after, []byte(`"id"`)) <= bytes.Count(before, []byte(`"id"`)) {
		t.Errorf("the file was not written with the new entity (%d bytes before, %d after)", len(before), len(after))
	}
	if p.Modal != "" {
		t.Errorf("the palette ran %q instead of Save", p.Modal)
	}
}
