package live

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// maxServerMessage bounds one message a client reads (a delta part of big components).
const maxServerMessage = 256 << 20

// Client is a connection to a game's live link: what a tool (the editor) uses. Its view of the
// world follows the deltas the game sends once Watch was called; its methods may be called from
// any goroutine.
type Client struct {
	nc      net.Conn
	wmu     sync.Mutex
	bw      *bufio.Writer
	nextID  atomic.Uint64
	schemas []Schema
	scene   string // set by the handshake, read-only after
	deltas  chan Delta
	done    chan struct{}

	mu      sync.Mutex
	pending map[uint64]chan reply
	view    map[uint64]*Entity
	part    Delta         // the delta being received
	last    Delta         // the last complete delta
	ended   chan struct{} // closed and replaced when a delta ends
	err     error
}

// Entity is an entity as a client sees it.
type Entity struct {
	Handle uint64
	Parent uint64 // 0: a root
	// Components holds every component the entity has (but those the world computes), as scene
	// JSON with entity references as handles ("" for a component scene JSON cannot hold).
	Components map[string]string
	// Errors name values the game could not write (NaN, say); the last value sent is kept.
	Errors []string
}

// Delta tells what one delta changed in the client's view.
type Delta struct {
	Seq     uint64
	Frame   uint64   // the game's Frame count when the delta began
	Updates uint64   // the world's Update count then
	Paused  bool     // whether the game was paused then
	Changed []uint64 // entities added or changed, by handle
	Removed []uint64
}

// Status is the game's state as a reply reports it.
type Status struct {
	Frame   uint64 // Frame calls so far
	Updates uint64 // world updates so far
	Paused  bool
}

// Dial connects to a game's live link at addr ("host:port" or "unix:PATH") and presents token.
func Dial(ctx context.Context, addr, token string) (*Client, error) {
	network := "tcp"
	if p, ok := strings.CutPrefix(addr, "unix:"); ok {
		network, addr = "unix", p
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	c := newClient(nc)
	br := bufio.NewReaderSize(nc, 64<<10)
	if err := c.handshake(ctx, br, addr, token); err != nil {
		_ = nc.Close() // the error returned says what failed
		return nil, err
	}
	go c.read(br)
	return c, nil
}

// newClient is a client on nc before the handshake.
func newClient(nc net.Conn) *Client {
	return &Client{nc: nc, bw: bufio.NewWriter(nc), deltas: make(chan Delta, 64), done: make(chan struct{}),
		pending: map[uint64]chan reply{}, view: map[uint64]*Entity{}, ended: make(chan struct{})}
}

// handshake presents token and reads the game's hello, within ctx's deadline.
func (c *Client) handshake(ctx context.Context, br *bufio.Reader, addr, token string) error {
	if dl, ok := ctx.Deadline(); ok {
		if err := c.nc.SetDeadline(dl); err != nil {
			return fmt.Errorf("live: %w", err)
		}
	}
	if err := c.writeJSON(request{Op: "hello", Token: token}); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	line, err := readLine(br, maxServerMessage)
	if err != nil {
		return fmt.Errorf("live: no hello from %s: %w", addr, err)
	}
	var h struct {
		hello
		Error string `json:"error"`
	}
	if err := json.Unmarshal(line, &h); err != nil || h.Op != "hello" {
		if h.Error != "" {
			return fmt.Errorf("live: the game refused the connection: %s", h.Error)
		}
		return fmt.Errorf("live: %s did not answer with a hello", addr)
	}
	if h.Version != Version {
		return fmt.Errorf("live: the game speaks protocol version %d, this client %d", h.Version, Version)
	}
	// Deltas come at the game's pace from now on: a deadline left behind would end the connection.
	if err := c.nc.SetDeadline(time.Time{}); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	c.schemas = h.Components
	c.scene = h.Scene
	return nil
}

// Scene returns the scene file the game says it loaded its world from (an absolute path on the
// game's machine), or "" when it did not say.
func (c *Client) Scene() string { return c.scene }

// Close ends the connection.
func (c *Client) Close() error {
	err := c.nc.Close()
	<-c.done
	return err
}

// Err returns why the connection ended, or nil while it is up.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Schemas returns the game's components (registered so far: a game that registers more later
// sends them again).
func (c *Client) Schemas() []Schema {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.schemas
}

// Schema returns the schema of the component name, or nil.
func (c *Client) Schema(name string) *Schema {
	for _, s := range c.Schemas() {
		if s.Name == name {
			return &s
		}
	}
	return nil
}

// Deltas delivers a Delta for each delta received after Watch. It is buffered; when the reader
// falls behind, deltas are dropped from it (the view is always up to date).
func (c *Client) Deltas() <-chan Delta { return c.deltas }

func (c *Client) writeJSON(r request) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	// A bufio.Writer keeps its first error and Flush returns it.
	_, _ = c.bw.Write(b)
	_ = c.bw.WriteByte('\n')
	return c.bw.Flush()
}

// call sends a request and waits for its reply.
func (c *Client) call(ctx context.Context, r request) (reply, error) {
	r.ID = c.nextID.Add(1)
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return reply{}, c.err
	}
	c.pending[r.ID] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, r.ID)
		c.mu.Unlock()
	}()
	if err := c.writeJSON(r); err != nil {
		return reply{}, fmt.Errorf("live: %w", err)
	}
	select {
	case rep := <-ch:
		if !rep.OK {
			return rep, fmt.Errorf("live: %s: %s", r.Op, rep.Error)
		}
		return rep, nil
	case <-c.done:
		return reply{}, c.Err()
	case <-ctx.Done():
		return reply{}, ctx.Err()
	}
}

func (c *Client) read(br *bufio.Reader) {
	defer close(c.done)
	var err error
	for {
		var line []byte
		if line, err = readLine(br, maxServerMessage); err != nil {
			break
		}
		var env struct {
			Op string `json:"op"`
		}
		if err = json.Unmarshal(line, &env); err != nil {
			break
		}
		switch env.Op {
		case "reply":
			var rep reply
			if err = json.Unmarshal(line, &rep); err != nil {
				break
			}
			c.mu.Lock()
			ch := c.pending[rep.ID]
			if rep.Watch {
				c.view = map[uint64]*Entity{}
				c.part = Delta{}
			}
			c.mu.Unlock()
			if ch != nil {
				ch <- rep
			}
		case "hello": // the game registered more components
			var h hello
			if err = json.Unmarshal(line, &h); err != nil {
				break
			}
			c.mu.Lock()
			c.schemas = h.Components
			c.mu.Unlock()
		case "delta":
			var d delta
			if err = json.Unmarshal(line, &d); err != nil {
				break
			}
			err = c.apply(&d)
		case "error":
			var e struct {
				Error string `json:"error"`
			}
			_ = json.Unmarshal(line, &e) // the connection ends either way; an unreadable reason is left empty
			err = fmt.Errorf("the game closed the connection: %s", e.Error)
		default:
			err = fmt.Errorf("unknown message %q", clip(env.Op))
		}
		if err != nil {
			break
		}
	}
	_ = c.nc.Close() // err says why the connection ended
	c.mu.Lock()
	if errors.Is(err, net.ErrClosed) {
		err = errors.New("the connection is closed")
	}
	c.err = fmt.Errorf("live: %w", err)
	c.mu.Unlock()
}

// apply merges one delta part into the view; at the end of a delta it acknowledges it. An ack
// that cannot be sent ends the connection: the game waits for acks before it sends more.
func (c *Client) apply(d *delta) error {
	c.mu.Lock()
	p := &c.part
	p.Seq, p.Frame, p.Updates, p.Paused = d.Seq, d.Frame, d.Updates, d.Paused
	for i := range d.Entities {
		de := &d.Entities[i]
		e := c.view[de.E]
		if e == nil {
			e = &Entity{Handle: de.E, Components: map[string]string{}}
			c.view[de.E] = e
		}
		e.Parent = de.Parent
		e.Errors = de.Errors
		has := make(map[string]string, len(de.Has))
		for _, name := range de.Has {
			has[name] = e.Components[name]
		}
		for name, js := range de.C {
			if _, ok := has[name]; ok {
				has[name] = string(js)
			}
		}
		e.Components = has
		p.Changed = append(p.Changed, de.E)
	}
	if !d.End {
		c.mu.Unlock()
		return nil
	}
	for _, h := range d.Removed {
		delete(c.view, h)
	}
	p.Removed = d.Removed
	done := *p
	c.last = done
	c.part = Delta{}
	close(c.ended)
	c.ended = make(chan struct{})
	c.mu.Unlock()
	err := c.writeJSON(request{Op: "ack", Seq: done.Seq})
	select {
	case c.deltas <- done:
	default:
	}
	if err != nil {
		return fmt.Errorf("ack: %w", err)
	}
	return nil
}

// Watch asks the game for deltas: the first one holds every entity, the next ones what changed
// since the one before. Watching again starts over with a full view.
func (c *Client) Watch(ctx context.Context) error {
	_, err := c.call(ctx, request{Op: "watch"})
	return err
}

// Status asks the game for its state.
func (c *Client) Status(ctx context.Context) (Status, error) {
	rep, err := c.call(ctx, request{Op: "status"})
	return Status{rep.Frame, rep.Updates, rep.Paused}, err
}

// Sync waits until the view holds everything the game did before the call (a delta that began
// after it has arrived) and returns that delta.
func (c *Client) Sync(ctx context.Context) (Delta, error) {
	st, err := c.Status(ctx)
	if err != nil {
		return Delta{}, err
	}
	for {
		c.mu.Lock()
		last, ended := c.last, c.ended
		c.mu.Unlock()
		if last.Frame >= st.Frame {
			return last, nil
		}
		select {
		case <-ended:
		case <-c.done:
			return Delta{}, c.Err()
		case <-ctx.Done():
			return Delta{}, ctx.Err()
		}
	}
}

// View returns a copy of the client's view of the world, by handle.
func (c *Client) View() map[uint64]Entity {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[uint64]Entity, len(c.view))
	for h, e := range c.view {
		out[h] = Entity{Handle: h, Parent: e.Parent, Components: maps.Clone(e.Components), Errors: slices.Clone(e.Errors)}
	}
	return out
}

// Entity returns one entity of the view.
func (c *Client) Entity(h uint64) (Entity, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.view[h]
	if !ok {
		return Entity{}, false
	}
	return Entity{Handle: h, Parent: e.Parent, Components: maps.Clone(e.Components), Errors: slices.Clone(e.Errors)}, true
}

// Set sets the field at path ("position[1]", "a.b") of entity h's component comp to value (any
// value encoding/json writes, or a json.RawMessage). The game checks it as its scene loader would.
func (c *Client) Set(ctx context.Context, h uint64, comp, path string, value any) error {
	js, err := json.Marshal(value)
	if err != nil {
		return fmt.Errorf("live: set %s.%s: %w", comp, path, err)
	}
	_, err = c.call(ctx, request{Op: "set", E: h, C: comp, Path: path, Value: js})
	return err
}

// SetComponent replaces entity h's component comp by the scene JSON js (fields left out take
// their defaults).
func (c *Client) SetComponent(ctx context.Context, h uint64, comp, js string) error {
	_, err := c.call(ctx, request{Op: "set", E: h, C: comp, Value: json.RawMessage(js)})
	return err
}

// Add adds component comp to entity h, with the value js ("": the component's default).
func (c *Client) Add(ctx context.Context, h uint64, comp, js string) error {
	r := request{Op: "add", E: h, C: comp}
	if js != "" {
		r.Value = json.RawMessage(js)
	}
	_, err := c.call(ctx, r)
	return err
}

// Remove removes component comp from entity h.
func (c *Client) Remove(ctx context.Context, h uint64, comp string) error {
	_, err := c.call(ctx, request{Op: "remove", E: h, C: comp})
	return err
}

// Spawn makes an entity with the components comps (name → scene JSON), a child of parent (0: a
// root), and returns its handle.
func (c *Client) Spawn(ctx context.Context, parent uint64, comps map[string]string) (uint64, error) {
	r := request{Op: "spawn", Parent: parent, Components: map[string]json.RawMessage{}}
	for k, v := range comps {
		r.Components[k] = json.RawMessage(v)
	}
	rep, err := c.call(ctx, r)
	return rep.E, err
}

// Despawn removes entity h (and its descendants if recursive; otherwise its children become
// roots).
func (c *Client) Despawn(ctx context.Context, h uint64, recursive bool) error {
	_, err := c.call(ctx, request{Op: "despawn", E: h, Recursive: recursive})
	return err
}

// Pause stops the game's systems (Frame returns false) until Resume.
func (c *Client) Pause(ctx context.Context) (Status, error) {
	return c.state(ctx, request{Op: "pause"})
}

// Resume runs the game's systems again.
func (c *Client) Resume(ctx context.Context) (Status, error) {
	return c.state(ctx, request{Op: "resume"})
}

// Step pauses the game and lets its systems run n more times.
func (c *Client) Step(ctx context.Context, n int) (Status, error) {
	return c.state(ctx, request{Op: "step", N: n})
}

func (c *Client) state(ctx context.Context, r request) (Status, error) {
	rep, err := c.call(ctx, r)
	return Status{rep.Frame, rep.Updates, rep.Paused}, err
}
