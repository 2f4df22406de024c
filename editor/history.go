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
	docs    historyDoc
	log     *Console
	probe   *probe.State
	steps   []doc.StepInfo
	clipper *imgui.ListClipper
	shown   int // the steps done when the panel last drew: the current row is scrolled to when that changes
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
		if p.clipper == nil {
			p.clipper = imgui.NewListClipper()
		}
		// Row 0 is Start; row i the i-th step. Only the rows on screen are built: a history holds up to a
		// thousand steps.
		p.clipper.Begin(int32(len(p.steps) + 1))
		if done != p.shown {
			p.clipper.IncludeItemByIndex(int32(done)) // built wherever it is, to be scrolled to
		}
		for p.clipper.Step() {
			for i := int(p.clipper.DisplayStart()); i < int(p.clipper.DisplayEnd()); i++ {
				label, what := "Start", ""
				if i > 0 {
					label, what = p.steps[i-1].Label, registerText(p.steps[i-1].What)
				}
				if p.row(i, label, what, done == i, i > done) {
					target = i
				}
			}
		}
		p.clipper.End()
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

// row draws row n (at which n steps are done; what in its own colour after the label) and reports whether it was
// clicked.
func (p *historyPanel) row(n int, label, what string, current, redo bool) bool {
	pos := imgui.CursorScreenPos()
	clicked := imgui.SelectableBoolV("##step"+strconv.Itoa(n), current, 0, imgui.Vec2{})
	rect := rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
	col, whatCol := *imgui.StyleColorVec4(imgui.ColText), historyWhatColor
	if redo {
		col = *imgui.StyleColorVec4(imgui.ColTextDisabled)
		whatCol = col
	} else if current {
		whatCol = col // on the highlight
	}
	dl := imgui.WindowDrawList()
	dl.AddTextVec2(pos, imgui.ColorU32Vec4(col), label)
	if what != "" {
		pos.X += imgui.CalcTextSize(label).X + imgui.CurrentStyle().ItemSpacing().X
		dl.AddTextVec2(pos, imgui.ColorU32Vec4(whatCol), what)
	}
	if current && n != p.shown {
		imgui.SetScrollHereYV(0.5)
	}
	if p.probe != nil {
		if what != "" {
			label += " " + what
		}
		p.probe.History = append(p.probe.History, probe.HistoryRow{Rect: rect, Text: label, Current: current, Redo: redo})
	}
	return clicked
}

// historyWhatColor is the colour of what a step touched, apart from the command's name.
var historyWhatColor = imgui.Vec4{X: 0.62, Y: 0.80, Z: 1.00, W: 1}
