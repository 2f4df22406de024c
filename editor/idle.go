package editor

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/internal/glfwwait"
	"github.com/voltex-editor/voltex/editor/workspace"
)

const (
	idleAfter     = 1500 * time.Millisecond // tooltips and hover effects settle within this
	idleWakeEvery = 10 * time.Second        // a safety net: an idle editor wakes itself this rarely
	// jobFrameEvery is the longest a frame waits while a background job's progress is all that changes: the
	// progress bar moves four times a second (an indeterminate one animates at that rate), as often as a job's
	// progress wakes the loop.
	jobFrameEvery = workspace.ProgressEvery
)

// idleLoop is the state of the loop's idling (see App.throttle).
type idleLoop struct {
	waiter     waiter
	lastActive time.Time
	lastKey    frameKey
	waitReady  bool          // waiter.prepare has run
	waits      uint64        // times the idle loop slept (the probe reports it)
	slept      time.Duration // how long the loop slept before this frame (not part of its frame time)
	sleepFor   time.Duration // the wait throttle decided on, for sleepIfIdle (0: none)
	wakesAt    uint64        // wakes when it decided
}

// waiter sleeps until an input event or a wake-up (glfwWaiter: GLFW's event wait; tests never sleep).
type waiter interface {
	prepare() bool
	wait(timeout time.Duration)
}

// glfwWaiter waits in GLFW's event wait (editor/internal/glfwwait).
type glfwWaiter struct{}

func (glfwWaiter) prepare() bool              { return glfwwait.Prepare() }
func (glfwWaiter) wait(timeout time.Duration) { glfwwait.Wait(timeout) }

// throttle makes an idle editor cost nothing: after idleAfter without input, and with nothing animating or
// pending, the loop sleeps in GLFW's event wait (see editor/internal/glfwwait) until an input event or a wakeLoop
// (giu.Update) from a background goroutine wakes it; the frame that follows handles that input at the full rate.
// A text field that has the keyboard but gets no input is idle too: the wait then ends when its caret blinks, so
// it costs a frame a second or two instead of the full rate.
//
// throttle decides at the end of a frame that shows the same as the previous one (nothing in the document, the
// selection, the viewport image, the console or the dialogs changed); the wait itself (sleepIfIdle) comes after
// that frame has been presented, from the loop's after-render hook. So the frame that follows the wait is the one
// that handles the input that ended it: a wait inside the frame callback would end with a whole frame still to draw
// and present (the same picture again, 10–20 ms of llvmpipe at 1600×1000) before the input's frame could begin.
func (a *App) throttle() {
	l := &a.idle
	now := time.Now()
	key := a.frameKey()
	changed := key != l.lastKey
	progressOnly := changed && key.butJob() == l.lastKey.butJob()
	l.lastKey = key
	if (changed && !progressOnly) || userActive() || a.busy() {
		l.lastActive = now
		a.probe.endFrame(a.clock.Frames, false)
		return
	}
	if a.ws.Jobs().Running() || a.hier.searcher.busy() {
		// A job runs and only its progress changes, or the Hierarchy's search runs: frames at the pace of the
		// progress (the job or the search wakes the loop when that changes, or when it ends), not at the full rate,
		// whose drawing would take their CPU (at 1600×1000 a frame is 10–20 ms of llvmpipe on both cores).
		l.lastActive = now
		if l.canWait() {
			l.waitFor(jobFrameEvery)
		}
		a.probe.endFrame(a.clock.Frames, false)
		return
	}
	if now.Sub(l.lastActive) > idleAfter && l.canWait() {
		timeout := idleWakeEvery
		if d, ok := caretBlinkIn(); ok {
			timeout = d
		}
		l.waitFor(timeout)
		if a.trim.due() {
			a.trim.start(wakeLoop)
		} else if a.trim.releaseDue(now.Sub(l.lastActive)) { // at the first wake-up that long after
			a.fitRoom()
			a.trim.startRelease(wakeLoop)
		}
		a.ws.Journals().WriteBase(wakeLoop)
		a.ws.StartThumbnails()
		// The probe calls the editor idle once its collection or its giving back of memory has ended (a test
		// reading the memory of an idle editor then reads what it keeps), once the inspector shows all of the
		// selection (sleepIfIdle finishes its scan first), once the session journal has written the base it waited
		// to write until now, once the Assets panel's thumbnails are made, and once the settings are written.
		a.probe.endFrame(a.clock.Frames, !a.trim.running.Load() && !a.insp.pending && !a.ws.Journals().BaseWaits() &&
			!a.ws.ThumbnailsBusy() && !a.ws.SettingsWriting())
		return
	}
	a.probe.endFrame(a.clock.Frames, false)
}

// fitRoom gives up the room the document's world keeps beyond its rows (doc.Document.FitRoom) once the editor has
// stayed idle for releaseAfter, with the rest of its free memory (a redo of a big spawn right after its undo reuses
// that room: growing the table again costs it a copy into fresh pages, 0.1–0.2 s at 100k), unless the grid dialog
// has a spawn made ready (its room is planned on the table as it is). It reports whether it gave any up.
func (a *App) fitRoom() bool {
	if g := a.dialogs.grid; g != nil && g.preview.ready != nil {
		return false
	}
	d := a.ws.Doc()
	return d != nil && d.FitRoom() > 0
}

// canWait reports whether the loop may wait after this frame: no input ImGui has received but not handled yet (it
// hands fast input to frames one event at a time, and sleeping would hold it until the next event arrives), and a
// waiter that is ready.
func (l *idleLoop) canWait() bool {
	if imgui.CurrentContext().InputEventsQueue().Size != 0 {
		return false
	}
	if !l.waitReady {
		l.waitReady = l.waiter.prepare()
	}
	return l.waitReady
}

// waitFor decides a wait of at most d, which sleepIfIdle does once this frame has been presented.
func (l *idleLoop) waitFor(d time.Duration) {
	l.waits++
	l.sleepFor, l.wakesAt = d, wakes.Load()
}

// sleepIfIdle is the wait throttle decided on, run once the frame that decided it has been presented (the loop's
// after-render hook). It does not wait when something arrived meanwhile: input the loop polled while that frame was
// drawn (it is in ImGui's queue), or a wakeLoop (the loop's poll may have taken its empty event).
func (a *App) sleepIfIdle() {
	l := &a.idle
	d := l.sleepFor
	if d == 0 {
		return
	}
	l.sleepFor = 0
	if l.interrupted() {
		return
	}
	if a.insp.pending {
		a.scanWhileIdle()
		return // the next frame shows the scan's result (or handles the input that stopped it)
	}
	slept := time.Now()
	l.waiter.wait(d)
	now := time.Now()
	l.slept = now.Sub(slept)
	a.input.clock.polled(now) // the wait read the events that ended it
}

// drawBetweenFrames goes on with the viewports' pictures drawn over several frames once a frame is presented (the
// loop's after-render hook), a budget at a time with the window's events polled between, until they are complete
// or input or a wake-up comes: a frame drawn only to advance a picture costs the whole UI's drawing too, which on a
// software renderer is a good part of each frame. The progress of a scene's first picture is shown a few times a
// second (a frame every firstPictureFrames).
func (a *App) drawBetweenFrames() {
	l := &a.idle
	if l.sleepFor != 0 || imgui.CurrentContext().InputEventsQueue().Size != 0 || userActive() || !a.split.busy() {
		return
	}
	if !l.waitReady {
		if l.waitReady = l.waiter.prepare(); !l.waitReady {
			return
		}
	}
	start, wakesAt := time.Now(), wakes.Load()
	for {
		more, first := false, false
		a.split.each(func(v *viewportPanel) {
			if v.stepBetweenFrames(drawBudget) {
				more, first = true, first || v.firstPicture()
			}
		})
		if !more || first && time.Since(start) > firstPictureFrames {
			return
		}
		l.waiter.wait(0) // polls: input that came meanwhile goes into ImGui's queue
		a.input.clock.polled(time.Now())
		if wakes.Load() != wakesAt || imgui.CurrentContext().InputEventsQueue().Size != 0 {
			return
		}
	}
}

// firstPictureFrames is how often drawBetweenFrames lets a frame show the progress of a scene's first picture: as
// often as a job's progress (each such frame delays the picture by a frame's drawing).
const firstPictureFrames = workspace.ProgressEvery

// interrupted reports whether something arrived since throttle decided to wait: input the loop polled while the
// frame was drawn (it is in ImGui's queue), or a wakeLoop (the loop's poll may have taken its empty event).
func (l *idleLoop) interrupted() bool {
	return wakes.Load() != l.wakesAt || imgui.CurrentContext().InputEventsQueue().Size != 0
}

// scanWhileIdle finishes the inspector's scan of a big selection between frames, a budget at a time, until it is
// done or input or a wake-up comes (polled between budgets): frames drawn only to advance it a budget each cost
// a whole frame of drawing per budget (a million selected entities kept an idle editor drawing for minutes).
func (a *App) scanWhileIdle() {
	l := &a.idle
	for a.insp.insp.Scan() {
		l.waiter.wait(0) // polls: input that came meanwhile goes into ImGui's queue
		if l.interrupted() {
			return
		}
	}
}

// wakeLoop wakes the GUI loop from another goroutine (giu.Update; counted in wakes, see App.sleepIfIdle); unit
// tests, which have no loop, replace it.
var wakeLoop = func() {
	wakes.Add(1)
	if loopReady.Load() {
		g.Update()
	}
}

// loopReady is set once the window (giu's context) exists: a job started before it (the scene named on the command
// line, read while the window opens) wakes nothing until then, and the loop's first frames find what it did.
var loopReady atomic.Bool

// wakes counts wakeLoop's calls, so that sleepIfIdle can tell whether one came after throttle decided to wait.
var wakes atomic.Uint64

// caretBlinkIn returns how long until the caret of the text field that has the keyboard next shows or hides
// (ImGui's blink: after input it stays on for 0.3 s, then it is on 0.8 s and off 0.4 s of every 1.2 s).
func caretBlinkIn() (time.Duration, bool) {
	io := imgui.CurrentIO()
	if !io.WantTextInput() || !io.ConfigInputTextCursorBlink() {
		return 0, false
	}
	id := imgui.InternalActiveID()
	if id == 0 {
		return 0, false
	}
	st := imgui.InternalInputTextState(id)
	if st == nil || st.CData == nil {
		return 0, false
	}
	return nextBlink(st.CursorAnim()), true
}

// nextBlink is the time from caret animation phase anim (seconds; ≤ 0 right after input) to the caret's next
// change, plus a little so that the frame after the wait sees the new phase.
func nextBlink(anim float32) time.Duration {
	const on, period, margin = 0.8, 1.2, 0.01
	var left float64
	switch r := math.Mod(float64(anim), period); {
	case anim <= 0:
		left = on - float64(anim)
	case r <= on:
		left = on - r
	default:
		left = period - r
	}
	return time.Duration((left + margin) * float64(time.Second))
}

// frameKey sums up what a frame shows, to tell whether it differs from the previous one.
type frameKey struct {
	doc, sel, renders uint64
	pictures          uint64 // viewport pictures completed (one drawn over several frames shows when complete)
	job               int64
	console           int
	modal             string
	doc2              *doc.Document
}

// butJob is k without the running job's progress.
func (k frameKey) butJob() frameKey {
	k.job = 0
	return k
}

func (a *App) frameKey() frameKey {
	d := a.ws.Doc()
	k := frameKey{renders: a.split.renders(), pictures: a.vp.pictures(), console: a.console.Added(), modal: a.dialogs.modalName(), doc2: d,
		job: a.ws.Jobs().ProgressKey()}
	k.doc, k.sel = d.Version(), d.Selection().Version()
	return k
}

// busy reports whether the editor has work that needs frames without input (play mode, camera motion, marks
// waiting to be presented). A running job wakes the loop itself (giu.Update) when its progress or result comes; an
// inspector still scanning a big selection finishes between frames once the editor is idle (scanWhileIdle).
func (a *App) busy() bool {
	return a.split.busy() || a.ws.Busy()
}

// userActive reports whether the user is doing anything this frame. A text field that merely has the keyboard
// is not activity (its caret blinks by itself: see throttle); typing into it is.
func userActive() bool {
	io := imgui.CurrentIO()
	if d := io.MouseDelta(); d.X != 0 || d.Y != 0 {
		return true
	}
	if (imgui.IsAnyItemActive() && !io.WantTextInput()) || imgui.IsAnyMouseDown() {
		return true
	}
	if w := io.MouseWheel(); w != 0 {
		return true
	}
	for k := imgui.KeyNamedKeyBEGIN; k < imgui.KeyNamedKeyEND; k++ {
		if imgui.IsKeyDown(k) {
			return true
		}
	}
	return false
}
