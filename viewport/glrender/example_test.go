package glrender_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/glrender"
)

// Render a cube offscreen (no display needed) and look at the middle pixel.
func ExampleRenderToImage() {
	cube, _ := assets.Builtin(assets.BuiltinCube)
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, cube)
	dl.Set(assets.BuiltinCube, viewport.Instance{ID: 1, World: mgl32.Translate3D(0, 0.5, 0), Color: [4]float32{1, 0, 0, 1}})
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), 4.0/3)

	img, err := glrender.RenderToImage(dl, cam, 64, 48)
	if err != nil {
		fmt.Println(err)
		return
	}
	c := img.RGBAAt(32, 24)
	fmt.Println(img.Bounds().Size(), "red cube in the middle:", c.R > 100 && c.G < 60 && c.B < 60)
	// Output:
	// (64,48) red cube in the middle: true
}

// Inside an existing context (the editor's, after gl.Init; here a headless
// one): render, then pick the entity under a pixel.
func ExampleRenderer_ReadID() {
	ctx, err := glrender.NewHeadless()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	cube, _ := assets.Builtin(assets.BuiltinCube)
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, cube)
	dl.Set(assets.BuiltinCube, viewport.Instance{ID: 42, World: mgl32.Ident4(), Color: [4]float32{1, 1, 1, 1}})
	cam := viewport.Camera{Yaw: 0, Pitch: 0, Distance: 4, FovY: 60, Near: 0.1, Far: 100}
	_ = ctx.Do(func() {
		r, err := glrender.New()
		if err != nil {
			fmt.Println(err)
			return
		}
		defer r.Delete()
		_ = r.Resize(200, 100)
		if err := r.Render(dl, cam); err != nil {
			fmt.Println(err)
			return
		}
		s := r.Stats()
		fmt.Println("draw calls:", s.DrawCalls, "instances:", s.Instances, "triangles:", s.Triangles)
		fmt.Println("id at the centre:", r.ReadID(100, 50), "id in the corner:", r.ReadID(2, 2))
	})
	// Output:
	// draw calls: 1 instances: 1 triangles: 12
	// id at the centre: 42 id in the corner: 0
}
