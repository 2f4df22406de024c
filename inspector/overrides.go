package inspector

import (
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields"
)

// Overrides tells the panel what entities of prefab instances change about their prefab, so that
// overridden fields are shown distinctly (an accent label and a bar at the row's left edge, as in
// Unity), and lets it offer Revert and Apply to Prefab on them (right-click a field's label or a
// component's header).
type Overrides interface {
	// OverridePaths returns how component comp of the entities es (the inspected ones) differs
	// from their prefabs — a field is listed when any of them overrides it, as Unity marks a
	// multi-object selection: field paths (JSON names joined by "." — nested fields separately,
	// arrays whole), "" when an instance adds the component as a whole; nil when nothing differs
	// (or none of es is part of an instance).
	OverridePaths(es []ecs.Entity, comp string) []string
	// RevertOverride sets the field at path (or, for path "", the whole component) of comp of es
	// back to their prefab's (those of es that override it).
	RevertOverride(es []ecs.Entity, comp, path string) error
	// ApplyOverride makes the value of the field at path (or the whole component) of the first of
	// es that overrides it its prefab's own.
	ApplyOverride(es []ecs.Entity, comp, path string) error
}

// overrideColor marks overridden fields.
var overrideColor = imgui.Vec4{X: 0.45, Y: 0.75, Z: 1, W: 1}

// overridePaths returns the override paths of the component being built, for the inspected
// entities (nil without Overrides).
func (p *Panel) overridePaths(comp string) []string {
	if p.opts.Overrides == nil {
		return nil
	}
	return p.opts.Overrides.OverridePaths(p.live(), comp)
}

// overriddenAt returns the override that covers the field at path (the path itself, a struct
// above it, or an array it is an element of), and whether there is one.
func (p *Panel) overriddenAt(path string) (string, bool) {
	for _, o := range p.ovPaths {
		if o == "" || o == path || strings.HasPrefix(path, o+".") || strings.HasPrefix(path, o+"[") || strings.HasPrefix(o, path+".") {
			if o == "" {
				return "", true
			}
			if strings.HasPrefix(o, path+".") { // a struct with an overridden field inside
				return path, true
			}
			return o, true
		}
	}
	return "", false
}

// overrideLabel draws a field's label marked as overridden (when it is) and its Revert / Apply
// menu; it reports whether it drew the label.
func (p *Panel) overrideLabel(f *fields.Field, label string) bool {
	if len(p.ovPaths) == 0 {
		return false
	}
	path := p.pathOf(f)
	ov, ok := p.overriddenAt(path)
	if !ok {
		return false
	}
	corner := imgui.CursorScreenPos()
	h := imgui.FrameHeight()
	imgui.WindowDrawList().AddRectFilled(imgui.Vec2{X: corner.X - 4, Y: corner.Y}, imgui.Vec2{X: corner.X - 1, Y: corner.Y + h},
		imgui.ColorU32Vec4(overrideColor))
	imgui.PushStyleColorVec4(imgui.ColText, overrideColor)
	imgui.TextUnformatted(label)
	imgui.PopStyleColor()
	p.record("override:"+p.comp.Name+"."+path, label)
	if imgui.BeginPopupContextItemV("##ov"+f.ID, imgui.PopupFlagsMouseButtonRight) {
		p.overrideMenu(p.comp.Name, ov)
		imgui.EndPopup()
	}
	return true
}

// overrideMenu builds the Revert / Apply to Prefab items for the override at path of comp.
func (p *Panel) overrideMenu(comp, path string) {
	what := comp
	if path != "" {
		what = comp + "." + path
	}
	revert := imgui.MenuItemBool("Revert " + what)
	p.recordOption("Revert")
	if revert {
		p.report(p.opts.Overrides.RevertOverride(p.live(), comp, path))
		p.scan.Invalidate()
	}
	apply := imgui.MenuItemBool("Apply " + what + " to Prefab")
	p.recordOption("Apply to Prefab")
	if apply && len(p.live()) > 0 {
		p.report(p.opts.Overrides.ApplyOverride(p.live(), comp, path))
		p.scan.Invalidate()
	}
}
