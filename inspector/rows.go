package inspector

import (
	"reflect"
	"strconv"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields"
)

// highlight is the colour of a just-changed row (its alpha fades with the heat).
var highlight = imgui.Vec4{X: 1, Y: 0.68, Z: 0.1, W: 0.5}

// rows builds the rows of struct fields fs of value v, whose first node is ord.
func (p *Panel) rows(fs []fields.Field, v reflect.Value, ord int) {
	for i := range fs {
		f := &fs[i]
		fv := v.Field(f.Index)
		n := f.Nodes(fv)
		if !f.Hints.Hidden {
			p.row(f, fv, ord, n, f.Label)
		}
		ord += n
	}
}

// row builds one table row: the label and the widget of field f (nodes [ord, ord+n)).
func (p *Panel) row(f *fields.Field, v reflect.Value, ord, n int, label string) {
	imgui.TableNextRow()
	if h := p.tracker.Heat(p.id, ord, ord+n); h > 0 {
		c := highlight
		c.W *= h
		imgui.TableSetBgColorV(imgui.TableBgTargetRowBg1, imgui.ColorU32Vec4(c), -1)
	}
	imgui.TableSetColumnIndex(0)
	switch f.Kind {
	case fields.Struct, fields.Array, fields.Slice:
		p.tree(f, v, ord, n, label)
		return
	}
	imgui.AlignTextToFramePadding()
	if !p.overrideLabel(f, label) {
		imgui.TextUnformatted(label)
		p.randomiseMenu(f, ord, n)
	}
	if f.Tooltip != "" {
		imgui.SetItemTooltip(f.Tooltip)
	}
	imgui.TableSetColumnIndex(1)
	if f.ReadOnly {
		imgui.BeginDisabled()
	}
	imgui.SetNextItemWidth(-minWidth)
	p.widget(f, v, ord, n)
	if f.ReadOnly {
		imgui.EndDisabled()
	}
}

// widget builds the editing widget of a leaf or compound field.
func (p *Panel) widget(f *fields.Field, v reflect.Value, ord, n int) {
	key := p.key(ord)
	mixed := p.mixed.Has(ord)
	switch f.Kind {
	case fields.Bool:
		p.checkbox(f, v, ord, mixed)
	case fields.Int, fields.Uint, fields.Float:
		p.drag(f, f, v, key, mixed, -1)
	case fields.String:
		p.stringField(f, v, ord, mixed)
	case fields.Asset:
		if p.opts.Assets == nil {
			p.stringField(f, v, ord, mixed)
		} else {
			p.assetField(f, v, ord, mixed)
		}
	case fields.Enum:
		p.enumField(f, v, ord, mixed)
	case fields.EntityRef:
		p.entityField(f, v, ord, mixed)
	case fields.Vector, fields.Euler:
		imgui.PushIDStr(f.ID)
		p.channels(f, v, ord, 0, f.Len, 1)
		imgui.PopID()
	case fields.Matrix:
		dim := 2
		for dim*dim < f.Len {
			dim++
		}
		imgui.PushIDStr(f.ID)
		for r := range dim {
			p.channels(f, v, ord, r, dim, dim)
		}
		imgui.PopID()
	case fields.Color:
		p.color(f, v, ord, n)
	default:
		textDisabled(f.Type.String())
	}
}

// tree builds a struct, array or slice row as a tree node with its children below.
func (p *Panel) tree(f *fields.Field, v reflect.Value, ord, n int, label string) {
	if f.Name != "" {
		l := p.treeLabels[f]
		if l == "" {
			l = label + f.ID
			p.treeLabels[f] = l
		}
		label = l
	}
	imgui.AlignTextToFramePadding() // the same height as the widgets of the other rows
	open := imgui.TreeNodeExStrV(label, imgui.TreeNodeFlagsSpanAvailWidth)
	p.recordKey(p.key(ord), "")
	p.recordPath(p.pathOf(f), "")
	if f.Tooltip != "" {
		imgui.SetItemTooltip(f.Tooltip)
	}
	imgui.TableSetColumnIndex(1)
	switch f.Kind {
	case fields.Array:
		imgui.AlignTextToFramePadding()
		textDisabled(itemsLabel(v.Len()))
	case fields.Slice:
		p.sliceSummary(f, v, ord, n)
	}
	if !open {
		return
	}
	if f.Kind == fields.Struct {
		p.rows(f.Fields, v, ord+1)
	} else {
		p.elements(f, v, ord+1)
	}
	imgui.TreePop()
}

// elements builds the rows of an array's or slice's elements, the first at node ord.
func (p *Panel) elements(f *fields.Field, v reflect.Value, ord int) {
	depth := len(p.elems)
	p.elems = append(p.elems, elemStep{f: f})
	for i := range v.Len() {
		ev := v.Index(i)
		en := f.Elem.Nodes(ev)
		p.elems[depth].i = i
		imgui.PushIDInt(int32(i))
		p.row(f.Elem, ev, ord, en, fields.IndexLabel(i))
		imgui.PopID()
		ord += en
	}
	p.elems = p.elems[:depth]
}

// sliceSummary shows a slice's length with buttons to append an element and remove the last.
// They are disabled while the slices of a multi-selection differ.
func (p *Panel) sliceSummary(f *fields.Field, v reflect.Value, ord, n int) {
	imgui.AlignTextToFramePadding()
	textDisabled(itemsLabel(v.Len()))
	disabled := f.ReadOnly || p.mixed.Any(ord, ord+n)
	if disabled {
		imgui.BeginDisabled()
	}
	imgui.SameLine()
	add := imgui.SmallButton("+")
	p.recordKey(editKey{id: p.id, ord: -ord, set: true}, "+")
	imgui.SameLine()
	remove := false
	if v.Len() > 0 {
		remove = imgui.SmallButton("-")
		p.recordKey(editKey{id: p.id, ord: -ord - 1<<20, set: true}, "-")
	}
	if disabled {
		imgui.EndDisabled()
		return
	}
	switch {
	case add:
		s := reflect.MakeSlice(f.Type, v.Len()+1, v.Len()+1)
		for i := range v.Len() {
			s.Index(i).Set(fields.Clone(v.Index(i)))
		}
		s.Index(v.Len()).Set(f.NewItem()) // the item type's defaults, within the item's hints
		p.commit(p.pathOf(f), ord, ord+n+f.Elem.Nodes(s.Index(v.Len())), s.Interface())
	case remove:
		s := reflect.MakeSlice(f.Type, v.Len()-1, v.Len()-1)
		for i := range v.Len() - 1 {
			s.Index(i).Set(fields.Clone(v.Index(i)))
		}
		p.commit(p.pathOf(f), ord, ord+n, s.Interface())
	}
}

var itemLabels = map[int]string{}

func itemsLabel(n int) string {
	if l, ok := itemLabels[n]; ok {
		return l
	}
	l := strconv.Itoa(n) + " items"
	if n == 1 {
		l = "1 item"
	}
	if len(itemLabels) < 1024 {
		itemLabels[n] = l
	}
	return l
}

func (p *Panel) checkbox(f *fields.Field, v reflect.Value, ord int, mixed bool) {
	b := v.Bool()
	if mixed {
		b = false // a click on a mixed checkbox turns every one on
		imgui.PushItemFlag(imgui.ItemFlags(imgui.ItemFlagsMixedValue), true)
	}
	changed := imgui.Checkbox(f.ID, &b)
	shown := strconv.FormatBool(b)
	if mixed {
		imgui.PopItemFlag()
		shown = "--"
	}
	p.recordKey(p.key(ord), shown)
	p.recordPath(p.pathOf(f), shown)
	if changed && !f.ReadOnly {
		p.commit(p.pathOf(f), ord, ord+1, f.BoolValue(b))
	}
}

func (p *Panel) stringField(f *fields.Field, v reflect.Value, ord int, mixed bool) {
	committed, text := p.textField(f.ID, v.String(), "", mixed, p.key(ord), f.Hints.Multiline)
	p.recordPath(p.pathOf(f), v.String())
	if committed && !f.ReadOnly {
		p.commit(p.pathOf(f), ord, ord+1, f.StringValue(text))
	}
}

// channels builds one line of a compound field's channels: count channels starting at channel
// row, each stride apart (stride 1 for vectors; a matrix row r has channels r, r+dim, …).
func (p *Panel) channels(f *fields.Field, v reflect.Value, ord, row, count, stride int) {
	avail := imgui.ContentRegionAvail().X
	sp := imgui.CurrentStyle().ItemInnerSpacing().X
	w := (avail - sp*float32(count-1)) / float32(count)
	for k := range count {
		ch := row + k*stride
		if k > 0 {
			imgui.SameLineV(0, sp)
		}
		imgui.PushIDInt(int32(ch))
		imgui.SetNextItemWidth(w)
		p.axis = -1
		if stride == 1 && count <= len(axisNames) {
			p.axis = k // vectors and angles label their channels X, Y, Z, W (matrix rows do not)
		}
		p.drag(f, f.Elem, v.Index(ch), p.key(ord+1+ch), p.mixed.Has(ord+1+ch), ch)
		p.axis = -1
		imgui.PopID()
	}
}

// drag builds a drag widget for numeric field nf (owner itself, or channel ch of owner).
func (p *Panel) drag(owner, nf *fields.Field, v reflect.Value, key editKey, mixed bool, ch int) {
	dt := dataType(nf)
	val := unsafe.Pointer(&p.num[0])
	put(val, dt, v)
	var pmin, pmax uintptr
	flags := imgui.SliderFlags(0)
	if nf.Hints.HasMin || nf.Hints.HasMax || nf.Kind == fields.Float && nf.Max-nf.Min < 1e30 {
		putRange(unsafe.Pointer(&p.num[1]), unsafe.Pointer(&p.num[2]), dt, nf)
		pmin, pmax = uintptr(unsafe.Pointer(&p.num[1])), uintptr(unsafe.Pointer(&p.num[2]))
		flags = imgui.SliderFlagsAlwaysClamp
	}
	format := nf.Format
	if mixed && p.active != key {
		format = "--" // typed input (Ctrl+click) parses with the real format from the next frame
	}
	showsMixed := format == "--"
	axis := p.axis
	if axis >= 0 {
		format = p.axisFormat(axis, format) // "X %.3f": typed input drops the prefix (ImGui trims it)
	}
	changed := imgui.DragScalarV(nf.ID, dt, uintptr(val), float32(nf.Speed), pmin, pmax, format, flags)
	if axis >= 0 { // a bar in the axis colour on the channel's left edge, as in Unity and Godot
		lo, hi := imgui.ItemRectMin(), imgui.ItemRectMax()
		imgui.WindowDrawList().AddRectFilled(lo, imgui.Vec2{X: lo.X + 2, Y: hi.Y}, axisColors[axis])
	}
	if p.debug != nil {
		shown := "--"
		if !showsMixed {
			shown = fieldText(v)
		}
		p.recordKey(key, shown)
		path := p.pathOf(owner)
		if ch >= 0 {
			path = fields.ElemPath(path, ch)
		}
		p.recordPath(path, shown)
	}
	path := func() string {
		path := p.pathOf(owner)
		if ch >= 0 {
			path = fields.ElemPath(path, ch)
		}
		return path
	}
	if changed && !nf.ReadOnly {
		if x, ok := get(val, dt, nf); ok {
			p.set(key, path(), key.ord, key.ord+1, x)
		}
	}
	if src, ok := p.typedExpr(key); ok && !nf.ReadOnly {
		p.commitExpr(path(), key.ord, key.ord+1, src)
	}
	p.finishLive(key)
}

// axisNames label the channels of vectors and angles.
var axisNames = [...]string{"X", "Y", "Z", "W"}

// axisColors are the axes' colours (ABGR), those of the viewport's gizmo: X red, Y green, Z blue, W grey.
var axisColors = [...]uint32{0xff4d4dd9, 0xff4dbf66, 0xffe6804d, 0xffa0a0a0}

// axisFormat returns format with the name of axis in front ("X %.3f"), made once per format.
func (p *Panel) axisFormat(axis int, format string) string {
	fs, ok := p.axisFormats[format]
	if !ok {
		for i, n := range axisNames {
			fs[i] = n + " " + format
		}
		if p.axisFormats == nil {
			p.axisFormats = map[string][len(axisNames)]string{}
		}
		p.axisFormats[format] = fs
	}
	return fs[axis]
}

func fieldText(v reflect.Value) string {
	switch {
	case v.CanFloat():
		return strconv.FormatFloat(v.Float(), 'g', -1, v.Type().Bits())
	case v.CanInt():
		return strconv.FormatInt(v.Int(), 10)
	case v.CanUint():
		return strconv.FormatUint(v.Uint(), 10)
	}
	return ""
}

func (p *Panel) color(f *fields.Field, v reflect.Value, ord, n int) {
	c := f.RGBA(v)
	flags := imgui.ColorEditFlagsAlphaBar
	if f.Len == 3 {
		flags |= imgui.ColorEditFlagsNoAlpha
	}
	if f.Elem.Kind == fields.Float {
		flags |= imgui.ColorEditFlagsFloat
	} else {
		flags |= imgui.ColorEditFlagsUint8
	}
	key := p.key(ord)
	mixed := p.mixed.Any(ord, ord+n)
	if mixed {
		flags |= imgui.ColorEditFlagsNoInputs
	}
	changed := imgui.ColorEdit4V(f.ID, &c, flags)
	if p.debug != nil {
		shown := "--"
		if !mixed {
			shown = strconv.FormatFloat(float64(c[0]), 'g', 4, 32) + "," + strconv.FormatFloat(float64(c[1]), 'g', 4, 32) +
				"," + strconv.FormatFloat(float64(c[2]), 'g', 4, 32) + "," + strconv.FormatFloat(float64(c[3]), 'g', 4, 32)
		}
		p.recordKey(key, shown)
		p.recordPath(p.pathOf(f), shown)
	}
	if changed && !f.ReadOnly {
		if x, ok := f.ColorValue(c); ok {
			p.set(key, p.pathOf(f), ord, ord+n, x)
		}
	}
	p.finishLive(key)
	if mixed {
		imgui.SameLine()
		textDisabled("--")
	}
}

func (p *Panel) enumField(f *fields.Field, v reflect.Value, ord int, mixed bool) {
	cur := fields.Integer(v)
	idx := -1
	for i, ev := range f.Enum {
		if ev.Value == cur {
			idx = i
			break
		}
	}
	var preview string
	switch {
	case mixed:
		preview = "--"
	case idx >= 0:
		preview = f.EnumNames[idx]
	default:
		preview = strconv.FormatInt(cur, 10) // a value without a name
	}
	open := imgui.BeginComboV(f.ID, preview, 0)
	p.recordKey(p.key(ord), preview)
	p.recordPath(p.pathOf(f), preview)
	if !open {
		return
	}
	for i := range f.Enum {
		selected := i == idx && !mixed
		clicked := imgui.SelectableBoolV(f.EnumNames[i], selected, 0, imgui.Vec2{})
		p.recordOption(f.EnumNames[i])
		if selected {
			imgui.SetItemDefaultFocus()
		}
		if clicked && !f.ReadOnly && (!selected || mixed) {
			p.commit(p.pathOf(f), ord, ord+1, f.IntValue(f.Enum[i].Value))
		}
	}
	imgui.EndCombo()
}

// recordOption notes a popup entry for tests ("opt:Running").
func (p *Panel) recordOption(name string) {
	if p.debug != nil {
		p.record("opt:"+name, "")
	}
}

func (p *Panel) assetField(f *fields.Field, v reflect.Value, ord int, mixed bool) {
	cur := v.String()
	preview := cur
	switch {
	case mixed:
		preview = "--"
	case cur == "":
		preview = "(none)"
	}
	open, appearing := p.beginPicker(f, ord, preview, "Search assets")
	if !open {
		return
	}
	defer imgui.EndCombo()
	if appearing {
		p.pick.assets = p.opts.Assets.List()
	}
	choice, chosen := "", false
	if imgui.SelectableBoolV("(none)", cur == "" && !mixed, 0, imgui.Vec2{}) {
		chosen = true
	}
	p.recordOption("(none)")
	for i, a := range p.pick.assets {
		if !containsFold(a, p.pick.filter) {
			continue
		}
		imgui.PushIDInt(int32(i))
		if imgui.SelectableBoolV(a, a == cur && !mixed, 0, imgui.Vec2{}) {
			choice, chosen = a, true
		}
		imgui.PopID()
		p.recordOption(a)
	}
	if chosen && !f.ReadOnly && (choice != cur || mixed) {
		p.commit(p.pathOf(f), ord, ord+1, f.StringValue(choice))
	}
}

// beginPicker opens the combo of field f as a searchable list: it returns whether the list is
// open (then the caller ends it with imgui.EndCombo) and whether it has just opened.
func (p *Panel) beginPicker(f *fields.Field, ord int, preview, hint string) (open, appearing bool) {
	open = imgui.BeginComboV(f.ID, preview, imgui.ComboFlagsHeightLarge)
	p.recordKey(p.key(ord), preview)
	p.recordPath(p.pathOf(f), preview)
	if !open {
		return false, false
	}
	appearing = imgui.IsWindowAppearing()
	if appearing {
		p.pick.filter = ""
		imgui.SetKeyboardFocusHere()
	}
	imgui.SetNextItemWidth(-minWidth)
	imgui.InputTextWithHint("##filter", hint, &p.pick.filter, 0, nil)
	return true, appearing
}

// picker is the state of the open asset or entity popup.
type picker struct {
	filter     string
	lastFilter string
	assets     []string
	ents       []ecs.Entity
	clipper    *imgui.ListClipper
}

func (p *Panel) entityField(f *fields.Field, v reflect.Value, ord int, mixed bool) {
	cur, _ := v.Interface().(ecs.Entity)
	preview := "--"
	if !mixed {
		preview = p.entityText(cur)
	}
	open, appearing := p.beginPicker(f, ord, preview, "Search entities")
	if !open {
		return
	}
	defer imgui.EndCombo()
	if appearing || p.pick.filter != p.pick.lastFilter {
		p.pick.lastFilter = p.pick.filter
		p.pick.ents = p.matchEntities(p.pick.ents[:0], p.pick.filter)
	}
	choice, chosen := ecs.Entity{}, false
	if imgui.SelectableBoolV("None", cur.IsZero() && !mixed, 0, imgui.Vec2{}) {
		chosen = true
	}
	p.recordOption("None")
	if p.pick.clipper == nil {
		p.pick.clipper = imgui.NewListClipper()
	}
	clip := p.pick.clipper
	clip.Begin(int32(len(p.pick.ents)))
	for clip.Step() {
		for i := clip.DisplayStart(); i < clip.DisplayEnd(); i++ {
			e := p.pick.ents[i]
			label := p.entityText(e)
			imgui.PushIDInt(i)
			if imgui.SelectableBoolV(label, e == cur && !mixed, 0, imgui.Vec2{}) {
				choice, chosen = e, true
			}
			imgui.PopID()
			p.recordOption(label)
		}
	}
	clip.End()
	if chosen && !f.ReadOnly && (choice != cur || mixed) {
		p.commit(p.pathOf(f), ord, ord+1, choice)
	}
}

// matchEntities appends the live entities whose label contains filter (ignoring case).
func (p *Panel) matchEntities(dst []ecs.Entity, filter string) []ecs.Entity {
	p.world.EachEntity(func(e ecs.Entity) bool {
		if filter == "" || containsFold(p.entityText(e), filter) {
			dst = append(dst, e)
		}
		return true
	})
	return dst
}

type entityLabel struct {
	name  string
	id    uint64
	label string
}

// entityText is what an entity reference shows: "Name (7)" with the id of Options.IDs (the entity
// handle without one: "Name (e5v0)"), "7", "None" or "e5v0 (missing)", cached per entity.
func (p *Panel) entityText(e ecs.Entity) string {
	if e.IsZero() {
		return "None"
	}
	if !p.world.Alive(e) {
		return e.String() + " (missing)"
	}
	name := ""
	if p.opts.Names != nil {
		name = p.opts.Names.Name(e)
	}
	var id uint64
	if p.opts.IDs != nil {
		id = p.opts.IDs.ID(e)
	}
	if l, ok := p.entityLabels[e]; ok && l.name == name && l.id == id {
		return l.label
	}
	label := e.String()
	if id != 0 {
		label = strconv.FormatUint(id, 10)
	}
	if name != "" {
		label = name + "  (" + label + ")"
	}
	if len(p.entityLabels) > 1<<16 {
		clear(p.entityLabels)
	}
	p.entityLabels[e] = entityLabel{name, id, label}
	return label
}
