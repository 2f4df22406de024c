package editor

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/editor/probe"
)

// job is long work (open, save, export, a big spawn) running on a background goroutine while the whole UI stays
// usable: a small overlay in the bottom-right corner (and the status bar) shows its progress with a Cancel button.
//
// The work function never touches the document or its world — only the loop thread does (docs/architecture.md):
// it computes into data of its own (a new document, a clone being written, a grid computed as plain data), and
// finish, on the loop thread, merges the result.
type job struct {
	label  string
	ctx    context.Context
	cancel context.CancelFunc
	done   atomic.Int64
	total  atomic.Int64
	result chan error
	finish func(err error)

	// applies is true when finish changes the document: a Cancel pressed after the work ended but before its
	// result was merged still cancels. (A save that has written its file is not undone by a late Cancel.)
	applies bool
	// wait, if set, says why a finished result cannot be merged yet ("" when it can): it is kept until then.
	wait     func() string
	waiting  string
	finished bool  // the work function returned
	err      error // what it returned
	mark     *mark // the timed user action this job completes, if any

	started   time.Time
	immediate bool // show the progress from the first frame (the scene opened at launch)
	drawn     int  // frames the overlay was drawn
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

// jobThreshold is the entity count from which saves, exports and spawns run as jobs with a progress bar.
const jobThreshold = 10_000

// progressWakeEvery is how often, at most, a job's progress wakes the loop (the loop's frames follow it while
// the job is all that changes: see App.throttle).
const progressWakeEvery = jobFrameEvery

// jobOverlayDelay is how long a job runs before its progress overlay appears (quick jobs don't flash one).
const jobOverlayDelay = 150 * time.Millisecond

// jobOptions are the optional parts of a job.
type jobOptions struct {
	applies   bool
	wait      func() string
	mark      *mark
	immediate bool
}

// jobRunner runs one job at a time and shows it: the overlay (Build) and the probe. It also keeps the timed
// marks of user actions (the probe's marks), which jobs complete.
type jobRunner struct {
	log       logger
	clock     *frameClock
	stepDelay time.Duration // Options.JobStepDelay (tests only)
	probe     *probe.State
	job       *job
	marks     []*mark // timed user actions waiting for their result to be presented (probe)
	// pictureShows reports whether the viewport's picture in the last frame showed the state the editor had at a
	// time (unix ns); nil: no viewport to wait for.
	pictureShows func(t int64) bool
}

var _ g.Widget = (*jobRunner)(nil)

func newJobRunner(log logger, clock *frameClock, stepDelay time.Duration) *jobRunner {
	return &jobRunner{log: log, clock: clock, stepDelay: stepDelay}
}

// start runs work on a goroutine; finish gets its error on the loop thread. progress may be called from work.
// It returns false (and warns) when another job is running.
func (r *jobRunner) start(label string, work func(ctx context.Context, progress func(done, total int64)) error, finish func(error), o jobOptions) bool {
	if r.job != nil {
		r.log.Warnf("%s: wait for %s to finish, or cancel it", label, r.job.label)
		return false
	}
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{label: label, ctx: ctx, cancel: cancel, result: make(chan error, 1), finish: finish, started: time.Now(),
		applies: o.applies, wait: o.wait, mark: o.mark, immediate: o.immediate}
	var lastWake atomic.Int64
	delay := r.stepDelay
	progress := func(done, total int64) {
		j.done.Store(done)
		j.total.Store(total)
		if now := time.Now().UnixMilli(); now-lastWake.Load() >= progressWakeEvery.Milliseconds() {
			lastWake.Store(now)
			wakeLoop()
		}
		if delay > 0 && done < total { // tests only (Options.JobStepDelay)
			select {
			case <-ctx.Done():
			case <-time.After(delay):
			}
		}
	}
	r.job = j
	go func() {
		err := work(ctx, progress)
		j.result <- err
		wakeLoop()
	}()
	return true
}

// running reports whether a job's work is still running (its result not yet in).
func (r *jobRunner) running() bool { return r.job != nil && !r.job.finished }

// poll finishes the job on the loop thread once its goroutine is done (and its result may be merged).
func (r *jobRunner) poll() {
	j := r.job
	if j == nil {
		return
	}
	if !j.finished {
		select {
		case j.err = <-j.result:
			j.finished = true
		default:
			return
		}
	}
	if j.err == nil && j.applies && j.ctx.Err() != nil {
		j.err = j.ctx.Err() // Cancel pressed after the work ended: the result is not merged
	}
	if j.err == nil && j.wait != nil {
		if j.waiting = j.wait(); j.waiting != "" {
			return // keep the result until it can be merged (the loop keeps running: jobRunner.busy)
		}
	}
	r.job = nil
	j.cancel()
	j.finish(j.err)
	if j.mark != nil {
		r.markResult(j.mark, errors.Is(j.err, context.Canceled))
	}
}

// cancel cancels the running job, if any.
func (r *jobRunner) cancel() {
	if r.job != nil {
		r.job.cancel()
	}
}

// busy reports whether the runner needs frames without input: a finished job's result waiting to be merged, a
// job that shows its overlay at once, marks waiting to be presented. (A running job wakes the loop itself when its
// progress or result comes.)
func (r *jobRunner) busy() bool {
	j := r.job
	return len(r.marks) > 0 || (j != nil && (j.finished || j.immediate && time.Since(j.started) < jobOverlayDelay))
}

// progressKey changes when the running job's progress does (the frame differs then).
func (r *jobRunner) progressKey() int64 {
	if r.job == nil {
		return 0
	}
	return r.job.done.Load()
}

// jobFraction returns the job's progress in 0..1, or -1 when the total is not known yet.
func (j *job) fraction() float32 {
	done, total := j.done.Load(), j.total.Load()
	if total <= 0 {
		return -1
	}
	return float32(done) / float32(total)
}

// statusText is the job as the status bar shows it: "Spawning 100000 cubes 45 %".
func (j *job) statusText() string {
	if f := j.fraction(); f >= 0 {
		return fmt.Sprintf("%s %.0f %%", j.label, 100*f)
	}
	return j.label + "…"
}

// Build shows the running job non-modally: a small window in the bottom-right corner of the work area, above the
// status bar, with the label, a progress bar and Cancel. Everything else stays usable.
func (r *jobRunner) Build() {
	j := r.job
	if r.probe != nil {
		r.probe.Job = nil
	}
	if j == nil || (!j.immediate && time.Since(j.started) < jobOverlayDelay) {
		if j != nil && r.probe != nil {
			r.probe.Job = &probe.Job{Label: j.label, Done: j.done.Load(), Total: j.total.Load()}
		}
		return
	}
	vp := imgui.MainViewport()
	const margin, barWidth, cancelWidth = 12, 260, 80
	corner := imgui.Vec2{X: vp.WorkPos().X + vp.WorkSize().X - margin, Y: vp.WorkPos().Y + vp.WorkSize().Y - margin}
	imgui.SetNextWindowPosV(corner, imgui.CondAlways, imgui.Vec2{X: 1, Y: 1})
	// Sized here rather than fitted to its contents: ImGui hides a new window that fits itself for its first frame,
	// and the frame that starts a job must show it (the loop thread's share of the work may come right after).
	st := imgui.CurrentStyle()
	pad, gap := st.WindowPadding(), st.ItemSpacing()
	width := max(imgui.CalcTextSize(j.label).X, barWidth+gap.X+cancelWidth)
	height := 2*imgui.TextLineHeight() + imgui.FrameHeight() + 2*gap.Y
	imgui.SetNextWindowSize(imgui.Vec2{X: width + 2*pad.X, Y: height + 2*pad.Y})
	imgui.SetNextWindowBgAlpha(0.94)
	flags := imgui.WindowFlagsNoDecoration | imgui.WindowFlagsNoSavedSettings | imgui.WindowFlagsNoScrollbar |
		imgui.WindowFlagsNoFocusOnAppearing | imgui.WindowFlagsNoNav | imgui.WindowFlagsNoDocking | imgui.WindowFlagsNoMove
	var cancelRect probe.Rect
	if imgui.BeginV("##jobprogress", nil, flags) {
		j.drawn++
		text(j.label)
		frac := j.fraction()
		overlay := ""
		if frac < 0 {
			frac = -float32(time.Since(j.started).Seconds()) // indeterminate: ImGui animates a negative fraction
		} else {
			overlay = fmt.Sprintf("%.0f %%", 100*frac)
		}
		imgui.ProgressBarV(frac, imgui.Vec2{X: barWidth, Y: 0}, overlay)
		imgui.SameLine()
		if imgui.ButtonV("Cancel##job", imgui.Vec2{X: cancelWidth}) {
			j.cancel()
		}
		cancelRect = rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
		// The status line is always there (the overlay keeps its size and place as the job's state changes).
		status := j.waiting
		if j.ctx.Err() != nil {
			status = "cancelling…"
		}
		textDisabled(status)
	}
	imgui.End()
	if m := j.mark; m != nil && j.drawn == 1 {
		m.progressFrame = r.clock.frames
	}
	if r.probe != nil {
		r.probe.Job = &probe.Job{Label: j.label, Done: j.done.Load(), Total: j.total.Load(), Shown: j.drawn > 0,
			Cancel: cancelRect, Cancelling: j.ctx.Err() != nil, Waiting: j.waiting}
	}
}

// mark is a timed user action in progress (see probe.Mark).
type mark struct {
	probe.Mark
	inputFrame  uint64 // the frame that handled the input (0: the launch)
	resultFrame uint64 // the frame in which the result was merged; presented once the next frame starts
	pending     bool
	// progressFrame is the frame that first drew the job's progress overlay (0: none yet); presented once the
	// next frame starts.
	progressFrame uint64
}

// presented records that m's progress overlay, drawn in an earlier frame, is on the screen now (at the start of
// a frame).
func (m *mark) presented(c *frameClock) {
	if m.progressFrame != 0 && m.Progress == 0 && m.progressFrame < c.frames {
		m.Progress, m.ProgressFrames = c.start.UnixNano(), m.progressFrame-m.inputFrame
	}
}

// maxMarks is how many finished marks the probe keeps.
const maxMarks = 8

// beginMark starts timing a user action handled in this frame.
func (r *jobRunner) beginMark(what string) *mark {
	return &mark{Mark: probe.Mark{What: what, Input: r.clock.start.UnixNano()}, inputFrame: r.clock.frames}
}

// markResult records that m's result is in the document now (or that it was cancelled); the start of the next
// frame, after this one is presented, completes it.
func (r *jobRunner) markResult(m *mark, cancelled bool) {
	m.Result, m.Cancelled, m.resultFrame, m.pending = time.Now().UnixNano(), cancelled, r.clock.frames, true
	m.Frames = m.resultFrame - m.inputFrame
	r.marks = append(r.marks, m)
}

// presentMarks completes the marks whose result frame has been presented (Presented) and whose result the
// viewport's picture on screen shows (Picture); call it at the start of a frame, when the last one is on screen.
func (r *jobRunner) presentMarks() {
	if j := r.job; j != nil && j.mark != nil {
		j.mark.presented(r.clock)
	}
	keep := r.marks[:0]
	for _, m := range r.marks {
		m.presented(r.clock)
		if m.pending && m.resultFrame < r.clock.frames {
			m.Presented, m.pending = r.clock.start.UnixNano(), false
		}
		if !m.pending && m.Picture == 0 && (m.Cancelled || r.pictureShows == nil || r.pictureShows(m.Result)) {
			m.Picture = r.clock.start.UnixNano()
		}
		if m.pending || m.Picture == 0 {
			keep = append(keep, m)
			continue
		}
		if r.probe != nil {
			st := r.probe
			st.Marks = append(st.Marks, m.Mark)
			if len(st.Marks) > maxMarks {
				st.Marks = append(st.Marks[:0], st.Marks[len(st.Marks)-maxMarks:]...)
			}
		}
	}
	r.marks = keep
}

// markNow times an action whose result is in the document as it returns (an inspector edit, a grid dialog value):
// one mark per name and frame.
func (r *jobRunner) markNow(what string) {
	if r.probe == nil {
		return
	}
	for _, m := range r.marks {
		if m.What == what && m.inputFrame == r.clock.frames {
			return
		}
	}
	r.markResult(r.beginMark(what), false)
}

// timed runs an action, timing it for the probe under what: its result is in the document when run returns, or
// when the background job it started is merged.
func (w *workspace) timed(what string, run func()) {
	r := w.jobs
	if r.probe == nil {
		run()
		return
	}
	m, before := r.beginMark(what), r.job
	run()
	if j := r.job; j != nil && j != before && j.mark == nil {
		j.mark = m
		return
	}
	r.markResult(m, false)
}
