package editor

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// job is long work (load, save, export, a big spawn) running on a background goroutine while the loop keeps
// drawing a progress bar with Cancel. Only run touches the job's data off the loop; finish runs on the loop.
type job struct {
	label     string
	exclusive bool // run changes the world: panels that read it pause until the job ends
	ctx       context.Context
	cancel    context.CancelFunc
	done      atomic.Int64
	total     atomic.Int64
	result    chan error
	finish    func(err error)
	started   time.Time
	shown     bool // the progress popup was opened
}

// jobThreshold is the entity count from which saves, exports and spawns run as jobs with a progress bar.
const jobThreshold = 10_000

// startJob runs work on a goroutine; finish gets its error on the loop thread. progress may be called from work.
func (a *App) startJob(label string, exclusive bool, work func(ctx context.Context, progress func(done, total int64)) error, finish func(error)) {
	if a.job != nil {
		a.console.Warnf("%s: wait for %s to finish", label, a.job.label)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{label: label, exclusive: exclusive, ctx: ctx, cancel: cancel, result: make(chan error, 1), finish: finish, started: time.Now()}
	var lastWake atomic.Int64
	progress := func(done, total int64) {
		j.done.Store(done)
		j.total.Store(total)
		if now := time.Now().UnixMilli(); now-lastWake.Load() > 50 {
			lastWake.Store(now)
			g.Update()
		}
	}
	a.job = j
	go func() {
		err := work(ctx, progress)
		j.result <- err
		g.Update()
	}()
}

// pollJob finishes the job on the loop thread once its goroutine is done.
func (a *App) pollJob() {
	j := a.job
	if j == nil {
		return
	}
	select {
	case err := <-j.result:
		a.job = nil
		j.cancel()
		j.finish(err)
	default:
	}
}

// buildJobPopup shows the running job's progress with a Cancel button (after a short delay, so quick jobs don't
// flash a dialog).
func (a *App) buildJobPopup() {
	const name = "Working###jobprogress"
	j := a.job
	if j == nil {
		if a.jobPopup { // the job ended: close its popup, or it would keep blocking input
			if imgui.BeginPopupModalV(name, nil, imgui.WindowFlagsAlwaysAutoResize) {
				imgui.CloseCurrentPopup()
				imgui.EndPopup()
			}
			a.jobPopup = false
		}
		return
	}
	if time.Since(j.started) < 150*time.Millisecond {
		return
	}
	if !j.shown {
		imgui.OpenPopupStr(name)
		j.shown, a.jobPopup = true, true
	}
	imgui.SetNextWindowPosV(imgui.MainViewport().Center(), imgui.CondAlways, imgui.Vec2{X: 0.5, Y: 0.5})
	if imgui.BeginPopupModalV(name, nil, imgui.WindowFlagsAlwaysAutoResize|imgui.WindowFlagsNoMove) {
		imgui.Text(j.label + "…")
		done, total := j.done.Load(), j.total.Load()
		frac := float32(-1 * float32(time.Since(j.started).Seconds()))
		overlay := ""
		if total > 0 {
			frac = float32(done) / float32(total)
			overlay = fmt.Sprintf("%d / %d", done, total)
		}
		imgui.ProgressBarV(frac, imgui.Vec2{X: 360, Y: 0}, overlay)
		if imgui.ButtonV("Cancel", imgui.Vec2{X: 100}) || imgui.IsKeyPressedBool(imgui.KeyEscape) {
			j.cancel()
		}
		if j.ctx.Err() != nil {
			imgui.SameLine()
			imgui.TextDisabled("cancelling…")
		}
		imgui.EndPopup()
	}
}
