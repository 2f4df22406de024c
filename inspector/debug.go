package inspector

import "github.com/AllenDang/cimgui-go/imgui"

// debugInfo records, for tests, where widgets were drawn and what they displayed in the last
// frame. It is nil in normal use, and recording then costs one comparison.
type debugInfo struct {
	byKey  map[editKey]debugItem
	byName map[string]debugItem
	// auto: the panel resets the records at the start of each Build (RecordWidgets).
	auto bool
}

type debugItem struct {
	min, max imgui.Vec2
	shown    string // the text or value displayed ("--" when mixed)
	frame    uint64
}

func (d *debugInfo) reset() {
	d.byKey = map[editKey]debugItem{}
	d.byName = map[string]debugItem{}
}

func (p *Panel) item(shown string) debugItem {
	return debugItem{min: imgui.ItemRectMin(), max: imgui.ItemRectMax(), shown: shown, frame: p.frame}
}

// record notes the last item under a name ("header:Transform", "add", "add:Marker").
func (p *Panel) record(name, shown string) {
	if p.debug != nil {
		p.debug.byName[name] = p.item(shown)
	}
}

// recordKey notes the last item as the widget of a node.
func (p *Panel) recordKey(k editKey, shown string) {
	if p.debug != nil {
		p.debug.byKey[k] = p.item(shown)
	}
}

// recordPath notes the last item as the widget of the field at path of the current component, under
// "<Component>.<path>" (see Widgets).
func (p *Panel) recordPath(path, shown string) {
	if p.debug != nil && p.world != nil {
		p.debug.byName[p.world.ComponentInfo(p.id).Name+"."+path] = p.item(shown)
	}
}

// Widget is where a widget was drawn in the last frame (screen pixels) and the value it showed ("--" when mixed).
type Widget struct {
	Min, Max imgui.Vec2
	Shown    string
}

// RecordWidgets makes the panel remember, from now on, where it draws its widgets and what they show, for
// end-to-end tests (the editor reports them through its test probe). It costs a few map writes per widget.
func (p *Panel) RecordWidgets() {
	if p.debug == nil {
		p.debug = &debugInfo{auto: true}
		p.debug.reset()
	}
}

// Widgets returns the widgets of the last frame when RecordWidgets is on (nil otherwise), by name:
// "header:<Component>" for component headers, "add" for the Add Component button, and "<Component>.<path>" for
// field widgets ("Transform.position[0]", "Color.rgba", "Spin.speed").
func (p *Panel) Widgets() map[string]Widget {
	if p.debug == nil {
		return nil
	}
	out := make(map[string]Widget, len(p.debug.byName))
	for k, it := range p.debug.byName {
		out[k] = Widget{Min: it.min, Max: it.max, Shown: it.shown}
	}
	return out
}
