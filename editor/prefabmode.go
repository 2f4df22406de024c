package editor

import (
	"path/filepath"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
)

// prefabStep is one step into prefab mode: the prefab file opened from an instance in the scene file.
type prefabStep struct {
	scene, prefab string // absolute paths
	back          string // the scene's path as the editor showed it (Back to Scene opens it)
	entered       bool   // the prefab has been opened (until then the scene is still the open one)
}

// prefabTrail is prefab mode's breadcrumb: the scenes the prefabs being edited were opened from, outermost
// first. It follows what is open: opening the prefab enters its step, opening the step's scene again (Back)
// leaves it, and opening anything else ends prefab mode.
type prefabTrail struct {
	steps []prefabStep
}

// push records that the prefab at prefab is being opened from the scene at scene (paths as the editor shows them).
func (t *prefabTrail) push(scene, prefab string) {
	t.steps = append(t.steps, prefabStep{scene: absPath(scene), prefab: absPath(prefab), back: scene})
}

// sync follows the open scene's path.
func (t *prefabTrail) sync(path string) {
	for len(t.steps) > 0 {
		s := &t.steps[len(t.steps)-1]
		switch {
		case path == s.prefab:
			s.entered = true
			return
		case path == s.scene && !s.entered:
			return // the prefab is being opened (or the user cancelled: the next open decides)
		case path == s.scene:
			t.steps = t.steps[:len(t.steps)-1] // back in the scene: the step before, if any, is where we are
		default:
			t.steps = t.steps[:0] // another scene was opened
			return
		}
	}
}

// current returns the step being edited: the prefab open, entered from its scene.
func (t *prefabTrail) current() (prefabStep, bool) {
	if len(t.steps) == 0 || !t.steps[len(t.steps)-1].entered {
		return prefabStep{}, false
	}
	return t.steps[len(t.steps)-1], true
}

// crumbs is the breadcrumb's text: the file names from the outermost scene to the prefab open.
func (t *prefabTrail) crumbs() string {
	var names []string
	for i, s := range t.steps {
		if i == 0 {
			names = append(names, filepath.Base(s.scene))
		}
		names = append(names, filepath.Base(s.prefab))
	}
	return strings.Join(names, " > ")
}

// prefabOf returns the path of the prefab file of the instance e belongs to, and whether it is one the
// editor can open (a scene file; a glTF model is changed where it was made).
func prefabOf(d *doc.Document, e ecs.Entity) (string, bool) {
	inst, ok := d.Prefabs().InstanceOf(e)
	if !ok {
		return "", false
	}
	pf, ok := ecs.NewMap[scene.Prefab](d.World()).TryGet(inst)
	if !ok || pf.Path == "" {
		return "", false
	}
	path := pf.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(d.Path()), path) // relative as the scene's path is
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".gltf", ".glb":
		return path, false
	}
	return path, true
}

// trailBar draws the breadcrumb with Back to Scene above the hierarchy while a prefab is being edited.
type trailBar struct {
	trail *prefabTrail
	back  func(scene string)
	probe *probe.State
}

var _ g.Widget = (*trailBar)(nil)

// Build draws the bar (nothing outside prefab mode).
func (b *trailBar) Build() {
	step, ok := b.trail.current()
	if b.probe != nil {
		b.probe.Breadcrumb, b.probe.BackToScene = "", probe.Rect{}
	}
	if !ok {
		return
	}
	if imgui.Button("< Back to Scene") {
		b.back(step.back)
	}
	if b.probe != nil {
		b.probe.Breadcrumb, b.probe.BackToScene = b.trail.crumbs(), rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
	}
	imgui.SameLine()
	textColored(prefabBlue, registerText(b.trail.crumbs()))
}
