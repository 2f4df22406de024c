package inspector

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields"
)

// editKey identifies a widget across frames: a node of a component (or the name field).
type editKey struct {
	id  ecs.ComponentID
	ord int
	set bool
}

func (p *Panel) key(ord int) editKey { return editKey{id: p.id, ord: ord, set: true} }

// session is a continuous edit (a drag) reported as BeginEdit … EndEdit.
type session struct {
	active bool
	key    editKey
	seen   bool // its widget was built this frame
}

// textEdit is the text of a text field being typed into, committed on deactivation.
type textEdit struct {
	active bool
	key    editKey
	buf    string
	seen   bool
}

// elemStep is an array or slice element entered while building rows.
type elemStep struct {
	f *fields.Field // the array or slice field
	i int
}

// pathOf returns the ecs field path of f at the current element nesting.
func (p *Panel) pathOf(f *fields.Field) string {
	if len(p.elems) == 0 {
		return f.Path
	}
	base := ""
	for _, s := range p.elems {
		base = fields.ElemPath(fields.JoinPath(base, s.f.Path), s.i)
	}
	return fields.JoinPath(base, f.Path)
}

// editLabel names an undo step: "Edit Transform.position".
func (p *Panel) editLabel(path string) string {
	return "Edit " + p.comp.Name + "." + path
}

// set reports a live value of nodes [lo, hi) at path: it opens the edit session for key if
// needed. The session ends when its widget is no longer active (finishLive).
func (p *Panel) set(key editKey, path string, lo, hi int, v any) {
	if p.sess.active && p.sess.key != key {
		p.endEdit()
	}
	if !p.sess.active {
		p.ed.BeginEdit(p.editLabel(path))
		p.sess = session{active: true, key: key}
	}
	p.sess.seen = true
	p.apply(path, lo, hi, v)
}

// apply reports one SetField and marks the nodes as the user's.
func (p *Panel) apply(path string, lo, hi int, v any) {
	p.report(p.ed.SetField(p.live(), p.id, path, v))
	p.own(lo, hi)
}

// own marks nodes [lo, hi) as the user's, together with the computed components (a world matrix
// follows the edited transform: that is no outside change either).
func (p *Panel) own(lo, hi int) {
	p.tracker.Own(p.id, lo, hi)
	p.scan.Settle(p.id, lo, hi)
	for _, id := range p.scan.Shared() {
		if p.cache.Component(p.world, id).Computed {
			p.tracker.Own(id, 0, math.MaxInt32)
		}
	}
}

// commit reports a discrete edit: one undo step with one SetField.
func (p *Panel) commit(path string, lo, hi int, v any) {
	if p.sess.active {
		p.endEdit()
	}
	p.ed.BeginEdit(p.editLabel(path))
	p.apply(path, lo, hi, v)
	p.ed.EndEdit()
}

// typedExpr follows the text typed into the number field just built (key): while ImGui's text
// input is open its text is kept, and when it closes with text that is no number (an expression,
// which ImGui ignores) that text is returned. Escape reverts the text to the number first.
func (p *Panel) typedExpr(key editKey) (string, bool) {
	if _, ok := p.ed.(Expressions); !ok {
		return "", false
	}
	id := imgui.ItemID()
	open := imgui.InternalTempInputIsActive(id)
	if !open && p.typed.key != key {
		return "", false
	}
	if st := imgui.CurrentContext().InputTextState(); st.ID() == id {
		if t := st.TextA(); t.Size > 0 && t.Data != nil {
			p.typed = textEdit{active: true, key: key, buf: string(unsafe.Slice((*byte)(unsafe.Pointer(t.Data)), min(int(st.TextLen()), t.Size)))}
		}
	}
	if open {
		return "", false
	}
	src := strings.TrimSpace(p.typed.buf)
	p.typed = textEdit{}
	if src == "" || imgui.IsKeyDown(imgui.KeyEscape) {
		return "", false
	}
	if _, err := strconv.ParseFloat(src, 64); err == nil {
		return "", false // a number: ImGui has set it
	}
	// ImGui's number input turns a comma into a point; a point before a space is a comma
	// ("rand(0, 10)").
	return strings.ReplaceAll(src, ". ", ", "), true
}

// commitExpr reports an expression typed into a number field as one undo step.
func (p *Panel) commitExpr(path string, lo, hi int, src string) {
	p.seed++ // each typed rand scatters anew
	p.commitSeeded(path, lo, hi, src, p.seed)
}

// commitSeeded reports expression src on the field at path, nodes [lo, hi), as one undo step.
func (p *Panel) commitSeeded(path string, lo, hi int, src string, seed uint64) {
	if p.sess.active {
		p.endEdit()
	}
	p.ed.BeginEdit(p.editLabel(path))
	p.report(p.ed.(Expressions).EditExpr(p.live(), p.id, path, src, seed))
	p.own(lo, hi)
	p.ed.EndEdit()
}

// finishLive is called after every live-edited widget: it notes the active widget and ends its
// session when the widget is released.
func (p *Panel) finishLive(key editKey) {
	active := imgui.IsItemActive()
	if active {
		p.activeN = key
	}
	if p.sess.active && p.sess.key == key {
		p.sess.seen = true
		if !active {
			p.endEdit()
		}
	}
}

func (p *Panel) endEdit() {
	p.ed.EndEdit()
	p.sess = session{}
}

// textField builds a single- or multi-line text box whose value is committed on Enter or focus
// loss; it returns the committed text. value is the current value, shown unless mixed.
func (p *Panel) textField(id, value, hint string, mixed bool, key editKey, multiline bool) (bool, string) {
	buf := value
	if mixed {
		buf = ""
		hint = "--"
	}
	if p.text.active && p.text.key == key {
		buf = p.text.buf
		p.text.seen = true
	}
	var changed bool
	if multiline {
		h := imgui.TextLineHeight()*4 + imgui.CurrentStyle().FramePadding().Y*2
		changed = imgui.InputTextMultiline(id, &buf, imgui.Vec2{X: -minWidth, Y: h}, imgui.InputTextFlagsCtrlEnterForNewLine, nil)
	} else {
		changed = imgui.InputTextWithHint(id, hint, &buf, 0, nil)
	}
	if imgui.IsItemActivated() { // from now on show what is typed, whatever the world says
		p.text = textEdit{active: true, key: key, buf: buf, seen: true}
	}
	if changed {
		p.text = textEdit{active: true, key: key, buf: buf, seen: true}
	}
	if mixed {
		p.recordKey(key, "--")
	} else {
		p.recordKey(key, value)
	}
	if imgui.IsItemActive() {
		p.activeN = key
	}
	if imgui.IsItemDeactivatedAfterEdit() && p.text.active && p.text.key == key {
		text := p.text.buf
		p.text = textEdit{}
		if text != value || mixed {
			return true, text
		}
	}
	return false, ""
}

// minWidth as a negative item width means "up to the right edge".
const minWidth = 1.175494e-38 // FLT_MIN

// randomise is the Randomise popup's range and seed.
type randomise struct {
	lo, hi float64
	seed   int32
}

// randomiseMenu builds the right-click menu of a number or vector field's label: Randomise sets
// the field (each channel of a vector) of every selected entity to a value drawn in [Min, Max)
// from Seed, as one undo step; the same seed gives the same values.
func (p *Panel) randomiseMenu(f *fields.Field, ord, n int) {
	if _, ok := p.ed.(Expressions); !ok || f.ReadOnly {
		return
	}
	switch f.Kind {
	case fields.Int, fields.Uint, fields.Float, fields.Vector, fields.Euler:
	default:
		return
	}
	if !imgui.BeginPopupContextItemV("##rnd"+f.ID, imgui.PopupFlagsMouseButtonRight) {
		return
	}
	if imgui.IsWindowAppearing() && p.rnd == (randomise{}) {
		p.rnd = randomise{lo: 0, hi: 10, seed: 1}
	}
	path := p.pathOf(f)
	imgui.TextUnformatted("Randomise " + p.comp.Name + "." + path)
	imgui.InputDouble("Min", &p.rnd.lo)
	p.record("randomise:min", "")
	imgui.InputDouble("Max", &p.rnd.hi)
	p.record("randomise:max", "")
	imgui.InputInt("Seed", &p.rnd.seed)
	p.record("randomise:seed", "")
	apply := imgui.Button("Randomise")
	p.record("randomise:apply", "")
	if apply {
		src := "= rand(" + strconv.FormatFloat(p.rnd.lo, 'g', -1, 64) + ", " + strconv.FormatFloat(p.rnd.hi, 'g', -1, 64) + ")"
		p.commitSeeded(path, ord, ord+n, src, uint64(uint32(p.rnd.seed)))
		imgui.CloseCurrentPopup()
	}
	imgui.EndPopup()
}
