package editor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/inspector"
)

// inspectorDoc is what the Inspector panel reads and changes of the open document (inspected implements it).
type inspectorDoc interface {
	inspector.Editor // field edits (one undo step per drag), rename, add, remove, reset and paste components
	Name(e ecs.Entity) string
	ID(e ecs.Entity) uint64
	Entity(id uint64) (ecs.Entity, bool)
	World() *ecs.World
	// EditField applies an expression typed into a field to every entity of es (doc.Document.EditField).
	EditField(es []ecs.Entity, comp, path, src string, seed uint64) error
	Version() uint64
	Editing() bool
	Len() int
	PlayMode() *doc.Play
	Selection() *doc.Selection
	Conflicts() *doc.Conflicts // merge conflicts (conflicts.go)
	Prefabs() *doc.Prefabs     // prefab instances (prefab.go)
	// The look-ups of a big selection the panel caches (tests count them).
	Selected() []ecs.Entity
	AppendParts(dst, es []ecs.Entity) []ecs.Entity
}

// inspected is the open document as the Inspector panel reads it.
type inspected struct{ *doc.Document }

// Selected returns the selected entities (the selection's own list where it can: doc.Selection.View).
func (d inspected) Selected() []ecs.Entity { return d.Selection().View() }

// AppendParts appends those of es that are entities of prefab instances to dst.
func (d inspected) AppendParts(dst, es []ecs.Entity) []ecs.Entity {
	return d.Prefabs().AppendParts(dst, es)
}

// inspectorCommands are the editor commands the prefab section's buttons run.
type inspectorCommands interface {
	CmdRevertInstance()
	CmdApplyInstance()
	CmdUnpackPrefab()
	RevertOverride(es []ecs.Entity, comp, path string) error
	ApplyOverride(e ecs.Entity, comp, path string) error
	Report(what string, err error)
}

// outline is the hierarchy as other panels steer it (hierarchyPanel implements it).
type outline interface {
	// keep gives entities being renamed their rows in the hierarchy's search results.
	keep(es []ecs.Entity)
	// show reveals e and scrolls to it.
	show(e ecs.Entity)
}

// inspectorPanel is the Inspector: the prefab section (the instance the active entity belongs to and its
// overrides), the merge-conflict section, then every component of the selected entities (package inspector's
// panel, which reports edits through the document).
type inspectorPanel struct {
	doc     inspectorDoc
	cmds    inspectorCommands
	outline outline
	log     logger
	probe   *probe.State

	insp    *inspector.Panel
	pending bool // the inspector showed a partial result last frame (a big selection being scanned)
	sel     []ecs.Entity
	selKey  selKey // what sel was made from: it is made again only when that changes
	selGen  uint64 // changes whenever sel is made again (inspector.Options.Generation)
	conf    conflictView
	prefab  prefabView
	// mark times an edit for the probe (workspace.Jobs.MarkNow); nil: not timed.
	mark func(what string)
}

var _ g.Widget = (*inspectorPanel)(nil)

func newInspectorPanel(cmds inspectorCommands, ol outline, ms *assets.Registry, log logger, pr *probe.State) *inspectorPanel {
	p := &inspectorPanel{cmds: cmds, outline: ol, log: log, probe: pr}
	p.insp = inspector.New(inspEditor{p}, inspector.Options{
		Names:  inspNames{p},
		IDs:    inspNames{p},
		Assets: ms,
		Hidden: []string{"Name", "MergeConflicts", // the conflict section (conflicts.go) shows the latter
			"Prefab", "PrefabPart", "PrefabKept"}, // the prefab section (prefab.go) shows these
		NotAddable: []string{"Unknown"}, // the loader fills it; saving writes its contents, not it
		Overrides:  inspOverrides{p},
		OnError:    func(err error) { log.Errorf("%v", err) },
		// The selected entities are those of the document's state selKey names (they are made again when it
		// changes); while playing, the game's systems may despawn them in any frame.
		Generation: func() uint64 {
			if p.doc.PlayMode().Playing() {
				p.selGen++
			}
			return p.selGen
		},
	})
	if pr != nil {
		p.insp.RecordWidgets()
	}
	return p
}

// selKey is what the selected entities depend on: the document, its edits and entity count, the selection.
type selKey struct {
	doc         inspectorDoc
	world       *ecs.World
	ver, selVer uint64
	n           int
}

// selected returns the selected entities, made again only when the document or the selection changed (a
// selection of 100,000 entities costs a millisecond or more to look up, in every frame).
func (p *inspectorPanel) selected() []ecs.Entity {
	d := p.doc
	k := selKey{doc: d, world: d.World(), ver: d.Version(), selVer: d.Selection().Version(), n: d.Len()}
	if k != p.selKey || p.sel == nil {
		p.sel, p.selKey = d.Selected(), k
		p.selGen++
	}
	return p.sel
}

// setDoc shows another document.
func (p *inspectorPanel) setDoc(d inspectorDoc) {
	p.doc = d
	p.conf = conflictView{}
	p.sel, p.selKey = nil, selKey{}
	p.selGen++
}

// Build draws the panel's contents.
func (p *inspectorPanel) Build() {
	p.buildPrefabSection()
	p.buildConflicts()
	p.insp.Inspect(p.doc.World(), p.selected()).Build()
	p.pending = p.insp.Pending()
}

// widgets adds the panel's widgets of the last frame to the probe's map.
func (p *inspectorPanel) widgets(m map[string]probe.Widget) {
	for k, w := range p.insp.Widgets() {
		m[k] = probe.Widget{Rect: rectOf(w.Min, imgui.Vec2{X: w.Max.X - w.Min.X, Y: w.Max.Y - w.Min.Y}), Shown: w.Shown}
	}
	for k, w := range p.conf.widgets {
		m[k] = w
	}
	for k, w := range p.prefab.widgets {
		m[k] = w
	}
}

// inspEditor forwards the inspector's edits to the open document (a rename keeps the renamed rows in the
// hierarchy's search results).
type inspEditor struct{ p *inspectorPanel }

func (e inspEditor) BeginEdit(label string) { e.p.doc.BeginEdit(label) }
func (e inspEditor) SetField(es []ecs.Entity, id ecs.ComponentID, path string, v any) error {
	err := e.p.doc.SetField(es, id, path, v)
	if e.p.mark != nil {
		e.p.mark("field edit")
	}
	return err
}
func (e inspEditor) EndEdit() { e.p.doc.EndEdit() }

// EditExpr applies an expression typed into a number field, or a Randomise.
func (e inspEditor) EditExpr(es []ecs.Entity, id ecs.ComponentID, path, src string, seed uint64) error {
	d := e.p.doc
	err := d.EditField(es, d.World().ComponentInfo(id).Name, path, src, seed)
	if e.p.mark != nil {
		e.p.mark("field edit")
	}
	return err
}
func (e inspEditor) Rename(es []ecs.Entity, name string) error {
	e.p.outline.keep(es) // renamed in the inspector while the hierarchy is filtered: the rows stay
	return e.p.doc.Rename(es, name)
}
func (e inspEditor) AddComponent(es []ecs.Entity, id ecs.ComponentID) error {
	return e.p.doc.AddComponent(es, id)
}
func (e inspEditor) RemoveComponent(es []ecs.Entity, id ecs.ComponentID) error {
	return e.p.doc.RemoveComponent(es, id)
}
func (e inspEditor) ResetComponent(es []ecs.Entity, id ecs.ComponentID) error {
	return e.p.doc.ResetComponent(es, id)
}
func (e inspEditor) PasteComponent(es []ecs.Entity, id ecs.ComponentID, v any) error {
	return e.p.doc.PasteComponent(es, id, v)
}

// inspNames gives the inspector the entities' names and scene ids (the ids users see beside the names).
type inspNames struct{ p *inspectorPanel }

func (n inspNames) Name(e ecs.Entity) string { return registerText(n.p.doc.Name(e)) }
func (n inspNames) ID(e ecs.Entity) uint64   { return n.p.doc.ID(e) }

// inspOverrides is the inspector's view of prefab overrides (inspector.Overrides).
type inspOverrides struct{ p *inspectorPanel }

func (o inspOverrides) OverridePaths(es []ecs.Entity, comp string) []string {
	d, v := o.p.doc, &o.p.prefab
	if d.PlayMode().Playing() {
		return nil
	}
	if len(es) > 1 {
		k := pathsKey{ver: d.Version(), selVer: d.Selection().Version(), first: &es[0], n: len(es)}
		if d.Editing() && len(es) > bigSelection {
			k.ver = v.pathsKey.ver // during an edit of a big selection: the marks of its start (as overridesOf)
		}
		if k != v.pathsKey || v.paths == nil {
			v.pathsKey, v.paths = k, map[string][]string{}
			// Only entities of prefab instances have overrides: found once per selection and scene change, so
			// that each component's paths cost a look-up per selected part, not per selected entity.
			v.parts = d.AppendParts(v.parts[:0], es)
		}
		if out, ok := v.paths[comp]; ok {
			return out
		}
	}
	parts := es
	if len(es) > 1 {
		parts = v.parts
	}
	var out []string
	for _, e := range parts {
		for _, ov := range v.overridesOf(d, e, len(es)) {
			if ov.Component != comp || ov.Removed || slices.Contains(out, ov.Path) {
				continue
			}
			out = append(out, ov.Path) // "" for an added component
		}
	}
	if len(es) > 1 {
		v.paths[comp] = out
	}
	return out
}

func (o inspOverrides) RevertOverride(es []ecs.Entity, comp, path string) error {
	return o.p.cmds.RevertOverride(es, comp, path)
}

// ApplyOverride applies the override of the first of es that overrides comp's field path (or adds comp, for "").
func (o inspOverrides) ApplyOverride(es []ecs.Entity, comp, path string) error {
	for _, e := range es {
		for _, ov := range o.p.prefab.overridesOf(o.p.doc, e, len(es)) {
			if ov.Component == comp && !ov.Removed && (ov.Path == path || ov.Path == "" || strings.HasPrefix(ov.Path, path+".")) {
				return o.p.cmds.ApplyOverride(e, comp, path)
			}
		}
	}
	return fmt.Errorf("apply %s to prefab: none of the selected entities overrides it", strings.Trim(comp+"."+path, "."))
}
