package editor

import (
	"image"
	"path/filepath"
	"strconv"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/editor/probe"
)

// assetList is the asset registry as the Assets panel reads it (*assets.Registry implements it).
type assetList interface {
	Root() string
	Scan() error
	List() []string
	Mesh(ref string) (*assets.Mesh, error)
}

// assetsHost is what the Assets panel needs of the editor: the prefab files to list, whether the scene can be
// edited, and placing one beside the scene (Place).
type assetsHost interface {
	PrefabList() []string
	Editable() bool
	PlacePrefab(path string)
	// MeshThumbnail and PrefabThumbnail return a picture of a mesh reference or a prefab file and its version,
	// or nil while it is being made (in the background: they never wait) or when there is none.
	MeshThumbnail(ref string) (*image.RGBA, uint64)
	PrefabThumbnail(path string) (*image.RGBA, uint64)
}

// assetsPanel lists the meshes scenes can use — the built-ins, the files in use and the mesh files (.obj, .gltf, .glb) found in the
// scene's folder, with their sizes and any load error; drag one into the viewport to make an entity with it — and
// below them the scene files that can be placed as prefabs (Place, or drag into the viewport or onto the
// hierarchy).
type assetsPanel struct {
	reg     assetList
	host    assetsHost
	drag    *prefabDrag
	log     logger
	probe   *probe.State
	widgets map[string]probe.Widget // the prefab list's items of the last frame, for the probe
	thumbs  thumbTextures
}

var _ g.Widget = (*assetsPanel)(nil)

// Build draws the panel's contents.
func (p *assetsPanel) Build() {
	clear(p.widgets)
	if imgui.Button("Rescan folder") {
		if err := p.reg.Scan(); err != nil {
			p.log.Warnf("scanning %s: %v", p.reg.Root(), err)
		}
	}
	imgui.SameLine()
	textDisabled(registerText(p.reg.Root()))
	flags := imgui.TableFlagsRowBg | imgui.TableFlagsBordersInnerV | imgui.TableFlagsScrollY | imgui.TableFlagsResizable
	// The prefabs below the meshes get the room they need.
	if imgui.BeginTableV("##assets", 4, flags, imgui.Vec2{Y: -p.prefabsHeight()}, 0) {
		p.buildMeshes()
		imgui.EndTable()
	}
	p.buildPrefabs()
}

// buildMeshes fills the mesh table.
func (p *assetsPanel) buildMeshes() {
	imgui.TableSetupColumnV("Mesh", imgui.TableColumnFlagsWidthStretch, 0, 0)
	imgui.TableSetupColumnV("Vertices", imgui.TableColumnFlagsWidthFixed, 80, 0)
	imgui.TableSetupColumnV("Triangles", imgui.TableColumnFlagsWidthFixed, 80, 0)
	imgui.TableSetupColumnV("Status", imgui.TableColumnFlagsWidthStretch, 0, 0)
	imgui.TableHeadersRow()
	for _, ref := range p.reg.List() {
		imgui.TableNextRow()
		imgui.TableNextColumn()
		p.thumb("mesh:"+ref, func() (*image.RGBA, uint64) { return p.host.MeshThumbnail(ref) })
		imgui.SelectableBool(registerText(ref))
		p.record("mesh:" + ref)
		if imgui.IsItemHovered() && p.host.Editable() {
			tooltip("Drag into the viewport to make an entity with this mesh")
		}
		if p.host.Editable() {
			p.drag.source(meshPayload, ref, registerText(ref))
		}
		m, err := p.reg.Mesh(ref)
		imgui.TableNextColumn()
		if m != nil && !m.Placeholder {
			text(strconv.Itoa(m.VertexCount()))
			imgui.TableNextColumn()
			text(strconv.Itoa(m.TriangleCount()))
		} else {
			imgui.TableNextColumn()
		}
		imgui.TableNextColumn()
		if err != nil {
			textColored(errorColor, registerText(err.Error()))
		} else {
			imgui.TextDisabled("ok")
		}
	}
}

// prefabsHeight is the height the prefab list takes (up to 8 rows; more scroll).
func (p *assetsPanel) prefabsHeight() float32 {
	n := min(max(len(p.host.PrefabList()), 1), 8)
	return float32(n+1)*imgui.FrameHeightWithSpacing() + imgui.CurrentStyle().ItemSpacing().Y*2
}

// buildPrefabs lists the scene files that can be placed as prefabs: drag one into the viewport or onto the
// hierarchy, or press Place (beside what the scene holds).
func (p *assetsPanel) buildPrefabs() {
	p.drag.endIfIdle()
	files := p.host.PrefabList()
	imgui.Spacing()
	textDisabled("Prefabs (scene files): drag into the viewport or the hierarchy, or Place")
	if len(files) == 0 {
		textDisabled("  none in this folder")
		return
	}
	root, _ := filepath.Abs(p.reg.Root())
	if !imgui.BeginChildStrV("##prefabs", imgui.Vec2{}, 0, 0) {
		imgui.EndChild()
		return
	}
	defer imgui.EndChild()
	for i, path := range files {
		imgui.PushIDInt(int32(i))
		rel, err := filepath.Rel(root, path)
		if err != nil {
			rel = path
		}
		rel = filepath.ToSlash(rel)
		if imgui.SmallButton("Place") && p.host.Editable() {
			p.host.PlacePrefab(path)
		}
		p.record("place:" + rel)
		imgui.SameLine()
		p.thumb("prefab:"+rel, func() (*image.RGBA, uint64) { return p.host.PrefabThumbnail(path) })
		imgui.SelectableBool(registerText(rel))
		p.record("asset:" + rel)
		if p.host.Editable() {
			p.drag.source(prefabPayload, path, registerText(rel))
		}
		imgui.PopID()
	}
}

// record notes the last item for the probe (under Inspector, with the prefab section's buttons).
func (p *assetsPanel) record(name string) {
	if p.probe == nil {
		return
	}
	if p.widgets == nil {
		p.widgets = map[string]probe.Widget{}
	}
	p.widgets[name] = probe.Widget{Rect: rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())}
}

// thumb draws the thumbnail of an asset as an icon as high as a line of text (the rows keep their height; the
// picture twice its size in a tooltip) and leaves the cursor beside it; without a picture yet, or without
// textures (tests), it draws nothing.
func (p *assetsPanel) thumb(name string, picture func() (*image.RGBA, uint64)) {
	tex := p.thumbs.get(name, picture)
	if tex == 0 {
		return
	}
	side := imgui.TextLineHeight()
	imgui.ImageV(tex, imgui.Vec2{X: side, Y: side}, imgui.Vec2{}, imgui.Vec2{X: 1, Y: 1})
	p.record("thumb:" + name)
	if imgui.IsItemHovered() {
		imgui.BeginTooltip()
		imgui.Image(tex, imgui.Vec2{X: 2 * workspaceThumbnailSize, Y: 2 * workspaceThumbnailSize})
		imgui.EndTooltip()
	}
	imgui.SameLine()
}
