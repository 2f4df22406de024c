package editor

import (
	"fmt"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/workspace"
)

// Merge conflicts in the editor: a scene `voltex-editor merge` could not merge cleanly keeps ours and
// records base, ours and theirs (doc.Document.Conflicts). The console lists them when the scene
// opens, the hierarchy marks conflicted entities ([!] in red), and the Inspector shows the scene's
// and the active entity's conflicts above the components, each with Use Ours / Use Theirs / Keep
// Edited (after editing the value by hand). Resolving is an undoable step; once none is left, a save
// writes the scene without records and `validate` passes again.

// conflictView is the Inspector's conflict section's state.
type conflictView struct {
	count   int                     // unresolved conflicts of the document, as of version
	version uint64                  // document version count was taken at
	counted bool                    // count is set (a new document starts a new view)
	widgets map[string]probe.Widget // buttons of the last frame, for the probe
}

var conflictRed = imgui.Vec4{X: 1, Y: 0.35, Z: 0.3, W: 1}

// total returns the number of unresolved conflicts (recounted only when the document changed), and
// whether the last one was just resolved.
func (v *conflictView) total(d inspectorDoc) (n int, allResolved bool) {
	if !v.counted || v.version != d.Version() {
		had := v.count
		v.counted, v.version, v.count = true, d.Version(), len(d.Conflicts().List())
		allResolved = had > 0 && v.count == 0
	}
	return v.count, allResolved
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// buildConflicts draws the conflict section at the top of the Inspector: the scene's conflicts and
// the active entity's, or a line saying how many are left elsewhere.
func (p *inspectorPanel) buildConflicts() {
	v := &p.conf
	clear(v.widgets)
	n, allResolved := v.total(p.doc)
	if allResolved {
		p.log.Infof("all merge conflicts are resolved; save to write the scene without them")
	}
	if n == 0 {
		return
	}
	var e ecs.Entity
	var items []scene.MergeConflict
	if act, ok := p.doc.Selection().Active(); ok {
		e, items = act, p.doc.Conflicts().Of(act)
	}
	sceneItems := p.doc.Conflicts().Scene()
	textWrapped(conflictRed, fmt.Sprintf("%d unresolved merge %s in this scene", n, plural(n, "conflict", "conflicts")))
	if len(items) == 0 && len(sceneItems) == 0 {
		textDisabled("Select an entity marked [!] in the hierarchy.")
	}
	if imgui.SmallButton("Select next conflicted entity") {
		p.selectNextConflict()
	}
	editable := !p.doc.PlayMode().Playing()
	for _, c := range sceneItems {
		p.conflictItem(0, c, editable)
	}
	for _, c := range items {
		p.conflictItem(p.doc.ID(e), c, editable)
	}
	imgui.Separator()
}

// conflictItem draws one conflict with its three values and the buttons that resolve it.
func (p *inspectorPanel) conflictItem(id uint64, c scene.MergeConflict, editable bool) {
	imgui.PushIDStr(fmt.Sprintf("conflict%d:%s", id, c.Path))
	defer imgui.PopID()
	textColored(conflictRed, "[!] "+workspace.ConflictLabel(c.Path))
	p.conf.record("conflict:"+c.Path, c.Path)
	if imgui.BeginTableV("##values", 2, imgui.TableFlagsSizingStretchProp, imgui.Vec2{}, 0) {
		imgui.TableSetupColumnV("##side", imgui.TableColumnFlagsWidthFixed, 60, 0)
		imgui.TableSetupColumnV("##value", imgui.TableColumnFlagsWidthStretch, 1, 0)
		for _, row := range [][2]string{{"base", c.Base}, {"ours", c.Ours}, {"theirs", c.Theirs}} {
			imgui.TableNextRow()
			imgui.TableNextColumn()
			textDisabled(row[0])
			imgui.TableNextColumn()
			textWrapped(*imgui.StyleColorVec4(imgui.ColText), workspace.ConflictValue(p.doc, c.Path, row[1]))
		}
		imgui.EndTable()
	}
	imgui.BeginDisabledV(!editable)
	for i, how := range []doc.Resolution{doc.UseOurs, doc.UseTheirs, doc.KeepEdited} {
		if i > 0 {
			imgui.SameLine()
		}
		if imgui.Button(how.String()) {
			if err := p.doc.Conflicts().Resolve(id, c.Path, how); err != nil {
				// The document's error may already start with what was pressed ("Use Theirs place: …").
				msg := strings.TrimPrefix(err.Error(), how.String()+" "+c.Path+": ")
				p.log.Errorf("%s %s: %s", how, workspace.ConflictLabel(c.Path), msg)
			} else {
				p.log.Infof("resolved %s of %s: %s", workspace.ConflictLabel(c.Path), workspace.ConflictOwner(p.doc, id), how)
			}
		}
		p.conf.record("conflict:"+c.Path+":"+how.String(), "")
	}
	imgui.EndDisabled()
	imgui.Spacing()
}

// record keeps the last item's rectangle for the probe.
func (v *conflictView) record(key, shown string) {
	if v.widgets == nil {
		v.widgets = map[string]probe.Widget{}
	}
	v.widgets[key] = probe.Widget{Rect: rectOf(imgui.ItemRectMin(), imgui.ItemRectSize()), Shown: shown}
}

// selectNextConflict selects the next entity (by id, after the active one) that has conflicts.
func (p *inspectorPanel) selectNextConflict() {
	cur := uint64(0)
	if e, ok := p.doc.Selection().Active(); ok {
		cur = p.doc.ID(e)
	}
	var first uint64
	for _, c := range p.doc.Conflicts().List() {
		if c.Entity == 0 {
			continue
		}
		if first == 0 {
			first = c.Entity
		}
		if c.Entity > cur {
			first = c.Entity
			break
		}
	}
	if e, ok := p.doc.Entity(first); ok {
		p.doc.Selection().Select(e)
		p.outline.show(e)
	}
}
