package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/voltex-editor/voltex/serialize/live"
)

// liveTimeout bounds connecting and each request to the game.
const liveTimeout = 10 * time.Second

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
