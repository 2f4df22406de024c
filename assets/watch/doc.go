// Package watch follows files on disk for the editor: the open scene file and every asset
// file in use. It is built on fsnotify and turns its raw, bursty, platform-shaped events into
// one calm [Event] per file and change, delivered through a queue that the GUI loop drains.
//
// What it does:
//   - watches each file's parent directory, so editors that save by writing a temporary file
//     and renaming it over the target, and files deleted and created again, keep being
//     followed (a directory that disappears is re-watched once it is back);
//   - coalesces bursts: a file's events are reported once it has been quiet for
//     [Options.Quiet] (100 ms by default), or at the latest [Options.MaxDelay] after the first;
//   - compares content, not timestamps: a file is reported [Changed] only when its content
//     hash differs from the last one known, and [Missing] when it no longer exists;
//   - follows a directory's list of names when a directory is added: [Changed] when files
//     appear in it, go or are renamed (new assets to list), calm through atomic saves beside it;
//   - suppresses the editor's own saves: [Watcher.ExpectOwnWrite] declares the content the
//     editor is about to write, so that save produces no event, while any other content
//     written by someone else, even right after, still does.
//
// Threads: one goroutine reads fsnotify, reads and hashes changed files, and appends events to
// a queue; it never touches the world or GL. The GUI loop calls [Watcher.Poll] each frame (it
// does not block), and may pass [Options.Wake] (e.g. giu.Update) to be woken when events
// arrive. [Watcher.Close] stops everything and waits for the goroutines to end.
package watch
