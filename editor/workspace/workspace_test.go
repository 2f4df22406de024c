package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets/watch"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/snap"
)

// fakeUI is the window as the workspace sees it: it records what the commands ask for, and lets a test answer the
// question or the file dialog that is open.
type fakeUI struct {
	question  *question
	file      *FileRequest
	grid      *settings.Grid
	calls     []string
	docs      int
	onDoc     func(*doc.Document) // called by DocChanged, as the window's panels are
	framed    bool
	preview   *viewport.DrawList
	clip      string
	closed    bool
	shown     []ecs.Entity
	sceneVer  uint64
	questions []string // titles of every question and alert asked
	keep      *keepRequest
}

// keepRequest is the question which changes made while playing to keep (UI.AskKeepPlayChanges).
type keepRequest struct {
	ch       *doc.PlayChanges
	keepUser bool
	keep     func([]doc.PlayChange)
}

func (f *fakeUI) AskKeepPlayChanges(ch *doc.PlayChanges, keepUser bool, keep func([]doc.PlayChange)) {
	f.keep = &keepRequest{ch, keepUser, keep}
}

// question is a question the workspace asked (UI.Ask).
type question struct {
	title, message string
	buttons        []string
	onChoose       func(int)
}

func (f *fakeUI) Ask(title, message string, cancel int, onChoose func(int), buttons ...string) {
	f.question = &question{title: title, message: message, buttons: buttons, onChoose: onChoose}
	f.questions = append(f.questions, title)
}
func (f *fakeUI) Alert(title, message string) { f.Ask(title, message, 0, func(int) {}, "OK") }

// ShowDiff asks the diff as a question: its intro and text the message.
func (f *fakeUI) ShowDiff(req DiffRequest) {
	on, buttons := req.OnChoose, req.Buttons
	if len(buttons) == 0 {
		on, buttons = func(int) {}, []string{"Close"}
	}
	f.Ask(req.Title, req.Intro+"\n\n"+req.Text, req.Cancel, on, buttons...)
}
func (f *fakeUI) ChooseFile(req FileRequest) { f.file = &req }
func (f *fakeUI) OpenGridDialog(v settings.Grid) {
	f.grid = &v
}
func (f *fakeUI) DocChanged(d *doc.Document, frame bool) {
	f.docs, f.framed = f.docs+1, frame
	if f.onDoc != nil {
		f.onDoc(d)
	}
}
func (f *fakeUI) WorldReplaced()    { f.calls = append(f.calls, "worldReplaced") }
func (f *fakeUI) Show(e ecs.Entity) { f.shown = append(f.shown, e) }
func (f *fakeUI) Reveal(ecs.Entity) {}
func (f *fakeUI) KeepPreview(l *viewport.DrawList) {
	if l != nil {
		f.preview = l
	}
}
func (f *fakeUI) DropPreview(l *viewport.DrawList) {
	if f.preview == l {
		f.preview = nil
	}
}
func (f *fakeUI) AdoptPreview(l *viewport.DrawList, cubes []ecs.Entity) {
	f.calls = append(f.calls, "adopt")
}
func (f *fakeUI) ReloadMeshes()        { f.calls = append(f.calls, "reloadMeshes") }
func (f *fakeUI) SceneVersion() uint64 { return f.sceneVer }
func (f *fakeUI) SceneBounds() viewport.AABB {
	return viewport.EmptyAABB()
}
func (f *fakeUI) SurfaceAhead() (snap.SurfaceHit, bool) { return snap.SurfaceHit{}, false }
func (f *fakeUI) Close()                                { f.closed = true }
func (f *fakeUI) Clipboard() string                     { return f.clip }
func (f *fakeUI) SetClipboard(s string) {
	f.clip = s
}

// testLog is the console as tests read it: each line as "level: text".
type testLog struct{ lines []string }

func (l *testLog) Infof(format string, args ...any)  { l.add("info", format, args) }
func (l *testLog) Warnf(format string, args ...any)  { l.add("warning", format, args) }
func (l *testLog) Errorf(format string, args ...any) { l.add("error", format, args) }
func (l *testLog) add(level, format string, args []any) {
	l.lines = append(l.lines, level+": "+fmt.Sprintf(format, args...))
}

// logOf returns the lines w has logged.
func logOf(w *Workspace) []string { return w.log.(*testLog).lines }

// answer presses button label of the open question.
func (f *fakeUI) answer(t *testing.T, label string) {
	t.Helper()
	q := f.question
	if q == nil {
		t.Fatalf("no question is open (wanted to press %q)", label)
	}
	i := slices.Index(q.buttons, label)
	if i < 0 {
		t.Fatalf("question %q has no button %q: %v", q.title, label, q.buttons)
	}
	f.question = nil
	q.onChoose(i)
}

// choose confirms the open file dialog with path (onChoose), or closes it ("": onCancel).
func (f *fakeUI) choose(t *testing.T, path string) {
	t.Helper()
	r := f.file
	if r == nil {
		t.Fatal("no file dialog is open")
	}
	f.file = nil
	if path == "" {
		if r.OnCancel != nil {
			r.OnCancel()
		}
		return
	}
	r.OnChoose(path)
}

// newTestWorkspace is a workspace with a fake window over a new scene with cubes, its settings in a temporary
// folder, jobs that finish when polled.
func newTestWorkspace(t *testing.T, cubes int) (*Workspace, *fakeUI) {
	t.Helper()
	st, _ := settings.Load(t.TempDir())
	st.SaveTo(t.TempDir())
	w := New(Options{}, st, &testLog{}, &Clock{Frames: 5})
	t.Cleanup(func() { _ = w.setw.flush() }) // the settings' folder is removed after
	f := &fakeUI{}
	w.ui = f
	w.SetDoc(doc.New("", w.docOpts))
	for range cubes {
		if _, err := w.doc.SpawnCube(ecs.Entity{}); err != nil {
			t.Fatal(err)
		}
	}
	return w, f
}

// lastLog returns the console's last line.
func lastLog(w *Workspace) string {
	lines := logOf(w)
	if len(lines) == 0 {
		return ""
	}
	return lines[len(lines)-1]
}

// waitJob polls the workspace's job, as the loop does, until it is merged.
func waitJob(t *testing.T, w *Workspace) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for w.jobs.job != nil {
		if time.Now().After(deadline) {
			t.Fatal("the job did not finish")
		}
		w.clock.Frames++
		w.jobs.poll()
		time.Sleep(time.Millisecond)
	}
}

// TestDiscardFlowStates: the unsaved-changes state machine, every transition.
func TestDiscardFlowStates(t *testing.T) {
	for _, c := range []struct {
		dirty   bool
		answer  int // -1: none
		saveOK  int // -1: no save; 0 failed; 1 succeeded
		want    flowState
		ran     bool
		wantSav bool
	}{
		{dirty: false, answer: -1, saveOK: -1, want: flowDone, ran: true},
		{dirty: true, answer: -1, saveOK: -1, want: flowAsking},
		{dirty: true, answer: answerDontSave, saveOK: -1, want: flowDone, ran: true},
		{dirty: true, answer: answerCancel, saveOK: -1, want: flowCancelled},
		{dirty: true, answer: answerSave, saveOK: -1, want: flowSaving, wantSav: true},
		{dirty: true, answer: answerSave, saveOK: 1, want: flowDone, ran: true, wantSav: true},
		{dirty: true, answer: answerSave, saveOK: 0, want: flowCancelled, wantSav: true},
	} {
		ran := 0
		f := startDiscard(c.dirty, func() { ran++ })
		save := false
		if c.answer >= 0 {
			save = f.answer(c.answer)
		}
		if c.saveOK >= 0 {
			f.saved(c.saveOK == 1)
		}
		if f.state == flowDone || f.state == flowCancelled { // answers and outcomes that come late change nothing
			f.answer(answerDontSave)
			f.saved(true)
		}
		if f.state != c.want || (ran == 1) != c.ran || ran > 1 || save != c.wantSav {
			t.Errorf("%+v: state %v, ran %d times, save %v", c, f.state, ran, save)
		}
	}
}

// TestNewAndOpenAskBeforeDroppingChanges: New on a modified scene asks; Cancel keeps it, Don't Save drops it, Save
// of an untitled scene asks for a file name first and creates the new scene only after the save, and closing that
// file dialog keeps everything as it was.
func TestNewAndOpenAskBeforeDroppingChanges(t *testing.T) {
	w, f := newTestWorkspace(t, 2)
	first := w.doc
	w.CmdNew()
	if f.question == nil || f.question.title != "Unsaved changes" || !strings.Contains(f.question.message, "create a new scene") {
		t.Fatalf("New on a modified scene: question %+v", f.question)
	}
	f.answer(t, "Cancel")
	if w.doc != first {
		t.Fatal("Cancel replaced the scene")
	}
	w.CmdNew()
	f.answer(t, "Save")
	if f.file == nil || !f.file.Save || f.file.Name != "untitled.json" {
		t.Fatalf("Save of an untitled scene: file dialog %+v", f.file)
	}
	f.choose(t, "") // closed without a name: nothing happens
	if w.doc != first || f.question != nil {
		t.Fatal("closing the Save As dialog went on with New")
	}
	w.CmdNew()
	f.answer(t, "Save")
	path := filepath.Join(t.TempDir(), "a.json")
	f.choose(t, path)
	if w.doc == first || w.doc.Len() != 0 || w.doc.Dirty() {
		t.Fatal("New after a successful save did not make a new scene")
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the scene was not saved: %v", err)
	}
	if w.settings.Recent[0] != path {
		t.Fatalf("recent files %v", w.settings.Recent)
	}
	// A clean scene: Open shows the dialog at once (no question) and the chosen file opens in the background.
	w.CmdOpen()
	if f.question != nil || f.file == nil || f.file.Title != "Open Scene" || f.file.Dir != filepath.Dir(path) {
		t.Fatalf("Open on a clean scene: question %v, dialog %+v", f.question, f.file)
	}
	f.choose(t, path)
	waitJob(t, w)
	if w.doc.Path() != path || w.doc.Len() != 2 {
		t.Fatalf("opened %q with %d entities", w.doc.Path(), w.doc.Len())
	}
	// Open Recent of a missing file: the error is shown, the file leaves the list, the scene stays.
	gone := filepath.Join(t.TempDir(), "gone.json")
	w.settings.AddRecent(gone)
	w.OpenRecent(gone)
	waitJob(t, w)
	if f.question == nil || f.question.title != "Cannot open scene" || slices.Contains(w.settings.Recent, gone) || w.doc.Path() != path {
		t.Fatalf("a missing recent file: question %+v, recent %v", f.question, w.settings.Recent)
	}
	f.answer(t, "OK")
	w.ClearRecent()
	if len(w.settings.Recent) != 0 {
		t.Fatal("Clear Recent")
	}
}

// TestQuitFlow: a clean scene closes at once; a modified one asks, and Don't Save closes it; a running job refuses.
func TestQuitFlow(t *testing.T) {
	w, _ := newTestWorkspace(t, 0)
	var f *fakeUI
	if !w.RequestClose() {
		t.Fatal("a clean scene did not close")
	}
	w, f = newTestWorkspace(t, 1)
	if w.RequestClose() || f.question == nil || !strings.Contains(f.question.message, "before you quit") {
		t.Fatalf("a modified scene closed without asking (question %+v)", f.question)
	}
	f.answer(t, "Don't Save")
	if !f.closed || !w.RequestClose() {
		t.Fatal("Don't Save did not close the window, or the next request was refused")
	}
	w, f = newTestWorkspace(t, 1)
	release := make(chan struct{})
	w.jobs.Start("Saving x", func(ctx context.Context, progress func(done, total int64)) error {
		<-release
		return nil
	}, func(error) {}, JobOptions{})
	w.CmdQuit()
	if f.closed || f.question != nil || !strings.Contains(lastLog(w), "wait for Saving x to finish") {
		t.Fatalf("quit during a job: closed %v, question %v, log %q", f.closed, f.question, lastLog(w))
	}
	close(release)
	waitJob(t, w)
	w.CmdQuit()
	f.answer(t, "Save")
	f.choose(t, filepath.Join(t.TempDir(), "q.json"))
	if !f.closed {
		t.Fatal("Save then quit did not close")
	}
}

// TestSaveFailureAndExport: a save that fails says so and keeps the scene modified; Export writes the game file.
func TestSaveFailureAndExport(t *testing.T) {
	w, f := newTestWorkspace(t, 3)
	w.CmdSaveAs()
	f.choose(t, filepath.Join(t.TempDir(), "no", "such", "dir", "s.json"))
	if f.question == nil || f.question.title != "Save failed" || !w.doc.Dirty() {
		t.Fatalf("a failed save: question %+v, dirty %v", f.question, w.doc.Dirty())
	}
	f.answer(t, "OK")
	path := filepath.Join(t.TempDir(), "level.json")
	w.CmdSaveAs()
	f.choose(t, path)
	w.CmdExport()
	if f.file == nil || f.file.Name != "level.export.json" || f.file.OKLabel != "Export" {
		t.Fatalf("export dialog %+v", f.file)
	}
	out := filepath.Join(filepath.Dir(path), "level.export.json")
	f.choose(t, out)
	if data, err := os.ReadFile(out); err != nil || !strings.Contains(string(data), "voltex.export") {
		t.Fatalf("export: %v", err)
	}
	if !strings.Contains(lastLog(w), "exported 3 entities") {
		t.Fatalf("log %q", lastLog(w))
	}
	// A save of the saved scene writes to its path (no dialog), and keeps the camera the viewport moved.
	w.doc.Camera().Yaw = 77
	w.CmdSave()
	if f.file != nil {
		t.Fatal("Save of a saved scene asked for a name")
	}
	d, err := doc.Open(context.Background(), path, doc.Options{}, nil)
	if err != nil || d.Camera().Yaw != 77 || !d.CameraInFile() {
		t.Fatalf("reopened: %v, camera %+v", err, d.Camera())
	}
}

// TestBigSaveAndSpawnRunAsJobs: from JobThreshold entities saving runs in the background and merges on the loop;
// a big spawn keeps the dialog's preview until its cubes are in and waits for Stop in play mode.
func TestBigSaveAndSpawnRunAsJobs(t *testing.T) {
	w, f := newTestWorkspace(t, 0)
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 1, 100}
	preview := viewport.NewDrawList()
	w.SpawnGrid(p, preview, nil)
	if w.jobs.job == nil || f.preview != preview {
		t.Fatalf("a big spawn did not run as a job keeping the preview: %q", lastLog(w))
	}
	w.CmdPlayStop() // Play while it runs: its result waits for Stop
	for range 20 {
		w.clock.Frames++
		w.jobs.poll()
		time.Sleep(time.Millisecond)
	}
	if w.jobs.job == nil {
		t.Fatal("the spawn's result was merged in play mode")
	}
	w.CmdPlayStop()
	waitJob(t, w)
	if w.doc.Len() != p.Len() || f.preview != nil || w.doc.Selection().Len() != p.Len() {
		t.Fatalf("after Stop: %d entities, preview %v, %d selected", w.doc.Len(), f.preview, w.doc.Selection().Len())
	}
	path := filepath.Join(t.TempDir(), "big.json")
	w.save(path, nil, nil)
	if w.jobs.job == nil {
		t.Fatal("a big save did not run as a job")
	}
	waitJob(t, w)
	if w.doc.Dirty() || w.doc.Path() != path {
		t.Fatalf("after the background save: dirty %v, path %q", w.doc.Dirty(), w.doc.Path())
	}
	// A save refused while another job runs gives the world it was lent back: edits go on at once.
	release := make(chan struct{})
	w.jobs.Start("Busy", func(context.Context, func(done, total int64)) error { <-release; return nil }, func(error) {}, JobOptions{})
	w.save(path, nil, nil)
	if w.doc.EditWorld().Lent() || !strings.Contains(lastLog(w), "wait for Busy") {
		t.Fatalf("a save refused during another job: the world lent %v, log %q", w.doc.EditWorld().Lent(), lastLog(w))
	}
	close(release)
	waitJob(t, w)
	// A small grid spawns at once and selects its group.
	p.Count = [3]int{2, 1, 2}
	p.Group = "G"
	w.SpawnGrid(p, nil, nil)
	if e, ok := w.doc.Selection().Active(); !ok || w.doc.Name(e) != "G" || w.jobs.job != nil {
		t.Fatal("a small grid with a group: the group is not selected")
	}
	// One cube is "1 cube": counts agree with their numbers.
	p.Count, p.Group = [3]int{1, 1, 1}, ""
	w.SpawnGrid(p, nil, nil)
	if lastLog(w) != "info: spawned 1 cube" {
		t.Errorf("a one-cube grid logs %q", lastLog(w))
	}
}

// TestEditCommands: copy, paste (through the clipboard), duplicate, delete, undo, redo, create.
func TestEditCommands(t *testing.T) {
	w, f := newTestWorkspace(t, 2)
	w.CmdSelectAll()
	w.CmdCopy()
	if !strings.Contains(f.clip, "voltex") || lastLog(w) != "info: copied 2 entities" {
		t.Fatalf("copy: clipboard %q, log %q", f.clip, lastLog(w))
	}
	w.CmdPaste()
	if w.doc.Len() != 4 || w.doc.Selection().Len() != 2 {
		t.Fatalf("paste: %d entities, %d selected", w.doc.Len(), w.doc.Selection().Len())
	}
	w.CmdDuplicate()
	if w.doc.Len() != 6 {
		t.Fatalf("duplicate: %d entities", w.doc.Len())
	}
	w.CmdDelete()
	if w.doc.Len() != 4 || lastLog(w) != "info: deleted 2 entities" {
		t.Fatalf("delete: %d entities, log %q", w.doc.Len(), lastLog(w))
	}
	w.CmdUndo()
	if w.doc.Len() != 6 || !strings.HasPrefix(lastLog(w), "info: undo") {
		t.Fatalf("undo: %d, %q", w.doc.Len(), lastLog(w))
	}
	w.CmdRedo()
	if w.doc.Len() != 4 || !strings.HasPrefix(lastLog(w), "info: redo") {
		t.Fatalf("redo: %d, %q", w.doc.Len(), lastLog(w))
	}
	f.clip = "  "
	w.CmdPaste()
	if lastLog(w) != "warning: paste: the clipboard is empty" {
		t.Fatalf("empty clipboard: %q", lastLog(w))
	}
	f.clip = "{ not a scene"
	w.CmdPaste()
	if !strings.HasPrefix(lastLog(w), "error: paste:") || w.doc.Len() != 4 {
		t.Fatalf("bad clipboard: %q", lastLog(w))
	}
	w.CmdCreateCube()
	w.CmdCreateEmpty()
	if w.doc.Len() != 6 || len(f.shown) != 4 { // the duplicate, the paste and the two created
		t.Fatalf("create: %d entities, shown %v", w.doc.Len(), f.shown)
	}
	// In play mode a duplicate goes into the playing scene, selected and shown; Stop offers to keep it.
	w.CmdPlayStop()
	w.CmdDuplicate()
	sel := w.doc.Selection().Entities()
	if w.doc.Len() != 6 || w.doc.World().Len() != 7 || len(sel) != 1 || w.doc.EditWorld().Alive(sel[0]) ||
		f.shown[len(f.shown)-1] != sel[0] {
		t.Fatalf("duplicate in play mode: %d entities, %d playing, selected %v, shown %v", w.doc.Len(), w.doc.World().Len(), sel, f.shown)
	}
}

// TestPlayCommands: Play runs the systems on a clone, Pause and Step, Stop restores the scene.
func TestPlayCommands(t *testing.T) {
	w, f := newTestWorkspace(t, 1)
	w.CmdPlayStop()
	if !w.doc.PlayMode().Playing() || !slices.Contains(f.calls, "worldReplaced") || !w.Busy() {
		t.Fatal("Play")
	}
	w.lastTick = time.Now().Add(-50 * time.Millisecond)
	w.BeginFrame()
	w.CmdPause()
	if !w.doc.PlayMode().Paused() || w.Busy() {
		t.Fatal("Pause")
	}
	w.CmdPause()
	w.CmdStep()
	if !w.doc.PlayMode().Paused() {
		t.Fatal("Step pauses")
	}
	if !strings.Contains(w.StatusText(60, 3), "PAUSED") {
		t.Fatalf("status %q", w.StatusText(60, 3))
	}
	w.CmdPlayStop()
	if w.doc.PlayMode().Playing() {
		t.Fatal("Stop")
	}
}

// TestStopAsksWhichPlayChangesToKeep: Stop after a field edit made while playing asks (the user's edits checked by
// default); keeping them is one undoable step; Stop without an edit of the user's asks nothing; discarding keeps
// nothing.
func TestStopAsksWhichPlayChangesToKeep(t *testing.T) {
	w, f := newTestWorkspace(t, 1)
	cube, _ := w.doc.Entity(w.doc.IDs()[0])
	tr, _ := ecs.ComponentIDOf[ecs.Transform](w.doc.EditWorld())
	before := w.doc.History().Undos()
	w.CmdPlayStop()
	w.doc.PlayMode().Tick(0.1)
	w.CmdPlayStop()
	if f.keep != nil {
		t.Fatal("asked with no edit of the user's")
	}
	w.CmdPlayStop()
	if err := w.doc.SetField([]ecs.Entity{cube}, tr, "position[0]", 3); err != nil {
		t.Fatal(err)
	}
	w.CmdPlayStop()
	if f.keep == nil || !f.keep.keepUser || len(f.keep.ch.Changes) != 1 || !f.keep.ch.Changes[0].User {
		t.Fatalf("keep request %+v", f.keep)
	}
	f.keep.keep(nil)
	if w.doc.History().Undos() != before || !strings.Contains(lastLog(w), "discarded") {
		t.Fatalf("discard: %q", lastLog(w))
	}
	f.keep.keep(f.keep.ch.Changes)
	got, _ := w.doc.EditWorld().Get(cube, tr)
	if got.(ecs.Transform).Position[0] != 3 || w.doc.History().Undos() != before+1 {
		t.Fatalf("kept %v, %s", got, lastLog(w))
	}
	off := false
	w.settings.KeepPlayEdits = &off
	w.CmdPlayStop()
	if err := w.doc.SetField([]ecs.Entity{cube}, tr, "position[0]", 4); err != nil {
		t.Fatal(err)
	}
	w.CmdPlayStop()
	if f.keep.keepUser {
		t.Fatal("the setting is not followed")
	}
}

// TestOutsideEdits: a clean scene changed on disk reloads; a modified one asks (Keep mine, Reload); a deleted one is
// reported.
func TestOutsideEdits(t *testing.T) {
	w, f := newTestWorkspace(t, 2)
	path := filepath.Join(t.TempDir(), "s.json")
	w.CmdSaveAs()
	f.choose(t, path)
	abs, _ := filepath.Abs(path)
	w.onSceneFileEvent(watch.Event{Path: abs, Kind: watch.Changed})
	if !slices.Contains(f.calls, "worldReplaced") || !strings.Contains(lastLog(w), "reloaded") {
		t.Fatalf("a clean scene: calls %v, log %q", f.calls, lastLog(w))
	}
	w.CmdCreateEmpty()
	w.onSceneFileEvent(watch.Event{Path: abs, Kind: watch.Changed})
	f.answer(t, "Keep mine")
	if w.doc.Len() != 3 || !strings.Contains(lastLog(w), "kept your changes") {
		t.Fatalf("Keep mine: %d entities, log %q", w.doc.Len(), lastLog(w))
	}
	w.onSceneFileEvent(watch.Event{Path: abs, Kind: watch.Changed})
	f.answer(t, "Reload and lose my changes")
	if w.doc.Len() != 2 || w.doc.Dirty() {
		t.Fatalf("Reload: %d entities, dirty %v", w.doc.Len(), w.doc.Dirty())
	}
	if err := os.WriteFile(path, []byte("{ broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.reloadFromDisk()
	if !strings.Contains(logOf(w)[len(logOf(w))-2], "reloading") || w.doc.Len() != 2 {
		t.Fatal("a broken reload must keep the scene and say so")
	}
	w.onSceneFileEvent(watch.Event{Path: abs, Kind: watch.Missing})
	if !strings.Contains(lastLog(w), "was deleted or moved on disk") || !w.doc.Dirty() {
		t.Fatalf("deleted: log %q", lastLog(w))
	}
}

// TestGridCommandRemembersValues: Spawn Cube Grid opens with the last values (settings, then the session's).
func TestGridCommandRemembersValues(t *testing.T) {
	w, f := newTestWorkspace(t, 0)
	w.CmdSpawnGrid()
	if f.grid == nil || *f.grid != DefaultGrid() {
		t.Fatalf("first open: %+v", f.grid)
	}
	v := DefaultGrid()
	v.Count = [3]int{3, 3, 3}
	w.RememberGrid(v)
	w.CmdSpawnGrid()
	if f.grid.Count != v.Count || w.settings.Grid.Count != v.Count {
		t.Fatalf("after closing with 3×3×3: %+v", f.grid)
	}
}

// TestStatusAndTitle: the status line and the window title follow the scene.
func TestStatusAndTitle(t *testing.T) {
	w, _ := newTestWorkspace(t, 0)
	if got := w.StatusText(60, 1); !strings.HasPrefix(got, "new scene  |  0 entities  |  0 selected  |  60 FPS  |  1 viewport render") {
		t.Fatalf("status %q", got)
	}
	if w.WindowTitle() != "Voltex Editor — Untitled" {
		t.Fatalf("title %q", w.WindowTitle())
	}
	w.CmdCreateCube()
	if got := w.StatusText(0, 2); !strings.HasPrefix(got, "new scene, not saved yet  |  1 entity  |  1 selected") {
		t.Fatalf("status %q", got)
	}
	if w.WindowTitle() != "*Voltex Editor — Untitled" {
		t.Fatalf("title %q", w.WindowTitle())
	}
}

// TestPrefabCommands: Save Selection as Prefab makes an instance, which Unpack makes plain again; the prefab file
// is listed for the Assets panel.
func TestPrefabCommands(t *testing.T) {
	w, f := newTestWorkspace(t, 0)
	dir := t.TempDir()
	w.CmdSaveAs()
	f.choose(t, filepath.Join(dir, "level.json"))
	w.openPath(filepath.Join(dir, "level.json")) // the Assets panel lists the files of the open scene's folder
	waitJob(t, w)
	w.CmdCreateCube()
	w.Prefabs().CmdSaveAs()
	if f.file == nil || f.file.Title != "Save Selection as Prefab" {
		t.Fatalf("dialog %+v", f.file)
	}
	f.choose(t, filepath.Join(dir, "crate.json"))
	if !w.InInstance() {
		t.Fatalf("the selection is not an instance after Save as Prefab: %q", lastLog(w))
	}
	if list := w.Prefabs().List(); len(list) != 1 || filepath.Base(list[0]) != "crate.json" {
		t.Fatalf("prefab list %v", list)
	}
	w.Prefabs().Instantiate(filepath.Join(dir, "crate.json"), ecs.Entity{}, mgl32.Vec3{5, 0, 0})
	if !strings.HasPrefix(lastLog(w), "info: placed") {
		t.Fatalf("instantiate: %q", lastLog(w))
	}
	w.Prefabs().CmdRevert()
	w.Prefabs().CmdApply()
	w.Prefabs().CmdUnpack()
	if w.InInstance() {
		t.Fatal("Unpack left an instance")
	}
	w.Prefabs().CmdInstantiate()
	f.choose(t, filepath.Join(dir, "crate.json"))
	if !w.InInstance() && !strings.HasPrefix(lastLog(w), "info: placed") {
		t.Fatalf("Instantiate Prefab: %q", lastLog(w))
	}
}

// A load that fails reports every problem once and keeps the scene (errors.Is os.ErrNotExist removes the recent).
func TestLoadErrorText(t *testing.T) {
	err := loadError("x.json", errors.New("boom"))
	if err.Error() != "cannot open scene x.json: boom" {
		t.Fatalf("%v", err)
	}
}

// TestProjectFileFlow: the open scene follows its project file: a new field comes with its default; a change that
// would drop values asks (Keep leaves the components, Apply drops them); a broken file changes nothing; a file
// that is gone is reported.
func TestProjectFileFlow(t *testing.T) {
	dir := t.TempDir()
	pf := filepath.Join(dir, "voltex.project.json")
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const loot = `{"format": "voltex.project", "version": 1, "components": [{"name": "Loot", "fields": [%s]}]}`
	write(pf, strings.ReplaceAll(loot, "%s", `{"name": "gold", "type": "int"}`))
	scenePath := filepath.Join(dir, "level.json")
	write(scenePath, `{"format": "voltex.scene", "version": 2, "name": "L", "entities": [{"id": 1, "name": "Chest", "order": 1,
  "components": {"Loot": {"gold": 5}}}]}`)
	w, f := newTestWorkspace(t, 0)
	w.openPath(scenePath)
	waitJob(t, w)
	if status, bad := w.ProjectStatus(); status != "voltex.project.json: 1 component" || bad || !w.isProjectPath(w.project.path) {
		t.Fatalf("status %q %v", status, bad)
	}
	// A new field: the scene is moved over at once.
	write(pf, strings.ReplaceAll(loot, "%s", `{"name": "gold", "type": "int"}, {"name": "gems", "type": "int", "default": 2}`))
	w.onProjectFileEvent()
	if !strings.Contains(lastLog(w), "changed: 1 component registered again") || f.question != nil {
		t.Fatalf("a new field: %q, question %v", lastLog(w), f.question)
	}
	// gold removed: asked; Keep leaves the components as they were.
	write(pf, strings.ReplaceAll(loot, "%s", `{"name": "gems", "type": "int", "default": 2}`))
	w.onProjectFileEvent()
	if f.question == nil || f.question.title != "Project file changed" {
		t.Fatalf("a removed field: question %+v", f.question)
	}
	f.answer(t, "Keep")
	if status, bad := w.ProjectStatus(); !bad || !strings.Contains(status, "components kept as they were") {
		t.Fatalf("after Keep: status %q", status)
	}
	w.onProjectFileEvent()
	f.answer(t, "Apply and drop them")
	if !strings.Contains(lastLog(w), "registered again") {
		t.Fatalf("Apply: %q", lastLog(w))
	}
	// Broken, then gone.
	write(pf, `{"format": "voltex.project", "version": 1, "components": [{"name": "loot"}]}`)
	w.onProjectFileEvent()
	if !strings.Contains(lastLog(w), "has problems: the components stay as they were") {
		t.Fatalf("broken: %q", lastLog(w))
	}
	if err := os.Remove(pf); err != nil {
		t.Fatal(err)
	}
	w.onProjectFileEvent()
	if !strings.Contains(lastLog(w), "is gone") {
		t.Fatalf("gone: %q", lastLog(w))
	}
	// A scene whose project file is broken when it opens: the problems in a dialog.
	write(pf, `{"format": "voltex.project", "version": 1, "components": [{"name": "loot"}]}`)
	w.openPath(scenePath)
	waitJob(t, w)
	f.answer(t, "Don't Save") // the drop of gold made the scene modified
	if f.question == nil || f.question.title != "Project file has problems" {
		t.Fatalf("opening with a broken project file: %+v", f.question)
	}
}

// TestWatcherReloadsMeshes: an OBJ the scene uses, changed on disk, is read again and the viewport told; a broken
// one keeps the mesh it had.
func TestWatcherReloadsMeshes(t *testing.T) {
	dir := t.TempDir()
	obj := filepath.Join(dir, "tri.obj")
	write := func(text string) {
		t.Helper()
		tmp := obj + ".tmp"
		if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, obj); err != nil {
			t.Fatal(err)
		}
	}
	write("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
	scenePath := filepath.Join(dir, "s.json")
	if err := os.WriteFile(scenePath, []byte(`{"format": "voltex.scene", "version": 2, "name": "S", "entities": [{"id": 1, "name": "T", "order": 1,
  "components": {"Transform": {"position": [0, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}, "Mesh": {"asset": "tri.obj"}}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	w, f := openWatched(t, scenePath)
	if _, err := w.assets.Mesh("tri.obj"); err != nil { // the viewport loads meshes as it draws them
		t.Fatal(err)
	}
	f.sceneVer++
	w.watcher.poll() // follows the mesh file now
	wait := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s (console %q)", what, lastLog(w))
			}
			w.watcher.poll()
			time.Sleep(5 * time.Millisecond)
		}
	}
	write("v 0 0 0\nv 2 0 0\nv 0 2 0\nv 2 2 0\nf 1 2 3\nf 2 4 3\n")
	wait("the reload", func() bool { return slices.Contains(f.calls, "reloadMeshes") })
	if m, _ := w.assets.Mesh("tri.obj"); m == nil || m.TriangleCount() != 2 {
		t.Fatal("the mesh was not read again")
	}
	write("v 0 0 0\nf 1 2 9\n")
	wait("the error", func() bool { return strings.Contains(lastLog(w), "keeping the previous mesh") })
	// The scene file itself changed by another program: a clean scene reloads.
	data, _ := os.ReadFile(scenePath)
	if err := os.WriteFile(scenePath, []byte(strings.Replace(string(data), `"T"`, `"Tri"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	wait("the scene's reload", func() bool {
		e, ok := w.doc.Entity(1)
		return ok && w.doc.Name(e) == "Tri"
	})
}

// TestInstantiateShowsTheInstance: an instance placed under an entity (a prefab dropped on a collapsed hierarchy
// row) is revealed and scrolled to, as Create does, so the selected new instance has a row.
func TestInstantiateShowsTheInstance(t *testing.T) {
	w, f := newTestWorkspace(t, 0)
	dir := t.TempDir()
	w.CmdSaveAs()
	f.choose(t, filepath.Join(dir, "level.json"))
	w.CmdCreateCube()
	parent, _ := w.doc.Selection().Active()
	if err := os.WriteFile(filepath.Join(dir, "crate.json"), []byte(`{ "format": "voltex.scene", "version": 2, "entities": [
  { "id": 1, "name": "Crate", "order": 1, "components": { "Transform": {} } } ] }`), 0o644); err != nil {
		t.Fatal(err)
	}
	f.shown = nil
	w.Prefabs().Instantiate(filepath.Join(dir, "crate.json"), parent, mgl32.Vec3{})
	inst, _ := w.doc.Selection().Active()
	if w.doc.EditWorld().Parent(inst) != parent || len(f.shown) != 1 || f.shown[0] != inst {
		t.Fatalf("the new instance (under %v: %v) was not shown: %v (%q)", parent, w.doc.EditWorld().Parent(inst), f.shown, lastLog(w))
	}
}

// TestOpenFirst: the scene named on the command line opens before any window (and is remembered); a broken one is
// an error naming each problem, changing nothing; a big one is left for the window to open with its progress.
func TestOpenFirst(t *testing.T) {
	w, _ := newTestWorkspace(t, 0)
	later, err := w.OpenFirst("testdata/solar.json")
	if err != nil || later != "" || w.doc.Len() != 8 || len(w.settings.Recent) == 0 {
		t.Fatalf("solar.json: later %q, err %v, %d entities, recent %v", later, err, w.doc.Len(), w.settings.Recent)
	}
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte(`{"format": "voltex.scene", "version": 1, "entities": [{"components": {"Transform": {"position": [1, 2]}}}, {"components": {"Color": {"rgba": "red"}}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	d := w.doc
	if _, err := w.OpenFirst(broken); err == nil || !strings.Contains(err.Error(), "cannot open scene "+broken) || w.doc != d {
		t.Fatalf("broken.json: err %v, document replaced %v", err, w.doc != d)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, backgroundOpenSize), 0o644); err != nil {
		t.Fatal(err)
	}
	if later, err := w.OpenFirst(big); err != nil || later != big || w.doc.Len() != 0 {
		t.Fatalf("big.json: later %q, err %v, %d entities (want an empty scene until the window opens it)", later, err, w.doc.Len())
	}
}

// The undo history's memory budget comes from the settings, and the console says when old steps were dropped.
func TestUndoBudgetFromSettingsAndDropsSaid(t *testing.T) {
	st := settings.Defaults()
	st.UndoMemoryMB = 64
	w := New(Options{}, st, &testLog{}, &Clock{Frames: 5})
	t.Cleanup(func() { _ = w.setw.flush() }) // the settings' folder is removed after
	if w.docOpts.MaxHistoryBytes != 64<<20 {
		t.Fatalf("budget %d bytes, want 64 MiB", w.docOpts.MaxHistoryBytes)
	}
	w.ui = &fakeUI{}
	w.docOpts.MaxHistoryBytes = 3000
	w.SetDoc(doc.New("", w.docOpts))
	for range 20 {
		if _, err := w.doc.SpawnCube(ecs.Entity{}); err != nil {
			t.Fatal(err)
		}
	}
	w.BeginFrame()
	if got := lastLog(w); !strings.HasPrefix(got, "warning: undo history: ") || !strings.Contains(got, "dropped (the oldest") ||
		w.doc.History().Undos() >= 20 || w.doc.History().Undos() == 0 {
		t.Fatalf("%d undos, log %q", w.doc.History().Undos(), got)
	}
	n := len(logOf(w))
	w.BeginFrame()
	if len(logOf(w)) != n {
		t.Fatal("the drops were said twice")
	}
}

// TestSpawnOfAReadyGrid: a grid whose job the dialog already ran (readyGrid: planned, the world's table given
// room) is still added by a job, one with nothing left to compute (so its overlay shows before the cubes are
// added, in the next frame), as the same one undoable step a job's spawn makes, its cubes selected; a ready job
// of another document is not used (the spawn runs its own).
func TestSpawnOfAReadyGrid(t *testing.T) {
	w, _ := newTestWorkspace(t, 0)
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 1, 100}
	j, _, err := w.PrepareGrid(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	undos := w.doc.History().Undos()
	w.SpawnGrid(p, nil, j)
	if w.jobs.job == nil || !w.jobs.job.immediate || w.doc.Len() != 0 {
		t.Fatalf("a ready grid: job %v, %d entities; want a job showing its overlay at once, the cubes not added yet", w.jobs.job != nil, w.doc.Len())
	}
	waitJob(t, w)
	if w.doc.Len() != p.Len() || w.doc.Selection().Len() != p.Len() || w.doc.History().Undos() != undos+1 {
		t.Fatalf("a ready grid, merged: job %v, %d entities, %d selected, %d undo steps (want none, %d, %d, %d)",
			w.jobs.job != nil, w.doc.Len(), w.doc.Selection().Len(), w.doc.History().Undos(), p.Len(), p.Len(), undos+1)
	}
	if err := w.doc.History().Undo(); err != nil || w.doc.Len() != 0 {
		t.Fatalf("undo of the ready grid: %v, %d entities left", err, w.doc.Len())
	}
	// Another document's ready job: the spawn prepares and runs its own.
	other := doc.New("Other", doc.Options{})
	oj, err := other.PrepareGrid(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := oj.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	w.SpawnGrid(p, nil, oj)
	if w.jobs.job == nil {
		t.Fatal("another document's ready job was used")
	}
	waitJob(t, w)
	if w.doc.Len() != p.Len() || other.Len() != 0 {
		t.Fatalf("after the spawn with another document's job: %d entities here, %d there", w.doc.Len(), other.Len())
	}
}

// TestPlaceBrokenPrefabSaysItOnce: placing a prefab that cannot be used says why once — one console line per
// problem, with its position — and in a message the user sees; nothing is added.
func TestPlaceBrokenPrefabSaysItOnce(t *testing.T) {
	w, f := newTestWorkspace(t, 0)
	dir := t.TempDir()
	level, bad := filepath.Join(dir, "level.json"), filepath.Join(dir, "bad.json")
	for p, text := range map[string]string{level: `{"format": "voltex.scene", "version": 2, "name": "Level", "entities": []}`,
		bad: `{"format": "voltex.scene", "version": 2, "name": "Bad", "entities": [{"id": 1, "name": "X", "order": 1, "components": {"Transform": {"position": [0, "a", 0]}}}]}`} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := doc.Open(context.Background(), level, w.docOpts, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.SetDoc(d)
	before := len(logOf(w))
	w.Prefabs().Place(bad)
	var lines []string
	for _, l := range logOf(w)[before:] {
		_, text, _ := strings.Cut(l, ": ")
		lines = append(lines, text)
	}
	all := strings.Join(lines, "\n")
	if strings.Count(all, `expected a number, got the string "a"`) != 1 || !strings.Contains(all, "bad.json:1:") {
		t.Fatalf("the console says:\n%s", all)
	}
	if f.question == nil || f.question.title != "Cannot place prefab" || !strings.Contains(f.question.message, "line 1, column") {
		t.Fatalf("no message for the user: %+v", f.question)
	}
	if strings.Count(f.question.message, "expected a number") != 1 || w.doc.Len() != 0 {
		t.Fatalf("the message: %q; %d entities", f.question.message, w.doc.Len())
	}
}

// TestNewFilesAppearInAssets: an .obj file or a prefab written into the scene's folder while the editor runs is
// listed by the Assets panel without Rescan (the watcher follows the folder's list of files).
func TestNewFilesAppearInAssets(t *testing.T) {
	dir := t.TempDir()
	scenePath := filepath.Join(dir, "s.json")
	if err := os.WriteFile(scenePath, []byte(`{"format": "voltex.scene", "version": 2, "name": "S", "entities": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	w, _ := openWatched(t, scenePath)
	if slices.Contains(w.assets.List(), "rock.obj") || len(w.Prefabs().List()) != 0 {
		t.Fatalf("before: meshes %v, prefabs %v", w.assets.List(), w.Prefabs().List())
	}
	if err := os.WriteFile(filepath.Join(dir, "rock.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "crate.json"), []byte(`{"format": "voltex.scene", "version": 2, "name": "Crate", "entities": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !slices.Contains(w.assets.List(), "rock.obj") || len(w.Prefabs().List()) != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the new files are not listed: meshes %v, prefabs %v", w.assets.List(), w.Prefabs().List())
		}
		w.watcher.poll()
		time.Sleep(5 * time.Millisecond)
	}
}

// openWatched is a test workspace on the scene at path with its file watcher running.
func openWatched(t *testing.T, path string) (*Workspace, *fakeUI) {
	t.Helper()
	w, f := newTestWorkspace(t, 0)
	w.Watcher().Start()
	t.Cleanup(func() { _ = w.watcher.wt.Close() }) // the test is over
	w.openPath(path)
	waitJob(t, w)
	return w, f
}

// TestRedoOfASpawnRestoresItsSelection: a spawned grid is selected (its cubes, or its group); undo brings back the
// selection from before, and redo the one the spawn made — whether the grid was added in the call, by a job, or
// from the dialog's ready job.
func TestRedoOfASpawnRestoresItsSelection(t *testing.T) {
	for _, c := range []struct {
		name  string
		count [3]int
		group string
		ready bool
	}{
		{"small", [3]int{3, 1, 4}, "", false},
		{"small group", [3]int{3, 1, 4}, "G", false},
		{"job", [3]int{100, 1, 100}, "", false},
		{"ready", [3]int{100, 1, 100}, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, _ := newTestWorkspace(t, 2)
			before := w.doc.Selection().IDs()
			p := scene.DefaultGrid()
			p.Count, p.Group = c.count, c.group
			var ready *doc.GridJob
			if c.ready {
				j, _, err := w.PrepareGrid(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := j.Run(context.Background(), nil); err != nil {
					t.Fatal(err)
				}
				ready = j
			}
			w.SpawnGrid(p, nil, ready)
			waitJob(t, w)
			spawned := w.doc.Selection().IDs()
			want := p.Len()
			if c.group != "" {
				want = 1
			}
			if len(spawned) != want || slices.Equal(spawned, before) {
				t.Fatalf("after the spawn %d selected (want %d)", len(spawned), want)
			}
			if err := w.doc.History().Undo(); err != nil {
				t.Fatal(err)
			}
			if got := w.doc.Selection().IDs(); !slices.Equal(got, before) {
				t.Fatalf("undo: selection %v, want %v", got, before)
			}
			if err := w.doc.History().Redo(); err != nil {
				t.Fatal(err)
			}
			if got := w.doc.Selection().IDs(); !slices.Equal(got, spawned) {
				t.Fatalf("redo: %d selected (first %v), want the %d the spawn selected", len(got), got[:min(len(got), 3)], len(spawned))
			}
		})
	}
}
