// Package filedialog is the model behind the editor's file dialog (Open, Save As, Export): the current folder and
// its listing (folders first, then files matching the extension filter, hidden files hidden), navigation (up,
// into, typed paths, recent places), the typed file name and what choosing it means (open an existing file, or
// save — with the extension added and an overwrite confirmation when the file exists).
//
// It is pure Go and touches the file system only through os.ReadDir/os.Stat; the giu widget that shows it lives in
// package editor. May import: the standard library.
package filedialog
