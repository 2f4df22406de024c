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
		// -tags voltextest adds the test-only flags (editor/program/testflags.go: --test-components).
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
	// View is one of the four views of a split viewport in the probe.
	View = probe.View
)

// Editor is a running voltex-editor process on a Display.
type Editor struct {
	t       testing.TB
	d       *Display
	cmd     *exec.Cmd
	Window  string // X window id (decimal, as xdotool prints it)
	probe   string
	out     *syncBuffer
	done    chan struct{}
	exitErr error
	xp      *xdoPipe // the long-running xdotool of KeyAt, started on first use
}

// Launch starts the editor binary with args on d, waits for its window and first frames, gives it the keyboard
// focus, and kills it (by PID) when the test ends if it is still running.
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

// probeDir is a folder for the probe file, in memory (/dev/shm) where there is one: the editor writes the file at
// the end of every frame on its loop thread, and on disk that write waits for any big fsync in flight — a save of a
// million cubes' — showing as a frame of 100 ms that is the test's, not the editor's.
func probeDir(t testing.TB) string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "voltex-probe-"); err == nil {
			t.Cleanup(func() { _ = os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// LaunchBinaryIn is LaunchIn with another build of the program (a game's own editor, made with package program).
func LaunchBinaryIn(t testing.TB, d *Display, bin, dir string, env []string, args ...string) *Editor {
	t.Helper()
	probe := filepath.Join(probeDir(t), "probe.json")
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	// A state folder of the test's own (the session journals), unless env names one.
	cmd.Env = append(append(os.Environ(), "XDG_STATE_HOME="+t.TempDir()), env...)
	cmd.Env = append(cmd.Env, d.Env(), "VOLTEX_PROBE="+probe)
	out := &syncBuffer{}
	cmd.Stderr, cmd.Stdout = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start editor: %v", err)
	}
	e := &Editor{t: t, d: d, cmd: cmd, probe: probe, out: out, done: make(chan struct{})}
	go func() { e.exitErr = cmd.Wait(); close(e.done) }()
	t.Cleanup(func() {
		select {
		case <-e.done:
		default:
			_ = cmd.Process.Kill()
			<-e.done
		}
		if t.Failed() {
			t.Logf("editor output:\n%s", e.out.String())
		}
	})
	wait := Timeout(60 * time.Second)
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		select {
		case <-e.done:
			t.Fatalf("editor exited before showing a window: %v\n%s", e.exitErr, out.String())
		default:
		}
		found, _ := e.xdo("search", "--all", "--onlyvisible", "--pid", strconv.Itoa(cmd.Process.Pid), "--name", "Voltex Editor")
		if id := strings.TrimSpace(found); id != "" {
			e.Window = strings.Fields(id)[0]
			// Wait for the first frames so panel positions are known and the UI has settled (on a loaded machine
			// the editor may go idle after fewer frames than usual).
			e.WaitProbe(30*time.Second, "first frames", func(p *Probe) bool {
				return p.Viewport.W > 0 && (p.Frames > 5 || p.Idle)
			})
			// Xvfb has no window manager: give the window the keyboard focus ourselves, so that xdotool's XTEST
			// key events (real key presses, not synthetic SendEvents) reach it.
			e.Focus()
			return e
		}
		time.Sleep(100 * time.Millisecond) // a poll interval
	}
	t.Fatalf("editor window did not appear within %v\n%s", wait, out.String())
	return nil
}

// syncBuffer is the child's output: the process writes it from exec's copying goroutine while a test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Focus gives the editor window the keyboard focus, waits until the X server reports it and the editor has seen it.
func (e *Editor) Focus() {
	e.t.Helper()
	wait := Timeout(10 * time.Second)
	deadline := time.Now().Add(wait)
	if out, err := e.xdo("getwindowfocus"); err == nil && strings.TrimSpace(out) == e.Window {
		return // already focused: no event to wait for
	}
	for time.Now().Before(deadline) {
		e.mustXdo("windowfocus", "--sync", e.Window)
		if out, err := e.xdo("getwindowfocus"); err == nil && strings.TrimSpace(out) == e.Window {
			e.Sync()
			return
		}
		time.Sleep(100 * time.Millisecond) // a poll interval
	}
	e.t.Fatalf("could not give window %s the keyboard focus within %v", e.Window, wait)
}

// Resize sets the editor window's size in pixels and waits until the editor has seen it.
func (e *Editor) Resize(w, h int) {
	e.t.Helper()
	if out, err := e.xdo("getwindowgeometry", e.Window); err == nil && strings.Contains(out, fmt.Sprintf("Geometry: %dx%d\n", w, h)) {
		return // already that size: no event to wait for
	}
	e.mustXdo("windowsize", "--sync", e.Window, strconv.Itoa(w), strconv.Itoa(h))
	e.Sync()
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
// together, as a fast hand or a slow frame delivers them), then Syncs.
func (e *Editor) Xdotool(args ...string) {
	e.t.Helper()
	e.mustXdo(args...)
	e.Sync()
}

// Key sends key chords such as "ctrl+s" or "Delete" to the editor window, each followed by Sync.
func (e *Editor) Key(keys ...string) {
	e.t.Helper()
	for _, k := range keys {
		e.mustXdo("key", k)
		e.Sync()
	}
}

// KeysAtOnce sends key chords in one xdotool call, 30 ms apart (Key waits after each), then Syncs: for key
// sequences that must reach the editor within a frame or two of each other.
func (e *Editor) KeysAtOnce(keys ...string) {
	e.t.Helper()
	e.mustXdo(append([]string{"key", "--delay", "30"}, keys...)...)
	e.Sync()
}

// Type types text into the focused widget and Syncs.
func (e *Editor) Type(text string) {
	e.t.Helper()
	if text == "" {
		return
	}
	e.mustXdo("type", "--delay", "40", "--", text) // "--": a text starting with "-" is not an option
	e.Sync()
}

// Move moves the mouse pointer to (x, y) in screen coordinates and Syncs.
func (e *Editor) Move(x, y int) {
	e.t.Helper()
	if out, err := e.xdo("getmouselocation", "--shell"); err == nil && strings.HasPrefix(out, fmt.Sprintf("X=%d\nY=%d\n", x, y)) {
		return // already there: moving would send no event, so there is nothing to wait for
	}
	e.mustXdo("mousemove", strconv.Itoa(x), strconv.Itoa(y))
	e.Sync()
}

// Click moves to (x, y) and clicks button (1 left, 2 middle, 3 right), holding the given modifier keys
// (e.g. "ctrl") while clicking. The press and the release reach the editor in different frames.
func (e *Editor) Click(x, y, button int, modifiers ...string) {
	e.t.Helper()
	e.Move(x, y)
	for _, m := range modifiers {
		e.mustXdo("keydown", m)
	}
	e.mustXdo("mousedown", strconv.Itoa(button))
	e.Sync()
	e.mustXdo("mouseup", strconv.Itoa(button))
	for _, m := range modifiers {
		e.mustXdo("keyup", m)
	}
	e.Sync()
}

// DoubleClick double-clicks the left button at (x, y) (the editor times the two presses by when they reached it,
// not by the frames that handle them, so a slow frame rate still sees a double-click); for entering a number as
// text prefer Ctrl+click.
func (e *Editor) DoubleClick(x, y int) {
	e.t.Helper()
	e.Move(x, y)
	e.mustXdo("click", "--repeat", "2", "--delay", "60", "1")
	e.Sync()
}

// Drag presses button at (x0, y0), moves in steps to (x1, y1) and releases there; the editor sees the press, every
// step and the release in frames of their own.
func (e *Editor) Drag(x0, y0, x1, y1, button int, modifiers ...string) {
	e.t.Helper()
	e.Move(x0, y0)
	for _, m := range modifiers {
		e.mustXdo("keydown", m)
	}
	e.mustXdo("mousedown", strconv.Itoa(button))
	e.Sync()
	const steps = 12
	for i := 1; i <= steps; i++ {
		e.mustXdo("mousemove", strconv.Itoa(x0+(x1-x0)*i/steps), strconv.Itoa(y0+(y1-y0)*i/steps))
		e.handled()
	}
	e.Sync()
	e.mustXdo("mouseup", strconv.Itoa(button))
	for _, m := range modifiers {
		e.mustXdo("keyup", m)
	}
	e.Sync()
}

// DragOnto presses button at (x0, y0) and drags to the point target returns, asking target again from the newest
// probe after every step, as a person follows with the eye a target that moves (ImGui opens a closed tree row that
// a drag hovers for 0.7 s, pushing the rows below it down, and on a loaded machine a drag takes that long). It
// releases once the pointer is on the target and the target stayed there for the frame that saw the pointer.
func (e *Editor) DragOnto(x0, y0, button int, target func(*Probe) (x, y int)) {
	e.t.Helper()
	e.Move(x0, y0)
	e.mustXdo("mousedown", strconv.Itoa(button))
	e.Sync()
	const steps = 12
	for i := 1; ; i++ {
		p, err := e.ReadProbe()
		if err != nil {
			e.t.Fatalf("probe: %v", err)
		}
		tx, ty := target(p)
		k := min(i, steps)
		e.mustXdo("mousemove", strconv.Itoa(x0+(tx-x0)*k/steps), strconv.Itoa(y0+(ty-y0)*k/steps))
		q := e.handled()
		if q == nil {
			return // the editor exited; the caller's next wait says so
		}
		if i >= steps {
			if x, y := target(q); x == tx && y == ty {
				break
			}
		}
		if i > steps+50 {
			e.t.Fatalf("the drag target kept moving")
		}
	}
	e.Sync()
	e.mustXdo("mouseup", strconv.Itoa(button))
	e.Sync()
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
	defer func() { _ = x.Close() }()
	if err := x.sendDeleteWindow(uint32(id)); err != nil {
		e.t.Fatalf("x11: %v", err)
	}
}

// Wait waits up to Timeout(timeout) for the editor to exit and returns its exit code.
func (e *Editor) Wait(timeout time.Duration) (int, error) {
	select {
	case <-e.done:
	case <-time.After(Timeout(timeout)):
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
func (e *Editor) Output() string { return e.out.String() }

// Signal sends sig to the editor process.
func (e *Editor) Signal(sig syscall.Signal) { _ = e.cmd.Process.Signal(sig) }
