package editor

import (
	"strconv"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
)

// historyDoc is what the History panel reads and runs: the open document (the workspace).
type historyDoc interface {
	Doc() *doc.Document
}

// historyPanel lists the undo history: "Start", then each step with what it touched, the current one
// highlighted and the redo steps greyed; a click undoes or redoes to that step in one frame. Its first line is
// the memory the history holds against its budget.
type historyPanel struct {
	docs  historyDoc
	log   *Console
	probe *probe.State
	steps []doc.StepInfo
	shown int // the steps done when the panel last drew: the current row is scrolled to when that changes
}

var _ g.Widget = (*historyPanel)(nil)

// Build draws the panel.
func (p *historyPanel) Build() {
	h := p.docs.Doc().History()
	p.steps = h.Steps(p.steps[:0])
	done := h.Undos()
	mem := "History: " + humanSize(int64(h.Bytes()))
	if b := h.Budget(); b > 0 {
		mem += " of " + humanSize(int64(b))
	}
	text(mem)
	if p.probe != nil {
		p.probe.History, p.probe.HistoryMemory = p.probe.History[:0], mem
	}
	target := -1
	if imgui.BeginChildStrV("##historyrows", imgui.Vec2{}, imgui.ChildFlagsBorders, 0) {
		if p.row(0, "Start", done == 0, false) {
			target = 0
		}
		for i, st := range p.steps {
			label := st.Label
			if st.What != "" {
				label += " " + registerText(st.What)
			}
			if p.row(i+1, label, done == i+1, i >= done) {
				target = i + 1
			}
		}
		p.shown = done
	}
	imgui.EndChild()
	if target >= 0 && target != done {
		if err := h.GoTo(target); err != nil {
			p.log.Errorf("history: %v", err)
			return
		}
		p.log.Infof("history: %d of %d steps done", target, len(p.steps))
	}
}

// row draws one row (n: the steps done at it) and reports whether it was clicked.
func (p *historyPanel) row(n int, label string, current, redo bool) bool {
	if redo {
		imgui.PushStyleColorVec4(imgui.ColText, *imgui.StyleColorVec4(imgui.ColTextDisabled))
	}
	clicked := imgui.SelectableBoolV(label+"##step"+strconv.Itoa(n), current, 0, imgui.Vec2{})
	if redo {
		imgui.PopStyleColor()
	}
	if current && n != p.shown {
		imgui.SetScrollHereYV(0.5)
	}
	if p.probe != nil {
		p.probe.History = append(p.probe.History, probe.HistoryRow{Rect: rectOf(imgui.ItemRectMin(), imgui.ItemRectSize()),
			Text: label, Current: current, Redo: redo})
	}
	return clicked
}
