//go:build !windows

package doc

// keepOpenedFile: an open file does not stop another from taking its name (a save, a checkout),
// and keeps its bytes readable after that.
const keepOpenedFile = true
