package guitest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/editor/probe"
)

var (
	buildOnce sync.Once
	buildPath string
	buildErr  error
)

// Binary builds cmd/voltex-editor once per test process and returns the executable's path.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "voltex-e2e-")
		if err != nil {
			buildErr = err
			return
		}
		buildPath = filepath.Join(dir, "voltex-editor")
		// -tags voltextest adds the test-only flags (program/testflags.go: --test-components).
		cmd := exec.Command("go", "build", "-tags", "voltextest", "-o", buildPath, "github.com/voltex-editor/voltex/cmd/voltex-editor")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildPath
}

// The probe types are the editor's own (package editor/probe), so both sides read and write the same JSON.
type (
	// Probe is what the editor writes to $VOLTEX_PROBE: its state as a test needs it.
	Probe = probe.State
	// Rect is a screen rectangle in pixels.
	Rect = probe.Rect
	// Row is a hierarchy row in the probe.
	Row = probe.Row
	// Widget is an inspector widget in the probe.
	Widget = probe.Widget
	// Mark is a timed user action in the probe.
	Mark = probe.Mark
)

// Editor is a running voltex-editor process on a Display.
type Editor struct {
	t       testing.TB
	d       *Display
	cmd     *exec.Cmd
	Window  string // X window id (decimal, as xdotool prints it)
	probe   string
	stderr  *bytes.Buffer
	done    chan struct{}
	exitErr error
}

// Launch starts the editor binary with args on d, waits up to 60 s for its window, and kills it (by PID) when the
// test ends if it is still running.
func Launch(t testing.TB, d *Display, args ...string) *Editor {
	t.Helper()
	return LaunchIn(t, d, "", nil, args...)
}

// LaunchIn is Launch with the editor's working directory set to dir (as a user's shell would be, so that a relative
// scene path shows as the user typed it; "" keeps the test's) and env added to its environment ("HOME=…").
func LaunchIn(t testing.TB, d *Display, dir string, env []string, args ...string) *Editor {
	t.Helper()
	return LaunchBinaryIn(t, d, Binary(t), dir, env, args...)
}

// LaunchBinaryIn is LaunchIn with another build of the program (a game's own editor, made with package program).
func LaunchBinaryIn(t testing.TB, d *Display, bin, dir string, env []string, args ...string) *Editor {
	t.Helper()
	probe := filepath.Join(t.TempDir(), "probe.json")
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), d.Env(), "VOLTEX_PROBE="+probe)
	var stderr bytes.Buffer
	cmd.Stderr, cmd.Stdout = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start editor: %v", err)
	}
	e := &Editor{t: t, d: d, cmd: cmd, probe: probe, stderr: &stderr, done: make(chan struct{})}
	go func() { e.exitErr = cmd.Wait(); close(e.done) }()
	t.Cleanup(func() {
		select {
		case <-e.done:
		default:
			_ = cmd.Process.Kill()
			<-e.done
		}
		if t.Failed() {
			t.Logf("editor output:\n%s", e.stderr.String())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-e.done:
			t.Fatalf("editor exited before showing a window: %v\n%s", e.exitErr, stderr.String())
		default:
		}
		out, _ := e.xdo("search", "--all", "--onlyvisible", "--pid", strconv.Itoa(cmd.Process.Pid), "--name", "Voltex Editor")
		if id := strings.TrimSpace(out); id != "" {
			e.Window = strings.Fields(id)[0]
			// Xvfb has no window manager: give the window the keyboard focus ourselves, so that xdotool's XTEST
			// key events (real key presses, not synthetic SendEvents) reach it.
			// Wait for the first frames so panel positions are known and the UI has settled.
			e.WaitProbe(30*time.Second, "first frames", func(p *Probe) bool { return p.Frames > 5 && p.Viewport.W > 0 })
			e.Focus()
			return e
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("editor window did not appear within 60 s\n%s", stderr.String())
	return nil
}

// Focus gives the editor window the keyboard focus and waits until the X server reports it.
func (e *Editor) Focus() {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		e.mustXdo("windowfocus", "--sync", e.Window)
		if out, err := e.xdo("getwindowfocus"); err == nil && strings.TrimSpace(out) == e.Window {
			time.Sleep(100 * time.Millisecond)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.t.Fatalf("could not give window %s the keyboard focus", e.Window)
}

// Resize sets the editor window's size in pixels.
func (e *Editor) Resize(w, h int) {
	e.t.Helper()
	e.mustXdo("windowsize", "--sync", e.Window, strconv.Itoa(w), strconv.Itoa(h))
	time.Sleep(200 * time.Millisecond)
}

// PID returns the editor's process id.
func (e *Editor) PID() int { return e.cmd.Process.Pid }

func (e *Editor) xdo(args ...string) (string, error) {
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), e.d.Env())
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (e *Editor) mustXdo(args ...string) {
	e.t.Helper()
	if out, err := e.xdo(args...); err != nil {
		e.t.Fatalf("xdotool %s: %v %s", strings.Join(args, " "), err, out)
	}
}

// Xdotool runs one xdotool command line (e.g. "mousemove", "100", "200", "mousedown", "2": a move and a press sent
// together, as a fast hand or a slow frame delivers them).
func (e *Editor) Xdotool(args ...string) {
	e.t.Helper()
	e.mustXdo(args...)
}

// Key sends key chords such as "ctrl+s" or "Delete" to the editor window.
func (e *Editor) Key(keys ...string) {
	e.t.Helper()
	for _, k := range keys {
		e.mustXdo("key", "--delay", "30", k)
		time.Sleep(150 * time.Millisecond)
	}
}

// KeysAtOnce sends key chords in one xdotool call, 30 ms apart (Key waits after each): for key sequences that
// must reach the editor within a frame or two of each other.
func (e *Editor) KeysAtOnce(keys ...string) {
	e.t.Helper()
	e.mustXdo(append([]string{"key", "--delay", "30"}, keys...)...)
	time.Sleep(150 * time.Millisecond)
}

// Type types text into the focused widget.
func (e *Editor) Type(text string) {
	e.t.Helper()
	e.mustXdo("type", "--delay", "40", text)
	time.Sleep(150 * time.Millisecond)
}

// Move moves the mouse pointer to (x, y) in screen coordinates.
func (e *Editor) Move(x, y int) {
	e.t.Helper()
	e.mustXdo("mousemove", strconv.Itoa(x), strconv.Itoa(y))
	time.Sleep(80 * time.Millisecond)
}

// Click moves to (x, y) and clicks button (1 left, 2 middle, 3 right), holding the given modifier keys
// (e.g. "ctrl") while clicking.
func (e *Editor) Click(x, y, button int, modifiers ...string) {
	e.t.Helper()
	e.Move(x, y)
	for _, m := range modifiers {
		e.mustXdo("keydown", m)
	}
	e.mustXdo("mousedown", strconv.Itoa(button))
	time.Sleep(80 * time.Millisecond)
	e.mustXdo("mouseup", strconv.Itoa(button))
	for _, m := range modifiers {
		e.mustXdo("keyup", m)
	}
	time.Sleep(200 * time.Millisecond)
}

// DoubleClick double-clicks the left button at (x, y).
func (e *Editor) DoubleClick(x, y int) {
	e.t.Helper()
	e.Move(x, y)
	e.mustXdo("click", "--repeat", "2", "--delay", "60", "1")
	time.Sleep(200 * time.Millisecond)
}

// Drag presses button at (x0, y0), moves in steps to (x1, y1) and releases there.
func (e *Editor) Drag(x0, y0, x1, y1, button int, modifiers ...string) {
	e.t.Helper()
	e.Move(x0, y0)
	for _, m := range modifiers {
		e.mustXdo("keydown", m)
	}
	e.mustXdo("mousedown", strconv.Itoa(button))
	time.Sleep(100 * time.Millisecond)
	const steps = 12
	for i := 1; i <= steps; i++ {
		e.mustXdo("mousemove", strconv.Itoa(x0+(x1-x0)*i/steps), strconv.Itoa(y0+(y1-y0)*i/steps))
		time.Sleep(40 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	e.mustXdo("mouseup", strconv.Itoa(button))
	for _, m := range modifiers {
		e.mustXdo("keyup", m)
	}
	time.Sleep(200 * time.Millisecond)
}

// Screenshot captures the whole screen.
func (e *Editor) Screenshot() *image.RGBA {
	e.t.Helper()
	cmd := exec.Command("import", "-window", "root", "-depth", "8", "png:-")
	cmd.Env = append(os.Environ(), e.d.Env())
	out, err := cmd.Output()
	if err != nil {
		e.t.Fatalf("screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		e.t.Fatalf("screenshot: %v", err)
	}
	return toRGBA(img)
}

// SaveScreenshot captures the screen and writes it to path as PNG.
func (e *Editor) SaveScreenshot(path string) *image.RGBA {
	e.t.Helper()
	img := e.Screenshot()
	if err := WritePNG(path, img); err != nil {
		e.t.Fatal(err)
	}
	return img
}

// ReadProbe returns the editor's latest probe.
func (e *Editor) ReadProbe() (*Probe, error) {
	data, err := os.ReadFile(e.probe)
	if err != nil {
		return nil, err
	}
	var p Probe
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// WaitProbe waits until cond holds for the probe, failing the test after timeout with what.
func (e *Editor) WaitProbe(timeout time.Duration, what string, cond func(*Probe) bool) *Probe {
	e.t.Helper()
	deadline := time.Now().Add(timeout)
	var last *Probe
	for time.Now().Before(deadline) {
		if p, err := e.ReadProbe(); err == nil {
			last = p
			if cond(p) {
				return p
			}
		}
		select {
		case <-e.done:
			e.t.Fatalf("editor exited while waiting for %s: %v", what, e.exitErr)
		case <-time.After(50 * time.Millisecond):
		}
	}
	e.t.Fatalf("timed out after %v waiting for %s; last probe: %+v", timeout, what, last)
	return nil
}

// RequestClose asks the window to close as a window manager's close button does (WM_DELETE_WINDOW).
func (e *Editor) RequestClose() {
	e.t.Helper()
	id, err := strconv.ParseUint(e.Window, 10, 32)
	if err != nil {
		e.t.Fatalf("bad window id %q", e.Window)
	}
	x, err := dialX11(e.d.Num)
	if err != nil {
		e.t.Fatalf("x11: %v", err)
	}
	defer x.Close()
	if err := x.sendDeleteWindow(uint32(id)); err != nil {
		e.t.Fatalf("x11: %v", err)
	}
}

// Wait waits up to timeout for the editor to exit and returns its exit code.
func (e *Editor) Wait(timeout time.Duration) (int, error) {
	select {
	case <-e.done:
	case <-time.After(timeout):
		return -1, errors.New("editor still running")
	}
	if e.exitErr == nil {
		return 0, nil
	}
	var ee *exec.ExitError
	if errors.As(e.exitErr, &ee) {
		return ee.ExitCode(), nil
	}
	return -1, e.exitErr
}

// Running reports whether the editor process is still alive.
func (e *Editor) Running() bool {
	select {
	case <-e.done:
		return false
	default:
		return true
	}
}

// CPUTime returns the process's user+system CPU time so far (from /proc).
func (e *Editor) CPUTime() time.Duration {
	e.t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", e.PID()))
	if err != nil {
		e.t.Fatal(err)
	}
	// Fields after the parenthesised command name; utime and stime are fields 14 and 15 (1-based).
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	const clkTck = 100 // USER_HZ on Linux
	return time.Duration(ut+st) * time.Second / clkTck
}

// Output returns what the editor has printed so far.
func (e *Editor) Output() string { return e.stderr.String() }

// Signal sends sig to the editor process.
func (e *Editor) Signal(sig syscall.Signal) { _ = e.cmd.Process.Signal(sig) }
