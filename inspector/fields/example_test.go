package fields_test

import (
	"fmt"
	"math"
	"reflect"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields"
)

// A component's model says which widget edits each field and resolves its hints.
func Example() {
	type Light struct {
		Color     mgl32.Vec3 `json:"color" voltex:"color"`
		Intensity float32    `json:"intensity" voltex:"min=0,max=10,step=0.1"`
		Cone      float32    `json:"cone" voltex:"degrees,min=1,max=179"`
		Target    ecs.Entity `json:"target"`
	}
	w := ecs.NewWorld()
	c := fields.New(w.ComponentInfo(ecs.Register[Light](w)))
	for _, f := range c.Fields {
		fmt.Printf("%-9s %-9s %s [%g, %g] %q\n", f.Label, f.Kind, f.Path, f.Min, f.Max, f.Format)
	}
	// Input is validated before it becomes an edit.
	in := c.Find("intensity")
	v, ok := in.FloatValue(42)
	fmt.Println(v, ok)
	_, ok = in.FloatValue(math.NaN())
	fmt.Println(ok)
	// Output:
	// Color     Color     color [0, 0] ""
	// Intensity Float     intensity [0, 10] "%.1f"
	// Cone      Float     cone [1, 179] "%.1f°"
	// Target    EntityRef target [0, 0] ""
	// 10 true
	// false
}

// Selection reports which fields differ between selected entities.
func ExampleSelection() {
	type Health struct {
		Current int32 `json:"current"`
		Max     int32 `json:"max"`
	}
	w := ecs.NewWorld()
	id := ecs.Register[Health](w)
	es := []ecs.Entity{w.Spawn(Health{50, 100}), w.Spawn(Health{80, 100})}
	var cache fields.Cache
	var sel fields.Selection
	sel.Update(w, es, &cache)
	c := cache.Component(w, id)
	mixed := sel.Mixed(id)
	o := 1 // node 0 is the component itself
	for _, f := range c.Fields {
		fmt.Println(f.Label, "mixed:", mixed.Has(o))
		o += f.Nodes(reflect.Value{})
	}
	// Output:
	// Current mixed: true
	// Max mixed: false
}
