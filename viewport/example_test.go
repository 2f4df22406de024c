package viewport_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/viewport"
)

// A click at the centre of the viewport casts a ray straight through the
// pivot; the CPU picker finds the cube there.
func ExampleCamera_Ray() {
	cam := viewport.Camera{Yaw: 0, Pitch: 0, Distance: 10, FovY: 60, Near: 0.1, Far: 100}
	r := cam.Ray(320, 240, 640, 480)
	fmt.Printf("origin %.1f dir %.1f\n", r.Origin, r.Dir)

	dl := viewport.NewDrawList()
	dl.Set("builtin:cube", viewport.Instance{ID: 7, World: mgl32.Ident4()})
	hit, ok := dl.Pick(r)
	fmt.Printf("hit entity %d at distance %.1f: %v\n", hit.ID, hit.T, ok)
	// Output:
	// origin [0.0 0.0 9.9] dir [0.0 0.0 -1.0]
	// hit entity 7 at distance 9.4: true
}

// Instances are grouped by place into chunks (a renderer culls and draws chunk by chunk); only the changed
// instance is re-uploaded.
func ExampleDrawList() {
	dl := viewport.NewDrawList()
	for id := uint32(1); id <= 1000; id++ { // a row of cubes 0.1 apart along X: 100 units, 7 cells of 16
		dl.Set("builtin:cube", viewport.Instance{ID: id, World: mgl32.Translate3D(float32(id)/10, 0, 0)})
	}
	b := dl.Batch("builtin:cube")
	c := b.Chunks()[2]
	fmt.Println("chunks:", len(b.Chunks()), "the third holds", c.Len(), "cubes of cell", c.Cell(), "to upload:", c.Dirty())
	for _, c := range b.Chunks() {
		c.ClearDirty()
	}

	dl.SetWorld(330, mgl32.Translate3D(33, 3, 0)) // still in cell 2
	fmt.Println("after one edit:", c.Dirty(), c.DirtyCount()*viewport.InstanceSize, "bytes")
	// Output:
	// chunks: 7 the third holds 160 cubes of cell [2 0 0] to upload: [{0 160}]
	// after one edit: [{10 11}] 88 bytes
}

// An idle viewport renders once, then reuses its image until something it
// shows changes.
func ExampleRedrawPolicy() {
	var p viewport.RedrawPolicy
	s := viewport.FrameState{SceneTick: 1, Camera: viewport.DefaultCamera(), Width: 800, Height: 600}
	for range 3 {
		fmt.Println(p.Decide(s))
	}
	s.Camera.Orbit(5, 0)
	s.SceneTick++
	fmt.Println(p.Decide(s))
	fmt.Println("renders:", p.Renders(), "skips:", p.Skips())
	// Output:
	// first
	// none
	// none
	// scene|camera
	// renders: 2 skips: 2
}

// Framing a box keeps the view direction and fits the box on screen.
func ExampleCamera_Frame() {
	cam := viewport.DefaultCamera()
	box := viewport.AABB{Min: mgl32.Vec3{0, 0, 0}, Max: mgl32.Vec3{28.5, 1, 28.5}}
	cam.Frame(box, 16.0/9)
	fmt.Printf("pivot %.2f distance %.1f yaw %.0f pitch %.0f\n", cam.Pivot, cam.Distance, cam.Yaw, cam.Pitch)
	// Output:
	// pivot [14.25 0.50 14.25] distance 34.0 yaw 30 pitch -25
}
