// Package atomicfile writes files atomically: the contents go to a temporary file in the same folder, which is
// synced and renamed over the target, so that a reader (or a crash, or a kill) sees the complete old or the complete
// new file, never a mix. [WriteFile] and [WriteFileFunc] keep the previous version as FILE.bak (scenes, exports,
// prefabs); [ReplaceFile] and [ReplaceFileFunc] keep none (settings, rendered images). Read-only files are refused,
// symlinks written through, owners and permissions kept. Standard library only.
package atomicfile
