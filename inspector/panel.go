package inspector

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields"
)

// Options configure a Panel. Every field is optional.
type Options struct {
	// Names shows and edits entity names at the top of the panel and in entity pickers (nil: the
	// name row is not shown and pickers list entity IDs).
	Names Names
	// IDs gives the id shown beside the name of a single selected entity (nil: the entity handle).
	IDs IDs
	// Assets lists the choices of asset fields (nil: asset fields are plain text boxes).
	Assets Assets
	// Hidden names components that get no header and are not offered by Add Component (the
	// component holding the name edited at the top, for instance).
	Hidden []string
	// NotAddable names components that are shown but never offered by Add Component (one only the
	// loader fills, whose data is not saved under its own name).
	NotAddable []string
	// OnError receives errors returned by the Editor (they are also shown in the panel).
	OnError func(error)
	// Now returns the time in seconds for change highlights (default imgui.Time).
	Now func() float64
	// Budget bounds the component reads per frame spent on a big multi-selection
	// (fields.DefaultBudget when 0).
	Budget int
	// Overrides marks the fields entities of prefab instances override (nil: none are marked).
	Overrides Overrides
	// Generation, if set, returns a value that changes whenever an entity of the selection given to
	// Inspect may have died (or the selection changed); while it returns the same value, the panel
	// keeps the selection's live entities of the last frame instead of checking each one again (20 ms
	// a frame for a million selected entities). Without it, the check runs in every frame.
	Generation func() uint64
}

// trackLimit is how many selected entities are watched for change highlights.
const trackLimit = 16

// Panel is the inspector: a giu widget that shows and edits the components of the selection.
type Panel struct {
	ed   Editor
	opts Options

	world *ecs.World
	sel   []ecs.Entity

	cache   fields.Cache
	scan    fields.Selection
	tracker fields.Tracker
	frame   uint64

	// the component being built
	id    ecs.ComponentID
	comp  *fields.Component
	mixed *fields.Bits
	elems []elemStep // array/slice elements entered, for paths

	sess    session
	text    textEdit
	typed   textEdit  // the text of a number field's text input, for an expression
	seed    uint64    // the seed of the last typed expression
	rnd     randomise // the Randomise menu's range and seed
	active  editKey   // the widget that was active in the previous frame
	activeN editKey   // ... in this frame
	num     *[3]uint64

	targets      []ecs.Entity // live selection for Editor calls, built on demand per frame
	targetsFrame uint64
	targetsKey   targetsKey // what targets were checked for (with Options.Generation)

	nameMixed      bool
	nameCheckFrame uint64

	headers      map[*fields.Component]string
	treeLabels   map[*fields.Field]string
	entityLabels map[ecs.Entity]entityLabel
	countLabel   string
	countN       int

	addFilter  string
	addIDs     []ecs.ComponentID
	pick       picker
	clip       clipboard
	err        error
	errText    string
	primaryStr string
	primaryFor ecs.Entity
	primaryID  uint64

	ovPaths []string // the inspected entities' overrides of the component being built (see Overrides)

	axis        int // the channel of a vector being built (labelled X, Y, Z, W), -1 otherwise
	axisFormats map[string][len(axisNames)]string

	// debug, when non-nil, records widget rectangles and displayed texts for tests.
	debug *debugInfo
}

var _ giu.Widget = (*Panel)(nil)

// New returns an inspector that reports edits to ed.
func New(ed Editor, opts Options) *Panel {
	if ed == nil {
		panic("inspector: New needs an Editor: pass the editor's implementation of inspector.Editor")
	}
	p := &Panel{
		ed:           ed,
		opts:         opts,
		num:          new([3]uint64),
		axis:         -1,
		headers:      map[*fields.Component]string{},
		treeLabels:   map[*fields.Field]string{},
		entityLabels: map[ecs.Entity]entityLabel{},
	}
	p.scan.Budget = opts.Budget
	return p
}

// Inspect sets the world to show (the edit world, or the play world during play mode) and the
// selected entities, and returns p so that it can be used in a giu layout. Call it every frame
// before Build; the selection slice is read during Build only.
func (p *Panel) Inspect(w *ecs.World, selection []ecs.Entity) *Panel {
	p.world = w
	p.sel = selection
	return p
}

// Selection returns the panel's view of the selection: shared components and mixed fields, as of
// the last Build.
func (p *Panel) Selection() *fields.Selection { return &p.scan }

// Pending reports whether the last Build showed a partial result: a big multi-selection is scanned
// over several frames (a budget per Build), and its entity count, shared components and mixed
// values are final only when the scan is done. The caller must keep building frames while Pending
// is true, even without input, or the panel stays out of date.
func (p *Panel) Pending() bool { return p.world != nil && len(p.sel) > 0 && !p.scan.Complete() }

// Scan carries the scan of a big multi-selection on by one budget outside Build, so that a caller with nothing
// else to do can finish it between frames instead of building frames only to advance it; it reports whether the
// result is still partial (Pending). The next Build shows what it found.
func (p *Panel) Scan() bool {
	if p.world == nil || len(p.sel) == 0 {
		return false
	}
	return p.scan.Continue(&p.cache)
}

// Build builds the panel into the current ImGui window.
func (p *Panel) Build() {
	p.frame++
	if p.debug != nil && p.debug.auto {
		p.debug.reset()
	}
	p.active, p.activeN = p.activeN, editKey{}
	p.sess.seen = false
	defer p.endFrame()
	w := p.world
	if w == nil || len(p.sel) == 0 {
		textDisabled("Nothing selected")
		return
	}
	now := 0.0
	if p.opts.Now != nil {
		now = p.opts.Now()
	} else {
		now = imgui.Time()
	}
	p.scan.Update(w, p.sel, &p.cache)
	p.tracker.BeginFrame(w, now)
	primary := p.scan.Primary()
	if primary.IsZero() {
		textDisabled("Nothing selected")
		return
	}
	p.header(primary)
	for _, id := range p.scan.Shared() {
		c := p.cache.Component(w, id)
		if p.hidden(c.Name) {
			continue
		}
		p.component(primary, id, c)
	}
	imgui.Spacing()
	p.addComponent()
	if p.errText != "" {
		imgui.PushStyleColorVec4(imgui.ColText, imgui.Vec4{X: 1, Y: 0.4, Z: 0.4, W: 1})
		imgui.TextWrapped(escapePercent(p.errText))
		imgui.PopStyleColor()
	}
}

// endFrame ends an edit whose widget was not built this frame (the selection changed mid-drag).
func (p *Panel) endFrame() {
	if p.sess.active && !p.sess.seen {
		p.endEdit()
	}
	if p.text.active && !p.text.seen {
		p.text = textEdit{}
	}
	p.text.seen = false
}

func (p *Panel) hidden(name string) bool { return slices.Contains(p.opts.Hidden, name) }

// header builds the name and ID row.
func (p *Panel) header(primary ecs.Entity) {
	n := p.scan.Len()
	label := p.idLabel(primary, n)
	if p.opts.Names != nil {
		name := p.opts.Names.Name(primary)
		mixed := n > 1 && p.namesMixed(primary, name)
		// The name field leaves room for the whole label ("ID 4503599627370495", "100000 entities").
		imgui.SetNextItemWidth(-max(idLabelWidth, imgui.CalcTextSize(label).X+2*imgui.CurrentStyle().ItemSpacing().X))
		key := editKey{id: nameKeyID, set: true}
		if committed, text := p.textField("##name", name, "Name", mixed, key, false); committed {
			p.report(p.ed.Rename(p.live(), text))
		}
		imgui.SameLine()
	}
	textDisabled(label)
	p.record("id", label)
}

// nameKeyID marks the name field in edit keys (no component has this ID).
const nameKeyID = ecs.ComponentID(math.MaxUint16)

// idLabelWidth is the least room left for the ID label beside the name field.
const idLabelWidth = 110

// namesMixed compares the names of up to 1024 selected entities (re-checked every 30 frames).
func (p *Panel) namesMixed(primary ecs.Entity, name string) bool {
	if p.nameCheckFrame != 0 && p.frame-p.nameCheckFrame < 30 {
		return p.nameMixed
	}
	p.nameCheckFrame = p.frame
	p.nameMixed = false
	for i, e := range p.sel {
		if i >= 1024 {
			p.nameMixed = true // too many to compare every few frames: assume they differ
			break
		}
		if e != primary && p.world.Alive(e) && p.opts.Names.Name(e) != name {
			p.nameMixed = true
			break
		}
	}
	return p.nameMixed
}

func (p *Panel) idLabel(primary ecs.Entity, n int) string {
	if n > 1 {
		if n != p.countN {
			p.countN = n
			p.countLabel = strconv.Itoa(n) + " entities"
		}
		return p.countLabel
	}
	var id uint64
	if p.opts.IDs != nil {
		id = p.opts.IDs.ID(primary)
	}
	if primary != p.primaryFor || id != p.primaryID {
		p.primaryFor, p.primaryID = primary, id
		p.primaryStr = "ID " + primary.String()
		if id != 0 {
			p.primaryStr = "ID " + strconv.FormatUint(id, 10)
		}
	}
	return p.primaryStr
}

// component builds one component's header and fields.
func (p *Panel) component(primary ecs.Entity, id ecs.ComponentID, c *fields.Component) {
	w := p.world
	var v reflect.Value
	if !c.IsTag {
		x, ok := w.Get(primary, id)
		if !ok {
			return
		}
		v = reflect.ValueOf(x)
		p.tracker.Observe(primary, id, c, v)
		for i, e := range p.sel {
			if i >= trackLimit {
				break
			}
			if e != primary {
				p.tracker.Observe(e, id, c, reflect.Value{})
			}
		}
	}
	imgui.PushIDInt(int32(id))
	defer imgui.PopID()
	flags := imgui.TreeNodeFlagsDefaultOpen
	if c.Computed || c.Name == "SceneID" {
		flags = 0 // derived or bookkeeping data: shown on request, folded by default
	}
	p.ovPaths = p.overridePaths(c.Name)
	if len(p.ovPaths) > 0 {
		imgui.PushStyleColorVec4(imgui.ColText, overrideColor)
	}
	open := imgui.CollapsingHeaderTreeNodeFlagsV(p.headerLabel(c), flags)
	if len(p.ovPaths) > 0 {
		imgui.PopStyleColor()
		p.record("override:"+c.Name, "")
	}
	p.record("header:"+c.Name, "")
	p.contextMenu(id, c, v)
	if !open || c.IsTag {
		return
	}
	p.id, p.comp, p.mixed = id, c, p.scan.Mixed(id)
	if p.mixed == nil {
		p.mixed = &noBits
	}
	if imgui.BeginTableV("##fields", 2, imgui.TableFlagsSizingStretchProp|imgui.TableFlagsBordersInnerV, imgui.Vec2{}, 0) {
		imgui.TableSetupColumnV("##label", imgui.TableColumnFlagsWidthStretch, 0.38, 0)
		imgui.TableSetupColumnV("##value", imgui.TableColumnFlagsWidthStretch, 0.62, 0)
		p.rows(c.Fields, v, 1)
		imgui.EndTable()
	}
	p.elems = p.elems[:0]
}

var noBits fields.Bits

// contextMenu builds the component header's right-click menu.
func (p *Panel) contextMenu(id ecs.ComponentID, c *fields.Component, v reflect.Value) {
	if !imgui.BeginPopupContextItemV("##menu", imgui.PopupFlagsMouseButtonRight) {
		return
	}
	defer imgui.EndPopup()
	p.record("menu:"+c.Name, "")
	reset := imgui.MenuItemBoolV("Reset to Defaults", "", false, !c.Computed && !c.IsTag)
	p.recordOption("Reset to Defaults")
	if reset {
		p.report(p.ed.ResetComponent(p.live(), id))
		p.scan.Invalidate()
	}
	copyValues := imgui.MenuItemBoolV("Copy Values", "", false, !c.IsTag && v.IsValid())
	p.recordOption("Copy Values")
	if copyValues {
		p.copyValues(c, v)
	}
	canPaste := !c.Computed && !c.IsTag && p.clip.typ == c.Type
	paste := imgui.MenuItemBoolV("Paste Values", "", false, canPaste)
	p.recordOption("Paste Values")
	if paste {
		p.pasteValues(id, c)
	}
	imgui.Separator()
	remove := imgui.MenuItemBoolV("Remove Component", "", false, !c.Computed)
	p.recordOption("Remove Component")
	if remove {
		p.report(p.ed.RemoveComponent(p.live(), id))
		p.scan.Invalidate()
	}
	if len(p.ovPaths) > 0 {
		imgui.Separator()
		p.overrideMenu(c.Name, "")
	}
}

// clipboard holds copied component values: an independent copy, and its JSON on the system
// clipboard for the user to see or paste elsewhere.
type clipboard struct {
	typ reflect.Type
	val reflect.Value
}

func (p *Panel) copyValues(c *fields.Component, v reflect.Value) {
	cp := reflect.New(c.Type).Elem()
	cp.Set(c.Copy(v))
	p.clip = clipboard{typ: c.Type, val: cp}
	if b, err := json.Marshal(cp.Interface()); err == nil {
		imgui.SetClipboardText(string(b))
	}
}

func (p *Panel) pasteValues(id ecs.ComponentID, c *fields.Component) {
	v := reflect.New(c.Type).Elem()
	v.Set(c.Copy(p.clip.val)) // each paste gets its own copy
	c.Sanitize(v)
	p.report(p.ed.PasteComponent(p.live(), id, v.Interface()))
	p.scan.Invalidate()
}

// addComponent builds the Add Component button and its searchable popup.
func (p *Panel) addComponent() {
	if imgui.ButtonV("Add Component", imgui.Vec2{X: -math.SmallestNonzeroFloat32}) {
		imgui.OpenPopupStr("##add")
	}
	p.record("add", "")
	if !imgui.BeginPopup("##add") {
		return
	}
	defer imgui.EndPopup()
	w := p.world
	if imgui.IsWindowAppearing() {
		p.addFilter = ""
		imgui.SetKeyboardFocusHere()
	}
	imgui.InputTextWithHint("##search", "Search components", &p.addFilter, 0, nil)
	shared := p.scan.Shared()
	p.addIDs = p.addIDs[:0]
	for _, id := range w.ComponentIDs() {
		info := w.ComponentInfo(id)
		if info.Computed || p.hidden(info.Name) || slices.Contains(p.opts.NotAddable, info.Name) {
			continue
		}
		if _, all := slices.BinarySearch(shared, id); all && p.scan.Complete() {
			continue
		}
		c := p.cache.Component(w, id)
		if !containsFold(c.Label, p.addFilter) && !containsFold(c.Name, p.addFilter) {
			continue
		}
		p.addIDs = append(p.addIDs, id)
	}
	if len(p.addIDs) == 0 {
		textDisabled("No components to add")
	}
	for _, id := range p.addIDs {
		c := p.cache.Component(w, id)
		clicked := imgui.SelectableBool(p.headerLabel(c))
		p.record("add:"+c.Name, "")
		if clicked {
			p.report(p.ed.AddComponent(p.live(), id))
			p.scan.Invalidate()
			imgui.CloseCurrentPopup()
		}
	}
}

// headerLabel is the component's label with its name as ImGui ID ("Global Transform
// (computed)##GlobalTransform"), built once per component.
func (p *Panel) headerLabel(c *fields.Component) string {
	l := p.headers[c]
	if l == "" {
		l = c.Label + "##" + c.Name
		if c.Computed {
			l = c.Label + " (computed)##" + c.Name
		}
		p.headers[c] = l
	}
	return l
}

// live returns the live selected entities, for Editor calls (built at most once per frame).
// targetsKey is what the live selection was checked for.
type targetsKey struct {
	gen      uint64
	world    *ecs.World
	alive, n int
}

func (p *Panel) live() []ecs.Entity {
	if p.targetsFrame == p.frame && p.targets != nil {
		return p.targets
	}
	p.targetsFrame = p.frame
	if p.opts.Generation != nil {
		k := targetsKey{gen: p.opts.Generation(), world: p.world, alive: p.world.Len(), n: len(p.sel)}
		if k == p.targetsKey && p.targets != nil {
			return p.targets
		}
		p.targetsKey = k
	}
	p.targets = slices.Grow(p.targets[:0], len(p.sel)) // one allocation, not a doubling at a time: a million selected
	for _, e := range p.sel {
		if p.world.Alive(e) {
			p.targets = append(p.targets, e)
		}
	}
	return p.targets
}

// report records an error from the Editor.
func (p *Panel) report(err error) {
	if err == nil {
		return
	}
	p.err = err
	p.errText = err.Error()
	if p.opts.OnError != nil {
		p.opts.OnError(err)
	}
}

// Err returns the last error the Editor returned (nil if none since ClearErr).
func (p *Panel) Err() error { return p.err }

// ClearErr forgets the last error.
func (p *Panel) ClearErr() { p.err, p.errText = nil, "" }

func textDisabled(s string) {
	imgui.PushStyleColorVec4(imgui.ColText, *imgui.StyleColorVec4(imgui.ColTextDisabled))
	imgui.TextUnformatted(s)
	imgui.PopStyleColor()
}

// escapePercent makes s safe as a printf format.
func escapePercent(s string) string {
	for i := range len(s) {
		if s[i] == '%' {
			out := make([]byte, 0, len(s)+4)
			for j := range len(s) {
				out = append(out, s[j])
				if s[j] == '%' {
					out = append(out, '%')
				}
			}
			return string(out)
		}
	}
	return s
}

// containsFold reports whether sub occurs in s, ignoring ASCII case, without allocating.
func containsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		ok := true
		for j := range len(sub) {
			if lower(s[i+j]) != lower(sub[j]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}
