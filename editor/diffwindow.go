package editor

import (
	"fmt"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize/merge"
)

// The Differences window shows a semantic diff (merge.Diff) as a table grouped by entity, with a filter box: the
// recovery of a crashed session's work and the attached game against its scene file both use it. Which rows there
// are, their labels and the counts are its pure part; Build draws it as a modal popup.

// diffValueWidth is the most characters of a value a cell shows; the tooltip has the whole value.
const diffValueWidth = 40

// diffRow is a row of the table: an entity's header (change < 0) or one of its changes.
type diffRow struct {
	entity int64
	change int // index into the changes; -1 for the entity's header
	label  string
}

// diffWindow is the Differences window.
type diffWindow struct {
	req      workspace.DiffRequest
	keys     prompt // the buttons and the keys that press them
	filter   string
	rows     []diffRow
	shown    int // changes that pass the filter
	entities int // entities the changes touch (the scene itself not counted)
	opened   bool
	clipper  *imgui.ListClipper
}

// newDiffWindow shows req's changes, unfiltered.
func newDiffWindow(req workspace.DiffRequest) *diffWindow {
	buttons, choose := req.Buttons, req.OnChoose
	if len(buttons) == 0 {
		buttons, choose = []string{"Close"}, func(int) {}
	}
	w := &diffWindow{req: req, keys: prompt{title: req.Title, buttons: buttons, cancel: req.Cancel, onChoose: choose}}
	seen := map[int64]bool{}
	for _, c := range req.Changes {
		if c.Entity != 0 && !seen[c.Entity] {
			seen[c.Entity] = true
			w.entities++
		}
	}
	w.setFilter("")
	return w
}

// setFilter keeps the changes whose entity, kind, field or values contain f (any case), grouped by entity in the
// order of the changes.
func (w *diffWindow) setFilter(f string) {
	w.filter = f
	f = strings.ToLower(strings.TrimSpace(f))
	w.rows, w.shown = w.rows[:0], 0
	order := []int64{}
	groups := map[int64][]int{}
	for i, c := range w.req.Changes {
		if f != "" && !strings.Contains(strings.ToLower(entityLabel(c)+" "+diffKind(c.Op)+" "+c.Path+" "+diffField(c)+" "+c.From+" "+c.To), f) {
			continue
		}
		if _, ok := groups[c.Entity]; !ok {
			order = append(order, c.Entity)
		}
		groups[c.Entity] = append(groups[c.Entity], i)
		w.shown++
	}
	for _, id := range order {
		idx := groups[id]
		w.rows = append(w.rows, diffRow{entity: id, change: -1,
			label: entityLabel(w.req.Changes[idx[0]]) + " (" + words.Count(len(idx), "change", "changes") + ")"})
		for _, i := range idx {
			c := w.req.Changes[i]
			w.rows = append(w.rows, diffRow{entity: id, change: i,
				label: diffKind(c.Op) + "  " + diffField(c) + ": " + diffValue(c, true) + " → " + diffValue(c, false)})
		}
	}
}

// counts is "7 changes in 3 entities" (the scene's own changes are in no entity).
func (w *diffWindow) counts() string {
	return words.Count(len(w.req.Changes), "change", "changes") + " in " + words.Count(w.entities, "entity", "entities")
}

// text is what the window shows, as lines: its intro, then the rows (for the test probe).
func (w *diffWindow) text() string {
	var b strings.Builder
	b.WriteString(w.req.Intro + "\n" + w.counts() + "\n")
	for _, r := range w.rows {
		if r.change >= 0 {
			b.WriteString("  ")
		}
		b.WriteString(r.label + "\n")
	}
	return b.String()
}

// entityLabel is "Name (id 3)", "Entity (id 3)" for one without a name, "Scene" for the scene's own changes.
func entityLabel(c merge.Change) string {
	if c.Entity == 0 {
		return "Scene"
	}
	name := strings.Trim(c.Name, `"`)
	if name == "" {
		name = "Entity"
	}
	return fmt.Sprintf("%s (id %d)", name, c.Entity)
}

// diffKind is "added", "removed" or "changed".
func diffKind(op merge.Op) string {
	switch op {
	case merge.Added:
		return "added"
	case merge.Removed:
		return "removed"
	}
	return "changed"
}

// diffField is the change's path without "components." ("Transform.position"), "(entity)" for the entity itself.
func diffField(c merge.Change) string {
	if c.Path == "" {
		return "(entity)"
	}
	return strings.TrimPrefix(c.Path, "components.")
}

// diffValue shows a side of c (left: From, else To): "(none)" when absent, "present" for an entity added or removed.
func diffValue(c merge.Change, left bool) string {
	if c.Path == "" && c.Op != merge.Changed {
		if left == (c.Op == merge.Removed) {
			return "present"
		}
		return "(none)"
	}
	if left {
		return orNone(c.From)
	}
	return orNone(c.To)
}

// orNone is v, or "(none)" for an absent value.
func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// elide cuts v to n characters, the last an ellipsis; cut reports whether it did.
func elide(v string, n int) (s string, cut bool) {
	r := []rune(v)
	if len(r) <= n {
		return v, false
	}
	return string(r[:n-1]) + "…", true
}

// Build draws the window; once a button is pressed it closes and the request's OnChoose runs.
func (w *diffWindow) Build() {
	if w.keys.answered {
		return
	}
	if !beginModal(w.req.Title+" - "+w.counts()+"###diffwindow", &w.opened, imgui.Vec2{X: 960, Y: 560}) {
		return
	}
	text(registerText(w.req.Intro))
	imgui.SetNextItemWidth(320)
	if imgui.InputTextWithHint("##difffilter", "Filter: a name, a field, a value", &w.filter, 0, nil) {
		w.setFilter(w.filter)
	}
	if w.shown != len(w.req.Changes) {
		imgui.SameLine()
		textDisabled(fmt.Sprintf("showing %d of %d", w.shown, len(w.req.Changes)))
	}
	footer := imgui.FrameHeightWithSpacing()*2 + imgui.CurrentStyle().ItemSpacing().Y
	flags := imgui.TableFlagsRowBg | imgui.TableFlagsBordersInnerV | imgui.TableFlagsScrollY | imgui.TableFlagsResizable
	if imgui.BeginTableV("##diff", 5, flags, imgui.Vec2{Y: -footer}, 0) {
		imgui.TableSetupScrollFreeze(0, 1)
		imgui.TableSetupColumnV("Entity", imgui.TableColumnFlagsWidthStretch, 1.6, 0)
		imgui.TableSetupColumnV("Kind", imgui.TableColumnFlagsWidthFixed, 70, 0)
		imgui.TableSetupColumnV("Field", imgui.TableColumnFlagsWidthStretch, 1, 0)
		imgui.TableSetupColumnV(orNone(w.req.Left), imgui.TableColumnFlagsWidthStretch, 1, 0)
		imgui.TableSetupColumnV(orNone(w.req.Right), imgui.TableColumnFlagsWidthStretch, 1, 0)
		imgui.TableHeadersRow()
		w.buildRows()
		imgui.EndTable()
	}
	textDisabled(w.keys.hint())
	chosen := w.keys.buildButtons()
	imgui.SameLine()
	if imgui.ButtonV("Copy as text", imgui.Vec2{X: 130}) {
		imgui.SetClipboardText(w.req.Text)
	}
	if chosen < 0 && !imgui.IsWindowAppearing() { // a key that opened the window must not also answer it
		chosen = w.keys.keyChoice(func(k imgui.Key) bool { return imgui.IsKeyPressedBoolV(k, false) },
			imgui.CurrentIO().WantTextInput())
	}
	if chosen >= 0 {
		imgui.CloseCurrentPopup()
	}
	imgui.EndPopup()
	if chosen >= 0 {
		w.keys.choose(chosen)
	}
}

// buildRows draws the visible rows (a diff of a million entities has millions of rows); a click on one selects
// its entity in the scene.
func (w *diffWindow) buildRows() {
	if w.clipper == nil {
		w.clipper = imgui.NewListClipper()
	}
	w.clipper.Begin(int32(len(w.rows)))
	for w.clipper.Step() {
		for r := w.clipper.DisplayStart(); r < w.clipper.DisplayEnd(); r++ {
			row := w.rows[r]
			imgui.TableNextRow()
			imgui.TableSetColumnIndex(0)
			label := "##diffrow" + fmt.Sprint(r)
			if row.change < 0 {
				label = registerText(row.label) + label
			}
			if imgui.SelectableBoolV(label, false, imgui.SelectableFlagsSpanAllColumns, imgui.Vec2{}) && w.req.Select != nil {
				w.req.Select(row.entity)
			}
			if row.change < 0 {
				continue
			}
			c := w.req.Changes[row.change]
			imgui.TableSetColumnIndex(1)
			text(diffKind(c.Op))
			imgui.TableSetColumnIndex(2)
			text(registerText(diffField(c)))
			for col, v := range []string{diffValue(c, true), diffValue(c, false)} {
				imgui.TableSetColumnIndex(int32(col + 3))
				s, cut := elide(v, diffValueWidth)
				text(registerText(s))
				if cut && imgui.IsItemHovered() {
					imgui.BeginTooltip()
					imgui.PushTextWrapPosV(480)
					text(registerText(v))
					imgui.PopTextWrapPos()
					imgui.EndTooltip()
				}
			}
		}
	}
	w.clipper.End()
}

// done reports whether the window was answered.
func (w *diffWindow) done() bool { return w.keys.answered }
