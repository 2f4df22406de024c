package query

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// The components of the tests: an enum, numbers of several sizes, text, a reference, a vector.
type team int32

const (
	red team = iota
	blue
)

func (team) EnumValues() []ecs.EnumValue {
	return []ecs.EnumValue{{Name: "Red", Value: 0}, {Name: "Blue", Value: 1}}
}

type unit struct {
	Team   team       `json:"team"`
	Speed  float32    `json:"speed"`
	Level  int16      `json:"level"`
	Gold   uint8      `json:"gold"`
	Tag    string     `json:"tag"`
	Target ecs.Entity `json:"target"`
	Alive  bool       `json:"alive"`
	Home   mgl32.Vec3 `json:"home"`
}

type health struct {
	Current float64 `json:"current"`
	Max     float64 `json:"max"`
}

type frozen struct{}

func newWorld() *ecs.World {
	w := scene.NewWorld()
	ecs.Register[unit](w, ecs.WithName("Unit"))
	ecs.Register[health](w, ecs.WithName("Health"))
	ecs.Register[frozen](w, ecs.WithName("Frozen"), ecs.WithStorage(ecs.SparseSet))
	return w
}

// spawn makes a named entity with a scene id and the given components.
func spawn(w *ecs.World, id uint64, name string, comps ...any) ecs.Entity {
	return w.Spawn(append([]any{scene.Name{Value: name}, scene.SceneID{ID: id, Order: float64(id)}}, comps...)...)
}
