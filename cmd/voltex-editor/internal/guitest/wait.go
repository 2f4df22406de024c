package guitest

import (
	"fmt"
	"image"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
)

// MinWait is the least time any harness wait allows before it fails. A loaded 2-core machine can stall an editor
// for seconds (a software-rendered frame, a garbage collection, a busy neighbour); a wait returns as soon as its
// condition holds, so a long deadline costs nothing in a passing run.
const MinWait = 30 * time.Second

// ScaleEnv names the environment variable that multiplies every harness deadline (a positive number, default 1;
// `STRESS=1 make test` sets 2).
const ScaleEnv = "VOLTEX_TIMEOUT_SCALE"

var scale = sync.OnceValue(func() float64 {
	if s := os.Getenv(ScaleEnv); s != "" {
		if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 {
			return f
		}
	}
	return 1
})

// Timeout returns the deadline the harness uses for a wait asked for d: max(d, MinWait) × $VOLTEX_TIMEOUT_SCALE.
// Use it for any deadline of your own in a GUI test.
func Timeout(d time.Duration) time.Duration {
	return time.Duration(float64(max(d, MinWait)) * scale())
}

// WaitFor polls cond every 50 ms until it returns nil, and fails t after Timeout(timeout) with what and cond's last
// error. Use it for conditions outside the probe (a file written, a process gone).
func WaitFor(t testing.TB, timeout time.Duration, what string, cond func() error) {
	t.Helper()
	d := Timeout(timeout)
	deadline := time.Now().Add(d)
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s: %v", d, what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitProbe polls the probe until cond holds; it returns nil (without failing) if the editor exits first.
func (e *Editor) waitProbe(timeout time.Duration, what string, cond func(*Probe) bool) (*Probe, bool) {
	e.t.Helper()
	d := Timeout(timeout)
	deadline := time.Now().Add(d)
	var last *Probe
	for {
		if p, err := e.ReadProbe(); err == nil {
			last = p
			if cond(p) {
				return p, true
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out after %v waiting for %s; last probe: %+v", d, what, last)
		}
		select {
		case <-e.done:
			return last, false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// WaitProbe waits until cond holds for the probe and returns that probe; it fails the test with what after
// Timeout(timeout), or if the editor exits first.
func (e *Editor) WaitProbe(timeout time.Duration, what string, cond func(*Probe) bool) *Probe {
	e.t.Helper()
	p, ok := e.waitProbe(timeout, what, cond)
	if !ok {
		e.t.Fatalf("editor exited while waiting for %s: %v", what, e.exitErr)
	}
	return p
}

// frames returns the editor's current frame count (0 before its first probe).
func (e *Editor) frames() uint64 {
	if p, err := e.ReadProbe(); err == nil {
		return p.Frames
	}
	return 0
}

// WaitFrames waits until the editor has finished n more frames than it had when called, or is idle (it sleeps until
// the next input: nothing more will happen), and returns the probe; nil if the editor exits meanwhile. Use it for
// "a few frames later it still …" checks. To wait for input you have sent, use Sync (the input methods do).
func (e *Editor) WaitFrames(n int) *Probe {
	e.t.Helper()
	f := e.frames()
	p, _ := e.waitProgress(fmt.Sprintf("%d more frames after frame %d", n, f), func(p *Probe) bool {
		return p.Frames >= f+uint64(n) || p.Idle
	})
	return p
}

// handled waits until the editor has polled all input sent before the call (it has finished two frames since) and
// handled it (no input event is left in its queue), and returns that probe. Its deadline runs only while the editor
// builds no frames: on a loaded machine handling typed text can take many slow frames, which is progress, not a hang.
func (e *Editor) handled() *Probe {
	e.t.Helper()
	f := e.frames()
	p, _ := e.waitProgress(fmt.Sprintf("the editor to handle the input sent after frame %d", f), func(p *Probe) bool {
		return p.Frames >= f+2 && p.InputPending == 0
	})
	return p
}

// Sync waits until the editor has read and handled all input sent before the call (see the probe's InputPending)
// and built one more frame to act on it. Key, Type, Move, Click, DoubleClick, Drag, Focus and Resize call it, so a
// test never sleeps between them; after them wait for the effect with WaitProbe. It fails only if the editor
// stops building frames for Timeout(MinWait) with input still unhandled.
func (e *Editor) Sync() {
	e.t.Helper()
	p := e.handled()
	if p == nil || p.Idle {
		return
	}
	e.waitProgress(fmt.Sprintf("a frame after frame %d", p.Frames), func(q *Probe) bool {
		return q.Frames > p.Frames || q.Idle
	})
}

// waitProgress is waitProbe with a deadline that starts again whenever the editor finishes a frame.
func (e *Editor) waitProgress(what string, cond func(*Probe) bool) (*Probe, bool) {
	e.t.Helper()
	d := Timeout(MinWait)
	deadline := time.Now().Add(d)
	var last *Probe
	for {
		if p, err := e.ReadProbe(); err == nil {
			if last == nil || p.Frames != last.Frames {
				deadline = time.Now().Add(d)
			}
			last = p
			if cond(p) {
				return p, true
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("the editor built no frame for %v while waiting for %s; last probe: %+v", d, what, last)
		}
		select {
		case <-e.done:
			return last, false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Settle waits until the editor is idle — it has handled its input, nothing is pending or animating, and the screen
// is up to date — and returns that probe. An editor in play mode (or with a job running) never settles: use
// Presented there. Send input only through the Editor's methods before calling it (they Sync).
func (e *Editor) Settle() *Probe {
	e.t.Helper()
	return e.WaitProbe(MinWait, "the editor to go idle", func(p *Probe) bool { return p.Idle })
}

// Presented waits until the screen shows the state of probe p or a later one: the frame that wrote p and the next
// one (which shows a viewport render caused by p's frame) are presented, and so is the viewport's picture of them
// (a big picture is drawn over several frames: Probe.Picture.Pending). It returns the newest probe.
func (e *Editor) Presented(p *Probe) *Probe {
	e.t.Helper()
	what := fmt.Sprintf("frame %d and its picture on screen", p.Frames)
	q := e.WaitProbe(MinWait, what, func(q *Probe) bool {
		return (q.Frames >= p.Frames+2 && !q.Picture.Pending) || (q.Idle && q.Frames >= p.Frames)
	})
	if q.Idle {
		return q
	}
	return e.WaitProbe(MinWait, what, func(r *Probe) bool { return r.Frames > q.Frames || r.Idle })
}

// ScreenshotOf captures the screen once it shows probe p's state (see Presented). Use it instead of sleeping
// before a screenshot.
func (e *Editor) ScreenshotOf(p *Probe) *image.RGBA {
	e.t.Helper()
	e.Presented(p)
	return e.Screenshot()
}

// ScreenshotNow captures the screen once it shows the editor's current state (see Presented).
func (e *Editor) ScreenshotNow() *image.RGBA {
	e.t.Helper()
	p, err := e.ReadProbe()
	if err != nil {
		e.t.Fatalf("probe: %v", err)
	}
	return e.ScreenshotOf(p)
}

// WaitScreen takes screenshots until cond holds for one and returns it; it fails the test with what after
// Timeout(timeout). Use it for "the picture changes" assertions (an animation, a live preview): compare with an
// earlier screenshot in cond instead of assuming how much changes in a given time.
func (e *Editor) WaitScreen(timeout time.Duration, what string, cond func(*image.RGBA) bool) *image.RGBA {
	e.t.Helper()
	d := Timeout(timeout)
	deadline := time.Now().Add(d)
	for {
		img := e.Screenshot()
		if cond(img) {
			return img
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out after %v waiting for the screen to show %s", d, what)
		}
		if !e.Running() {
			e.t.Fatalf("editor exited while waiting for the screen to show %s: %v", what, e.exitErr)
		}
		time.Sleep(50 * time.Millisecond) // a poll interval: the condition, not this pause, decides
	}
}
