package ecs_test

import (
	"fmt"
	"reflect"

	"github.com/voltex-editor/voltex/ecs"
)

// registerMany fills w up to MaxComponents with distinct generated struct types.
func registerMany(w *ecs.World) []ecs.ComponentID {
	var ids []ecs.ComponentID
	for i := len(w.ComponentIDs()); i < ecs.MaxComponents; i++ {
		ids = append(ids, registerDynamic(w, i))
	}
	return ids
}

// registerDynamic registers struct{ V [i+1]int32 } under the name "Dyn<i>": distinct types without
// writing 256 declarations.
func registerDynamic(w *ecs.World, i int) ecs.ComponentID {
	t := reflect.StructOf([]reflect.StructField{{Name: "V", Type: reflect.ArrayOf(i+1, reflect.TypeFor[int32]())}})
	return ecs.RegisterType(w, t, ecs.WithName(fmt.Sprintf("Dyn%d", i)))
}
