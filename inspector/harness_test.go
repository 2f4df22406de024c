package inspector

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields"
	_ "github.com/voltex-editor/voltex/internal/glibcfix"
)

// fakeEditor records what the inspector reports and applies it to the world, as the editor's
// commands would, so that the next frames show the result.
type fakeEditor struct {
	t      testing.TB
	w      *ecs.World
	names  map[ecs.Entity]string
	calls  []string // "begin:label", "set:path=value", "end", "rename:x", "add:Name", ...
	sets   []setCall
	open   bool
	steps  int // completed undo steps
	fail   error
	seed   uint64   // of the last EditExpr
	errors []string // protocol violations
}

type setCall struct {
	es   []ecs.Entity
	id   ecs.ComponentID
	path string
	v    any
}

func (f *fakeEditor) violation(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *fakeEditor) BeginEdit(label string) {
	if f.open {
		f.violation("BeginEdit(%q) while an edit is open", label)
	}
	f.open = true
	f.calls = append(f.calls, "begin:"+label)
}

func (f *fakeEditor) SetField(es []ecs.Entity, id ecs.ComponentID, path string, v any) error {
	if !f.open {
		f.violation("SetField(%s) outside BeginEdit/EndEdit", path)
	}
	f.calls = append(f.calls, fmt.Sprintf("set:%s=%v", path, v))
	f.sets = append(f.sets, setCall{append([]ecs.Entity(nil), es...), id, path, v})
	if f.fail != nil {
		return f.fail
	}
	for _, e := range es {
		if err := f.w.SetField(e, id, path, v); err != nil {
			f.violation("world rejected SetField(%s, %v): %v", path, v, err)
			return err
		}
	}
	return nil
}

func (f *fakeEditor) EndEdit() {
	if !f.open {
		f.violation("EndEdit without BeginEdit")
	}
	f.open = false
	f.steps++
	f.calls = append(f.calls, "end")
}

func (f *fakeEditor) Rename(es []ecs.Entity, name string) error {
	f.calls = append(f.calls, "rename:"+name)
	for _, e := range es {
		f.names[e] = name
	}
	return nil
}

func (f *fakeEditor) AddComponent(es []ecs.Entity, id ecs.ComponentID) error {
	f.calls = append(f.calls, "add:"+f.w.ComponentInfo(id).Name)
	for _, e := range es {
		if !f.w.Has(e, id) {
			if err := f.w.Add(e, id, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

func (f *fakeEditor) RemoveComponent(es []ecs.Entity, id ecs.ComponentID) error {
	f.calls = append(f.calls, "remove:"+f.w.ComponentInfo(id).Name)
	for _, e := range es {
		if err := f.w.Remove(e, id); err != nil {
			return err
		}
	}
	return nil
}

func (f *fakeEditor) ResetComponent(es []ecs.Entity, id ecs.ComponentID) error {
	f.calls = append(f.calls, "reset:"+f.w.ComponentInfo(id).Name)
	for _, e := range es {
		if err := f.w.Set(e, id, f.w.ComponentInfo(id).Schema.Default); err != nil {
			return err
		}
	}
	return nil
}

func (f *fakeEditor) PasteComponent(es []ecs.Entity, id ecs.ComponentID, v any) error {
	f.calls = append(f.calls, "paste:"+f.w.ComponentInfo(id).Name)
	for _, e := range es {
		if err := f.w.Set(e, id, v); err != nil {
			return err
		}
	}
	return nil
}

func (f *fakeEditor) Name(e ecs.Entity) string { return f.names[e] }

// EditExpr records the expression; the world is left as it is (the editor's queries compute it).
func (f *fakeEditor) EditExpr(es []ecs.Entity, id ecs.ComponentID, path, src string, seed uint64) error {
	f.seed = seed
	if !f.open {
		f.violation("EditExpr(%s) outside BeginEdit/EndEdit", path)
	}
	f.calls = append(f.calls, fmt.Sprintf("expr:%s %s %d", path, src, len(es)))
	return f.fail
}

type assetList []string

func (a assetList) List() []string { return a }

// harness runs the panel in an ImGui context without a window: frames are built and rendered to
// draw lists that nobody draws, and input is fed through ImGui's IO as a backend would.
type harness struct {
	t     testing.TB
	ctx   *imgui.Context
	w     *ecs.World
	ed    *fakeEditor
	p     *Panel
	sel   []ecs.Entity
	now   float64
	size  imgui.Vec2
	mouse imgui.Vec2
}

func newHarness(t testing.TB, w *ecs.World) *harness {
	t.Helper()
	ctx := imgui.CreateContext()
	io := imgui.CurrentIO()
	io.SetIniFilename("")
	size := imgui.Vec2{X: 700, Y: 2600}
	io.SetDisplaySize(size)
	io.Fonts().GetTextureDataAsRGBA32() // builds the font atlas; no texture is uploaded
	h := &harness{t: t, ctx: ctx, w: w, size: size}
	h.ed = &fakeEditor{t: t, w: w, names: map[ecs.Entity]string{}}
	h.p = New(h.ed, Options{
		Names:  h.ed,
		Assets: assetList{"cone", "cube", "sphere"},
		Now:    func() float64 { return h.now },
	})
	h.p.debug = &debugInfo{}
	t.Cleanup(func() {
		imgui.DestroyContextV(ctx)
		if len(h.ed.errors) > 0 {
			t.Errorf("Editor protocol violations:\n%s", strings.Join(h.ed.errors, "\n"))
		}
	})
	return h
}

// frame builds and renders one frame.
func (h *harness) frame() {
	imgui.SetCurrentContext(h.ctx)
	io := imgui.CurrentIO()
	io.SetDeltaTime(1.0 / 60)
	h.now += 1.0 / 60
	if h.p.debug != nil {
		h.p.debug.reset()
	}
	h.w.PropagateTransforms() // as the editor does before building a frame
	imgui.NewFrame()
	imgui.SetNextWindowPos(imgui.Vec2{})
	imgui.SetNextWindowSize(h.size)
	imgui.BeginV("Inspector", nil, imgui.WindowFlagsNoSavedSettings|imgui.WindowFlagsNoMove|imgui.WindowFlagsNoResize|
		imgui.WindowFlagsNoCollapse)
	h.p.Inspect(h.w, h.sel).Build()
	imgui.End()
	imgui.Render()
}

func (h *harness) frames(n int) {
	for range n {
		h.frame()
	}
}

func (h *harness) moveTo(pos imgui.Vec2) {
	h.mouse = pos
	imgui.CurrentIO().AddMousePosEvent(pos.X, pos.Y)
	h.frame()
}

func (h *harness) button(b int32, down bool) {
	imgui.CurrentIO().AddMouseButtonEvent(b, down)
	h.frame()
}

func (h *harness) click(pos imgui.Vec2) { h.clickButton(pos, 0) }

func (h *harness) clickButton(pos imgui.Vec2, b int32) {
	h.moveTo(pos)
	h.button(b, true)
	h.button(b, false)
	h.frame()
}

// drag presses at from, moves dx pixels right in steps, and releases.
func (h *harness) drag(from imgui.Vec2, dx float32, steps int) {
	h.moveTo(from)
	h.button(0, true)
	for i := 1; i <= steps; i++ {
		h.moveTo(imgui.Vec2{X: from.X + dx*float32(i)/float32(steps), Y: from.Y})
	}
	h.button(0, false)
	h.frame()
}

func (h *harness) key(k imgui.Key) {
	imgui.CurrentIO().AddKeyEvent(k, true)
	h.frame()
	imgui.CurrentIO().AddKeyEvent(k, false)
	h.frame()
}

// typeText selects all the text of the active field and types s.
func (h *harness) typeText(s string) {
	io := imgui.CurrentIO()
	io.AddKeyEvent(imgui.ModCtrl, true)
	io.AddKeyEvent(imgui.KeyA, true)
	h.frame()
	io.AddKeyEvent(imgui.KeyA, false)
	io.AddKeyEvent(imgui.ModCtrl, false)
	h.frame()
	io.AddInputCharactersUTF8(s)
	h.frame()
}

// typeText2 types s at the cursor.
func (h *harness) typeText2(s string) {
	imgui.CurrentIO().AddInputCharactersUTF8(s)
	h.frame()
}

func center(it debugItem) imgui.Vec2 {
	return imgui.Vec2{X: (it.min.X + it.max.X) / 2, Y: (it.min.Y + it.max.Y) / 2}
}

// widget returns the debug record of the widget of node ord of component id.
func (h *harness) widget(id ecs.ComponentID, ord int) debugItem {
	h.t.Helper()
	it, ok := h.p.debug.byKey[editKey{id: id, ord: ord, set: true}]
	if !ok {
		h.t.Fatalf("no widget for component %d node %d in the last frame", id, ord)
	}
	return it
}

func (h *harness) named(name string) debugItem {
	h.t.Helper()
	it, ok := h.p.debug.byName[name]
	if !ok {
		var names []string
		for n := range h.p.debug.byName {
			names = append(names, n)
		}
		h.t.Fatalf("no item %q in the last frame (have %v)", name, names)
	}
	return it
}

// ord returns the node ordinal of a static field path ("speed", "inner.weight") of component c.
func ord(t testing.TB, c *fields.Component, v reflect.Value, path string) int {
	t.Helper()
	o := 1
	fs := c.Fields
	segs := strings.Split(path, ".")
	for si, seg := range segs {
		found := false
		for i := range fs {
			f := &fs[i]
			fv := v.Field(f.Index)
			if f.JSONName == seg {
				if si == len(segs)-1 {
					return o
				}
				o++
				fs, v, found = f.Fields, fv, true
				break
			}
			o += f.Nodes(fv)
		}
		if !found {
			t.Fatalf("no field %q", path)
		}
	}
	return o
}

// callsSince returns the calls recorded after index i.
func (h *harness) callsSince(i int) []string { return h.ed.calls[i:] }

var errRejected = errors.New("rejected by the editor")
