package editor

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/hierarchy"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize/query"
)

// hierarchyDoc is what the Hierarchy panel reads and changes of the open document (doc.Document implements it).
type hierarchyDoc interface {
	// The tree.
	World() *ecs.World
	Version() uint64
	Roots() []ecs.Entity
	IDs() []uint64
	Entity(id uint64) (ecs.Entity, bool)
	ID(e ecs.Entity) uint64
	Name(e ecs.Entity) string
	PlayMode() *doc.Play
	Conflicts() *doc.Conflicts
	Prefabs() *doc.Prefabs // which entities are of a prefab instance
	Selection() *doc.Selection
	// Edits.
	Rename(es []ecs.Entity, name string) error
	MoveNextTo(target ecs.Entity, after, keepWorld bool, es ...ecs.Entity) error
	ReparentKeepWorld(parent ecs.Entity, es ...ecs.Entity) error
}

// hierarchyCommands are the editor commands the panel's context menus run (the same as the menu bar's, so they log
// and select alike).
type hierarchyCommands interface {
	SpawnUnder(parent ecs.Entity, cube bool)
	CmdDuplicate()
	CmdDelete()
}

// prefabDropTarget takes prefabs dragged from the Assets panel (prefabDrag implements it).
type prefabDropTarget interface {
	// acceptPrefabDrop places a prefab dropped on the last item under target (zero: a root).
	acceptPrefabDrop(target ecs.Entity)
}

// rowFlags are the entities' hide and lock flags as the rows show and toggle them (entityFlags implements it).
type rowFlags interface {
	own(e ecs.Entity) settings.Flags
	hidden(e ecs.Entity) bool
	toggleHidden(es []ecs.Entity)
	toggleLock(es []ecs.Entity)
}

// logger is the console as panels write to it (the workspace's Logger).
type logger = workspace.Logger

// docTree adapts the document to the hierarchy model's Tree.
type docTree struct {
	hierarchyDoc
	ids *ecs.Map[scene.SceneID] // of World(), for comparing siblings
}

func newDocTree(d hierarchyDoc) docTree { return docTree{d, ecs.NewMap[scene.SceneID](d.World())} }

func (t docTree) Children(e ecs.Entity) []ecs.Entity { return t.World().Children(e) }
func (t docTree) ChildCount(e ecs.Entity) int        { return t.World().ChildCount(e) }
func (t docTree) Parent(e ecs.Entity) ecs.Entity     { return t.World().Parent(e) }

// Shape changes with the world's entities and parents and with the sibling order keys (scene ids).
func (t docTree) Shape() [2]uint64 {
	w := t.World()
	var order uint32
	if id, ok := ecs.ComponentIDOf[scene.SceneID](w); ok {
		order = w.LastChange(id)
		// Writes from now on get a later tick than order: Changed asks for exactly those (none of the last batch
		// of writes, which may be a million ids, read again).
		w.AdvanceTick()
	}
	return [2]uint64{w.ShapeVersion(), uint64(order)}
}

// Changed follows the world's changes of shape (ecs.World.ShapeChanges) and of scene ids (their sibling order)
// since the shape was since.
func (t docTree) Changed(since [2]uint64, fn func(ecs.Entity, bool)) bool {
	w := t.World()
	if !w.ShapeChanges(since[0], func(e ecs.Entity) { fn(e, w.Alive(e)) }) {
		return false
	}
	if id, ok := ecs.ComponentIDOf[scene.SceneID](w); ok && uint64(w.LastChange(id)) != since[1] {
		for _, e := range w.AppendChanged(nil, id, uint32(since[1])) {
			fn(e, true)
		}
	}
	return true
}

// CompareSiblings orders roots as scene.Roots does.
func (t docTree) CompareSiblings(a, b ecs.Entity) int {
	x, _ := t.ids.TryGet(a)
	y, _ := t.ids.TryGet(b)
	return scene.Compare(x, y)
}

// hierarchyPanel shows the scene as a parent/child tree: the rows of its model (editor/hierarchy), of which an ImGui
// list clipper builds only those on screen — so 100,000 entities stay smooth. Click, Ctrl-click and Shift-click
// select; a row dragged onto another reparents or reorders; F2 or a double-click renames inline.
type hierarchyPanel struct {
	doc   hierarchyDoc
	flags rowFlags // nil: no eye and lock toggles
	cmds  hierarchyCommands
	drops prefabDropTarget
	log   logger
	probe *probe.State // nil without a test probe

	model    *hierarchy.Model
	search   string         // the search field's text
	query    hierarchyQuery // the search the rows show
	queryErr string         // why the text, which looks like a query, is none
	asked    searchAsked    // the search last asked for
	askedAt  time.Time      // when
	// lastVersion is the scene's version at the last updateQuery; settleWait the longest a search waits for a
	// scene that changes frame after frame to settle.
	lastVersion uint64
	settleWait  time.Duration
	searcher    searcher
	snap        *searchSnap // what the searches of the scene's version found out: its roots, its names
	// selectWhenFound: Enter was pressed while the search ran; its matches are selected when it is done.
	selectWhenFound bool
	bigScene        int                      // queryBigScene (tests lower it)
	searchDelay     time.Duration            // tests only: searches last this much longer, on the goroutine (Options.JobStepDelay)
	mark            func(what string)        // times a key in the search field (workspace.Jobs.MarkNow); nil: not timed
	begin           func(what string) func() // times a search to its rows (workspace.Jobs.Begin); nil: not timed
	found           func()                   // completes the timing of the search running
	renaming        uint64                   // scene id being renamed inline, 0 if none
	renameBuf       string
	renameInit      bool
	scrollTo        uint64 // scene id to scroll into view next frame
	dragID          uint64 // scene id of the row being dragged
	clipper         *imgui.ListClipper
	layers          layerFlags // nil: no layers
	icons           rowIcons   // the rows' eye and lock toggles
	layerName       string     // the name of the layer being saved
	layerFocus      bool       // the layer name field takes the keyboard next frame
}

var _ g.Widget = (*hierarchyPanel)(nil)

func newHierarchyPanel(d hierarchyDoc, cmds hierarchyCommands, drops prefabDropTarget, log logger, pr *probe.State) *hierarchyPanel {
	return &hierarchyPanel{doc: d, cmds: cmds, drops: drops, log: log, probe: pr, model: hierarchy.New(),
		bigScene: queryBigScene, settleWait: querySettle, searcher: searcher{wake: func() { wakeLoop() }, afterFrame: true}}
}

// setDoc shows another document; what belonged to the previous one (expansion, anchor, rename) is forgotten.
func (h *hierarchyPanel) setDoc(d hierarchyDoc) {
	h.doc = d
	h.model.Reset()
	h.renaming = 0
	h.searcher.stop()
	h.snap, h.asked, h.selectWhenFound = nil, searchAsked{}, false
}

// invalidate rebuilds the rows next frame (the world was replaced: a reload, a new project file).
func (h *hierarchyPanel) invalidate() { h.model.Invalidate() }

// startRename begins inline renaming of the active entity (F2).
func (h *hierarchyPanel) startRename() {
	e, ok := h.doc.Selection().Active()
	if !ok {
		return
	}
	h.renaming = h.doc.ID(e)
	h.renameBuf = h.doc.Name(e)
	h.renameInit = true
	takeKeyboardSoon() // what is typed next is the new name: it waits for the field (see inputGate)
	h.reveal(e)
	h.scrollTo = h.renaming
}

// reveal expands the parents of e so that it has a row.
func (h *hierarchyPanel) reveal(e ecs.Entity) { h.model.Reveal(newDocTree(h.doc), e) }

// show reveals e and scrolls its row into view next frame.
func (h *hierarchyPanel) show(e ecs.Entity) {
	h.reveal(e)
	h.scrollTo = h.doc.ID(e)
}

// keep gives the entities (being renamed) rows in the current search results until the search changes.
func (h *hierarchyPanel) keep(es []ecs.Entity) {
	for _, e := range es {
		h.model.Keep(h.doc.ID(e))
	}
}

// hierarchyQuery is the search whose results the rows show: its text, read as a query (serialize/query) or as a
// part of names, for the scene version it was run on.
type hierarchyQuery struct {
	text    string
	version uint64
	world   *ecs.World
	matches *query.Result // nil: the text is no query (a name is searched)
	found   []ecs.Entity  // the results (matches, or entities named so), not the ancestors shown with them
}

// searchAsked is the search last asked for: the text and the scene version.
type searchAsked struct {
	text    string
	version uint64
	world   *ecs.World
}

// A scene of queryBigScene entities or more is searched on a goroutine (hierarchy_search.go): a column scan of a
// million entities takes tens of milliseconds, the rows' rebuild more. Layers (entityflags.go) wait for a pause in
// typing of queryPause before they run a new query.
const (
	queryBigScene = 100_000
	queryPause    = 150 * time.Millisecond
	querySettle   = time.Second
)

// updateQuery takes the result of the search running, if it is ready, and starts a new search when the text or
// the scene changed since the last one was asked for; in a small scene the search runs at once.
func (h *hierarchyPanel) updateQuery() {
	h.searcher.launch() // one asked for in the last frame, if the loop's hook did not begin it (tests)
	if r := h.searcher.take(); r != nil {
		h.adopt(r)
	}
	w, v := h.doc.World(), h.doc.Version()
	changing := v != h.lastVersion // since the last call: a drag, play, a game's deltas change it frame after frame
	h.lastVersion = v
	if (searchAsked{h.search, v, w}) == h.asked {
		return
	}
	if h.search == h.asked.text && w == h.asked.world {
		if h.searcher.busy() {
			return // only the scene changed: the search running finishes first
		}
		// A search while the scene goes on changing would have the next write copy what its snapshot holds:
		// searched again once the scene settles, or after settleWait.
		if changing && w.Len() >= h.bigScene && time.Since(h.askedAt) < h.settleWait {
			wakeLoop()
			return
		}
	}
	h.asked, h.askedAt = searchAsked{h.search, v, w}, time.Now()
	text := strings.TrimSpace(h.search)
	h.queryErr = ""
	if text == "" {
		h.searcher.stop()
		h.snap, h.selectWhenFound = nil, false
		h.searcher.giveBack(nil, h.query.found)
		h.query = hierarchyQuery{text: h.search, version: v, world: w}
		h.model.SetSearch(h.search)
		h.model.SetMatch(nil)
		return
	}
	parsed, err := query.Parse(w, text)
	if err != nil {
		parsed = nil
		if strings.ContainsAny(text, "=<>~:!()|&.") { // meant as a query: say why it is none
			h.queryErr = err.Error()
		}
	}
	if !h.snap.holds(w, v) {
		h.snap = &searchSnap{world: w, version: v}
	}
	async := w.Len() >= h.bigScene || h.searchDelay > 0
	snap := h.snap
	if !async && h.searcher.busy() {
		snap = &searchSnap{world: w, version: v} // the goroutine may still fill h.snap in
	}
	req := &searchReq{text: h.search, q: parsed, snap: snap, view: newSearchView(w), delay: h.searchDelay}
	if async {
		// The goroutine reads a snapshot of what it needs: the names, the scene ids, what the query compares.
		comps := nameAndID(w)
		if parsed != nil {
			for _, id := range parsed.Reads(w) {
				if !hasComp(comps, id) {
					comps = append(comps, id)
				}
			}
		}
		snap, release := w.Snapshot(comps...)
		req.view, req.release = newSearchView(snap), release
	}
	for _, id := range h.model.Kept() {
		if e, ok := h.doc.Entity(id); ok {
			req.kept = append(req.kept, e)
		}
	}
	if h.begin != nil {
		h.found = h.begin("search")
	}
	if async {
		h.searcher.start(req)
		return
	}
	h.searcher.stop() // a search still running on a snapshot is stale
	res, _ := req.run(func() bool { return false })
	h.adopt(res)
}

// adopt shows a search's result: its rows, its matches.
func (h *hierarchyPanel) adopt(r *searchResult) {
	old := h.query.found // nothing keeps it (selectMatches and searchResults copy it)
	h.query = hierarchyQuery{text: r.text, version: r.version, world: r.world, matches: r.matches, found: r.found}
	h.searcher.giveBack(h.model.SetFiltered(r.text, r.rows), old)
	if h.found != nil {
		h.found()
		h.found = nil
	}
	if h.selectWhenFound && r.text == h.search {
		h.selectWhenFound = false
		h.selectMatches()
	}
}

// searching reports whether the rows do not show the results of the text and the scene as they are yet.
func (h *hierarchyPanel) searching() bool {
	if h.asked != (searchAsked{h.query.text, h.query.version, h.query.world}) {
		return true
	}
	// The scene changed while a search ran: the next one waits for it (updateQuery).
	return strings.TrimSpace(h.search) != "" && (h.asked.version != h.doc.Version() || h.asked.world != h.doc.World())
}

// selectMatches selects the entities the query matched (Enter in the search field); while the search of the text
// runs, once it is done.
func (h *hierarchyPanel) selectMatches() {
	if h.searching() {
		h.selectWhenFound = true
		return
	}
	if h.query.matches == nil {
		return
	}
	w := h.doc.World()
	es := make([]ecs.Entity, 0, len(h.query.found))
	for _, e := range h.query.found {
		if w.Alive(e) {
			es = append(es, e)
		}
	}
	h.doc.Selection().Select(es...)
}

// searchResults returns the entities the search found — a query's matches, or those whose names hold the text —
// not the ancestors shown with them; none when there is no search.
func (h *hierarchyPanel) searchResults() []ecs.Entity {
	h.updateQuery()
	if !h.model.Searching() {
		return nil
	}
	w := h.doc.World()
	var out []ecs.Entity
	for _, e := range h.query.found {
		if w.Alive(e) {
			out = append(out, e)
		}
	}
	return out
}

// rows brings the model's rows up to date and returns how many there are.
func (h *hierarchyPanel) rows() int {
	h.updateQuery()
	return h.model.Update(newDocTree(h.doc), h.doc.Version(), h.doc.World())
}

const dragPayload = "VOLTEX_ENTITY"

// Build draws the panel's contents.
func (h *hierarchyPanel) Build() {
	imgui.SetNextItemWidth(-1 - h.saveLayerWidth())
	typed := h.search
	enter := imgui.InputTextWithHint("##hiersearch", "Search: a name, or a query (Spin Transform.position.y>2)", &h.search,
		imgui.InputTextFlagsEnterReturnsTrue, nil)
	if h.search != typed && h.mark != nil {
		h.mark("search edit")
	}
	rows := h.rows()
	if h.probe != nil {
		h.probe.HierarchySearch = rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
		h.probe.HierarchySearchText, h.probe.HierarchySearching = h.search, h.searching()
	}
	h.buildSaveLayer()
	if enter {
		h.selectMatches()
	}
	switch {
	case h.queryErr != "":
		textWrapped(errorColor, registerText(h.queryErr))
	case h.searching():
		textDisabled("searching…")
	case h.query.matches != nil:
		textDisabled(words.Count(h.query.matches.Len(), "match", "matches") + " (Enter selects them)")
	}
	h.buildLayers()
	if !imgui.BeginChildStrV("##hiertree", imgui.Vec2{}, 0, 0) {
		imgui.EndChild()
		return
	}
	// Selected rows stand out (the theme's header colour is too close to the background for a selection).
	imgui.PushStyleColorVec4(imgui.ColHeader, imgui.Vec4{X: 0.24, Y: 0.45, Z: 0.78, W: 0.75})
	if h.clipper == nil {
		h.clipper = imgui.NewListClipper()
	}
	target := -1 // the row to scroll into view: the clipper builds it wherever it is, to learn where that is
	if h.scrollTo != 0 {
		target = h.model.Index(h.scrollTo)
		h.scrollTo = 0
	}
	if h.probe != nil {
		h.probe.Hierarchy, h.probe.Renaming, h.probe.RenamingRect = h.probe.Hierarchy[:0], "", probe.Rect{}
	}
	h.clipper.Begin(int32(rows))
	if target >= 0 {
		h.clipper.IncludeItemByIndex(int32(target))
	}
	for h.clipper.Step() {
		for i := h.clipper.DisplayStart(); i < h.clipper.DisplayEnd(); i++ {
			top := imgui.CursorPosY()
			h.buildRow(int(i))
			if int(i) == target {
				keepInView(top, imgui.CursorPosY()-imgui.CurrentStyle().ItemSpacing().Y)
			}
		}
	}
	h.clipper.End()
	h.icons.flush() // the rows' toggles, in one batch
	// Empty space below the rows: drop here to make an entity a root; click to clear the selection.
	avail := imgui.ContentRegionAvail()
	if avail.Y < 24 {
		avail.Y = 24
	}
	imgui.InvisibleButton("##hierroot", imgui.Vec2{X: max(avail.X, 1), Y: avail.Y})
	if imgui.IsItemClicked() {
		h.doc.Selection().Clear()
	}
	h.dropTarget(ecs.Entity{})
	h.drops.acceptPrefabDrop(ecs.Entity{})
	if imgui.BeginPopupContextItemV("##hierbg", imgui.PopupFlagsMouseButtonRight) {
		if imgui.MenuItemBool("Create Empty") {
			h.cmds.SpawnUnder(ecs.Entity{}, false)
		}
		if imgui.MenuItemBool("Create Cube") {
			h.cmds.SpawnUnder(ecs.Entity{}, true)
		}
		imgui.EndPopup()
	}
	imgui.PopStyleColor()
	imgui.EndChild()
}

// keepInView scrolls the current window the least that shows the content from top to bottom (window coordinates,
// as CursorPosY gives them); it leaves a span already in view where it is.
func keepInView(top, bottom float32) {
	scroll, height := imgui.ScrollY(), imgui.WindowHeight()
	switch {
	case top < scroll:
		imgui.SetScrollYFloat(top)
	case bottom > scroll+height:
		imgui.SetScrollYFloat(bottom - height)
	}
}

// buildRow draws row i: the tree node (or the inline rename field), its drag source, drop target and context menu.
func (h *hierarchyPanel) buildRow(i int) {
	r := h.model.Row(i)
	if !h.doc.World().Alive(r.Entity) {
		return
	}
	imgui.PushIDInt(int32(r.ID))
	defer imgui.PopID()
	indent := float32(r.Depth) * imgui.TreeNodeToLabelSpacing()
	if indent > 0 {
		imgui.IndentV(indent)
		defer imgui.UnindentV(indent)
	}
	name := registerText(h.doc.Name(r.Entity))
	if name == "" {
		name = "(unnamed)"
	}
	if h.renaming == r.ID {
		if h.probe != nil {
			h.probe.Renaming = name
		}
		h.buildRename(r)
		if h.probe != nil {
			h.probe.RenamingRect = rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
		}
		return
	}
	open, conflict, kind := h.buildNode(r, name)
	if h.probe != nil {
		h.probe.Hierarchy = append(h.probe.Hierarchy, probe.Row{
			Rect: rectOf(imgui.ItemRectMin(), imgui.ItemRectSize()),
			Name: name, Depth: int(r.Depth), Selected: h.doc.Selection().IsSelected(r.Entity), Conflict: conflict, Prefab: kind,
		})
	}
	defer h.buildToggles(r, imgui.ItemRectMin(), imgui.ItemRectMax())
	if r.HasKids && !h.model.Searching() {
		h.model.SetExpanded(r.ID, open)
	}
	if imgui.IsItemClicked() && !imgui.IsItemToggledOpen() {
		h.click(i)
	}
	if imgui.IsItemHovered() && imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft) && !r.HasKids {
		h.doc.Selection().Select(r.Entity)
		h.startRename()
	}
	// Drag this entity (or the selection, if it is selected) onto another row to reparent.
	if imgui.BeginDragDropSource() {
		h.dragID = r.ID // the payload only marks the drag; the id stays here
		imgui.SetDragDropPayload(dragPayload, 0, 0)
		if h.doc.Selection().IsSelected(r.Entity) && h.doc.Selection().Len() > 1 {
			text(strconv.Itoa(h.doc.Selection().Len()) + " entities")
		} else {
			text(name)
		}
		imgui.EndDragDropSource()
	}
	h.dropTarget(r.Entity)
	h.drops.acceptPrefabDrop(r.Entity)
	h.buildRowMenu(r)
}

// buildNode draws the row's tree node; it returns whether it is open, whether the entity has merge conflicts and
// what it is of a prefab instance ("instance", "broken", "placeholder", "part" or "").
func (h *hierarchyPanel) buildNode(r hierarchy.Row, name string) (open, conflict bool, kind string) {
	flags := imgui.TreeNodeFlagsOpenOnArrow | imgui.TreeNodeFlagsSpanAvailWidth | imgui.TreeNodeFlagsNoTreePushOnOpen |
		imgui.TreeNodeFlagsOpenOnDoubleClick
	if !r.HasKids {
		flags |= imgui.TreeNodeFlagsLeaf
	}
	if h.doc.Selection().IsSelected(r.Entity) {
		flags |= imgui.TreeNodeFlagsSelected
	}
	if r.HasKids {
		imgui.SetNextItemOpen(h.model.Searching() || h.model.Expanded(r.ID))
	}
	conflict = h.doc.Conflicts().Has(r.Entity) // unresolved merge conflicts: marked [!] in red (see conflicts.go)
	label := name
	kind, pcol, isPrefab := prefabRowStyle(h.doc, r.Entity) // prefab instances and their entities (prefab.go)
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
	dim := h.flags != nil && h.flags.hidden(r.Entity)
	if dim {
		imgui.PushStyleColorVec4(imgui.ColText, *imgui.StyleColorVec4(imgui.ColTextDisabled))
	}
	if h.flags != nil {
		imgui.SetNextItemAllowOverlap() // the eye and lock toggles are drawn over the row's right end
	}
	open = imgui.TreeNodeExStrV(label+"###row", flags)
	if dim {
		imgui.PopStyleColor()
	}
	if conflict || isPrefab {
		imgui.PopStyleColor()
	}
	return open, conflict, kind
}

// buildRename draws the inline rename field of row r: Enter or leaving the field renames, Escape cancels.
func (h *hierarchyPanel) buildRename(r hierarchy.Row) {
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
		h.keep([]ecs.Entity{r.Entity})
		if err := h.doc.Rename([]ecs.Entity{r.Entity}, h.renameBuf); err != nil {
			h.log.Errorf("rename: %v", err)
		}
		h.renaming = 0
	}
}

// buildRowMenu is the row's context menu (right-click): it selects the row first unless it is selected.
func (h *hierarchyPanel) buildRowMenu(r hierarchy.Row) {
	if !imgui.BeginPopupContextItem() {
		return
	}
	if !h.doc.Selection().IsSelected(r.Entity) {
		h.doc.Selection().Select(r.Entity)
	}
	if imgui.MenuItemBoolV("Create Child", "", false, true) {
		h.cmds.SpawnUnder(r.Entity, false)
	}
	if imgui.MenuItemBoolV("Create Child Cube", "", false, true) {
		h.cmds.SpawnUnder(r.Entity, true)
	}
	if imgui.MenuItemBoolV("Duplicate", "Ctrl+D", false, true) {
		h.cmds.CmdDuplicate()
	}
	if imgui.MenuItemBoolV("Rename", "F2", false, true) {
		h.startRename()
	}
	imgui.Separator()
	if imgui.MenuItemBoolV("Delete", "Del", false, true) {
		h.cmds.CmdDelete()
	}
	imgui.EndPopup()
}

// dropTarget accepts an entity dragged from the hierarchy (or the selection, if it is selected) onto target: onto
// the middle of a row makes it a child of that row's entity, onto its upper or lower quarter puts it before or
// after that entity among its siblings (a line shows where), onto the empty space (target zero) makes it a root.
// Either way it stays where it is in the world, as in Unity and Godot; one undo step.
func (h *hierarchyPanel) dropTarget(target ecs.Entity) {
	if !imgui.BeginDragDropTarget() {
		return
	}
	zone := hierarchy.Onto
	lo, hi := imgui.ItemRectMin(), imgui.ItemRectMax()
	if !target.IsZero() {
		zone = hierarchy.ZoneAt(lo.Y, hi.Y, imgui.MousePos().Y)
	}
	flags := imgui.DragDropFlagsAcceptBeforeDelivery
	if zone != hierarchy.Onto {
		flags |= imgui.DragDropFlagsAcceptNoDrawDefaultRect
	}
	// (cimgui-go wraps "no payload" in a non-nil Payload with a nil CData.)
	if p := imgui.AcceptDragDropPayloadV(dragPayload, flags); p != nil && p.CData != nil {
		if zone != hierarchy.Onto {
			y := lo.Y
			if zone == hierarchy.Below {
				y = hi.Y
			}
			imgui.WindowDrawList().AddLineV(imgui.Vec2{X: lo.X, Y: y}, imgui.Vec2{X: hi.X, Y: y}, imgui.ColorU32Vec4(imgui.Vec4{X: 0.4, Y: 0.7, Z: 1, W: 1}), 2)
		}
		if p.IsDelivery() {
			h.drop(target, zone)
		}
	}
	imgui.EndDragDropTarget()
}

// drop moves the dragged entities (see dropTarget).
func (h *hierarchyPanel) drop(target ecs.Entity, zone hierarchy.Zone) {
	id := h.dragID
	e, ok := h.doc.Entity(id)
	if !ok {
		return
	}
	es := []ecs.Entity{e}
	if h.doc.Selection().IsSelected(e) {
		es = h.doc.Selection().Entities()
	}
	if zone != hierarchy.Onto {
		if err := h.doc.MoveNextTo(target, zone == hierarchy.Below, true, es...); err != nil {
			h.log.Errorf("move: %v", err)
		}
		return
	}
	if err := h.doc.ReparentKeepWorld(target, es...); err != nil {
		h.log.Errorf("reparent: %v", err)
	} else if !target.IsZero() {
		h.model.SetExpanded(h.doc.ID(target), true)
	}
}

// click handles a click on row i: plain = select only it, Ctrl = toggle, Shift = range from the anchor.
func (h *hierarchyPanel) click(i int) {
	io := imgui.CurrentIO()
	es, how := h.model.Click(i, io.KeyShift(), io.KeyCtrl())
	switch how {
	case hierarchy.Add:
		h.doc.Selection().Add(es...)
	case hierarchy.Toggle:
		h.doc.Selection().Toggle(es[0])
	default:
		h.doc.Selection().Select(es...)
	}
}

// buildToggles draws the row's eye (hide) and lock toggles at its right end, over the tree node: bright when set,
// faint when not. rowMin and rowMax are the tree node's rectangle (it spans the row).
func (h *hierarchyPanel) buildToggles(r hierarchy.Row, rowMin, rowMax imgui.Vec2) {
	if h.flags == nil {
		return
	}
	fl := h.flags.own(r.Entity)
	side := rowMax.Y - rowMin.Y
	imgui.SameLineV(rowMax.X-2*side-4-imgui.WindowPos().X+imgui.ScrollX(), 0)
	for k, set := range []bool{fl.Hidden, fl.Locked} {
		if k == 1 {
			imgui.SameLineV(0, 4)
		}
		pos := imgui.CursorScreenPos()
		id := "##eye"
		if k == 1 {
			id = "##lock"
		}
		if imgui.InvisibleButton(id, imgui.Vec2{X: side, Y: side}) {
			if k == 0 {
				h.flags.toggleHidden([]ecs.Entity{r.Entity})
			} else {
				h.flags.toggleLock([]ecs.Entity{r.Entity})
			}
		}
		hovered := imgui.IsItemHovered()
		if h.probe != nil && len(h.probe.Hierarchy) > 0 {
			pr := &h.probe.Hierarchy[len(h.probe.Hierarchy)-1]
			rect := rectOf(pos, imgui.Vec2{X: side, Y: side})
			if k == 0 {
				pr.Eye, pr.Hidden = rect, set
			} else {
				pr.Lock, pr.Locked = rect, set
			}
		}
		col := uint32(0x40ffffff)
		switch {
		case set:
			col = 0xffffffff
		case hovered:
			col = 0xa0ffffff
		}
		h.icons.add(toggleIcon(k, set), pos, side, col)
		if hovered {
			tooltip([...]string{"Hide (H); click again to show", "Lock: drawn, not picked nor moved"}[k])
		}
	}
}

// toggleIcon is the icon of a row's toggle k (0: the eye, 1: the lock), set or not.
func toggleIcon(k int, set bool) iconKind {
	kind := iconEye + iconKind(2*k)
	if set {
		kind++
	}
	return kind
}

// drawEye draws an eye in the square at p of side s; hidden, it is crossed out.
func drawEye(p imgui.Vec2, s float32, col uint32, hidden bool) {
	dl := imgui.WindowDrawList()
	c := imgui.Vec2{X: p.X + s/2, Y: p.Y + s/2}
	w, hh := s*0.45, s*0.28
	left, right := imgui.Vec2{X: c.X - w, Y: c.Y}, imgui.Vec2{X: c.X + w, Y: c.Y}
	dl.AddBezierQuadraticV(left, imgui.Vec2{X: c.X, Y: c.Y - 2*hh}, right, col, 1.5, 0)
	dl.AddBezierQuadraticV(left, imgui.Vec2{X: c.X, Y: c.Y + 2*hh}, right, col, 1.5, 0)
	dl.AddCircleFilled(c, s*0.14, col)
	if hidden {
		dl.AddLineV(imgui.Vec2{X: p.X + 2, Y: p.Y + s - 2}, imgui.Vec2{X: p.X + s - 2, Y: p.Y + 2}, col, 1.5)
	}
}

// drawLock draws a padlock in the square at p of side s: shut and filled when locked, open when not.
func drawLock(p imgui.Vec2, s float32, col uint32, locked bool) {
	dl := imgui.WindowDrawList()
	body0 := imgui.Vec2{X: p.X + s*0.2, Y: p.Y + s*0.48}
	body1 := imgui.Vec2{X: p.X + s*0.8, Y: p.Y + s*0.92}
	if locked {
		dl.AddRectFilledV(body0, body1, col, 2, 0)
	} else {
		dl.AddRectV(body0, body1, col, 2, 0, 1.5)
	}
	r := s * 0.2
	cx := p.X + s/2
	if !locked {
		cx += s * 0.15 // the shackle swung open
	}
	dl.PathArcTo(imgui.Vec2{X: cx, Y: p.Y + s*0.08 + r}, r, math.Pi, 2*math.Pi)
	dl.PathStrokeV(col, 0, 1.5)
	dl.AddLineV(imgui.Vec2{X: cx - r, Y: p.Y + s*0.08 + r}, imgui.Vec2{X: cx - r, Y: body0.Y}, col, 1.5)
	if locked {
		dl.AddLineV(imgui.Vec2{X: cx + r, Y: p.Y + s*0.08 + r}, imgui.Vec2{X: cx + r, Y: body0.Y}, col, 1.5)
	}
}
