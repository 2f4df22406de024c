package live

import (
	"bufio"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/voltex-editor/voltex/ecs"
)

// Options configure [Serve]. The zero value serves on 127.0.0.1, a port the system picks, with a
// random token.
type Options struct {
	// Addr is where to listen: "host:port" (TCP; default "127.0.0.1:0") or "unix:PATH" (a Unix
	// socket, made readable and writable by its owner only, removed by Close).
	Addr string
	// AllowRemote lets Addr name an address other than the loopback. The token is then all that
	// keeps others out, and it crosses the network in clear.
	AllowRemote bool
	// Token is what a client must present (default: 32 random hex digits).
	Token string
	// MaxClients bounds the connections served at once (default 4).
	MaxClients int
	// MaxMessage bounds a request line in bytes (default 1 MiB).
	MaxMessage int
	// Rate and Burst bound one connection's requests: Rate a second on average, Burst at once
	// (defaults 500 and 1000). A connection over its rate is closed.
	Rate  float64
	Burst int
	// MaxSpawns bounds the entities clients may spawn over the server's life (default 100,000).
	MaxSpawns int
	// FrameShare is the share of the time between two Frame calls that Frame may spend on deltas
	// (default 0.01; 1 lets it finish every delta in the frame it began).
	FrameShare float64
	// Interval is the shortest time between the starts of two deltas to one client (default
	// 20 ms): a world that changes every frame is sent at most this often.
	Interval time.Duration
	// Scene is the scene file the game loaded its world from ("" when none), told to clients in
	// the hello so a tool can compare the world with it; a relative path is made absolute.
	Scene string
}

// share is FrameShare, or its default.
func (o Options) share() float64 {
	if o.FrameShare <= 0 || o.FrameShare > 1 {
		return 0.01
	}
	return o.FrameShare
}

func (o *Options) defaults() {
	if o.Scene != "" {
		if abs, err := filepath.Abs(o.Scene); err == nil {
			o.Scene = abs
		}
	}
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.MaxClients <= 0 {
		o.MaxClients = 4
	}
	if o.MaxMessage <= 0 {
		o.MaxMessage = 1 << 20
	}
	if o.Rate <= 0 {
		o.Rate = 500
	}
	if o.Burst <= 0 {
		o.Burst = 1000
	}
	if o.MaxSpawns <= 0 {
		o.MaxSpawns = 100_000
	}
	o.FrameShare = o.share()
	if o.Interval <= 0 {
		o.Interval = 20 * time.Millisecond
	}
}

// inboxSize bounds the requests waiting for Frame (all connections together); a connection
// whose request finds it full waits (it stops reading its socket).
const inboxSize = 1024

// requestsPerFrame bounds the requests one Frame applies.
const requestsPerFrame = 256

// outboxSize bounds the messages waiting for one connection's writer.
const outboxSize = 64

// Server is a running live link. Frame must be called on the game's loop; Addr, Token and Close
// may be called from any goroutine.
type Server struct {
	w     *ecs.World
	opts  Options
	ln    net.Listener
	addr  string
	unix  string // the socket file to remove, for unix: addresses
	inbox chan inbound

	mu     sync.Mutex
	conns  map[*conn]struct{}
	closed bool
	wg     sync.WaitGroup

	loop loopState // owned by Frame
}

// inbound is a request queued for Frame, or a new connection (req.Op "join").
type inbound struct {
	c   *conn
	req request
}

// Serve starts serving w as opts say and returns the running server; the caller prints
// Addr and Token for a tool to use and calls Frame once per frame.
func Serve(w *ecs.World, opts Options) (*Server, error) {
	opts.defaults()
	if opts.Token == "" {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, fmt.Errorf("live: token: %w", err)
		}
		opts.Token = hex.EncodeToString(b[:])
	}
	s := &Server{w: w, opts: opts, inbox: make(chan inbound, inboxSize), conns: map[*conn]struct{}{}}
	if path, ok := strings.CutPrefix(opts.Addr, "unix:"); ok {
		ln, err := net.Listen("unix", path)
		if err != nil {
			return nil, fmt.Errorf("live: %w", err)
		}
		if err := os.Chmod(path, 0o600); err != nil {
			_ = ln.Close() // the error returned says what failed
			return nil, fmt.Errorf("live: %w", err)
		}
		s.ln, s.addr, s.unix = ln, "unix:"+path, path
	} else {
		if err := checkLoopback(opts.Addr, opts.AllowRemote); err != nil {
			return nil, err
		}
		ln, err := net.Listen("tcp", opts.Addr)
		if err != nil {
			return nil, fmt.Errorf("live: %w", err)
		}
		s.ln, s.addr = ln, ln.Addr().String()
	}
	s.loop.init(s)
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// checkLoopback refuses a TCP address that is not on this machine's loopback, unless allowed.
func checkLoopback(addr string, allow bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("live: address %q: %v (want host:port or unix:PATH)", addr, err)
	}
	if allow {
		return nil
	}
	if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("live: address %q is not on the loopback (127.0.0.1, ::1, localhost); set AllowRemote to serve other machines", addr)
}

// Addr returns the address clients dial: "127.0.0.1:PORT" or "unix:PATH".
func (s *Server) Addr() string { return s.addr }

// Token returns the token clients must present.
func (s *Server) Token() string { return s.opts.Token }

// Close stops listening, closes every connection and waits for their goroutines. Frame must not
// be called after Close.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	err := s.ln.Close()
	for c := range s.conns {
		c.close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	if s.unix != "" {
		_ = os.Remove(s.unix) // closing the listener removes it as a rule: absent already is as good
	}
	return err
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond) // out of descriptors, say: try again
			continue
		}
		c := newConn(s, nc)
		s.mu.Lock()
		if s.closed || len(s.conns) >= s.opts.MaxClients {
			s.mu.Unlock()
			// Without a deadline the refusal is not sent: a client that does not read would hold up accepting.
			if nc.SetWriteDeadline(time.Now().Add(time.Second)) == nil {
				fmt.Fprintf(nc, `{"op":"error","error":"the game serves %d clients at most"}`+"\n", s.opts.MaxClients)
			}
			_ = nc.Close() // refused: closing it loses nothing
			continue
		}
		s.conns[c] = struct{}{}
		s.wg.Add(2)
		s.mu.Unlock()
		go c.read()
		go c.write()
	}
}

func (s *Server) drop(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// conn is one client connection: a reader goroutine that checks the token, decodes and queues
// requests, and a writer goroutine that writes what Frame prepared.
type conn struct {
	s    *Server
	nc   net.Conn
	out  chan outMsg
	done chan struct{}
	once sync.Once
	gone atomic.Bool
	// queued counts messages in out that are delta parts (Frame prepares more only while few wait).
	queued atomic.Int32
	why    atomic.Pointer[string]
}

// outMsg is a message for a connection: prepared bytes, or a delta part to encode.
type outMsg struct {
	b     []byte
	batch *batch
}

func newConn(s *Server, nc net.Conn) *conn {
	return &conn{s: s, nc: nc, out: make(chan outMsg, outboxSize), done: make(chan struct{})}
}

// close ends the connection (any goroutine); why, if set, is sent to the client first.
func (c *conn) closeWith(why string) {
	if why != "" {
		c.why.CompareAndSwap(nil, &why)
	}
	c.close()
}

func (c *conn) close() {
	c.once.Do(func() {
		c.gone.Store(true)
		close(c.done)
		// The writer sends the reason and closes: the deadlines wake the reader, and a write stuck on
		// a client that does not read gives up soon. A connection that takes no deadline is closed
		// now, without the reason, so that Server.Close does not wait on it.
		if c.why.Load() == nil || c.nc.SetReadDeadline(time.Now()) != nil ||
			c.nc.SetWriteDeadline(time.Now().Add(time.Second)) != nil {
			_ = c.nc.Close() // the reader and the writer see it closed; nothing else is lost
		}
	})
}

// send queues prepared bytes; a client that does not read its messages is disconnected rather
// than letting them pile up.
func (c *conn) send(b []byte) {
	select {
	case c.out <- outMsg{b: b}:
	default:
		c.closeWith("too many unread messages")
	}
}

func (c *conn) read() {
	defer c.s.wg.Done()
	defer c.close()
	br := bufio.NewReaderSize(c.nc, 4096)
	limit := c.s.opts.MaxMessage
	authed := false
	tokens, last := float64(c.s.opts.Burst), time.Now()
	// The hello comes first, and soon: a connection without that deadline would hold a client's
	// place without the token.
	if err := c.nc.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return
	}
	for {
		line, err := readLine(br, limit)
		if err != nil {
			if errors.Is(err, errTooLong) {
				c.closeWith(fmt.Sprintf("a request longer than %d bytes", limit))
			}
			return
		}
		now := time.Now()
		tokens = min(float64(c.s.opts.Burst), tokens+now.Sub(last).Seconds()*c.s.opts.Rate)
		last = now
		if tokens < 1 {
			c.closeWith("too many requests")
			return
		}
		tokens--
		req, err := parseRequest(line)
		if err != nil {
			c.closeWith(err.Error())
			return
		}
		if !authed {
			if req.Op != "hello" || subtle.ConstantTimeCompare([]byte(req.Token), []byte(c.s.opts.Token)) != 1 {
				c.closeWith("a hello with the game's token comes first")
				return
			}
			authed = true
			if c.nc.SetReadDeadline(time.Time{}) != nil {
				return // the hello's deadline would end the connection soon
			}
			req = request{Op: "join"}
		} else if req.Op == "hello" {
			c.closeWith("hello twice")
			return
		}
		select {
		case c.s.inbox <- inbound{c: c, req: req}:
		case <-c.done:
			return
		}
	}
}

var errTooLong = errors.New("line too long")

// readLine reads one line of at most limit bytes (without its newline).
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > limit+1 {
			return nil, errTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			if err == io.EOF && len(line) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
}

func (c *conn) write() {
	defer c.s.wg.Done()
	defer c.s.drop(c)
	defer func() { _ = c.nc.Close() }() // what was not sent failed a Write or Flush below
	bw := bufio.NewWriterSize(c.nc, 64<<10)
	var enc encoder
	for {
		var m outMsg
		select {
		case m = <-c.out:
		case <-c.done:
			if why := c.why.Load(); why != nil {
				b, _ := json.Marshal(map[string]string{"op": "error", "error": *why})
				// The connection ends whether the reason reaches the client or not.
				_, _ = bw.Write(append(b, '\n'))
				_ = bw.Flush()
			}
			return
		}
		b := m.b
		if m.batch != nil {
			b = enc.batch(m.batch)
			c.queued.Add(-1)
		}
		if _, err := bw.Write(b); err != nil {
			c.close()
			return
		}
		if len(c.out) == 0 {
			if err := bw.Flush(); err != nil {
				c.close()
				return
			}
		}
	}
}
