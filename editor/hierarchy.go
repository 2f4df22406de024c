package editor

import (
	"strconv"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/probe"
)

// hierRow is one visible row of the hierarchy: an entity at a depth.
type hierRow struct {
	e       ecs.Entity
	id      uint64
	depth   int32
	hasKids bool
}

// hierarchyPanel shows the scene as a parent/child tree. Only visible rows exist: the tree is flattened into rows
// (children of collapsed nodes are skipped) whenever the document, the expansion or the search changes, and an
// ImGui list clipper builds widgets only for the rows on screen — so 100,000 entities stay smooth.
type hierarchyPanel struct {
	search   string
	expanded map[uint64]bool // by scene id
	rows     []hierRow

	builtDoc    uint64 // document version the rows were built for
	builtSearch string
	builtWorld  *ecs.World
	dirty       bool

	anchor     uint64 // scene id of the last plain click (Shift-click selects from it)
	renaming   uint64 // scene id being renamed inline, 0 if none
	renameBuf  string
	renameInit bool
	scrollTo   uint64 // scene id to scroll into view next frame
	dragID     uint64 // scene id of the row being dragged

	matches map[ecs.Entity]bool // search: entities that match or have a matching descendant
	// kept: scene ids renamed while searching. They keep their rows until the search changes, although their new
	// names may not match (a row that vanishes as you rename it looks like a deletion).
	kept    map[uint64]bool
	clipper *imgui.ListClipper
}

func newHierarchyPanel() *hierarchyPanel {
	return &hierarchyPanel{expanded: map[uint64]bool{}, matches: map[ecs.Entity]bool{}, kept: map[uint64]bool{}}
}

// reset forgets per-scene state (a new document).
func (h *hierarchyPanel) reset() {
	clear(h.expanded)
	clear(h.kept)
	h.anchor, h.renaming = 0, 0
	h.dirty = true
}

// startRename begins inline renaming of the active entity (F2).
func (h *hierarchyPanel) startRename(a *App) {
	e, ok := a.doc.Active()
	if !ok {
		return
	}
	h.renaming = a.doc.ID(e)
	h.renameBuf = a.doc.Name(e)
	h.renameInit = true
	h.scrollTo = h.renaming
	h.revealAncestors(a, e)
}

// revealAncestors expands the parents of e so that it has a row.
func (h *hierarchyPanel) revealAncestors(a *App, e ecs.Entity) {
	w := a.doc.World()
	for p := w.Parent(e); !p.IsZero(); p = w.Parent(p) {
		if id := a.doc.ID(p); !h.expanded[id] {
			h.expanded[id] = true
			h.dirty = true
		}
	}
}

// keep gives the entities (being renamed) rows in the current search results until the search changes.
func (h *hierarchyPanel) keep(a *App, es []ecs.Entity) {
	if strings.TrimSpace(h.search) == "" {
		return
	}
	for _, e := range es {
		h.kept[a.doc.ID(e)] = true
	}
	h.dirty = true
}

// rebuild flattens the tree into rows.
func (h *hierarchyPanel) rebuild(a *App) {
	w := a.doc.World()
	h.rows = h.rows[:0]
	search := strings.ToLower(strings.TrimSpace(h.search))
	clear(h.matches)
	ids := a.doc.IDs()
	if search != "" {
		// Mark matches and their ancestors.
		for _, id := range ids {
			e, ok := a.doc.Entity(id)
			if !ok || !strings.Contains(strings.ToLower(a.doc.Name(e)), search) {
				continue
			}
			for p := e; !p.IsZero() && !h.matches[p]; p = w.Parent(p) {
				h.matches[p] = true
			}
		}
		for id := range h.kept {
			e, ok := a.doc.Entity(id)
			for p := e; ok && !p.IsZero() && !h.matches[p]; p = w.Parent(p) {
				h.matches[p] = true
			}
		}
	}
	var visit func(e ecs.Entity, depth int32)
	visit = func(e ecs.Entity, depth int32) {
		if search != "" && !h.matches[e] {
			return
		}
		id := a.doc.ID(e)
		kids := w.Children(e)
		h.rows = append(h.rows, hierRow{e: e, id: id, depth: depth, hasKids: len(kids) > 0})
		if len(kids) == 0 || (search == "" && !h.expanded[id]) {
			return
		}
		for _, c := range kids {
			visit(c, depth+1)
		}
	}
	for _, e := range a.doc.Roots() { // in sibling order
		visit(e, 0)
	}
	h.builtDoc, h.builtSearch, h.builtWorld, h.dirty = a.doc.Version(), h.search, w, false
}

const dragPayload = "VOLTEX_ENTITY"

// build draws the panel.
func (h *hierarchyPanel) build(a *App) {
	imgui.SetNextItemWidth(-1)
	imgui.InputTextWithHint("##hiersearch", "Search (name)", &h.search, 0, nil)
	if a.probe != nil {
		a.probe.state.HierarchySearch = rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
	}
	if h.builtSearch != h.search {
		clear(h.kept) // a new search shows what matches it
	}
	if h.dirty || h.builtDoc != a.doc.Version() || h.builtSearch != h.search || h.builtWorld != a.doc.World() {
		h.rebuild(a)
	}
	if !imgui.BeginChildStrV("##hiertree", imgui.Vec2{}, 0, 0) {
		imgui.EndChild()
		return
	}
	// Selected rows stand out (the theme's header colour is too close to the background for a selection).
	imgui.PushStyleColorVec4(imgui.ColHeader, imgui.Vec4{X: 0.24, Y: 0.45, Z: 0.78, W: 0.75})
	if h.clipper == nil {
		h.clipper = imgui.NewListClipper()
	}
	if h.scrollTo != 0 {
		for i, r := range h.rows {
			if r.id == h.scrollTo {
				imgui.SetScrollYFloat(float32(i) * imgui.FrameHeightWithSpacing())
				break
			}
		}
		h.scrollTo = 0
	}
	if a.probe != nil {
		a.probe.state.Hierarchy = a.probe.state.Hierarchy[:0]
	}
	h.clipper.Begin(int32(len(h.rows)))
	for h.clipper.Step() {
		for i := h.clipper.DisplayStart(); i < h.clipper.DisplayEnd(); i++ {
			h.buildRow(a, int(i))
		}
	}
	h.clipper.End()
	// Empty space below the rows: drop here to make an entity a root; click to clear the selection.
	avail := imgui.ContentRegionAvail()
	if avail.Y < 24 {
		avail.Y = 24
	}
	imgui.InvisibleButton("##hierroot", imgui.Vec2{X: max(avail.X, 1), Y: avail.Y})
	if imgui.IsItemClicked() && !a.doc.Playing() {
		a.doc.ClearSelection()
	}
	h.dropTarget(a, ecs.Entity{})
	a.acceptPrefabDrop(ecs.Entity{})
	if imgui.BeginPopupContextItemV("##hierbg", imgui.PopupFlagsMouseButtonRight) {
		if imgui.MenuItemBool("Create Empty") {
			a.spawnUnder(ecs.Entity{}, false)
		}
		if imgui.MenuItemBool("Create Cube") {
			a.spawnUnder(ecs.Entity{}, true)
		}
		imgui.EndPopup()
	}
	imgui.PopStyleColor()
	imgui.EndChild()
}

func (h *hierarchyPanel) buildRow(a *App, i int) {
	r := h.rows[i]
	if !a.doc.World().Alive(r.e) {
		return
	}
	imgui.PushIDInt(int32(r.id))
	defer imgui.PopID()
	indent := float32(r.depth) * imgui.TreeNodeToLabelSpacing()
	if indent > 0 {
		imgui.IndentV(indent)
		defer imgui.UnindentV(indent)
	}
	name := registerText(a.doc.Name(r.e))
	if name == "" {
		name = "(unnamed)"
	}
	if h.renaming == r.id {
		imgui.SetNextItemWidth(-1)
		if h.renameInit {
			imgui.SetKeyboardFocusHere()
			h.renameInit = false
		}
		done := imgui.InputTextWithHint("##rename", "name", &h.renameBuf, imgui.InputTextFlagsEnterReturnsTrue|imgui.InputTextFlagsAutoSelectAll, nil)
		if imgui.IsKeyPressedBool(imgui.KeyEscape) {
			h.renaming = 0
			return
		}
		if done || imgui.IsItemDeactivated() {
			h.keep(a, []ecs.Entity{r.e})
			if err := a.doc.Rename([]ecs.Entity{r.e}, h.renameBuf); err != nil {
				a.console.Errorf("rename: %v", err)
			}
			h.renaming = 0
		}
		return
	}
	flags := imgui.TreeNodeFlagsOpenOnArrow | imgui.TreeNodeFlagsSpanAvailWidth | imgui.TreeNodeFlagsNoTreePushOnOpen |
		imgui.TreeNodeFlagsOpenOnDoubleClick
	if !r.hasKids {
		flags |= imgui.TreeNodeFlagsLeaf
	}
	if a.doc.IsSelectedID(r.id) {
		flags |= imgui.TreeNodeFlagsSelected
	}
	searching := strings.TrimSpace(h.search) != ""
	if r.hasKids {
		imgui.SetNextItemOpen(searching || h.expanded[r.id])
	}
	conflict := a.doc.HasConflicts(r.e) // unresolved merge conflicts: marked [!] in red (see conflicts.go)
	label := name
	kind, pcol, isPrefab := a.prefabRowStyle(r.e) // prefab instances and their entities (prefab.go)
	if isPrefab && !conflict {
		if kind == "instance" || kind == "broken" {
			label = "[P] " + name
		}
		imgui.PushStyleColorVec4(imgui.ColText, pcol)
	}
	if conflict {
		label = "[!] " + name
		imgui.PushStyleColorVec4(imgui.ColText, conflictRed)
	}
	open := imgui.TreeNodeExStrV(label+"###row", flags)
	if conflict || isPrefab {
		imgui.PopStyleColor()
	}
	if a.probe != nil {
		a.probe.state.Hierarchy = append(a.probe.state.Hierarchy, probe.Row{
			Rect: rectOf(imgui.ItemRectMin(), imgui.ItemRectSize()),
			Name: name, Depth: int(r.depth), Selected: a.doc.IsSelectedID(r.id), Conflict: conflict, Prefab: kind,
		})
	}
	if r.hasKids && !searching && open != h.expanded[r.id] {
		h.expanded[r.id] = open
		h.dirty = true
	}
	if imgui.IsItemClicked() && !imgui.IsItemToggledOpen() {
		h.click(a, i)
	}
	if imgui.IsItemHovered() && imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft) && !r.hasKids {
		a.doc.Select(r.e)
		h.startRename(a)
	}
	// Drag this entity (or the selection, if it is selected) onto another row to reparent.
	if !a.doc.Playing() && imgui.BeginDragDropSource() {
		h.dragID = r.id // the payload only marks the drag; the id stays here
		imgui.SetDragDropPayload(dragPayload, 0, 0)
		if a.doc.IsSelectedID(r.id) && a.doc.SelectionLen() > 1 {
			text(strconv.Itoa(a.doc.SelectionLen()) + " entities")
		} else {
			text(name)
		}
		imgui.EndDragDropSource()
	}
	h.dropTarget(a, r.e)
	a.acceptPrefabDrop(r.e)
	if imgui.BeginPopupContextItem() {
		if !a.doc.IsSelectedID(r.id) {
			a.doc.Select(r.e)
		}
		editable := !a.doc.Playing()
		if imgui.MenuItemBoolV("Create Child", "", false, editable) {
			a.spawnUnder(r.e, false)
		}
		if imgui.MenuItemBoolV("Create Child Cube", "", false, editable) {
			a.spawnUnder(r.e, true)
		}
		if imgui.MenuItemBoolV("Duplicate", "Ctrl+D", false, editable) {
			a.cmdDuplicate()
		}
		if imgui.MenuItemBoolV("Rename", "F2", false, editable) {
			h.startRename(a)
		}
		imgui.Separator()
		if imgui.MenuItemBoolV("Delete", "Del", false, editable) {
			a.cmdDelete()
		}
		imgui.EndPopup()
	}
}

// dropTarget accepts an entity dragged from the hierarchy (or the selection, if it is selected) onto target: onto
// the middle of a row makes it a child of that row's entity, onto its upper or lower quarter puts it before or
// after that entity among its siblings (a line shows where), onto the empty space (target zero) makes it a root.
// Either way it stays where it is in the world, as in Unity and Godot; one undo step.
func (h *hierarchyPanel) dropTarget(a *App, target ecs.Entity) {
	if !imgui.BeginDragDropTarget() {
		return
	}
	zone := dropOnto
	lo, hi := imgui.ItemRectMin(), imgui.ItemRectMax()
	if !target.IsZero() {
		zone = dropZoneAt(lo.Y, hi.Y, imgui.MousePos().Y)
	}
	flags := imgui.DragDropFlagsAcceptBeforeDelivery
	if zone != dropOnto {
		flags |= imgui.DragDropFlagsAcceptNoDrawDefaultRect
	}
	// (cimgui-go wraps "no payload" in a non-nil Payload with a nil CData.)
	if p := imgui.AcceptDragDropPayloadV(dragPayload, flags); p != nil && p.CData != nil {
		if zone != dropOnto {
			y := lo.Y
			if zone == dropBelow {
				y = hi.Y
			}
			imgui.WindowDrawList().AddLineV(imgui.Vec2{X: lo.X, Y: y}, imgui.Vec2{X: hi.X, Y: y}, imgui.ColorU32Vec4(imgui.Vec4{X: 0.4, Y: 0.7, Z: 1, W: 1}), 2)
		}
		if p.IsDelivery() {
			h.drop(a, target, zone)
		}
	}
	imgui.EndDragDropTarget()
}

// Where a drop lands relative to the row under the mouse.
const (
	dropOnto = iota
	dropAbove
	dropBelow
)

// dropZoneAt says where a drop at height y lands on a row spanning top..bottom: its upper quarter is above
// it, its lower quarter below it, the rest onto it.
func dropZoneAt(top, bottom, y float32) int {
	q := (bottom - top) / 4
	switch {
	case y < top+q:
		return dropAbove
	case y >= bottom-q:
		return dropBelow
	}
	return dropOnto
}

// drop moves the dragged entities (see dropTarget).
func (h *hierarchyPanel) drop(a *App, target ecs.Entity, zone int) {
	id := h.dragID
	e, ok := a.doc.Entity(id)
	if !ok {
		return
	}
	es := []ecs.Entity{e}
	if a.doc.IsSelectedID(id) {
		es = a.doc.SelectedEntities()
	}
	if zone != dropOnto {
		if err := a.doc.MoveNextTo(target, zone == dropBelow, true, es...); err != nil {
			a.console.Errorf("move: %v", err)
		}
		return
	}
	if err := a.doc.ReparentKeepWorld(target, es...); err != nil {
		a.console.Errorf("reparent: %v", err)
	} else if !target.IsZero() {
		h.expanded[a.doc.ID(target)] = true
		h.dirty = true
	}
}

// click handles a click on row i: plain = select only it, Ctrl = toggle, Shift = range from the anchor.
func (h *hierarchyPanel) click(a *App, i int) {
	r := h.rows[i]
	io := imgui.CurrentIO()
	switch {
	case io.KeyShift() && h.anchor != 0:
		from := -1
		for j, rr := range h.rows {
			if rr.id == h.anchor {
				from = j
				break
			}
		}
		if from < 0 {
			a.doc.Select(r.e)
			h.anchor = r.id
			return
		}
		lo, hi := min(from, i), max(from, i)
		es := make([]ecs.Entity, 0, hi-lo+1)
		for _, rr := range h.rows[lo : hi+1] {
			es = append(es, rr.e)
		}
		if io.KeyCtrl() {
			a.doc.AddToSelection(es...)
		} else {
			a.doc.Select(es...)
		}
	case io.KeyCtrl():
		a.doc.ToggleSelected(r.e)
		h.anchor = r.id
	default:
		a.doc.Select(r.e)
		h.anchor = r.id
	}
}
