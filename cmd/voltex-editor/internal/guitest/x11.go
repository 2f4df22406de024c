package guitest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// x11Conn is a minimal X11 protocol client: just enough to send a window the WM_DELETE_WINDOW client message a
// window manager sends when the user clicks the close button (Xvfb has no window manager, and xdotool's
// windowclose destroys the window instead of asking it to close).
type x11Conn struct {
	c net.Conn
}

func dialX11(display int) (*x11Conn, error) {
	c, err := net.DialTimeout("unix", fmt.Sprintf("/tmp/.X11-unix/X%d", display), 5*time.Second)
	if err != nil {
		return nil, err
	}
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	// Connection setup: little-endian, protocol 11.0, no authorisation (Xvfb started by the harness has none).
	setup := []byte{'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	if _, err := c.Write(setup); err != nil {
		_ = c.Close() // the error returned says what failed
		return nil, err
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(c, head); err != nil {
		_ = c.Close() // the error returned says what failed
		return nil, err
	}
	rest := make([]byte, int(binary.LittleEndian.Uint16(head[6:]))*4)
	if _, err := io.ReadFull(c, rest); err != nil {
		_ = c.Close() // the error returned says what failed
		return nil, err
	}
	if head[0] != 1 {
		_ = c.Close() // the error returned says what failed
		return nil, errors.New("x11: connection refused by server")
	}
	return &x11Conn{c: c}, nil
}

func (x *x11Conn) Close() error { return x.c.Close() }

// internAtom returns the atom for name (InternAtom, opcode 16).
func (x *x11Conn) internAtom(name string) (uint32, error) {
	pad := (4 - len(name)%4) % 4
	req := make([]byte, 8+len(name)+pad)
	req[0] = 16
	binary.LittleEndian.PutUint16(req[2:], uint16(len(req)/4))
	binary.LittleEndian.PutUint16(req[4:], uint16(len(name)))
	copy(req[8:], name)
	if _, err := x.c.Write(req); err != nil {
		return 0, err
	}
	rep := make([]byte, 32)
	if _, err := io.ReadFull(x.c, rep); err != nil {
		return 0, err
	}
	if rep[0] != 1 {
		return 0, fmt.Errorf("x11: InternAtom %s failed (code %d)", name, rep[1])
	}
	return binary.LittleEndian.Uint32(rep[8:]), nil
}

// sendDeleteWindow sends WM_PROTOCOLS/WM_DELETE_WINDOW to window (SendEvent, opcode 25).
func (x *x11Conn) sendDeleteWindow(window uint32) error {
	protocols, err := x.internAtom("WM_PROTOCOLS")
	if err != nil {
		return err
	}
	del, err := x.internAtom("WM_DELETE_WINDOW")
	if err != nil {
		return err
	}
	req := make([]byte, 44)
	req[0] = 25
	binary.LittleEndian.PutUint16(req[2:], 11)
	binary.LittleEndian.PutUint32(req[4:], window)
	ev := req[12:]
	ev[0] = 33 // ClientMessage
	ev[1] = 32 // format
	binary.LittleEndian.PutUint32(ev[4:], window)
	binary.LittleEndian.PutUint32(ev[8:], protocols)
	binary.LittleEndian.PutUint32(ev[12:], del)
	if _, err := x.c.Write(req); err != nil {
		return err
	}
	// Round-trip with a harmless request so that an error for SendEvent (e.g. a bad window) is seen here.
	_, err = x.internAtom("WM_PROTOCOLS")
	return err
}
