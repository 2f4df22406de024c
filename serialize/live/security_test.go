package live

import (
	"bufio"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rawConn is a client that speaks the protocol by hand.
type rawConn struct {
	net.Conn
	br *bufio.Reader
}

func rawDial(t *testing.T, g *game) *rawConn {
	t.Helper()
	nc, err := net.Dial("tcp", g.srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = nc.Close() }) // the test is over: nothing more is read
	if err := nc.SetDeadline(time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	return &rawConn{nc, bufio.NewReader(nc)}
}

// send writes s to the game.
func (r *rawConn) send(t *testing.T, s string) {
	t.Helper()
	if _, err := io.WriteString(r, s); err != nil {
		t.Fatal(err)
	}
}

// closedWith reads until the server closes the connection and returns what it said last.
func (r *rawConn) closedWith(t *testing.T) string {
	t.Helper()
	last := ""
	for {
		line, err := r.br.ReadString('\n')
		if err != nil {
			return last
		}
		last = line
	}
}

func TestRefusesWrongToken(t *testing.T) {
	g := startGame(t, newWorld(), Options{})
	if _, err := Dial(ctx(t), g.srv.Addr(), "not-the-token"); err == nil || !strings.Contains(err.Error(), "token") {
		t.Fatalf("a wrong token: %v", err)
	}
	if _, err := Dial(ctx(t), g.srv.Addr(), ""); err == nil {
		t.Fatal("no token was let in")
	}
	r := rawDial(t, g)
	r.send(t, `{"op":"watch"}`+"\n")
	if why := r.closedWith(t); !strings.Contains(why, "hello") {
		t.Fatalf("a request before the hello: %q", why)
	}
	if len(g.srv.Token()) != 32 {
		t.Fatalf("token %q is not 32 hex digits", g.srv.Token())
	}
}

func TestRefusesLongMessages(t *testing.T) {
	g := startGame(t, newWorld(), Options{MaxMessage: 1000})
	r := rawDial(t, g)
	r.send(t, `{"op":"hello","token":"`+g.srv.Token()+`"}`+"\n")
	r.send(t, `{"op":"status","c":"`+strings.Repeat("x", 5000)+`"}`+"\n")
	if why := r.closedWith(t); !strings.Contains(why, "longer than 1000 bytes") {
		t.Fatalf("a long line: %q", why)
	}
}

func TestRefusesTooManyRequests(t *testing.T) {
	g := startGame(t, newWorld(), Options{Rate: 1, Burst: 10})
	r := rawDial(t, g)
	r.send(t, `{"op":"hello","token":"`+g.srv.Token()+`"}`+"\n")
	r.send(t, strings.Repeat(`{"op":"status"}`+"\n", 50))
	if why := r.closedWith(t); !strings.Contains(why, "too many requests") {
		t.Fatalf("a flood: %q", why)
	}
}

func TestRefusesBadRequests(t *testing.T) {
	g := startGame(t, newWorld(), Options{})
	for _, bad := range []string{`{"op":"explode"}`, `{"op":"set","e":1}`, `[1,2]`, `{"op":"status"} {"op":"status"}`,
		`{"op":"status","extra":1}`, "{\"op\":\"status\",\"c\":\"\xff\"}", `{"op":"step","n":100000}`} {
		r := rawDial(t, g)
		r.send(t, `{"op":"hello","token":"`+g.srv.Token()+`"}`+"\n"+bad+"\n")
		if why := r.closedWith(t); !strings.Contains(why, "protocol error") {
			t.Errorf("%s: %q", bad, why)
		}
	}
	// the game goes on serving
	c := dial(t, g)
	if _, err := c.Status(ctx(t)); err != nil {
		t.Fatal(err)
	}
}

func TestServesLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "example.com:80", "nonsense"} {
		if s, err := Serve(newWorld(), Options{Addr: addr}); err == nil {
			_ = s.Close() // served where it must not: the error below says so
			t.Errorf("served on %q", addr)
		}
	}
	s, err := Serve(newWorld(), Options{Addr: "[::1]:0"})
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestMaxClients(t *testing.T) {
	g := startGame(t, newWorld(), Options{MaxClients: 1})
	dial(t, g)
	if _, err := Dial(ctx(t), g.srv.Addr(), g.srv.Token()); err == nil || !strings.Contains(err.Error(), "1 clients at most") {
		t.Fatalf("a second client: %v", err)
	}
}

func TestUnixSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.sock")
	g := startGame(t, newWorld(), Options{Addr: "unix:" + path})
	if g.srv.Addr() != "unix:"+path {
		t.Fatalf("Addr %q", g.srv.Addr())
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket file: %v %v", fi, err)
	}
	c := dial(t, g)
	if _, err := c.Status(ctx(t)); err != nil {
		t.Fatal(err)
	}
}

// A client that asks and never reads is disconnected; what waits for it stays bounded.
func TestDropsClientThatDoesNotRead(t *testing.T) {
	g := startGame(t, bigWorld(60_000), Options{FrameShare: 1})
	r := rawDial(t, g)
	r.send(t, `{"op":"hello","token":"`+g.srv.Token()+`"}`+"\n"+`{"op":"watch"}`+"\n")
	go func() {
		for range 100 {
			if _, err := r.Write([]byte(strings.Repeat(`{"op":"status"}`+"\n", 10))); err != nil {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	for i := 0; ; i++ {
		g.srv.mu.Lock()
		n := len(g.srv.conns)
		g.srv.mu.Unlock()
		if n == 0 {
			break
		}
		if i == 6000 {
			t.Fatal("the client that does not read is still served")
		}
		time.Sleep(10 * time.Millisecond)
	}
	c := dial(t, g)
	if _, err := c.Status(ctx(t)); err != nil {
		t.Fatal(err)
	}
}
