// Package editor is the Voltex Editor application: the giu master window, its dockspace and panels (Hierarchy,
// Viewport, Inspector, Assets, Console), the main menu, keyboard shortcuts, dialogs, the status bar and play mode.
//
// [App] only wires and docks: it makes the workspace (package editor/workspace) — the open document and everything
// that acts on it (commands, the unsaved-changes and quit flows, jobs, the file watcher), which draws nothing — and
// the panels, giu widgets (Build) that each receive the narrow interfaces they use. docs/architecture.md ("The
// editor's shape") lists them and says where a new panel goes.
//
// It is the only place, together with package inspector, that imports giu (and cimgui-go for the docking API). It
// owns the GUI loop thread: the ECS world and GL are touched only from that thread. Background work (file watching,
// big loads and saves) posts results to a queue that the loop drains at the start of each frame.
//
// The pure document model (scene, camera, selection, undo history) lives in editor/doc, the Hierarchy panel's model
// in editor/hierarchy; the viewport draws through the viewport.Renderer interface (viewport/glrender in the editor);
// the inspector widgets are in package inspector.
package editor
