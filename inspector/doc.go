// Package inspector is the Inspector panel of the Voltex editor: ImGui widgets (through giu and
// cimgui-go) generated from component schemas by package inspector/fields, showing every component
// of the selected entities live and editing them.
//
// A Panel is a giu widget. Each frame the editor hands it the world to show (the play world during
// play mode) and the selection, then builds it inside a window:
//
//	p := inspector.New(ed, inspector.Options{Names: names, Assets: registry, Hidden: []string{"Name"}})
//	...
//	g.Window("Inspector").Layout(p.Inspect(world, selection))
//
// The panel never changes the world itself: every edit is reported through the Editor interface,
// which the editor implements with undoable commands. A drag, from the moment the widget starts
// changing a value to its release, is bracketed by BeginEdit and EndEdit so that it becomes one undo
// step; a text field commits on Enter or when it loses focus; checkboxes, combos and pickers commit
// one step per choice. Input is validated by the field model before it is reported: no NaN or
// infinity, numbers clamped to their hints and integer ranges.
//
// With several entities selected the panel shows the components they all share; fields whose values
// differ show a mixed state ("--", or ImGui's mixed checkbox), and an edit applies to all of them.
// Fields changed by anything but the user's own edit (play-mode systems, undo and redo, a reload)
// get a tinted background that fades over about a second, driven by the ECS change ticks.
//
// May import: giu, cimgui-go, inspector/fields, ecs and the standard library; never package editor.
// Test binaries link cimgui-go and so import internal/glibcfix.
package inspector
