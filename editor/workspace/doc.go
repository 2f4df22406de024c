// Package workspace is the editor's workspace: the open scene and everything that acts on it as a whole — the
// document (editor/doc), its project file, the asset registry, the settings, the file watcher and background jobs —
// and the editor's commands (New, Open, Save, Undo, Play, the prefab commands…) with their flows: the
// unsaved-changes question, quitting, outside edits, project file changes.
//
// It is the middle of package editor's three layers (docs/architecture.md, "The editor's shape"): [Workspace]
// draws nothing and imports no ImGui or GL; what it needs of the window — a question, a file dialog, a panel to
// show an entity — goes through its [UI] interface, which package editor implements by handing each request to the
// panel or dialog that owns it, and tests fake. Package editor's App makes it, runs its BeginFrame at the start of
// every frame (background results merged, play mode advanced), and hands its commands to the menu and shortcuts.
//
// Only the GUI loop thread calls it: long work runs as a job ([Jobs]) whose slow half touches only data of its
// own, its result merged on the loop thread.
package workspace
