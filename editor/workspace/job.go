package workspace

import (
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"sync/atomic"
	"time"

	"github.com/voltex-editor/voltex/editor/probe"
)

// Job is long work (open, save, export, a big spawn) running on a background goroutine while the whole UI stays
// usable: a small overlay in the bottom-right corner (and the status bar) shows its progress with a Cancel button.
//
// The work function never writes the document or its world — only the loop thread does (docs/architecture.md):
// it computes into data of its own (a new document, a grid computed as plain data) or reads what is lent to it (a
// save's world, whose next edit waits for the encoding: ecs.World.Lend), and finish, on the loop thread, merges the
// result.
type Job struct {
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
	mark     *Mark // the timed user action this job completes, if any

	started   time.Time
	immediate bool // show the progress from the first frame (the scene opened at launch)
	drawn     int  // frames the overlay was drawn
	clock     *Clock
}

// JobThreshold is the entity count from which saves, exports and spawns run as jobs with a progress bar.
const JobThreshold = 10_000

// ProgressEvery is how often, at most, a job's progress wakes the loop (the loop's frames follow it while the
// job is all that changes). Each frame costs a core a few tens of ms without a GPU: ten a second made the load of
// a million cubes about a tenth slower than four (three runs each).
const ProgressEvery = 250 * time.Millisecond

// overlayDelay is how long a job runs before its progress overlay appears (quick jobs don't flash one).
const overlayDelay = 150 * time.Millisecond

// JobOptions are the optional parts of a job.
type JobOptions struct {
	// Applies is true when the job's finish changes the document: a Cancel pressed after the work ended but
	// before its result was merged still cancels.
	Applies bool
	// Wait, if set, says why a finished result cannot be merged yet ("" when it can): it is kept until then.
	Wait func() string
	// Mark is the timed user action the job completes, if any.
	Mark *Mark
	// Immediate shows the progress from the first frame (the scene opened at launch).
	Immediate bool
}

// Jobs runs one job at a time (the window's overlay and the probe show it: Current). It also keeps the timed
// marks of user actions (the probe's marks), which jobs complete.
type Jobs struct {
	// Probe, if set, gets the finished marks.
	Probe *probe.State
	// PictureShows reports whether the viewport's picture in the last frame showed the state the editor had at a
	// time (unix ns); nil: no viewport to wait for.
	PictureShows func(t int64) bool

	log       Logger
	clock     *Clock
	stepDelay time.Duration // Options.JobStepDelay (tests only)
	wake      func()
	job       *Job
	marks     []*Mark // timed user actions waiting for their result to be presented (probe)
	labelled  bool    // the loop thread carries a mark's profile label (beginMark)
}

// newJobs makes a runner that logs to log, times marks by clock, pauses jobs stepDelay after each progress step
// (tests only) and wakes the loop with wake (nil: nothing to wake).
func newJobs(log Logger, clock *Clock, stepDelay time.Duration, wake func()) *Jobs {
	if wake == nil {
		wake = func() {}
	}
	return &Jobs{log: log, clock: clock, stepDelay: stepDelay, wake: wake}
}

// Start runs work on a goroutine; finish gets its error on the loop thread. progress may be called from work.
// It returns false (and warns) when another job is running.
func (r *Jobs) Start(label string, work func(ctx context.Context, progress func(done, total int64)) error, finish func(error), o JobOptions) bool {
	if r.job != nil {
		r.log.Warnf("%s: wait for %s to finish, or cancel it", label, r.job.label)
		return false
	}
	ctx, cancel := context.WithCancel(context.Background())
	j := &Job{label: label, ctx: ctx, cancel: cancel, result: make(chan error, 1), finish: finish, started: time.Now(),
		applies: o.Applies, wait: o.Wait, mark: o.Mark, immediate: o.Immediate, clock: r.clock}
	var lastWake atomic.Int64
	delay := r.stepDelay
	progress := func(done, total int64) {
		j.done.Store(done)
		j.total.Store(total)
		if now := time.Now().UnixMilli(); now-lastWake.Load() >= ProgressEvery.Milliseconds() {
			lastWake.Store(now)
			r.wake()
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
		r.wake()
	}()
	return true
}

// Running reports whether a job's work is still running (its result not yet in).
func (r *Jobs) Running() bool { return r.job != nil && !r.job.finished }

// poll finishes the job on the loop thread once its goroutine is done (and its result may be merged).
func (r *Jobs) poll() {
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
			return // keep the result until it can be merged (the loop keeps running: Jobs.busy)
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
func (r *Jobs) cancel() {
	if r.job != nil {
		r.job.cancel()
	}
}

// busy reports whether the runner needs frames without input: a finished job's result waiting to be merged, a
// job that shows its overlay at once, marks waiting to be presented. (A running job wakes the loop itself when its
// progress or result comes.)
func (r *Jobs) busy() bool {
	j := r.job
	return len(r.marks) > 0 || (j != nil && (j.finished || j.immediate && time.Since(j.started) < overlayDelay))
}

// ProgressKey changes when the running job's progress does (the frame differs then).
func (r *Jobs) ProgressKey() int64 {
	if r.job == nil {
		return 0
	}
	return r.job.done.Load()
}

// Fraction returns the job's progress in 0..1, or -1 when the total is not known yet.
func (j *Job) Fraction() float32 {
	done, total := j.done.Load(), j.total.Load()
	if total <= 0 {
		return -1
	}
	return float32(done) / float32(total)
}

// Current is the running job (or the finished one whose result waits to be merged); nil: none.
func (r *Jobs) Current() *Job { return r.job }

// Label says what the job does: "Saving level.json".
func (j *Job) Label() string { return j.label }

// Progress is how much of the job's work is done, of total (0: not known yet).
func (j *Job) Progress() (done, total int64) { return j.done.Load(), j.total.Load() }

// Started is when the job started.
func (j *Job) Started() time.Time { return j.started }

// Due reports whether the job's progress overlay shows: at once for an immediate job, else once it has run
// for a moment (quick jobs don't flash one).
func (j *Job) Due() bool { return j.immediate || time.Since(j.started) >= overlayDelay }

// Cancel cancels the job.
func (j *Job) Cancel() { j.cancel() }

// Cancelling reports whether the job was cancelled and has not ended yet.
func (j *Job) Cancelling() bool { return j.ctx.Err() != nil }

// Waiting says why the job's finished result cannot be merged yet ("" when it can or the work runs).
func (j *Job) Waiting() string { return j.waiting }

// Drawn records that the overlay showed the job in this frame (the first time times its mark's progress).
func (j *Job) Drawn() {
	j.drawn++
	if m := j.mark; m != nil && j.drawn == 1 {
		m.progressFrame = j.clock.Frames
	}
}

// Shown reports whether the overlay has shown the job.
func (j *Job) Shown() bool { return j.drawn > 0 }

// StatusText is the job as the status bar shows it: "Spawning 100000 cubes 45 %".
func (j *Job) StatusText() string {
	if f := j.Fraction(); f >= 0 {
		return fmt.Sprintf("%s %.0f %%", j.label, 100*f)
	}
	return j.label + "…"
}

// Mark is a timed user action in progress (see probe.Mark).
type Mark struct {
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
func (m *Mark) presented(c *Clock) {
	if m.progressFrame != 0 && m.Progress == 0 && m.progressFrame < c.Frames {
		m.Progress, m.ProgressFrames = c.shown(), m.progressFrame-m.inputFrame
	}
}

// maxMarks is how many finished marks the probe keeps.
const maxMarks = 8

// beginMark starts timing a user action handled in this frame.
func (r *Jobs) beginMark(what string) *Mark {
	// A CPU profile of a test run (VOLTEX_CPUPROFILE) tells the loop thread's work for the action apart: pprof
	// -tagfocus mark=WHAT.
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels("mark", what)))
	r.labelled = true
	return &Mark{Mark: probe.Mark{What: what, Input: r.clock.Start.UnixNano()}, inputFrame: r.clock.Frames}
}

// markResult records that m's result is in the document now (or that it was cancelled); the start of the next
// frame, after this one is presented, completes it.
func (r *Jobs) markResult(m *Mark, cancelled bool) {
	m.Result, m.Cancelled, m.resultFrame, m.pending = time.Now().UnixNano(), cancelled, r.clock.Frames, true
	m.Frames = m.resultFrame - m.inputFrame
	r.marks = append(r.marks, m)
}

// presentMarks completes the marks whose result frame has been presented (Presented) and whose result the
// viewport's picture on screen shows (Picture); call it at the start of a frame, when the last one is on screen.
func (r *Jobs) presentMarks() {
	if j := r.job; j != nil && j.mark != nil {
		j.mark.presented(r.clock)
	}
	keep := r.marks[:0]
	for _, m := range r.marks {
		m.presented(r.clock)
		if m.pending && m.resultFrame < r.clock.Frames {
			m.Presented, m.pending = r.clock.shown(), false
		}
		if !m.pending && m.Picture == 0 && (m.Cancelled || r.PictureShows == nil || r.PictureShows(m.Result)) {
			m.Picture = r.clock.shown()
		}
		if m.pending || m.Picture == 0 {
			keep = append(keep, m)
			continue
		}
		if r.Probe != nil {
			st := r.Probe
			st.Marks = append(st.Marks, m.Mark)
			if len(st.Marks) > maxMarks {
				st.Marks = append(st.Marks[:0], st.Marks[len(st.Marks)-maxMarks:]...)
			}
		}
	}
	r.marks = keep
	if r.labelled && len(keep) == 0 && (r.job == nil || r.job.mark == nil) {
		pprof.SetGoroutineLabels(context.Background())
		r.labelled = false
	}
}

// MarkNow times an action whose result is in the document as it returns (an inspector edit, a grid dialog value):
// one mark per name and frame.
func (r *Jobs) MarkNow(what string) {
	if r.Probe == nil {
		return
	}
	for _, m := range r.marks {
		if m.What == what && m.inputFrame == r.clock.Frames {
			return
		}
	}
	r.markResult(r.beginMark(what), false)
}

// Begin starts timing an action handled in this frame whose result comes in a later one (a search on a goroutine):
// call the function it returns, on the loop thread, when the result is in. Without a probe nothing is timed.
func (r *Jobs) Begin(what string) func() {
	if r.Probe == nil {
		return func() {}
	}
	m := r.beginMark(what)
	return func() { r.markResult(m, false) }
}

// Timed runs an action, timing it for the probe under what: its result is in the document when run returns, or
// when the background job it started is merged.
func (w *Workspace) Timed(what string, run func()) {
	r := w.jobs
	if r.Probe == nil {
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
