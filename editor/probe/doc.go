// Package probe defines what voltex-editor reports to end-to-end tests: when $VOLTEX_PROBE names a file, the editor
// writes its State there as JSON (panel and widget rectangles, counters, dirty state, selection, the open dialog,
// the last console lines). The editor fills it; the GUI harness (cmd/voltex-editor/internal/guitest) reads it. One
// definition for both sides keeps them in step.
package probe
