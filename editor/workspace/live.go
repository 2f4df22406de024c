package workspace

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/live"
	"github.com/voltex-editor/voltex/serialize/merge"
)

// LiveTokenEnv names the environment variable the token of a game's live link is read from when
// none is given.
const LiveTokenEnv = "VOLTEX_LIVE_TOKEN"

// LiveState is the state of the connection to a game.
type LiveState uint8

// The states of the connection to a game.
const (
	LiveOff        LiveState = iota // not attached
	LiveConnecting                  // dialling, or waiting for the first delta
	LiveAttached
	LiveLost // the connection ended: the document keeps what it showed, read-only
)

var liveStateNames = [...]string{"detached", "connecting", "attached", "lost"}

func (s LiveState) String() string { return liveStateNames[s] }

// Live is the workspace's connection to a running game: attaching, the game's deltas brought into an attached
// document, pause/step/resume, snapshots and the diff with a scene file. A Workspace has one (Workspace.Live).
// It reaches the document, the window and the console through its workspace, as the document's sub-objects
// reach the document's core.
type Live struct {
	w    *Workspace
	link *liveLink // the connection (livelink.go), nil when not attached
}

// Attach connects to the live link of a game at addr with token ("" reads LiveTokenEnv) and, once
// connected, shows the game's world in a document of its own (doc.NewLive) in place of the open
// scene (after the unsaved-changes question).
func (lv *Live) Attach(addr, token string) {
	lv.w.confirmDiscard("attaching to a game", func() { lv.attachNow(addr, token) })
}

func (lv *Live) attachNow(addr, token string) {
	lv.Detach()
	l := newLiveLink(addr, token)
	lv.link = l
	lv.w.log.Infof("attaching to the game at %s...", addr)
	go l.connect(lv.wake)
}

// Lost reports whether the connection to the game ended while attached (what is shown is read-only; CmdReconnect
// may bring it back).
func (lv *Live) Lost() bool { return lv.State() == LiveLost && lv.w.doc.Attached() }

// CmdReconnect connects again to the game whose connection was lost, with the same address and token; the
// lost world stays shown until the game's first delta replaces it with a new full view.
func (lv *Live) CmdReconnect() {
	l := lv.link
	if !lv.Lost() {
		return
	}
	lv.drop()
	nl := newLiveLink(l.addr, l.token)
	lv.link = nl
	lv.w.log.Infof("reconnecting to the game at %s...", l.addr)
	go nl.connect(lv.wake)
}

func (lv *Live) wake() {
	if lv.w.opts.Wake != nil {
		lv.w.opts.Wake()
	}
}

// Attached reports whether the workspace shows a game's world (connecting, attached or lost).
func (lv *Live) Attached() bool { return lv.link != nil }

// AttachedSelection reports whether the workspace shows a game's world and entities of it are selected.
func (lv *Live) AttachedSelection() bool {
	return lv.link != nil && lv.w.doc.Attached() && lv.w.doc.Selection().Len() > 0
}

// State returns the state of the connection to the game (LiveOff when not attached).
func (lv *Live) State() LiveState {
	if lv.link == nil {
		return LiveOff
	}
	lv.link.mu.Lock()
	defer lv.link.mu.Unlock()
	return lv.link.state
}

// Paused reports whether the attached game's systems are paused (as its last delta said).
func (lv *Live) Paused() bool {
	if lv.link == nil {
		return false
	}
	lv.link.mu.Lock()
	defer lv.link.mu.Unlock()
	return lv.link.status.Paused
}

// poll brings what the connection gathered into the loop: the attached document on the first
// delta, the entities deltas changed, a lost connection, failed edits.
func (lv *Live) poll() {
	l, w := lv.link, lv.w
	if l == nil {
		return
	}
	l.mu.Lock()
	state, first, err := l.state, l.first, l.err
	changed, removed, fails := l.changed, l.removed, l.fails
	if state == LiveConnecting && first {
		l.state, state = LiveAttached, LiveAttached
	}
	l.changed, l.removed, l.fails = map[uint64]bool{}, nil, nil
	l.mu.Unlock()
	for _, f := range fails {
		w.log.Errorf("the game refused an edit: %v", f)
	}
	if len(changed) > 0 || len(removed) > 0 {
		d := w.doc
		if !l.shown { // a new connection's first delta: a new view of every entity
			d = doc.NewLive("Game at "+l.addr, w.docOpts, l)
		}
		ents := make([]live.Entity, 0, len(changed))
		for h := range changed {
			if e, ok := l.client.Entity(h); ok {
				ents = append(ents, e)
			}
		}
		slices.SortFunc(ents, func(a, b live.Entity) int { return cmp.Compare(uint32(a.Handle), uint32(b.Handle)) })
		errs := d.ApplyLive(ents, removed)
		for i, e := range errs {
			if i == 5 {
				w.log.Warnf("the game's world: %d more values could not be shown", len(errs)-i)
				break
			}
			w.log.Warnf("the game's world: %v", e)
		}
		if !l.shown { // the first delta: the viewport frames what it holds
			l.shown = true
			w.SetDoc(d)
			w.log.Infof("attached to the game at %s", l.addr)
		}
	}
	if state == LiveLost && err != nil {
		l.mu.Lock()
		l.err = nil // said once
		l.mu.Unlock()
		switch {
		case l.shown:
			w.doc.SetLiveReadOnly()
			w.log.Errorf("the connection to the game at %s is lost (%v): what is shown is kept, read-only; File → Reconnect to Game tries again", l.addr, err)
		case w.doc.Attached(): // a reconnect failed: the lost world stays
			w.log.Errorf("cannot reconnect to the game at %s: %v", l.addr, err)
		default:
			w.log.Errorf("cannot attach to the game at %s: %v", l.addr, err)
			w.ui.Alert("Attach to Game", fmt.Sprintf("Cannot attach to the game at %s:\n%v", l.addr, err))
			lv.link = nil
		}
	}
}

// Detach ends the connection to the game and returns to a new, empty scene.
func (lv *Live) Detach() {
	l, w := lv.link, lv.w
	if l == nil {
		return
	}
	lv.drop()
	if w.doc != nil && w.doc.Attached() {
		w.SetDoc(doc.New("", w.docOpts))
		w.log.Infof("detached from the game at %s", l.addr)
	}
}

// drop ends the connection to the game.
func (lv *Live) drop() {
	l := lv.link
	lv.link = nil
	l.mu.Lock()
	close(l.stop)
	c := l.client
	l.mu.Unlock()
	if c != nil {
		_ = c.Close() // the user is done with the game
	}
}

// call runs a request of the toolbar (pause, step, resume) and reports its failure.
func (lv *Live) call(what string, f func(ctx context.Context, c *live.Client) error) {
	l := lv.link
	if l == nil || l.conn() == nil {
		return
	}
	l.queue(func(ctx context.Context) error {
		if err := f(ctx, l.client); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	})
}

// CmdPause pauses the attached game's systems.
func (lv *Live) CmdPause() {
	lv.call("pause", func(ctx context.Context, c *live.Client) error { _, err := c.Pause(ctx); return err })
}

// CmdStep runs the attached game's systems exactly once (pausing it).
func (lv *Live) CmdStep() {
	lv.call("step", func(ctx context.Context, c *live.Client) error { _, err := c.Step(ctx, 1); return err })
}

// CmdResume runs the attached game's systems again.
func (lv *Live) CmdResume() {
	lv.call("resume", func(ctx context.Context, c *live.Client) error { _, err := c.Resume(ctx); return err })
}

// StatusText is the status bar's part about the game: its address, the connection's state,
// whether it is paused and the lag.
func (lv *Live) StatusText() string {
	l := lv.link
	if l == nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	s := "game " + l.addr + ": " + l.state.String()
	switch l.state {
	case LiveAttached:
		if l.status.Paused {
			s += ", paused"
		}
		s += fmt.Sprintf("  |  frame %d  |  lag %d ms", l.status.Frame, l.lag.Milliseconds())
	case LiveLost:
		s += " (read-only): File → Reconnect to Game"
	}
	return s
}

// CmdSnapshot asks where to save the attached game's world as a scene file.
func (lv *Live) CmdSnapshot() { lv.askSnapshot("Snapshot of the Game", "snapshot.json", nil) }

// CmdSnapshotSelection asks where to save the selected entities of the attached game, with their descendants, as
// a scene file (a prefab).
func (lv *Live) CmdSnapshotSelection() {
	var roots []uint64
	d := lv.w.doc
	for _, e := range d.Selection().Entities() {
		if h := d.LiveHandle(e); h != 0 {
			roots = append(roots, h)
		}
	}
	if len(roots) > 0 {
		lv.askSnapshot("Snapshot of the Selection", "prefab.json", roots)
	}
}

// askSnapshot asks for a file and writes the snapshot of roots (nil: every entity) to it.
func (lv *Live) askSnapshot(title, name string, roots []uint64) {
	w := lv.w
	if lv.link == nil || lv.link.conn() == nil {
		return
	}
	w.ui.ChooseFile(FileRequest{Save: true, Title: title, Dir: w.dialogDir(), Name: name,
		OKLabel: "Save", Exts: []string{".json"}, OnChoose: func(path string) {
			if err := lv.Snapshot(path, roots); err != nil {
				w.Report("snapshot", err)
				return
			}
			w.log.Infof("saved a snapshot of the game to %s", path)
		}})
}

// Snapshot writes the attached game's world as the client sees it to path as a scene file: the entities roots
// and their descendants, or every entity when roots is nil (live.Client.SnapshotSceneOf, SnapshotScene).
func (lv *Live) Snapshot(path string, roots []uint64) error {
	l := lv.link
	if l == nil || l.conn() == nil {
		return fmt.Errorf("not attached to a game")
	}
	var rs *serialize.RawScene
	var err error
	if roots == nil {
		rs, err = l.client.SnapshotScene(lv.w.doc.SceneName())
	} else {
		rs, err = l.client.SnapshotSceneOf(lv.w.doc.SceneName(), roots)
	}
	if err != nil {
		return err
	}
	return serialize.WriteRawFile(context.Background(), path, rs)
}

// CmdDiff shows how the attached game's world differs from the scene file it loaded, entity by entity
// (voltex-editor diff of the file and a snapshot). It asks for the file when the game did not say which it loaded or
// the editor cannot read it.
func (lv *Live) CmdDiff() {
	w := lv.w
	if lv.link == nil || lv.link.conn() == nil {
		return
	}
	if path := lv.link.client.Scene(); path != "" {
		if _, err := os.Stat(path); err == nil {
			lv.showDiff(path)
			return
		}
		w.log.Warnf("the game loaded %s, which the editor cannot read: choose the scene file to compare with", path)
	}
	w.ui.ChooseFile(FileRequest{Title: "Diff with Scene File", Dir: w.dialogDir(), OKLabel: "Diff", Exts: []string{".json"},
		OnChoose: lv.showDiff})
}

// showDiff shows the changes from the scene file at path to the attached game's world in the Differences
// window; the console has them too, as text.
func (lv *Live) showDiff(path string) {
	w := lv.w
	changes, text, err := lv.diff(path)
	if err != nil {
		w.Report("diff", err)
		return
	}
	w.log.Infof("the game differs from %s in %s:\n%s", filepath.Base(path), words.Count(len(changes), "change", "changes"), text)
	w.ui.ShowDiff(DiffRequest{Title: diffTitle, Intro: "The game differs from " + filepath.Base(path) + ":",
		Left: "Scene file", Right: "Game", Changes: changes, Text: text, Select: w.selectSceneID})
}

// diffTitle is the title of the window that shows the diff of the game and a scene file.
const diffTitle = "Game vs. Scene File"

// Diff returns the changes from the scene file at path to the attached game's world, as text (see
// merge.WriteText), and how many there are.
func (lv *Live) Diff(path string) (string, int, error) {
	changes, text, err := lv.diff(path)
	return text, len(changes), err
}

// diff returns the changes from the scene file at path to the attached game's world, and them as text.
func (lv *Live) diff(path string) ([]merge.Change, string, error) {
	l := lv.link
	if l == nil || l.conn() == nil {
		return nil, "", fmt.Errorf("not attached to a game")
	}
	file, err := serialize.ReadRawFile(context.Background(), path, serialize.LoadOptions{})
	if err != nil {
		return nil, "", err
	}
	game, err := l.client.SnapshotScene(file.Name)
	if err != nil {
		return nil, "", err
	}
	game.Camera = file.Camera // the editor camera is no part of the game
	changes := merge.Diff(file, game)
	var b bytes.Buffer
	if err := merge.WriteText(&b, file, game, changes); err != nil {
		return nil, "", err
	}
	return changes, b.String(), nil
}
