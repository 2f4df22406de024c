package doc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// journalScript does step i of a session that goes through every kind of journaled step, undo and
// redo (and a redo branch dropped).
func journalScript(t testing.TB, d *Document, i int) {
	t.Helper()
	tr := cid[ecs.Transform](t, d)
	h := d.History()
	switch i {
	case 0:
		must(t, d.SetField([]ecs.Entity{ent(t, d, 2)}, tr, "position[1]", float32(3)))
	case 1:
		must(t, d.Rename([]ecs.Entity{ent(t, d, 5)}, "Solo Two"))
	case 2:
		_, err := d.SpawnCube(ent(t, d, 1))
		must(t, err)
	case 3:
		must(t, d.Delete(ent(t, d, 3)))
	case 4, 6, 10, 11:
		must(t, h.Undo())
	case 5:
		must(t, h.Redo())
	case 7:
		p := scene.DefaultGrid()
		p.Count, p.Group = [3]int{3, 2, 2}, "Grid"
		_, _, err := d.SpawnGrid(context.Background(), p, nil)
		must(t, err)
	case 8:
		must(t, d.Reparent(ent(t, d, 1), ent(t, d, 5)))
	case 9:
		must(t, d.SetSceneName("Recovered"))
	case 12:
		_, err := d.Duplicate(ent(t, d, 2))
		must(t, err)
	case 13:
		d.BeginEdit("Drag")
		must(t, d.SetField([]ecs.Entity{ent(t, d, 4)}, tr, "scale[0]", float32(2)))
		must(t, d.SetField([]ecs.Entity{ent(t, d, 4)}, tr, "scale[0]", float32(2.5)))
		d.EndEdit()
	}
}

const journalSteps = 14

// journaledSession opens the small scene, starts its journal and runs the script, returning the
// document, the journal's path and the scene after each step (states[0]: before the first).
func journaledSession(t *testing.T, opts JournalOptions) (*Document, string, []string) {
	t.Helper()
	d := openSmall(t)
	jpath := filepath.Join(t.TempDir(), "state", "small.journal")
	if _, err := d.StartJournal(jpath, opts); err != nil {
		t.Fatal(err)
	}
	states := []string{content(t, d)}
	for i := range journalSteps {
		journalScript(t, d, i)
		states = append(states, content(t, d))
	}
	return d, jpath, states
}

// TestJournalRecoversTheSession: a journal flushed but never closed (a crash) recovers the scene
// as it was and the history of the session, step by step.
func TestJournalRecoversTheSession(t *testing.T) {
	d, jpath, _ := journaledSession(t, JournalOptions{})
	must(t, d.Journal().Flush())
	rc, err := Recover(context.Background(), jpath, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if rc.Torn || rc.FileChanged || rc.Merged || !rc.Unsaved {
		t.Fatalf("torn %v, file changed %v, merged %v, unsaved %v", rc.Torn, rc.FileChanged, rc.Merged, rc.Unsaved)
	}
	if rc.Doc.Path() != d.Path() || !rc.Doc.Dirty() {
		t.Errorf("recovered path %q dirty %v, want %q dirty", rc.Doc.Path(), rc.Doc.Dirty(), d.Path())
	}
	// The recovered history is the session's: the same steps, labels and redo branch.
	sameSession(t, rc.Doc, d)
	if rc.Doc.History().Redos() != d.History().Redos() {
		t.Errorf("redos %d, want %d", rc.Doc.History().Redos(), d.History().Redos())
	}
	must(t, d.CloseJournal(false))
}

// TestJournalTornTail: a journal cut anywhere (a crash mid-write) recovers the state after its last
// whole record, never part of the next.
func TestJournalTornTail(t *testing.T) {
	d, jpath, states := journaledSession(t, JournalOptions{})
	must(t, d.CloseJournal(false))
	data, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := splitRecords(data)
	if len(recs) != journalSteps+1 {
		t.Fatalf("%d records, want the base and %d steps", len(recs), journalSteps)
	}
	cut := filepath.Join(t.TempDir(), "cut.journal")
	off := len(recs[0]) + recHeader
	for k := 1; k < len(recs); k++ {
		n := len(recs[k]) + recHeader
		for _, at := range []int{off + 1, off + recHeader, off + n/2, off + n - 1} {
			must(t, os.WriteFile(cut, data[:at], 0o600))
			rc, err := Recover(context.Background(), cut, testOpts)
			if err != nil {
				t.Fatalf("cut at %d: %v", at, err)
			}
			if !rc.Torn {
				t.Errorf("cut at %d: not reported torn", at)
			}
			if got := content(t, rc.Doc); got != states[k-1] {
				t.Fatalf("cut inside record %d: the scene is not the one after step %d:\n%s\nwant\n%s", k+1, k-1, got, states[k-1])
			}
		}
		// A flipped byte is caught by the checksum.
		bad := append([]byte(nil), data[:off+n]...)
		bad[off+n-1] ^= 0x55
		must(t, os.WriteFile(cut, bad, 0o600))
		if rc, err := Recover(context.Background(), cut, testOpts); err != nil || content(t, rc.Doc) != states[k-1] {
			t.Fatalf("record %d corrupted: err %v", k+1, err)
		}
		off += n
	}
}

// fullDisk is a journal file on a disk with room for n more bytes.
type fullDisk struct {
	f *os.File
	n int
}

func (f *fullDisk) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.f.Write(p[:f.n])
		f.n = 0
		return k, &os.PathError{Op: "write", Path: f.f.Name(), Err: syscall.ENOSPC}
	}
	f.n -= len(p)
	return f.f.Write(p)
}
func (f *fullDisk) Sync() error  { return f.f.Sync() }
func (f *fullDisk) Close() error { return f.f.Close() }

// TestJournalDiskFull: when the disk fills up mid-record the journal stops with the error, the
// editing goes on, and recovery gives the state after the last whole record.
func TestJournalDiskFull(t *testing.T) {
	for _, room := range []int{0, 30, 200, 700} {
		var opts JournalOptions
		opts.create = func(p string) (journalFile, error) {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0o600)
			return &fullDisk{f: f, n: room}, err
		}
		d, jpath, states := journaledSession(t, opts)
		err := d.Journal().Flush()
		if !errors.Is(err, syscall.ENOSPC) || !errors.Is(d.Journal().Err(), syscall.ENOSPC) {
			t.Fatalf("room %d: flush error %v, want ENOSPC", room, err)
		}
		if err := d.CloseJournal(false); !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("close: %v, want the write error", err)
		}
		data, _ := os.ReadFile(jpath)
		recs, _ := splitRecords(data)
		rc, err := Recover(context.Background(), jpath, testOpts)
		if err != nil {
			t.Fatal(err)
		}
		if got := content(t, rc.Doc); got != states[len(recs)-1] {
			t.Fatalf("room %d: recovered scene is not the one after the %d whole steps", room, len(recs)-1)
		}
	}
}

// TestJournalChangedFileMerges: when the file changed since the journal began, the session's work
// is merged into it, and values both changed are merge conflicts.
func TestJournalChangedFileMerges(t *testing.T) {
	d := openSmall(t)
	jpath := filepath.Join(t.TempDir(), "small.journal")
	if _, err := d.StartJournal(jpath, JournalOptions{}); err != nil {
		t.Fatal(err)
	}
	tr := cid[ecs.Transform](t, d)
	must(t, d.SetField([]ecs.Entity{ent(t, d, 2)}, tr, "position[1]", float32(3)))
	must(t, d.Rename([]ecs.Entity{ent(t, d, 5)}, "Ours"))
	must(t, d.Journal().Flush())

	other, err := Open(context.Background(), d.Path(), testOpts, nil) // another program edits the file
	must(t, err)
	must(t, other.Rename([]ecs.Entity{ent(t, other, 5)}, "Theirs"))
	must(t, other.Rename([]ecs.Entity{ent(t, other, 4)}, "Theirs too"))
	must(t, other.Save(context.Background(), nil))

	rc, err := Recover(context.Background(), jpath, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if !rc.FileChanged || !rc.Merged || len(rc.Conflicts) != 1 {
		t.Fatalf("file changed %v, merged %v, conflicts %v; want a merge with one conflict", rc.FileChanged, rc.Merged, rc.Conflicts)
	}
	m := rc.Doc
	if got := get[ecs.Transform](t, m, m.EditWorld(), 2).Position[1]; got != 3 {
		t.Errorf("ours lost: position y %v", got)
	}
	if got := get[scene.Name](t, m, m.EditWorld(), 4).Value; got != "Theirs too" {
		t.Errorf("theirs lost: %q", got)
	}
	if got := len(m.Conflicts().List()); got != 1 {
		t.Errorf("%d conflicts in the scene, want 1", got)
	}
	must(t, d.CloseJournal(false))
}

// TestJournalSaveRestartsAndCleanCloseRemoves: a save makes the saved file the journal's base (the
// journal then holds no unsaved work), and a clean close deletes it.
func TestJournalSaveRestartsAndCleanCloseRemoves(t *testing.T) {
	d, jpath, _ := journaledSession(t, JournalOptions{})
	must(t, d.Save(context.Background(), nil))
	must(t, d.Journal().Flush())
	data, _ := os.ReadFile(jpath)
	if recs, _ := splitRecords(data); len(recs) != 1 {
		t.Fatalf("after a save the journal holds %d records, want its base alone", len(recs))
	}
	rc, err := Recover(context.Background(), jpath, testOpts)
	must(t, err)
	if rc.Unsaved || rc.FileChanged {
		t.Errorf("after a save: unsaved %v, file changed %v", rc.Unsaved, rc.FileChanged)
	}
	must(t, d.SetSceneName("After Save"))
	must(t, d.Journal().Flush())
	if rc, err = Recover(context.Background(), jpath, testOpts); err != nil || !rc.Unsaved || content(t, rc.Doc) != content(t, d) {
		t.Fatalf("an edit after the save: err %v", err)
	}
	must(t, d.CloseJournal(true))
	if _, err := os.Stat(jpath); !os.IsNotExist(err) {
		t.Errorf("a clean close left the journal: %v", err)
	}
}

// TestJournalCompacts: past MaxBytes of records after the base (and more than the base), the
// journal is rewritten as its base and one snapshot, and still recovers the scene.
func TestJournalCompacts(t *testing.T) {
	d, jpath, _ := journaledSession(t, JournalOptions{MaxBytes: 600})
	long := strings.Repeat("a long scene name ", 20)
	for i := range 20 { // 20 steps of 360 bytes and more: over MaxBytes and the small scene's base
		must(t, d.SetSceneName(fmt.Sprint(long, i)))
	}
	must(t, d.Journal().Flush()) // the writer finds the journal too big
	must(t, d.SetSceneName("Compacted"))
	must(t, d.Journal().Flush())
	data, _ := os.ReadFile(jpath)
	recs, _ := splitRecords(data)
	if len(recs) >= journalSteps {
		t.Fatalf("%d records: not compacted", len(recs))
	}
	rc, err := Recover(context.Background(), jpath, testOpts)
	must(t, err)
	if content(t, rc.Doc) != content(t, d) {
		t.Fatal("the compacted journal recovers another scene")
	}
	must(t, d.CloseJournal(false))
}

// TestJournalBaseAloneIsNoCompaction: a base bigger than MaxBytes (a big scene as opened) is not
// written again with a snapshot after each step: only the records after it count.
func TestJournalBaseAloneIsNoCompaction(t *testing.T) {
	d, jpath, _ := journaledSession(t, JournalOptions{MaxBytes: 1000}) // the small scene's base: 2 KB
	for i := range 3 {
		must(t, d.Journal().Flush())
		must(t, d.SetSceneName(fmt.Sprint("Step ", i)))
	}
	must(t, d.Journal().Flush())
	data, _ := os.ReadFile(jpath)
	recs, _ := splitRecords(data)
	for i, r := range recs {
		if i > 0 && r[0] != recStep && r[0] != recUndo && r[0] != recRedo {
			t.Fatalf("record %d of %d is of kind %d: the base alone made a compaction", i, len(recs), r[0])
		}
	}
	if want := 1 + journalSteps + 3; len(recs) != want {
		t.Fatalf("%d records, want %d (the base, then each step)", len(recs), want)
	}
	rc, err := Recover(context.Background(), jpath, testOpts)
	must(t, err)
	if content(t, rc.Doc) != content(t, d) {
		t.Fatal("the journal recovers another scene")
	}
	must(t, d.CloseJournal(false))
}

// TestJournalPathIsInTheStateFolder: journals live under $XDG_STATE_HOME, named by the scene's
// absolute path, never in the scene's folder.
func TestJournalPathIsInTheStateFolder(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	a, err := JournalPath("scenes/a.json")
	must(t, err)
	b, err := JournalPath("scenes/b.json")
	must(t, err)
	if filepath.Dir(a) != filepath.Join(state, "voltex", "journal") || a == b || filepath.Ext(a) != ".journal" {
		t.Errorf("journal paths %s, %s", a, b)
	}
	t.Setenv("XDG_STATE_HOME", "")
	home, _ := os.UserHomeDir()
	if c, _ := JournalPath("a.json"); filepath.Dir(c) != filepath.Join(home, ".local", "state", "voltex", "journal") {
		t.Errorf("without XDG_STATE_HOME: %s", c)
	}
}

// TestJournalPrefabStepsAsSnapshots: steps the journal has no compact form for (an instance of a
// prefab: its parts are rebased on their prefab) are journaled as the whole scene, and the steps
// after them replay on it, undo included.
func TestJournalPrefabStepsAsSnapshots(t *testing.T) {
	d, dir := openPrefabScene(t)
	jpath := filepath.Join(t.TempDir(), "level.journal")
	_, err := d.StartJournal(jpath, JournalOptions{})
	must(t, err)
	must(t, d.SetSceneName("Before"))
	e, err := d.Prefabs().Instantiate(context.Background(), filepath.Join(dir, "enemy.json"), ecs.Entity{}, mgl32.Vec3{0, 0, 7})
	must(t, err)
	must(t, d.Rename([]ecs.Entity{e}, "Boss"))
	tr := cid[ecs.Transform](t, d)
	must(t, d.SetField([]ecs.Entity{part(t, d, d.ID(e), 2)}, tr, "position[0]", float32(4)))
	must(t, d.History().Undo())
	must(t, d.Journal().Flush())
	data, _ := os.ReadFile(jpath)
	recs, _ := splitRecords(data)
	var kinds []byte
	for _, r := range recs {
		kinds = append(kinds, r[0])
	}
	if !slices.Equal(kinds, []byte{recBase, recStep, recSnapshot, recStep, recStep, recUndo}) {
		t.Errorf("records %v", kinds)
	}
	rc, err := Recover(context.Background(), jpath, testOpts)
	must(t, err)
	if content(t, rc.Doc) != content(t, d) {
		t.Fatalf("recovered:\n%s\nwant\n%s", content(t, rc.Doc), content(t, d))
	}
	if rc.Doc.History().UndoLabel() != "Rename" || rc.Doc.History().RedoLabel() != d.History().RedoLabel() {
		t.Errorf("recovered history: undo %q, redo %q", rc.Doc.History().UndoLabel(), rc.Doc.History().RedoLabel())
	}
	must(t, d.CloseJournal(true))
}

// TestJournalStartedOnUnsavedWork: a journal started on a scene with unsaved changes (or no file)
// takes the scene as it is for its base, so that the work before it is recovered too.
func TestJournalStartedOnUnsavedWork(t *testing.T) {
	d := openSmall(t)
	must(t, d.SetSceneName("Unsaved"))
	jpath := filepath.Join(t.TempDir(), "small.journal")
	_, err := d.StartJournal(jpath, JournalOptions{})
	must(t, err)
	must(t, d.Rename([]ecs.Entity{ent(t, d, 2)}, "After"))
	must(t, d.Journal().Flush())
	rc, err := Recover(context.Background(), jpath, testOpts)
	must(t, err)
	if content(t, rc.Doc) != content(t, d) || !rc.Unsaved {
		t.Fatalf("recovered (unsaved %v):\n%s\nwant\n%s", rc.Unsaved, content(t, rc.Doc), content(t, d))
	}
	must(t, d.CloseJournal(true))
}

// TestRecoveryDiffText: the recovery's changes read as `voltex-editor diff` prints them, cut to a
// number of lines.
func TestRecoveryDiffText(t *testing.T) {
	d, jpath, _ := journaledSession(t, JournalOptions{})
	must(t, d.Journal().Flush())
	rc, err := Recover(context.Background(), jpath, testOpts)
	must(t, err)
	full := rc.DiffText(1000)
	if !strings.Contains(full, `entity 5 "Solo Two"`) || strings.Contains(full, "selection") {
		t.Errorf("diff text:\n%s", full)
	}
	cut := strings.Split(rc.DiffText(3), "\n")
	if len(cut) != 3 || !strings.HasPrefix(cut[2], "… and ") {
		t.Errorf("cut to 3 lines: %q", cut)
	}
	must(t, d.CloseJournal(true))
}

// TestJournalLetsTheBaseGo: the base record (the scene file's bytes) is written, not held for the
// session: a journal started on a big clean scene keeps far less than the file's size in memory.
func TestJournalLetsTheBaseGo(t *testing.T) {
	d := openSmall(t)
	p := scene.DefaultGrid()
	p.Count = [3]int{40, 10, 50}
	_, _, err := d.SpawnGrid(context.Background(), p, nil)
	must(t, err)
	path := filepath.Join(t.TempDir(), "big.json")
	must(t, d.SaveAs(context.Background(), path, nil))
	st, err := os.Stat(path)
	must(t, err)
	d, err = Open(context.Background(), path, Options{}, nil)
	must(t, err)
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	before := heap()
	j, err := d.StartJournal(filepath.Join(t.TempDir(), "big.journal"), JournalOptions{})
	must(t, err)
	must(t, j.Flush())
	grew := int64(heap()) - int64(before)
	runtime.KeepAlive(d)
	if grew > st.Size()/4 {
		t.Errorf("the journal holds %d bytes after its base was written (the file has %d)", grew, st.Size())
	}
	must(t, d.CloseJournal(true))
}

// TestJournalOfAnUntouchedSceneHoldsNoWork: a session that changed nothing (killed at once) leaves
// no work to recover, also for a file without an editor camera (the session has one).
func TestJournalOfAnUntouchedSceneHoldsNoWork(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.json")
	must(t, os.WriteFile(path, []byte(`{"format": "voltex.scene", "version": 2, "entities": []}`+"\n"), 0o644))
	d, err := Open(context.Background(), path, testOpts, nil)
	must(t, err)
	jpath := filepath.Join(t.TempDir(), "empty.journal")
	j, err := d.StartJournal(jpath, JournalOptions{})
	must(t, err)
	must(t, j.Flush())
	rc, err := Recover(context.Background(), jpath, testOpts)
	must(t, err)
	if rc.Unsaved {
		t.Errorf("an untouched scene has work to recover:\n%s", rc.DiffText(20))
	}
	must(t, d.CloseJournal(true))
}

// journalBase returns the scene bytes of the base record of the journal at jpath.
func journalBase(t *testing.T, jpath string) []byte {
	t.Helper()
	data, err := os.ReadFile(jpath)
	must(t, err)
	recs, _ := splitRecords(data)
	if len(recs) == 0 || recs[0][0] != recBase {
		t.Fatalf("%s has no base record", jpath)
	}
	r := &dec{b: recs[0][1:]}
	_, _, base := r.s(), r.s(), r.by()
	must(t, r.err)
	return base
}

// TestJournalBaseIsTheSceneAsOpened: the journal's base is the bytes Open read, not the file read
// again: changed by another program between the open and the journal's start, the file is merged
// with the session's work on recovery, not taken for the scene the session began from.
func TestJournalBaseIsTheSceneAsOpened(t *testing.T) {
	d := openSmall(t)
	opened, err := os.ReadFile(d.Path())
	must(t, err)
	other, err := Open(context.Background(), d.Path(), testOpts, nil)
	must(t, err)
	must(t, other.Rename([]ecs.Entity{ent(t, other, 4)}, "Theirs"))
	must(t, other.Save(context.Background(), nil))

	jpath := filepath.Join(t.TempDir(), "small.journal")
	_, err = d.StartJournal(jpath, JournalOptions{})
	must(t, err)
	must(t, d.Rename([]ecs.Entity{ent(t, d, 5)}, "Ours"))
	must(t, d.Journal().Flush())
	if base := journalBase(t, jpath); !bytes.Equal(base, opened) {
		t.Errorf("the journal's base is not the file as opened (%d bytes, want %d)", len(base), len(opened))
	}
	rc, err := Recover(context.Background(), jpath, testOpts)
	must(t, err)
	if !rc.FileChanged || !rc.Merged {
		t.Fatalf("file changed %v, merged %v; want the session merged into the changed file", rc.FileChanged, rc.Merged)
	}
	m := rc.Doc
	if got := get[scene.Name](t, m, m.EditWorld(), 5).Value; got != "Ours" {
		t.Errorf("ours lost: %q", got)
	}
	if got := get[scene.Name](t, m, m.EditWorld(), 4).Value; got != "Theirs" {
		t.Errorf("theirs lost: %q", got)
	}
	must(t, d.CloseJournal(false))
}

// TestJournalWritesNothingAtOpen: a journal started on a scene as opened writes no base (the scene
// file's bytes, megabytes for a big scene) while the scene opens: not before its first step, which
// writes it; a clean close of an untouched session leaves no file.
func TestJournalWritesNothingAtOpen(t *testing.T) {
	d := openSmall(t)
	jpath := filepath.Join(t.TempDir(), "small.journal")
	_, err := d.StartJournal(jpath, JournalOptions{})
	must(t, err)
	time.Sleep(200 * time.Millisecond) // time enough for a writer that writes the base at once
	if _, err := os.Stat(jpath); !os.IsNotExist(err) {
		t.Fatalf("the journal was written before any step: %v", err)
	}
	if d.opened != nil {
		t.Error("the document still holds the opened bytes the journal took")
	}
	must(t, d.CloseJournal(true))
	if _, err := os.Stat(jpath); !os.IsNotExist(err) {
		t.Fatalf("a clean close of an untouched session left a journal: %v", err)
	}

	d = openSmall(t)
	_, err = d.StartJournal(jpath, JournalOptions{BaseDelay: time.Hour})
	must(t, err)
	must(t, d.Rename([]ecs.Entity{ent(t, d, 5)}, "First step"))
	// The step wakes the writer: base and step are written without a Flush.
	waitRecords(t, jpath, 2, "the first step did not write the base and itself")
	must(t, d.CloseJournal(false))
}

// TestJournalSaveOfAnUntouchedSceneWritesNoOpenedBase: saving a scene as opened, before its journal's base is
// written, neither writes that base (the file's bytes, megabytes for a big scene) nor waits for it on the loop
// thread: the document is the file, nothing is lost if the save is cut short. The saved file becomes the base.
func TestJournalSaveOfAnUntouchedSceneWritesNoOpenedBase(t *testing.T) {
	d := openSmall(t)
	jpath := filepath.Join(t.TempDir(), "small.journal")
	_, err := d.StartJournal(jpath, JournalOptions{BaseDelay: time.Hour})
	must(t, err)
	job := d.PrepareSave("")
	if _, err := os.Stat(jpath); !os.IsNotExist(err) {
		t.Fatalf("preparing the save wrote the journal of an untouched scene: %v", err)
	}
	d.Finish(job, job.Run(context.Background(), nil))
	must(t, d.Journal().Flush())
	saved, err := os.ReadFile(d.Path())
	must(t, err)
	if base := journalBase(t, jpath); !bytes.Equal(base, saved) {
		t.Errorf("the journal's base is not the saved file (%d bytes, want %d)", len(base), len(saved))
	}
	data, err := os.ReadFile(jpath)
	must(t, err)
	if recs, _ := splitRecords(data); len(recs) != 1 {
		t.Error("the journal holds more than the saved base")
	}
	must(t, d.Rename([]ecs.Entity{ent(t, d, 5)}, "After Save"))
	must(t, d.Journal().Flush())
	rc, err := Recover(context.Background(), jpath, testOpts)
	if err != nil || !rc.Unsaved || rc.FileChanged || content(t, rc.Doc) != content(t, d) {
		t.Fatalf("an edit after the save is not recovered exactly: err %v", err)
	}
	must(t, d.CloseJournal(true))
}

// savedGrid saves a new scene of a cube grid of count to a file in a folder of t's, and returns its path.
func savedGrid(t testing.TB, count [3]int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "grid.json")
	p := grid100k("")
	p.Count = count
	d := New("Grid", testOpts)
	_, _, err := d.SpawnGrid(context.Background(), p, nil)
	must(t, err)
	must(t, d.SaveAs(context.Background(), path, nil))
	return path
}

// TestJournalBaseIsWrittenWithOneCopy: writing the base of a scene as opened streams the file's bytes into the
// record: it allocates a small part of the file's size, not a copy of it.
func TestJournalBaseIsWrittenWithOneCopy(t *testing.T) {
	path := savedGrid(t, [3]int{20, 10, 20})
	st, err := os.Stat(path)
	must(t, err)
	d, err := Open(context.Background(), path, testOpts, nil)
	must(t, err)
	j, err := d.StartJournal(filepath.Join(t.TempDir(), "grid.journal"), JournalOptions{BaseDelay: time.Hour})
	must(t, err)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	must(t, j.Flush())
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(st.Size())/4 {
		t.Errorf("writing the base allocated %d bytes for a %d-byte file", got, st.Size())
	}
	must(t, d.CloseJournal(true))
}

// TestJournalHoldsNoSceneBytes: a scene opened with its journal waiting for the first step holds no
// copy of its file's bytes (megabytes for a big scene): its memory is that of the same scene read
// from bytes it let go.
func TestJournalHoldsNoSceneBytes(t *testing.T) {
	path := savedGrid(t, [3]int{40, 10, 50})
	data, err := os.ReadFile(path)
	must(t, err)
	heap := func() int64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	h0 := heap()
	fromBytes, err := openFrom(context.Background(), path, data, testOpts, nil)
	must(t, err)
	h1 := heap()
	d, err := Open(context.Background(), path, testOpts, nil)
	must(t, err)
	_, err = d.StartJournal(filepath.Join(t.TempDir(), "grid.journal"), JournalOptions{BaseDelay: time.Hour})
	must(t, err)
	h2 := heap()
	runtime.KeepAlive(fromBytes)
	runtime.KeepAlive(data)
	extra := (h2 - h1) - (h1 - h0)
	t.Logf("%d bytes more than the scene alone (the file has %d)", extra, len(data))
	if extra > int64(len(data))/4 {
		t.Errorf("the opened scene with its journal holds %d bytes more than the scene alone (the file has %d)", extra, len(data))
	}
	must(t, d.CloseJournal(true))
}

// gatedSync is a journal file whose first Sync once armed notes the scene file's bytes, then waits
// for gate.
type gatedSync struct {
	*os.File
	armed           *atomic.Bool
	scene           string
	gate            chan struct{}
	once            sync.Once
	sceneAtJournals []byte
}

func (f *gatedSync) Sync() error {
	if f.armed.Load() {
		f.once.Do(func() {
			f.sceneAtJournals, _ = os.ReadFile(f.scene)
			<-f.gate
		})
	}
	return f.File.Sync()
}

// TestJournalSaveWaitsOffTheLoop: preparing a save queues its record and returns without waiting for
// the journal to sync it; the save's job waits for that before its file replaces the old one.
func TestJournalSaveWaitsOffTheLoop(t *testing.T) {
	d := openSmall(t)
	before, err := os.ReadFile(d.Path())
	must(t, err)
	var armed atomic.Bool
	gf := &gatedSync{armed: &armed, scene: d.Path(), gate: make(chan struct{})}
	opts := JournalOptions{create: func(p string) (journalFile, error) {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0o600)
		gf.File = f
		return gf, err
	}}
	_, err = d.StartJournal(filepath.Join(t.TempDir(), "small.journal"), opts)
	must(t, err)
	must(t, d.Rename([]ecs.Entity{ent(t, d, 5)}, "Saved"))
	must(t, d.Journal().Flush())
	armed.Store(true)
	prepared := make(chan *WriteJob)
	go func() { prepared <- d.PrepareSave("") }()
	var job *WriteJob
	select {
	case job = <-prepared:
	case <-time.After(30 * time.Second):
		t.Fatal("PrepareSave waits for the journal to sync")
	}
	ran := make(chan error)
	go func() { ran <- job.Run(context.Background(), nil) }()
	close(gf.gate)
	err = <-ran
	d.Finish(job, err)
	must(t, err)
	if !bytes.Equal(gf.sceneAtJournals, before) {
		t.Error("the saved file replaced the old one before the journal synced the save's record")
	}
	must(t, d.CloseJournal(true))
}

// TestJournalBaseOfAFileChangedInPlace: a scene file rewritten in place after the open (its bytes
// as opened gone) is not taken for the base, whether its size or time tells (the loop thread's look
// before the first step) or only its hash (the writer's): the journal starts again on the file as it
// is, with the session's scene, and recovery gives exactly that scene.
func TestJournalBaseOfAFileChangedInPlace(t *testing.T) {
	for _, sameSize := range []bool{false, true} {
		d := openSmall(t)
		jpath := filepath.Join(t.TempDir(), "small.journal")
		_, err := d.StartJournal(jpath, JournalOptions{BaseDelay: time.Hour})
		must(t, err)
		data, err := os.ReadFile(d.Path())
		must(t, err)
		st, err := os.Stat(d.Path())
		must(t, err)
		theirs := bytes.Replace(data, []byte(`"name": "B"`), []byte(`"name": "T"`), 1)
		if !sameSize {
			theirs = bytes.Replace(data, []byte(`"name": "B"`), []byte(`"name": "Theirs"`), 1)
		}
		must(t, os.WriteFile(d.Path(), theirs, 0o644))
		if sameSize {
			must(t, os.Chtimes(d.Path(), st.ModTime(), st.ModTime()))
		}
		must(t, d.Rename([]ecs.Entity{ent(t, d, 5)}, "Ours"))
		must(t, d.Journal().Flush())
		must(t, d.Rename([]ecs.Entity{ent(t, d, 6)}, "Ours too"))
		must(t, d.Journal().Flush())
		rc, err := Recover(context.Background(), jpath, testOpts)
		if err != nil {
			t.Fatalf("same size %v: %v", sameSize, err)
		}
		if got, want := content(t, rc.Doc), content(t, d); got != want || rc.Merged {
			t.Errorf("same size %v: the recovered scene (merged %v) is not the session's:\n%s\nwant\n%s", sameSize, rc.Merged, got, want)
		}
		must(t, d.CloseJournal(true))
	}
}

// sameSession fails unless rc (recovered) and d have the same scene and, undone step by step, the
// same history (d is undone too).
func sameSession(t *testing.T, rc, d *Document) {
	t.Helper()
	if got, want := content(t, rc), content(t, d); got != want {
		t.Fatalf("recovered scene differs:\n%s\nwant\n%s", got, want)
	}
	for rc.History().CanUndo() || d.History().CanUndo() {
		if a, b := rc.History().UndoLabel(), d.History().UndoLabel(); a != b {
			t.Fatalf("undo label %q, want %q", a, b)
		}
		must(t, rc.History().Undo())
		must(t, d.History().Undo())
		if content(t, rc) != content(t, d) {
			t.Fatalf("after undo %q the scenes differ", d.History().RedoLabel())
		}
	}
}

// TestJournalFieldEditsAsDeltas: an edit of a value the journal wrote before for the same entity
// is written as the bytes that changed (a field edit of one entity takes under 30 bytes, its whole
// value with the record 55), and recovery rebuilds every value: entities edited alone and many in
// one step, more entities than the writer keeps values of (they share its slots), undo between
// edits, a grid spawned between them.
func TestJournalFieldEditsAsDeltas(t *testing.T) {
	d := openSmall(t)
	jpath := filepath.Join(t.TempDir(), "state", "small.journal")
	j, err := d.StartJournal(jpath, JournalOptions{})
	must(t, err)
	tr := cid[ecs.Transform](t, d)
	size := func() int64 {
		t.Helper()
		must(t, j.Flush())
		st, err := os.Stat(jpath)
		must(t, err)
		return st.Size()
	}
	one := []ecs.Entity{ent(t, d, 2)}
	must(t, d.SetField(one, tr, "position[1]", float32(1)))
	before := size()
	must(t, d.SetField(one, tr, "position[1]", float32(2)))
	if n := size() - before; n >= 30 {
		t.Errorf("a field edit of an entity edited before took %d bytes of journal", n)
	}
	p := scene.DefaultGrid()
	p.Count = [3]int{10, 1, 10} // more entities than deltaSlots
	_, cubes, err := d.SpawnGrid(context.Background(), p, nil)
	must(t, err)
	all := append([]ecs.Entity{ent(t, d, 2), ent(t, d, 4)}, cubes...)
	for i := range 12 {
		x := float32(i)
		switch i % 4 {
		case 0:
			must(t, d.SetField(all, tr, "position[0]", x))
		case 1:
			must(t, d.SetField(all[i:i+3], tr, "scale[2]", x+0.5))
		case 2:
			must(t, d.History().Undo())
			must(t, d.SetField(one, tr, "position[2]", -x))
		case 3:
			for _, e := range all[:20] {
				must(t, d.SetField([]ecs.Entity{e}, tr, "rotation[1]", x*3))
			}
		}
	}
	must(t, j.Flush())
	rc, err := Recover(context.Background(), jpath, testOpts)
	must(t, err)
	sameSession(t, rc.Doc, d)
	must(t, d.CloseJournal(false))
}

// TestJournalQueueLetsRecordsGo: once the writer took them, the queue's blocks hold no record — no snapshot's
// copy of the world, no command — the block being filled too (a snapshot of a million cubes is a quarter of a GB).
func TestJournalQueueLetsRecordsGo(t *testing.T) {
	d, _, _ := journaledSession(t, JournalOptions{})
	d.History().Clear() // a snapshot
	must(t, d.SetSceneName("After the snapshot"))
	must(t, d.Journal().Flush())
	j := d.Journal()
	if j.tailN == 0 {
		t.Fatal("nothing queued in the current block: the test shows nothing")
	}
	for i, it := range j.tail.items[:j.tailN] {
		if it.ext != nil || it.cmd != nil {
			t.Fatalf("record %d of the current block still holds %+v after it was written", i, it)
		}
	}
	must(t, d.CloseJournal(false))
}

// TestJournalSaveDefersItsBase: a save does not copy the saved file into the journal at once (the frames right
// after it keep the CPU and the disk): until a step comes, the journal holds the session's records and the save's,
// which recover nothing unsaved; the first step writes the saved file's base, then itself.
func TestJournalSaveDefersItsBase(t *testing.T) {
	d, jpath, _ := journaledSession(t, JournalOptions{BaseDelay: time.Hour})
	must(t, d.Journal().Flush())
	before, err := os.ReadFile(jpath)
	must(t, err)
	recsBefore, _ := splitRecords(before)
	must(t, d.Save(context.Background(), nil))
	time.Sleep(200 * time.Millisecond) // time enough for a writer that writes the base at once
	after, err := os.ReadFile(jpath)
	must(t, err)
	recs, _ := splitRecords(after)
	if !bytes.HasPrefix(after, before) || len(recs) != len(recsBefore)+1 || recs[len(recs)-1][0] != recSave {
		t.Fatalf("after the save the journal holds %d records (%d before), want the session's and the save's", len(recs), len(recsBefore))
	}
	rc, err := Recover(context.Background(), jpath, testOpts)
	must(t, err)
	if rc.Unsaved || rc.FileChanged {
		t.Errorf("killed right after the save: unsaved %v, file changed %v", rc.Unsaved, rc.FileChanged)
	}

	must(t, d.Rename([]ecs.Entity{ent(t, d, 5)}, "After Save"))
	saved, err := os.ReadFile(d.Path())
	must(t, err)
	waitRecords(t, jpath, 2, "the first step after the save did not write the base and itself")
	if base := journalBase(t, jpath); !bytes.Equal(base, saved) {
		t.Errorf("the journal's base is not the saved file (%d bytes, want %d)", len(base), len(saved))
	}
	rc, err = Recover(context.Background(), jpath, testOpts)
	if err != nil || !rc.Unsaved || rc.FileChanged || content(t, rc.Doc) != content(t, d) {
		t.Fatalf("the step after the save is not recovered exactly: err %v", err)
	}
	must(t, d.CloseJournal(true))
}

// TestJournalSavedFileChangedBeforeItsBase: changed by another program after the save, before the journal's base
// was written, the file is not taken for the saved one: the journal starts again on it, and recovers the session.
func TestJournalSavedFileChangedBeforeItsBase(t *testing.T) {
	d, jpath, _ := journaledSession(t, JournalOptions{BaseDelay: time.Hour})
	must(t, d.Save(context.Background(), nil))
	other, err := Open(context.Background(), d.Path(), testOpts, nil)
	must(t, err)
	must(t, other.SetSceneName("Changed Elsewhere"))
	must(t, other.Save(context.Background(), nil))
	must(t, d.Rename([]ecs.Entity{ent(t, d, 5)}, "After Save"))
	must(t, d.Journal().Flush())
	rc, err := Recover(context.Background(), jpath, testOpts)
	must(t, err)
	if !rc.Unsaved || content(t, rc.Doc) != content(t, d) {
		t.Fatalf("the session after the save is not recovered exactly (merged %v)", rc.Merged)
	}
	must(t, d.CloseJournal(true))
}

// waitRecords waits until the journal at jpath holds n records, failing with why after 20 s.
func waitRecords(t *testing.T, jpath string, n int, why string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		data, _ := os.ReadFile(jpath)
		if recs, _ := splitRecords(data); len(recs) == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(why)
		}
	}
}

// TestJournalWriteBaseNow: WriteBase writes the base that waits for the first step (the scene as opened, then as
// saved) at once, calls back once it is written, and BaseWaits tells it in the meantime.
func TestJournalWriteBaseNow(t *testing.T) {
	d := openSmall(t)
	jpath := filepath.Join(t.TempDir(), "small.journal")
	j, err := d.StartJournal(jpath, JournalOptions{BaseDelay: time.Hour})
	must(t, err)
	for _, what := range []string{"opened", "saved"} {
		if !j.BaseWaits() {
			t.Fatalf("%s: no base waits", what)
		}
		written := make(chan struct{})
		if !j.WriteBase(func() { close(written) }) {
			t.Fatalf("%s: WriteBase found no base to write", what)
		}
		select {
		case <-written:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the base was not written", what)
		}
		file, err := os.ReadFile(d.Path())
		must(t, err)
		if base := journalBase(t, jpath); !bytes.Equal(base, file) || j.BaseWaits() {
			t.Fatalf("%s: the journal's base is not the file (%d bytes, want %d), or still waits", what, len(base), len(file))
		}
		must(t, d.Rename([]ecs.Entity{ent(t, d, 5)}, "Renamed "+what))
		must(t, d.Save(context.Background(), nil))
	}
	must(t, d.CloseJournal(true))
}

// TestOpenHashesAfterTheGate: with Alternate, Open hashes the file's bytes (the journal's base is checked by
// them) only once it is closed, and waits for that hash before it returns.
func TestOpenHashesAfterTheGate(t *testing.T) {
	path := savedGrid(t, [3]int{10, 10, 10})
	gate := make(chan struct{})
	opts := testOpts
	opts.Alternate = gate
	opened := make(chan *Document, 1)
	go func() {
		d, err := Open(context.Background(), path, opts, nil)
		if err != nil {
			t.Error(err)
		}
		opened <- d
	}()
	select {
	case <-opened:
		t.Fatal("Open returned before its hash was let go")
	case <-time.After(300 * time.Millisecond):
	}
	close(gate)
	d := <-opened
	data, err := os.ReadFile(path)
	must(t, err)
	if d == nil || d.opened == nil || d.opened.hash != fileHashOf(data) {
		t.Fatal("the opened file's hash is not its bytes'")
	}
}
