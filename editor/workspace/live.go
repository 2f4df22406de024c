package workspace

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/live"
	"github.com/voltex-editor/voltex/serialize/merge"
)

// LiveTokenEnv names the environment variable the token of a game's live link is read from when
// none is given.
const LiveTokenEnv = "VOLTEX_LIVE_TOKEN"

// liveTimeout bounds connecting and each request to the game.
const liveTimeout = 10 * time.Second

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

// liveLink is the connection of an attached workspace: the client, what its goroutines gathered
// for the loop (changed and removed entities, the lag, errors) and the queue of edits to send.
type liveLink struct {
	addr   string
	token  string
	shown  bool // its document is the open one (the loop's own)
	client *live.Client
	sends  chan func(ctx context.Context) error
	stop   chan struct{}
	// set sends one set request (the client's Set or SetComponent; a test's fake).
	set func(ctx context.Context, s setRequest) error

	mu      sync.Mutex
	state   LiveState
	err     error
	changed map[uint64]bool
	removed []uint64
	lag     time.Duration
	status  live.Status
	fails   []error
	first   bool // the first delta has arrived
	// pending holds the set of each (entity, component) queued and not yet sent: a later value of
	// the same field replaces it there, so a drag sends a value per round trip, not per frame.
	pending map[setKey]*setRequest
}

// setKey names what a set request writes.
type setKey struct {
	h    uint64
	comp string
}

// setRequest is a set waiting to be sent: a field (path) or the whole component (whole, value as JSON text).
type setRequest struct {
	h     uint64
	comp  string
	path  string
	whole bool
	value json.RawMessage
}

// sendSet sends s with the client.
func (l *liveLink) sendSet(ctx context.Context, s setRequest) error {
	if s.whole {
		return l.client.SetComponent(ctx, s.h, s.comp, string(s.value))
	}
	return l.client.Set(ctx, s.h, s.comp, s.path, s.value)
}

// newLiveLink returns the link to the game at addr, not yet connected.
func newLiveLink(addr, token string) *liveLink {
	l := &liveLink{addr: addr, token: token, state: LiveConnecting, changed: map[uint64]bool{}, stop: make(chan struct{}),
		sends: make(chan func(context.Context) error, 1024), pending: map[setKey]*setRequest{}}
	l.set = l.sendSet
	return l
}

// Attach connects to the live link of a game at addr with token ("" reads LiveTokenEnv) and, once
// connected, shows the game's world in a document of its own (doc.NewLive) in place of the open
// scene (after the unsaved-changes question).
func (w *Workspace) Attach(addr, token string) {
	w.confirmDiscard("attaching to a game", func() { w.attachNow(addr, token) })
}

func (w *Workspace) attachNow(addr, token string) {
	w.Detach()
	l := newLiveLink(addr, token)
	w.live = l
	w.log.Infof("attaching to the game at %s...", addr)
	go l.connect(w.wake)
}

// LiveLost reports whether the connection to the game ended while attached (what is shown is read-only; Reconnect
// may bring it back).
func (w *Workspace) LiveLost() bool { return w.LiveState() == LiveLost && w.doc.Attached() }

// CmdLiveReconnect connects again to the game whose connection was lost, with the same address and token; the
// lost world stays shown until the game's first delta replaces it with a new full view.
func (w *Workspace) CmdLiveReconnect() {
	l := w.live
	if !w.LiveLost() {
		return
	}
	w.dropLive()
	nl := newLiveLink(l.addr, l.token)
	w.live = nl
	w.log.Infof("reconnecting to the game at %s...", l.addr)
	go nl.connect(w.wake)
}

func (w *Workspace) wake() {
	if w.opts.Wake != nil {
		w.opts.Wake()
	}
}

// connect dials the game, then follows it: deltas, the lag (a status request's round trip, twice
// a second) and the edits to send, until stop or the connection ends.
func (l *liveLink) connect(wake func()) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	c, err := live.Dial(ctx, l.addr, l.token)
	if err == nil {
		err = c.Watch(ctx)
	}
	cancel()
	l.mu.Lock()
	select {
	case <-l.stop: // detached meanwhile
		l.mu.Unlock()
		if c != nil {
			_ = c.Close() // nobody uses it
		}
		return
	default:
	}
	if err != nil {
		l.state, l.err = LiveLost, err
		l.mu.Unlock()
		wake()
		return
	}
	l.client = c
	l.mu.Unlock()
	wake()
	go l.send()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-l.stop:
			return
		case d := <-c.Deltas():
			l.mu.Lock()
			for _, h := range d.Changed {
				l.changed[h] = true
			}
			l.removed = append(l.removed, d.Removed...)
			l.status = live.Status{Frame: d.Frame, Updates: d.Updates, Paused: d.Paused}
			l.first = true
			l.mu.Unlock()
			wake()
		case <-tick.C:
			ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
			t0 := time.Now()
			_, err := c.Status(ctx)
			cancel()
			l.mu.Lock()
			l.lag = time.Since(t0)
			if err != nil {
				l.state, l.err = LiveLost, err
			}
			l.mu.Unlock()
			wake()
			if err != nil {
				return
			}
		}
	}
}

// send runs the queued edits in order (a drag's values must arrive in the order they were made).
func (l *liveLink) send() {
	for {
		select {
		case <-l.stop:
			return
		case f := <-l.sends:
			ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
			err := f(ctx)
			cancel()
			if err != nil {
				l.mu.Lock()
				l.fails = append(l.fails, err)
				l.mu.Unlock()
			}
		}
	}
}

// conn returns the client once connected (nil before).
func (l *liveLink) conn() *live.Client {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.client
}

// queue adds an edit to send; a full queue drops it with an error.
func (l *liveLink) queue(f func(ctx context.Context) error) bool {
	select {
	case l.sends <- f:
		return true
	default:
		l.mu.Lock()
		l.fails = append(l.fails, fmt.Errorf("too many edits waiting for the game: one was dropped"))
		l.mu.Unlock()
		return false
	}
}

// queueSet queues a set, or gives its value to the same set of the same (entity, component) still waiting: while
// one set is on its way, the frames of a drag leave one more waiting, with the latest value, which is sent when
// the first is answered. The last value is always sent. A set of another field (or the whole component) waits
// in its own turn, after the one before it, so a value never overtakes an earlier write.
func (l *liveLink) queueSet(s setRequest) {
	k := setKey{s.h, s.comp}
	l.mu.Lock()
	if p := l.pending[k]; p != nil && p.path == s.path && p.whole == s.whole {
		p.value = s.value
		l.mu.Unlock()
		return
	}
	p := &s
	l.pending[k] = p
	l.mu.Unlock()
	take := func() setRequest {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.pending[k] == p {
			delete(l.pending, k)
		}
		return *p
	}
	if !l.queue(func(ctx context.Context) error { return l.set(ctx, take()) }) {
		take()
	}
}

// The document's edits, sent to the game (doc.LiveSink).

func (l *liveLink) SetField(h uint64, comp, path string, v json.RawMessage) {
	l.queueSet(setRequest{h: h, comp: comp, path: path, value: v})
}

func (l *liveLink) SetComponent(h uint64, comp, js string) {
	l.queueSet(setRequest{h: h, comp: comp, whole: true, value: json.RawMessage(js)})
}

func (l *liveLink) AddComponent(h uint64, comp string) {
	l.queue(func(ctx context.Context) error { return l.client.Add(ctx, h, comp, "") })
}

func (l *liveLink) RemoveComponent(h uint64, comp string) {
	l.queue(func(ctx context.Context) error { return l.client.Remove(ctx, h, comp) })
}

func (l *liveLink) Spawn(parent uint64, comps map[string]string) {
	l.queue(func(ctx context.Context) error { _, err := l.client.Spawn(ctx, parent, comps); return err })
}

func (l *liveLink) Despawn(h uint64) {
	l.queue(func(ctx context.Context) error { return l.client.Despawn(ctx, h, true) })
}

// Attached reports whether the workspace shows a game's world (connecting, attached or lost).
func (w *Workspace) Attached() bool { return w.live != nil }

// AttachedSelection reports whether the workspace shows a game's world and entities of it are selected.
func (w *Workspace) AttachedSelection() bool {
	return w.live != nil && w.doc.Attached() && w.doc.Selection().Len() > 0
}

// LiveState returns the state of the connection to the game (LiveOff when not attached).
func (w *Workspace) LiveState() LiveState {
	if w.live == nil {
		return LiveOff
	}
	w.live.mu.Lock()
	defer w.live.mu.Unlock()
	return w.live.state
}

// LivePaused reports whether the attached game's systems are paused (as its last delta said).
func (w *Workspace) LivePaused() bool {
	if w.live == nil {
		return false
	}
	w.live.mu.Lock()
	defer w.live.mu.Unlock()
	return w.live.status.Paused
}

// pollLive brings what the connection gathered into the loop: the attached document on the first
// delta, the entities deltas changed, a lost connection, failed edits.
func (w *Workspace) pollLive() {
	l := w.live
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
			w.live = nil
		}
	}
}

// Detach ends the connection to the game and returns to a new, empty scene.
func (w *Workspace) Detach() {
	l := w.live
	if l == nil {
		return
	}
	w.dropLive()
	if w.doc != nil && w.doc.Attached() {
		w.SetDoc(doc.New("", w.docOpts))
		w.log.Infof("detached from the game at %s", l.addr)
	}
}

// dropLive ends the connection to the game.
func (w *Workspace) dropLive() {
	l := w.live
	w.live = nil
	l.mu.Lock()
	close(l.stop)
	c := l.client
	l.mu.Unlock()
	if c != nil {
		_ = c.Close() // the user is done with the game
	}
}

// CmdDetach detaches from the game (see Detach).
func (w *Workspace) CmdDetach() { w.Detach() }

// liveCall runs a request of the toolbar (pause, step, resume) and reports its failure.
func (w *Workspace) liveCall(what string, f func(ctx context.Context, c *live.Client) error) {
	l := w.live
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

// CmdLivePause pauses the attached game's systems.
func (w *Workspace) CmdLivePause() {
	w.liveCall("pause", func(ctx context.Context, c *live.Client) error { _, err := c.Pause(ctx); return err })
}

// CmdLiveStep runs the attached game's systems exactly once (pausing it).
func (w *Workspace) CmdLiveStep() {
	w.liveCall("step", func(ctx context.Context, c *live.Client) error { _, err := c.Step(ctx, 1); return err })
}

// CmdLiveResume runs the attached game's systems again.
func (w *Workspace) CmdLiveResume() {
	w.liveCall("resume", func(ctx context.Context, c *live.Client) error { _, err := c.Resume(ctx); return err })
}

// LiveStatusText is the status bar's part about the game: its address, the connection's state,
// whether it is paused and the lag.
func (w *Workspace) LiveStatusText() string {
	l := w.live
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
func (w *Workspace) CmdSnapshot() { w.askSnapshot("Snapshot of the Game", "snapshot.json", nil) }

// CmdSnapshotSelection asks where to save the selected entities of the attached game, with their descendants, as
// a scene file (a prefab).
func (w *Workspace) CmdSnapshotSelection() {
	var roots []uint64
	for _, e := range w.doc.Selection().Entities() {
		if h := w.doc.LiveHandle(e); h != 0 {
			roots = append(roots, h)
		}
	}
	if len(roots) > 0 {
		w.askSnapshot("Snapshot of the Selection", "prefab.json", roots)
	}
}

// askSnapshot asks for a file and writes the snapshot of roots (nil: every entity) to it.
func (w *Workspace) askSnapshot(title, name string, roots []uint64) {
	if w.live == nil || w.live.conn() == nil {
		return
	}
	w.ui.ChooseFile(FileRequest{Save: true, Title: title, Dir: w.dialogDir(), Name: name,
		OKLabel: "Save", Exts: []string{".json"}, OnChoose: func(path string) {
			if err := w.Snapshot(path, roots); err != nil {
				w.Report("snapshot", err)
				return
			}
			w.log.Infof("saved a snapshot of the game to %s", path)
		}})
}

// Snapshot writes the attached game's world as the client sees it to path as a scene file: the entities roots
// and their descendants, or every entity when roots is nil (live.Client.SnapshotSceneOf, SnapshotScene).
func (w *Workspace) Snapshot(path string, roots []uint64) error {
	l := w.live
	if l == nil || l.conn() == nil {
		return fmt.Errorf("not attached to a game")
	}
	var rs *serialize.RawScene
	var err error
	if roots == nil {
		rs, err = l.client.SnapshotScene(w.doc.SceneName())
	} else {
		rs, err = l.client.SnapshotSceneOf(w.doc.SceneName(), roots)
	}
	if err != nil {
		return err
	}
	return serialize.WriteRawFile(context.Background(), path, rs)
}

// CmdDiffLive shows how the attached game's world differs from the scene file it loaded, entity by entity
// (voltex-editor diff of the file and a snapshot). It asks for the file when the game did not say which it loaded or
// the editor cannot read it.
func (w *Workspace) CmdDiffLive() {
	if w.live == nil || w.live.conn() == nil {
		return
	}
	if path := w.live.client.Scene(); path != "" {
		if _, err := os.Stat(path); err == nil {
			w.showDiffLive(path)
			return
		}
		w.log.Warnf("the game loaded %s, which the editor cannot read: choose the scene file to compare with", path)
	}
	w.ui.ChooseFile(FileRequest{Title: "Diff with Scene File", Dir: w.dialogDir(), OKLabel: "Diff", Exts: []string{".json"},
		OnChoose: w.showDiffLive})
}

// showDiffLive shows the changes from the scene file at path to the attached game's world in the Differences
// window; the console has them too, as text.
func (w *Workspace) showDiffLive(path string) {
	changes, text, err := w.diffLive(path)
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

// DiffLive returns the changes from the scene file at path to the attached game's world, as text (see
// merge.WriteText), and how many there are.
func (w *Workspace) DiffLive(path string) (string, int, error) {
	changes, text, err := w.diffLive(path)
	return text, len(changes), err
}

// diffLive returns the changes from the scene file at path to the attached game's world, and them as text.
func (w *Workspace) diffLive(path string) ([]merge.Change, string, error) {
	l := w.live
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
