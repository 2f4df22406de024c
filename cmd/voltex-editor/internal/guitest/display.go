package guitest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Display is a private Xvfb server.
type Display struct {
	Num    int
	Width  int
	Height int
	cmd    *exec.Cmd
}

// Env returns "DISPLAY=:N".
func (d *Display) Env() string { return fmt.Sprintf("DISPLAY=:%d", d.Num) }

// need fails the test with an install hint when a required program is missing.
func need(t testing.TB, progs ...string) {
	t.Helper()
	var missing []string
	for _, p := range progs {
		if _, err := exec.LookPath(p); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("GUI tests need %s on PATH: run scripts/install-deps.sh (make test does)", strings.Join(missing, ", "))
	}
}

// StartDisplay starts Xvfb with one screen of w×h×24 on a display number Xvfb picks itself (-displayfd, so parallel
// test processes never collide), and stops it (SIGTERM by PID, so it removes its lock file) when the test ends.
func StartDisplay(t testing.TB, w, h int) *Display {
	t.Helper()
	need(t, "Xvfb", "xdotool", "import")
	r, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", w, h),
		"-nolisten", "tcp", "-noreset",
		// No key auto-repeat: a loaded machine can delay xdotool between a key's press and release past the repeat
		// delay, and the server would then type the key twice.
		"-r")
	cmd.ExtraFiles = []*os.File{wr}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	_ = wr.Close() // Xvfb holds its own copy
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		_ = r.Close()
		got <- strings.TrimSpace(line)
	}()
	var num int
	select {
	case s := <-got:
		num, err = strconv.Atoi(s)
		if err != nil {
			stop()
			t.Fatalf("Xvfb did not report a display number (%q)", s)
		}
	case <-time.After(Timeout(20 * time.Second)):
		stop()
		t.Fatalf("Xvfb did not start within %v", Timeout(20*time.Second))
	}
	t.Cleanup(stop)
	d := &Display{Num: num, Width: w, Height: h, cmd: cmd}
	c, err := dialX11(num)
	if err != nil {
		t.Fatalf("Xvfb :%d is not accepting connections: %v", num, err)
	}
	_ = c.Close()
	return d
}
