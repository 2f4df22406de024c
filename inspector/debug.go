package inspector

import "github.com/AllenDang/cimgui-go/imgui"

// debugInfo records, for tests, where widgets were drawn and what they displayed in the last
// frame. It is nil in normal use, and recording then costs one comparison.
type debugInfo struct {
	byKey  map[editKey]debugItem
	byName map[string]debugItem
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
