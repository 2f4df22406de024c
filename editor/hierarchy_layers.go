package editor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/internal/words"
)

// layerFlags are the layers — saved queries — as the Hierarchy lists and toggles them (entityFlags implements it).
type layerFlags interface {
	layerList() []settings.Layer
	layerMatches(i int) int
	addLayer(name, src string)
	removeLayer(i int)
	setLayer(i int, set func(*settings.Flags))
}

const saveLayerLabel = "+ Layer"

// saveLayerWidth is the width the save-as-layer button takes beside the search field (0 without layers).
func (h *hierarchyPanel) saveLayerWidth() float32 {
	if h.layers == nil {
		return 0
	}
	st := imgui.CurrentStyle()
	return imgui.CalcTextSize(saveLayerLabel).X + 2*st.FramePadding().X + st.ItemSpacing().X
}

// buildSaveLayer draws the button beside the search field that saves the query as a named layer.
func (h *hierarchyPanel) buildSaveLayer() {
	if h.layers == nil {
		return
	}
	imgui.SameLine()
	can := h.query.matches != nil
	imgui.BeginDisabledV(!can)
	if imgui.Button(saveLayerLabel) {
		h.layerName = fmt.Sprintf("Layer %d", len(h.layers.layerList())+1)
		h.layerFocus = true
		imgui.OpenPopupStr("##savelayer")
	}
	imgui.EndDisabled()
	if h.probe != nil {
		h.probe.SaveLayer = rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
	}
	if imgui.IsItemHoveredV(imgui.HoveredFlagsAllowWhenDisabled) {
		tooltip("Save the query as a layer: hide, lock or isolate what it matches, now and as the scene changes")
	}
	if !imgui.BeginPopup("##savelayer") {
		return
	}
	textDisabled(registerText(h.query.text))
	if h.layerFocus {
		imgui.SetKeyboardFocusHere()
		h.layerFocus = false
	}
	enter := imgui.InputTextWithHint("##layername", "Layer name", &h.layerName, imgui.InputTextFlagsEnterReturnsTrue, nil)
	save := imgui.Button("Save")
	if (enter || save) && strings.TrimSpace(h.layerName) != "" && h.query.matches != nil {
		h.layers.addLayer(strings.TrimSpace(h.layerName), strings.TrimSpace(h.query.text))
		imgui.CloseCurrentPopup()
	}
	imgui.EndPopup()
}

// buildLayers lists the layers above the tree, each with its eye (hide), lock and isolate toggles, its name and
// how many entities it matches; right-click one to remove it.
func (h *hierarchyPanel) buildLayers() {
	if h.probe != nil {
		h.probe.Layers = h.probe.Layers[:0]
	}
	if h.layers == nil {
		return
	}
	layers := h.layers.layerList()
	if len(layers) == 0 {
		return
	}
	side := imgui.FrameHeight()
	for i, l := range layers {
		imgui.PushIDInt(int32(i))
		var pr probe.Layer
		toggles := []struct {
			set  bool
			tip  string
			draw func(p imgui.Vec2, s float32, col uint32, set bool)
			flip func(*settings.Flags)
			at   *probe.Rect
		}{
			{l.Hidden, "Hide the layer's entities", drawEye, func(f *settings.Flags) { f.Hidden = !f.Hidden }, &pr.Eye},
			{l.Locked, "Lock the layer's entities: drawn, not picked nor moved", drawLock,
				func(f *settings.Flags) { f.Locked = !f.Locked }, &pr.Lock},
			{l.Isolated, "Isolate: show only isolated layers and entities", drawIsolate,
				func(f *settings.Flags) { f.Isolated = !f.Isolated }, &pr.Isolate},
		}
		for k, tg := range toggles {
			if k > 0 {
				imgui.SameLineV(0, 4)
			}
			pos := imgui.CursorScreenPos()
			if imgui.InvisibleButton(fmt.Sprintf("##layerflag%d", k), imgui.Vec2{X: side, Y: side}) {
				h.layers.setLayer(i, tg.flip)
				h.deselectHidden()
			}
			*tg.at = rectOf(pos, imgui.Vec2{X: side, Y: side})
			col := uint32(0x40ffffff)
			switch {
			case tg.set:
				col = 0xffffffff
			case imgui.IsItemHovered():
				col = 0xa0ffffff
			}
			tg.draw(pos, side, col, tg.set)
			if imgui.IsItemHovered() {
				tooltip(tg.tip)
			}
		}
		imgui.SameLine()
		n := h.layers.layerMatches(i)
		count := words.Count(n, "match", "matches")
		if n < 0 {
			count = "no query here"
		}
		imgui.AlignTextToFramePadding()
		imgui.TextUnformatted(registerText(l.Name))
		if imgui.IsItemHovered() {
			tooltip(registerText(l.Query))
		}
		imgui.SameLine()
		textDisabled(count)
		if imgui.BeginPopupContextItemV("##layermenu", imgui.PopupFlagsMouseButtonRight) {
			if imgui.MenuItemBool("Remove Layer") {
				h.layers.removeLayer(i)
			}
			imgui.EndPopup()
		}
		if h.probe != nil {
			pr.Name, pr.Matches, pr.Hidden, pr.Locked, pr.Isolated = l.Name, n, l.Hidden, l.Locked, l.Isolated
			h.probe.Layers = append(h.probe.Layers, pr)
		}
		imgui.PopID()
	}
	imgui.Separator()
}

// deselectHidden leaves out of the selection what is now hidden (as H does): no gizmo on what is not drawn.
func (h *hierarchyPanel) deselectHidden() {
	if h.flags == nil {
		return
	}
	sel := h.doc.Selection()
	es := sel.Entities()
	if keep := slices.DeleteFunc(slices.Clone(es), h.flags.hidden); len(keep) != len(es) {
		sel.Select(keep...)
	}
}

// drawIsolate draws a target in the square at p of side s: a ring, filled at its centre when set.
func drawIsolate(p imgui.Vec2, s float32, col uint32, set bool) {
	dl := imgui.WindowDrawList()
	c := imgui.Vec2{X: p.X + s/2, Y: p.Y + s/2}
	dl.AddCircleV(c, s*0.36, col, 0, 1.5)
	if set {
		dl.AddCircleFilled(c, s*0.18, col)
	}
}
