package editor

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/internal/words"
)

// keepTitle is the title of the dialog that asks which changes made while playing to keep.
const keepTitle = "Keep changes made while playing?"

// keepRow is a row of the keep dialog: a group header, an entity or one field of it.
type keepRow struct {
	kind  keepRowKind
	label string
	idx   []int // the changes the row's checkbox covers (indices into keepDialog.changes)
}

type keepRowKind uint8

const (
	keepGroup keepRowKind = iota
	keepEntity
	keepField
)

// keepDialog asks, at Stop, which changes made while playing to keep: two groups (the user's edits, the systems'
// changes), a checkbox per group, entity and field. Enter and Escape both press Keep selected (the checked
// defaults); Discard all keeps nothing. Which rows there are and what a checkbox toggles is its pure part.
type keepDialog struct {
	changes  []doc.PlayChange
	checked  []bool
	rows     []keepRow
	keep     func([]doc.PlayChange)
	opened   bool
	answered bool
	clipper  *imgui.ListClipper
}

// newKeepDialog lists ch: the user's edits checked when keepUser, the systems' changes unchecked. name names an
// entity of the edit world by scene id ("" if it has none).
func newKeepDialog(ch *doc.PlayChanges, keepUser bool, name func(id uint64) string, keep func([]doc.PlayChange)) *keepDialog {
	k := &keepDialog{changes: ch.Changes, checked: make([]bool, len(ch.Changes)), keep: keep}
	made := map[uint64]string{} // the names of the entities created while playing (not in the edit world)
	for i, c := range ch.Changes {
		k.checked[i] = c.User && keepUser
		if c.Created {
			made[c.ID] = c.Name
		}
	}
	label := func(id uint64) string {
		n, ok := made[id]
		if !ok {
			n = name(id)
		}
		if n == "" {
			n = "Entity"
		}
		return fmt.Sprintf("%s (id %d)", n, id)
	}
	for _, user := range []bool{true, false} {
		head := len(k.rows)
		k.rows = append(k.rows, keepRow{kind: keepGroup})
		ent := -1
		for i, c := range ch.Changes {
			if c.User != user {
				continue
			}
			if ent < 0 || k.changes[k.rows[ent].idx[0]].ID != c.ID {
				ent = len(k.rows)
				k.rows = append(k.rows, keepRow{kind: keepEntity, label: label(c.ID)})
			}
			k.rows[ent].idx = append(k.rows[ent].idx, i)
			k.rows[head].idx = append(k.rows[head].idx, i)
			k.rows = append(k.rows, keepRow{kind: keepField, label: fieldLabel(c, label), idx: []int{i}})
		}
		title := "Changed by systems"
		if user {
			title = "Your edits"
		}
		if n := len(k.rows[head].idx); n > 0 {
			k.rows[head].label = title + " (" + words.Count(n, "change", "changes") + ")"
		} else {
			k.rows = k.rows[:head]
		}
	}
	return k
}

// fieldLabel is "Transform.position: [1, 0, 0] → [1, 4, 0]", "Color: added", "Deleted" (with the entity's
// descendants), "Created under Cube (id 3)" or "Moved under Cube (id 3)"; label names a parent.
func fieldLabel(c doc.PlayChange, label func(id uint64) string) string {
	switch {
	case c.Deleted:
		return "Deleted"
	case c.Created && c.Parent == 0:
		return "Created (a root)"
	case c.Created:
		return "Created under " + label(c.Parent)
	case c.Moved && c.Parent == c.From:
		return "Moved among its siblings"
	case c.Moved && c.Parent == 0:
		return "Moved to the roots"
	case c.Moved:
		return "Moved under " + label(c.Parent)
	case c.Field == "" && c.Old == nil:
		return c.Component + ": added"
	case c.Field == "" && c.New == nil:
		return c.Component + ": removed"
	}
	name := c.Component
	if c.Field != "" {
		name += "." + c.Field
	}
	return name + ": " + showValue(c.Old) + " → " + showValue(c.New)
}

// showValue shows a field's value short: numbers with at most 5 significant digits, "(none)" for no component.
func showValue(v any) string {
	if v == nil {
		return "(none)"
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(rv.Float(), 'g', 5, 64)
	case reflect.Array, reflect.Slice:
		if k := rv.Type().Elem().Kind(); k == reflect.Float32 || k == reflect.Float64 {
			parts := make([]string, rv.Len())
			for i := range parts {
				parts[i] = strconv.FormatFloat(rv.Index(i).Float(), 'g', 5, 64)
			}
			return "[" + strings.Join(parts, ", ") + "]"
		}
	}
	s := fmt.Sprint(v)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// rowChecked reports whether every change row r covers is checked.
func (k *keepDialog) rowChecked(r int) bool {
	for _, i := range k.rows[r].idx {
		if !k.checked[i] {
			return false
		}
	}
	return true
}

// toggle checks every change row r covers, or unchecks them all when they all are.
func (k *keepDialog) toggle(r int) {
	on := !k.rowChecked(r)
	for _, i := range k.rows[r].idx {
		k.checked[i] = on
	}
}

// chosen returns the checked changes.
func (k *keepDialog) chosen() []doc.PlayChange {
	var out []doc.PlayChange
	for i, c := range k.changes {
		if k.checked[i] {
			out = append(out, c)
		}
	}
	return out
}

// keyChoice is the button the keys pressed this frame press: 0 Keep selected for Enter and Escape (closing the
// dialog never throws away what it would keep), -1 for none.
func keepKeyChoice(pressed func(imgui.Key) bool) int {
	if pressed(imgui.KeyEnter) || pressed(imgui.KeyKeypadEnter) || pressed(imgui.KeyEscape) {
		return 0
	}
	return -1
}

// answer closes the dialog: 0 keeps the checked changes, 1 discards all.
func (k *keepDialog) answer(button int) {
	if k.answered {
		return
	}
	k.answered = true
	if button == 0 {
		k.keep(k.chosen())
	} else {
		k.keep(nil)
	}
}

// Build draws the dialog as a modal popup.
func (k *keepDialog) Build() {
	if k.answered {
		return
	}
	if !beginModal(keepTitle+"###keepplay", &k.opened, imgui.Vec2{X: 640, Y: 460}) {
		return
	}
	text("The scene is back as it was before Play. Check what to keep; it becomes one step you can undo.")
	footer := imgui.FrameHeightWithSpacing()*2 + imgui.CurrentStyle().ItemSpacing().Y
	if imgui.BeginChildStrV("##keeprows", imgui.Vec2{Y: -footer}, imgui.ChildFlagsBorders, 0) {
		k.buildRows()
	}
	imgui.EndChild()
	textDisabled("Enter or Esc: Keep selected")
	chosen := -1
	imgui.SetItemDefaultFocus()
	if imgui.ButtonV("Keep selected", imgui.Vec2{X: 130}) {
		chosen = 0
	}
	imgui.SameLine()
	if imgui.ButtonV("Discard all", imgui.Vec2{X: 130}) {
		chosen = 1
	}
	if chosen < 0 && !imgui.IsWindowAppearing() {
		chosen = keepKeyChoice(func(key imgui.Key) bool { return imgui.IsKeyPressedBoolV(key, false) })
	}
	if chosen >= 0 {
		imgui.CloseCurrentPopup()
	}
	imgui.EndPopup()
	if chosen >= 0 {
		k.answer(chosen)
	}
}

// buildRows draws the visible rows (a million spinning cubes make a million rows).
func (k *keepDialog) buildRows() {
	if k.clipper == nil {
		k.clipper = imgui.NewListClipper()
	}
	indent := imgui.CurrentStyle().IndentSpacing()
	k.clipper.Begin(int32(len(k.rows)))
	for k.clipper.Step() {
		for r := k.clipper.DisplayStart(); r < k.clipper.DisplayEnd(); r++ {
			row := &k.rows[r]
			if row.kind > keepGroup {
				imgui.SetCursorPosX(imgui.CursorPosX() + indent*float32(row.kind))
			}
			on := k.rowChecked(int(r))
			if imgui.Checkbox(registerText(row.label)+"##keep"+strconv.Itoa(int(r)), &on) {
				k.toggle(int(r))
			}
		}
	}
	k.clipper.End()
}

// done reports whether the dialog was answered.
func (k *keepDialog) done() bool { return k.answered }
