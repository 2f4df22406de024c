package editor

import (
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
)

// TestWindowCommands: the commands that only steer a panel reach it (rename, the gizmo, framing, the layout, the
// help windows, the stats overlay, which the settings remember).
func TestWindowCommands(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/solar.json"})
	c, d := f.a.cmds, f.a.ws.Doc()
	e := d.Roots()[0]
	d.Selection().Select(e)
	c.CmdRename()
	if f.a.hier.renaming != d.ID(e) {
		t.Fatalf("Rename renames %d, want %d", f.a.hier.renaming, d.ID(e))
	}
	for _, g := range []struct {
		run  func()
		want gizmoOp
	}{{c.CmdGizmoRotate, gizmoRotate}, {c.CmdGizmoScale, gizmoScale}, {c.CmdGizmoTranslate, gizmoTranslate}} {
		g.run()
		if f.a.vp.gz.op != g.want {
			t.Fatalf("gizmo %v, want %v", f.a.vp.gz.op.label(), g.want.label())
		}
	}
	local := f.a.vp.gz.local
	c.CmdGizmoSpace()
	if f.a.vp.gz.local == local {
		t.Fatal("Toggle local/world gizmo did not toggle it")
	}
	cam := *d.Camera()
	c.CmdFrame()
	if *d.Camera() == cam {
		t.Fatal("Frame selection did not move the camera to the selected entity")
	}
	f.a.panels.open[panelConsole] = false
	c.CmdResetLayout()
	if f.a.panels.layoutBuilt || !f.a.panels.open[panelConsole] {
		t.Fatal("Reset Layout: the layout is not rebuilt with every panel open")
	}
	c.CmdShowShortcuts()
	c.CmdAbout()
	if !f.a.help.shortcuts || !f.a.help.about {
		t.Fatal("Help → Shortcuts and About are not shown")
	}
	c.CmdShowShortcuts()
	if f.a.help.shortcuts {
		t.Fatal("F1 does not close the shortcuts again")
	}
	stats := f.a.vp.showStats
	c.CmdToggleStats()
	if f.a.vp.showStats == stats || f.a.ws.Settings().ShowStats != f.a.vp.showStats {
		t.Fatal("Stats Overlay is not toggled and remembered in the settings")
	}
}

// TestActionTableEnabledAndShortcuts: what each state allows, and which action a chord runs where.
func TestActionTableEnabledAndShortcuts(t *testing.T) {
	f := newAppFixture(t, Options{})
	c, d := f.a.cmds, f.a.ws.Doc()
	if _, err := d.SpawnCube(ecs.Entity{}); err != nil {
		t.Fatal(err)
	}
	d.Selection().Clear()
	enabled := func(label string) bool { return actionByLabel(label).isEnabled(c) }
	if enabled("Copy") || enabled("Delete") || !enabled("Undo") || enabled("Redo") || !enabled("Paste") || enabled("Unpack Prefab") {
		t.Fatal("nothing selected, one step done")
	}
	d.Selection().SelectAll()
	if !enabled("Copy") || !enabled("Delete") || !enabled("Rename") || enabled("Pause / Resume") {
		t.Fatal("selected")
	}
	d.PlayMode().Start()
	if !enabled("Copy") || !enabled("Paste") || !enabled("Create Empty") || !enabled("Create Cube") || !enabled("Duplicate") ||
		!enabled("Pause / Resume") || !enabled("Step") || enabled("Spawn Cube Grid...") || enabled("Save Selection as Prefab...") {
		t.Fatal("playing")
	}
	d.PlayMode().Stop()
	pressed := func(want imgui.KeyChord) func(imgui.KeyChord) bool {
		return func(c imgui.KeyChord) bool { return c == want }
	}
	for _, c := range []struct {
		chord imgui.KeyChord
		sc    shortcutContext
		want  string
	}{
		{ctrl | key(imgui.KeyS), shortcutContext{}, "Save"},
		{ctrl | shift | key(imgui.KeyS), shortcutContext{}, "Save As..."},
		{ctrl | shift | key(imgui.KeyZ), shortcutContext{}, ""}, // Redo: nothing to redo
		{ctrl | key(imgui.KeyS), shortcutContext{textInput: true}, ""},
		{ctrl | key(imgui.KeyS), shortcutContext{modal: true}, ""},
		{key(imgui.KeyW), shortcutContext{}, ""},
		{key(imgui.KeyW), shortcutContext{viewport: true}, "Translate gizmo"},
		{key(imgui.KeyW), shortcutContext{viewport: true, flying: true}, ""},
		{key(imgui.KeyDelete), shortcutContext{}, "Delete"},
	} {
		got := ""
		if ac := shortcutFor(f.a.cmds, c.sc, pressed(c.chord)); ac != nil {
			got = ac.label
		}
		if got != c.want {
			t.Errorf("%s with %+v runs %q, want %q", chordName(c.chord), c.sc, got, c.want)
		}
	}
	// Every action runs without panicking, in a frame as a shortcut runs it.
	f.ui.frame(func() {
		for i := range actions {
			if actions[i].label == "Quit" {
				continue
			}
			actions[i].run(c)
		}
	})
}
