package guitest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// xdoPipe is one long-running `xdotool -` (commands read from its standard input, each run as its line arrives) for
// an Editor. A key written to it reaches the X server a fraction of a millisecond after the write, where a new
// xdotool process (what Key runs) first takes 20–40 ms to start on the project's 2-core virtual machine, more on a
// busy one. Latency measurements send their keys through it, so that the time they count from is when the key
// was pressed, not when a program that presses it was started.
type xdoPipe struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

// pipe starts the Editor's xdoPipe on first use; the test's cleanup closes it.
func (e *Editor) pipe() *xdoPipe {
	e.t.Helper()
	if e.xp != nil {
		return e.xp
	}
	cmd := exec.Command("xdotool", "-")
	cmd.Env = append(os.Environ(), e.d.Env())
	in, err := cmd.StdinPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	cmd.Stderr = e.out
	if err := cmd.Start(); err != nil {
		e.t.Fatalf("start xdotool -: %v", err)
	}
	p := &xdoPipe{cmd: cmd, in: in, lines: make(chan string, 16)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	e.t.Cleanup(func() {
		_ = in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	e.xp = p
	return p
}

// KeyAt sends one key chord ("ctrl+z", "Delete") to the focused window through a long-running xdotool and returns
// the time just before it was sent; then it waits until xdotool has sent it and Syncs, as Key does. For latency
// measurements: the key → frame time counts from the returned time. Key names are xdotool's.
func (e *Editor) KeyAt(key string) time.Time {
	e.t.Helper()
	if strings.ContainsAny(key, " \n") {
		e.t.Fatalf("KeyAt %q: one chord without spaces", key)
	}
	p := e.pipe()
	// getmouselocation prints a line once the key before it has been sent: the acknowledgement.
	cmd := fmt.Sprintf("key --delay 0 %s\ngetmouselocation\n", key)
	sent := time.Now()
	if _, err := io.WriteString(p.in, cmd); err != nil {
		e.t.Fatalf("xdotool -: %v", err)
	}
	select {
	case l, ok := <-p.lines:
		if !ok || !strings.HasPrefix(l, "x:") {
			e.t.Fatalf("xdotool - after key %s: %q (exited: %v)", key, l, !ok)
		}
	case <-time.After(Timeout(MinWait)):
		e.t.Fatalf("xdotool - did not send key %s within %v", key, Timeout(MinWait))
	}
	e.Sync()
	return sent
}
