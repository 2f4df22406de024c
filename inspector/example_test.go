package inspector_test

import (
	"fmt"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector"
	_ "github.com/voltex-editor/voltex/internal/glibcfix"
)

// logEditor prints what the inspector reports (an editor turns these into undoable commands).
type logEditor struct{ w *ecs.World }

func (l logEditor) BeginEdit(label string) { fmt.Println("begin", label) }
func (l logEditor) SetField(es []ecs.Entity, id ecs.ComponentID, path string, v any) error {
	fmt.Println("set", path, v)
	for _, e := range es {
		if err := l.w.SetField(e, id, path, v); err != nil {
			return err
		}
	}
	return nil
}
func (l logEditor) EndEdit()                                                { fmt.Println("end") }
func (l logEditor) Rename([]ecs.Entity, string) error                       { return nil }
func (l logEditor) AddComponent([]ecs.Entity, ecs.ComponentID) error        { return nil }
func (l logEditor) RemoveComponent([]ecs.Entity, ecs.ComponentID) error     { return nil }
func (l logEditor) ResetComponent([]ecs.Entity, ecs.ComponentID) error      { return nil }
func (l logEditor) PasteComponent([]ecs.Entity, ecs.ComponentID, any) error { return nil }

// The panel is built every frame inside a window; here in an ImGui context without a window, as
// the tests do.
func Example() {
	type Light struct {
		On        bool    `json:"on"`
		Intensity float32 `json:"intensity" voltex:"min=0,max=10"`
	}
	w := ecs.NewWorld()
	ecs.Register[Light](w)
	e := w.Spawn(Light{On: true, Intensity: 2}, ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}})
	selection := []ecs.Entity{e}

	ctx := imgui.CreateContext()
	defer imgui.DestroyContextV(ctx)
	io := imgui.CurrentIO()
	io.SetIniFilename("")
	io.SetDisplaySize(imgui.Vec2{X: 400, Y: 600})
	io.Fonts().GetTextureDataAsRGBA32()

	p := inspector.New(logEditor{w}, inspector.Options{})
	frame := func() {
		io.SetDeltaTime(1.0 / 60)
		imgui.NewFrame()
		imgui.SetNextWindowPos(imgui.Vec2{})
		imgui.SetNextWindowSize(imgui.Vec2{X: 400, Y: 600})
		imgui.Begin("Inspector")
		p.Inspect(w, selection).Build() // in the editor: g.Window("Inspector").Layout(p.Inspect(w, sel))
		imgui.End()
		imgui.Render()
	}
	frame()
	for _, id := range p.Selection().Shared() {
		fmt.Println(w.ComponentInfo(id).Name)
	}
	// Output:
	// Transform
	// GlobalTransform
	// Light
}
