package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
)

// killedSession leaves a journal with unsaved work of a new scene file at path (renamed entity: name), as a
// session killed before it saved does.
func killedSession(t *testing.T, path, name string) *Workspace {
	t.Helper()
	w, _ := newTestWorkspace(t, 2)
	if err := w.doc.SaveAs(context.Background(), path, nil); err != nil {
		t.Fatal(err)
	}
	openInTest(t, w, path)
	e, _ := w.doc.Entity(w.doc.IDs()[0])
	if err := w.doc.Rename([]ecs.Entity{e}, name); err != nil {
		t.Fatal(err)
	}
	if err := w.doc.Journal().Flush(); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestStartOffersOtherScenesJournals: started on no scene (or another one), the editor asks about the journals
// with unsaved work of scenes that exist — not about a scene that is gone, a journal whose work was saved, or the
// scene it opens: Later keeps a journal, Discard deletes it, Recover opens its scene, which then offers its work.
func TestStartOffersOtherScenesJournals(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := t.TempDir()
	a, b, gone, opened := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(dir, "gone.json"), filepath.Join(dir, "opened.json")
	killedSession(t, a, "WorkOfA")
	killedSession(t, b, "WorkOfB")
	killedSession(t, gone, "Lost")
	killedSession(t, opened, "WorkOfOpened")
	saved := filepath.Join(dir, "saved.json")
	ws := killedSession(t, saved, "Saved")
	if err := ws.doc.SaveAs(context.Background(), saved, nil); err != nil {
		t.Fatal(err)
	}
	if err := ws.doc.Journal().Flush(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	jpath := func(p string) string {
		j, err := doc.JournalPath(p)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }

	// Started on opened.json: its own question comes as it opens; the others' are asked after.
	w, f := newTestWorkspace(t, 0)
	if _, err := w.OpenFirst(opened); err != nil {
		t.Fatal(err)
	}
	if f.question == nil || f.question.title != "Recover unsaved work" {
		t.Fatalf("opened.json's own question: %+v", f.question)
	}
	f.answer(t, "Discard")
	f.question = nil
	w.Journals().Offer(opened)
	q := f.question
	if q == nil || q.title != "Unsaved work of other scenes" || !strings.Contains(q.message, a) || !strings.Contains(q.message, b) ||
		strings.Contains(q.message, gone) || strings.Contains(q.message, opened) || strings.Contains(q.message, saved) || !strings.Contains(q.message, "1 change") {
		t.Fatalf("question %+v", q)
	}
	f.answer(t, "Later") // a: kept
	if !strings.Contains(f.question.message, "b.json: Recover") {
		t.Fatalf("the second question %+v", f.question)
	}
	f.answer(t, "Discard") // b: deleted
	if !exists(jpath(a)) || exists(jpath(b)) || !exists(jpath(gone)) {
		t.Fatalf("after Later and Discard: a's journal %v, b's %v, gone's %v", exists(jpath(a)), exists(jpath(b)), exists(jpath(gone)))
	}
	w.Close()

	// Started on no scene: a is asked about again; Recover opens it with its own question.
	w, f = newTestWorkspace(t, 0)
	if _, err := w.OpenFirst(""); err != nil {
		t.Fatal(err)
	}
	w.Journals().Offer("")
	if f.question == nil || !strings.Contains(f.question.message, a) || strings.Contains(f.question.message, b) {
		t.Fatalf("at the next start: %+v", f.question)
	}
	f.answer(t, "Recover")
	waitJob(t, w)
	if w.doc.Path() != a || f.question == nil || f.question.title != "Recover unsaved work" {
		t.Fatalf("Recover: open %q, question %+v", w.doc.Path(), f.question)
	}
	f.answer(t, "Recover")
	if e, ok := w.doc.Entity(w.doc.IDs()[0]); !ok || w.doc.Name(e) != "WorkOfA" || !w.doc.Dirty() {
		t.Fatalf("a.json recovered: names %v, dirty %v", w.doc.IDs(), w.doc.Dirty())
	}
	w.Close()
}
