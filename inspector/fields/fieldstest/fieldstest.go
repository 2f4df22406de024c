package fieldstest

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
)

// Mode is an enum: an integer type whose values have names.
type Mode int32

// The Mode values.
const (
	Idle Mode = iota
	Walking
	Running
)

// EnumValues names the Mode values.
func (Mode) EnumValues() []ecs.EnumValue {
	return []ecs.EnumValue{{Name: "Idle", Value: 0}, {Name: "Walking", Value: 1}, {Name: "Running", Value: 2}}
}

// Inner is a nested struct.
type Inner struct {
	Label  string     `json:"label"`
	Weight float32    `json:"weight" voltex:"min=0,max=1"`
	Offset mgl32.Vec3 `json:"offset"`
}

// Everything has one field of every kind the inspector edits, with every hint.
type Everything struct {
	Enabled  bool       `json:"enabled" voltex:"tooltip='Turns it on, 100% of the time'"`
	Count    int32      `json:"count" voltex:"min=-5,max=5"`
	Small    int8       `json:"small"`
	Big      int64      `json:"big"`
	Flags    uint16     `json:"flags" voltex:"max=1000"`
	Huge     uint64     `json:"huge"`
	Speed    float32    `json:"speed" voltex:"min=0,max=10,step=0.05"`
	Precise  float64    `json:"precise"`
	Angle    float32    `json:"angle" voltex:"degrees"`
	Title    string     `json:"title"`
	Notes    string     `json:"notes" voltex:"multiline"`
	Mode     Mode       `json:"mode"`
	Offset   mgl32.Vec2 `json:"offset"`
	Position mgl32.Vec3 `json:"position"`
	Rotation mgl32.Vec3 `json:"rotation" voltex:"degrees"`
	Plane    [4]float64 `json:"plane"`
	Tint     mgl32.Vec4 `json:"tint" voltex:"color"`
	RGB      [3]uint8   `json:"rgb" voltex:"color"`
	Mesh     string     `json:"mesh" voltex:"asset"`
	Target   ecs.Entity `json:"target"`
	Inner    Inner      `json:"inner"`
	Weights  [3]int16   `json:"weights" voltex:"min=0,max=100"`
	Tags     []string   `json:"tags"`
	Points   []Inner    `json:"points"`
	Basis    mgl32.Mat4 `json:"basis" voltex:"readonly"`
	Secret   int        `json:"secret" voltex:"hidden"`
	Fixed    float32    `json:"fixed" voltex:"readonly"`
	Lookup   map[string]int
	Skipped  int `json:"-"`
	//lint:ignore U1000 an unexported field, which the inspector must not show
	private int
}

// Default is the value Everything components start with.
func (Everything) Default() Everything {
	return Everything{Enabled: true, Speed: 1, Tint: mgl32.Vec4{1, 1, 1, 1}, Basis: mgl32.Ident4(), Mesh: "cube"}
}

// Marker is a tag component (no fields).
type Marker struct{}

// Register registers Everything and Marker with w and returns their IDs.
func Register(w *ecs.World) (everything, marker ecs.ComponentID) {
	return ecs.Register[Everything](w), ecs.Register[Marker](w)
}

// Sample returns an Everything value with every field set to a non-default value; values differ
// with i in Count, Position[0], Title and Tint, and agree in everything else.
func Sample(i int) Everything {
	return Everything{
		Enabled: i%2 == 0, Count: int32(i % 5), Small: -3, Big: 1 << 40, Flags: 7, Huge: 1 << 63,
		Speed: 2.5, Precise: 3.14159, Angle: 45, Title: fmt.Sprintf("thing %d", i), Notes: "line 1\nline 2",
		Mode: Walking, Offset: mgl32.Vec2{1, 2}, Position: mgl32.Vec3{float32(i), 2, 3}, Rotation: mgl32.Vec3{0, 90, 0},
		Plane: [4]float64{0, 1, 0, -1}, Tint: mgl32.Vec4{float32(i%3) / 2, 0.5, 0.25, 1}, RGB: [3]uint8{255, 128, 0},
		Mesh: "sphere", Inner: Inner{Label: "inner", Weight: 0.5, Offset: mgl32.Vec3{0, 1, 0}},
		Weights: [3]int16{10, 20, 30}, Tags: []string{"a", "b"},
		Points: []Inner{{Label: "p0", Weight: 0.1}, {Label: "p1", Weight: 0.9}},
		Basis:  mgl32.Ident4(), Secret: 42, Fixed: 1.5, Lookup: map[string]int{"x": 1},
	}
}

// Showcase has a field of every kind that scene files can hold (Everything minus its map field), so that an
// entity carrying it can be saved, opened in the editor (the e2e build's --test-components) and shown in the
// inspector for end-to-end tests and screenshots.
type Showcase struct {
	Enabled  bool       `json:"enabled" voltex:"tooltip='Turns it on'"`
	Count    int32      `json:"count" voltex:"min=-5,max=5"`
	Small    int8       `json:"small"`
	Flags    uint16     `json:"flags" voltex:"max=1000"`
	Speed    float32    `json:"speed" voltex:"min=0,max=10,step=0.05"`
	Precise  float64    `json:"precise"`
	Angle    float32    `json:"angle" voltex:"degrees"`
	Title    string     `json:"title"`
	Notes    string     `json:"notes" voltex:"multiline"`
	Mode     Mode       `json:"mode"`
	Offset   mgl32.Vec2 `json:"offset"`
	Position mgl32.Vec3 `json:"position"`
	Rotation mgl32.Vec3 `json:"rotation" voltex:"degrees"`
	Tint     mgl32.Vec4 `json:"tint" voltex:"color"`
	RGB      [3]uint8   `json:"rgb" voltex:"color"`
	Mesh     string     `json:"mesh" voltex:"asset"`
	Target   ecs.Entity `json:"target"`
	Inner    Inner      `json:"inner"`
	Weights  [3]int16   `json:"weights" voltex:"min=0,max=100"`
	Tags     []string   `json:"tags"`
	Points   []Inner    `json:"points"`
	Fixed    float32    `json:"fixed" voltex:"readonly"`
	Secret   int        `json:"secret" voltex:"hidden"`
}

// Default is the value Showcase components start with.
func (Showcase) Default() Showcase {
	return Showcase{Enabled: true, Speed: 1, Tint: mgl32.Vec4{1, 1, 1, 1}}
}

// RegisterShowcase registers Showcase and Marker with w (what --test-components does in the e2e tests' build of
// the program, -tags voltextest).
func RegisterShowcase(w *ecs.World) (showcase, marker ecs.ComponentID) {
	return ecs.Register[Showcase](w), ecs.Register[Marker](w)
}
