package editor

import (
	"fmt"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/workspace"
)

// jobOverlay shows the workspace's running job (workspace.Jobs) non-modally, and tells the probe about it.
type jobOverlay struct {
	jobs  *workspace.Jobs
	probe *probe.State
}

var _ g.Widget = (*jobOverlay)(nil)

// Build shows the running job non-modally: a small window in the bottom-right corner of the work area, above the
// status bar, with the label, a progress bar and Cancel. Everything else stays usable.
func (o *jobOverlay) Build() {
	j := o.jobs.Current()
	if o.probe != nil {
		o.probe.Job = nil
	}
	if j == nil || !j.Due() {
		if j != nil && o.probe != nil {
			done, total := j.Progress()
			o.probe.Job = &probe.Job{Label: j.Label(), Done: done, Total: total}
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
	width := max(imgui.CalcTextSize(j.Label()).X, barWidth+gap.X+cancelWidth)
	height := 2*imgui.TextLineHeight() + imgui.FrameHeight() + 2*gap.Y
	imgui.SetNextWindowSize(imgui.Vec2{X: width + 2*pad.X, Y: height + 2*pad.Y})
	imgui.SetNextWindowBgAlpha(0.94)
	flags := imgui.WindowFlagsNoDecoration | imgui.WindowFlagsNoSavedSettings | imgui.WindowFlagsNoScrollbar |
		imgui.WindowFlagsNoFocusOnAppearing | imgui.WindowFlagsNoNav | imgui.WindowFlagsNoDocking | imgui.WindowFlagsNoMove
	var cancelRect probe.Rect
	if imgui.BeginV("##jobprogress", nil, flags) {
		j.Drawn()
		text(j.Label())
		frac := j.Fraction()
		overlay := ""
		if frac < 0 {
			frac = -float32(time.Since(j.Started()).Seconds()) // indeterminate: ImGui animates a negative fraction
		} else {
			overlay = fmt.Sprintf("%.0f %%", 100*frac)
		}
		imgui.ProgressBarV(frac, imgui.Vec2{X: barWidth, Y: 0}, overlay)
		imgui.SameLine()
		if imgui.ButtonV("Cancel##job", imgui.Vec2{X: cancelWidth}) {
			j.Cancel()
		}
		cancelRect = rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
		// The status line is always there (the overlay keeps its size and place as the job's state changes).
		status := j.Waiting()
		if j.Cancelling() {
			status = "cancelling…"
		}
		textDisabled(status)
	}
	imgui.End()
	if o.probe != nil {
		done, total := j.Progress()
		o.probe.Job = &probe.Job{Label: j.Label(), Done: done, Total: total, Shown: j.Shown(),
			Cancel: cancelRect, Cancelling: j.Cancelling(), Waiting: j.Waiting()}
	}
}
