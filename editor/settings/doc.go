// Package settings persists the editor's preferences between runs: recent files (10), recent places for the file
// dialog, gizmo snapping steps and toggles (grid, surface) and panel toggles. The file is JSON in the user's config
// folder (~/.config/voltex-editor/settings.json) or a folder given with --settings.
//
// A broken or hostile settings file never stops the editor: Load returns defaults plus an error in
// file:line:col form for the console, and leaves the file untouched until the next save, which is atomic.
// Pure Go; may import: the standard library, internal/atomicfile and internal/words.
package settings
