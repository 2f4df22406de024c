package serialize

import (
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// kinds is a test component with a field of every kind the codec handles.
type kinds struct {
	B      bool
	I8     int8
	I      int
	U16    uint16
	U64    uint64
	F64    float64
	S      string
	Arr    [2]int32
	Sl     []float32
	Nested struct {
		A    float32  `json:"a"`
		Tags []string `json:"tags"`
	} `json:"nested"`
	Ref  ecs.Entity   `json:"ref"`
	Refs []ecs.Entity `json:"refs"`
	V    mgl32.Vec3   `json:"v" voltex:"min=-10,max=10"`
}

// locked is an editor-only tag: saved, not exported.
type locked struct{}

func (locked) EditorOnly() {}

// selected is a transient tag: never saved.
type selected struct{}

func (selected) Transient() {}

// testWorld makes worlds with the scene components and the test ones.
func testWorld() *ecs.World {
	w := scene.NewWorld()
	ecs.Register[kinds](w, ecs.WithName("Kinds"))
	ecs.Register[locked](w, ecs.WithName("Locked"), ecs.WithStorage(ecs.SparseSet))
	ecs.Register[selected](w, ecs.WithName("Selected"), ecs.WithStorage(ecs.SparseSet))
	return w
}
