package workspace

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/viewport"
)

// An open in the background builds the scene's draw list beside the load and hands it, once, to the panels that
// show the new document; an open not taken (Cancel at the unsaved-changes question) keeps nothing of it.
func TestOpenHandsOverItsDrawList(t *testing.T) {
	src, _ := newTestWorkspace(t, 5)
	path := filepath.Join(t.TempDir(), "five.json")
	if err := src.doc.SaveAs(context.Background(), path, nil); err != nil {
		t.Fatal(err)
	}

	w, f := newTestWorkspace(t, 2) // unsaved cubes: the open asks first
	var took *viewport.Builder
	old := w.doc.World()
	f.onDoc = func(d *doc.Document) {
		if w.TakeDrawList(old) != nil {
			t.Error("a list handed over for the world of the document being closed")
		}
		took = w.TakeDrawList(d.World())
		if again := w.TakeDrawList(d.World()); again != nil {
			t.Error("the list was handed over twice")
		}
	}
	docs := f.docs
	w.openPath(path)
	waitJob(t, w)
	f.answer(t, "Cancel")
	if f.docs != docs || w.drawn != nil {
		t.Fatalf("after Cancel: %d new documents shown, a list kept: %v", f.docs-docs, w.drawn != nil)
	}

	w.openPath(path)
	waitJob(t, w)
	f.answer(t, "Don't Save")
	if took == nil {
		t.Fatal("no draw list handed over with the opened document")
	}
	if took.World() != w.doc.World() || took.DrawList().Len() != 5 {
		t.Fatalf("the list handed over: its world the document's %v, %d instances, want 5", took.World() == w.doc.World(),
			took.DrawList().Len())
	}
	if w.drawn != nil {
		t.Error("the list is still kept after the document was shown")
	}
}
