// Package editor is the Voltex Editor application: the giu master window, its dockspace and panels (Hierarchy,
// Viewport, Inspector, Assets, Console), the main menu, keyboard shortcuts, dialogs, the status bar and play mode.
//
// It is the only place, together with package inspector, that imports giu (and cimgui-go for the docking API). It
// owns the GUI loop thread: the ECS world and GL are touched only from that thread. Background work (file watching,
// big loads and saves) posts results to a queue that the loop drains at the start of each frame.
//
// The pure document model (scene, selection, undo history) lives in editor/doc; GL rendering in viewport/glrender;
// the inspector widgets in inspector. May import: giu, cimgui-go, and every package of this module except cmd.
package editor
