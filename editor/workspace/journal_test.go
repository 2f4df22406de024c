package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/internal/statedir"
)

// The workspace's tests keep their session journals in a state folder of their own.
func TestMain(m *testing.M) { statedir.Main(m) }

// openInTest makes d the workspace's scene as opening it does.
func openInTest(t *testing.T, w *Workspace, path string) {
	t.Helper()
	d, err := doc.Open(context.Background(), path, w.docOpts, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.SetDoc(d)
}

// TestRecoverOffersTheJournal: a scene whose journal holds unsaved work (a session killed before it saved) asks
// Recover / Discard / Open both when it opens, listing the changes; Recover gives the work back unsaved, Open both
// writes it beside the file, Discard drops it; opening another scene or closing ends the journal cleanly.
func TestRecoverOffersTheJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "level.json")
	for _, answer := range []string{"Recover", "Discard", "Open both"} {
		w, f := newTestWorkspace(t, 2)
		if err := w.doc.SaveAs(context.Background(), path, nil); err != nil {
			t.Fatal(err)
		}
		openInTest(t, w, path)
		if f.question != nil || w.doc.Journal() == nil {
			t.Fatalf("%s: a scene without a journal asked %v, journal %v", answer, f.question, w.doc.Journal())
		}
		e, _ := w.doc.Entity(w.doc.IDs()[0])
		if err := w.doc.Rename([]ecs.Entity{e}, "Unsaved"); err != nil {
			t.Fatal(err)
		}
		if err := w.doc.Journal().Flush(); err != nil {
			t.Fatal(err)
		}
		// The session is killed: a new one opens the scene.
		w2, f2 := newTestWorkspace(t, 0)
		openInTest(t, w2, path)
		q := f2.question
		if q == nil || q.title != "Recover unsaved work" || !strings.Contains(q.message, `"Unsaved"`) || q.buttons[0] != "Recover" {
			t.Fatalf("%s: question %+v", answer, q)
		}
		f2.answer(t, answer)
		name := w2.doc.Name(mustEntity(t, w2.doc, w.doc.ID(e)))
		other, _ := os.ReadFile(strings.TrimSuffix(path, ".json") + ".recovered.json")
		switch answer {
		case "Recover":
			if name != "Unsaved" || !w2.doc.Dirty() || w2.doc.History().UndoLabel() != "Rename" {
				t.Errorf("recovered: name %q, dirty %v, undo %q", name, w2.doc.Dirty(), w2.doc.History().UndoLabel())
			}
		case "Discard":
			if name == "Unsaved" || w2.doc.Dirty() {
				t.Errorf("discarded: name %q, dirty %v", name, w2.doc.Dirty())
			}
		default:
			if name == "Unsaved" || !strings.Contains(string(other), `"Unsaved"`) {
				t.Errorf("open both: name %q, the recovered file %q", name, other)
			}
		}
		_ = os.Remove(strings.TrimSuffix(path, ".json") + ".recovered.json")
		if w2.doc.Journal() == nil {
			t.Fatalf("%s: no journal after the question", answer)
		}
		jpath := w2.doc.Journal().Path()
		w2.Close() // a clean close
		if _, err := os.Stat(jpath); !os.IsNotExist(err) {
			t.Errorf("%s: the journal outlived a clean close: %v", answer, err)
		}
		w.Close()
	}
}

func mustEntity(t *testing.T, d *doc.Document, id uint64) ecs.Entity {
	t.Helper()
	e, ok := d.Entity(id)
	if !ok {
		t.Fatalf("no entity %d", id)
	}
	return e
}

// TestJournalFollowsSaveAs: a new scene gets its journal at its first save, and a Save As to another file moves
// the journal to that file's (the old one is deleted).
func TestJournalFollowsSaveAs(t *testing.T) {
	w, f := newTestWorkspace(t, 1)
	if w.doc.Journal() != nil {
		t.Fatal("a scene without a file has a journal")
	}
	dir := t.TempDir()
	w.CmdSaveAs()
	f.choose(t, filepath.Join(dir, "a.json"))
	j := w.doc.Journal()
	if j == nil {
		t.Fatal("no journal after the first save")
	}
	first := j.Path()
	w.CmdSaveAs()
	f.choose(t, filepath.Join(dir, "b.json"))
	want, _ := doc.JournalPath(filepath.Join(dir, "b.json"))
	if w.doc.Journal() == nil || w.doc.Journal().Path() != want {
		t.Fatalf("after Save As: journal %v, want %s", w.doc.Journal(), want)
	}
	if _, err := os.Stat(first); !os.IsNotExist(err) {
		t.Errorf("the old scene's journal is left: %v", err)
	}
	w.Close()
}

// TestSelectSceneID: a row of the Differences window selects its entity when the scene has it, and shows it; an id
// the scene lacks (an entity the other side added) or the scene itself selects nothing.
func TestSelectSceneID(t *testing.T) {
	w, f := newTestWorkspace(t, 0)
	e, err := w.doc.SpawnCube(ecs.Entity{})
	if err != nil {
		t.Fatal(err)
	}
	id := w.doc.ID(e)
	w.doc.Selection().Clear()
	w.selectSceneID(int64(id) + 1000)
	w.selectSceneID(0)
	if w.doc.Selection().Len() != 0 || len(f.shown) != 0 {
		t.Fatalf("an id the scene lacks selected %v, showed %v", w.doc.Selection().IDs(), f.shown)
	}
	w.selectSceneID(int64(id))
	if ids := w.doc.Selection().IDs(); len(ids) != 1 || ids[0] != id || len(f.shown) != 1 || f.shown[0] != e {
		t.Fatalf("selecting id %d: selection %v, shown %v", id, ids, f.shown)
	}
}
