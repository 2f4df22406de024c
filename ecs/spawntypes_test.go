package ecs_test

import (
	"reflect"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// Spawn puts each value in its own component whatever mix of types came before: more types than Spawn keeps in
// mind, by pointer and by value, one at a time and together.
func TestSpawnValuesOfManyTypes(t *testing.T) {
	w := ecs.NewWorld()
	types := []reflect.Type{}
	var ids []ecs.ComponentID
	for i := range 12 { // more than the few types Spawn remembers
		types = append(types, reflect.StructOf([]reflect.StructField{{Name: "V" + string(rune('A'+i)), Type: reflect.TypeFor[int]()}}))
		ids = append(ids, ecs.RegisterType(w, types[i], ecs.WithName("V"+string(rune('A'+i)))))
	}
	value := func(i, v int, ptr bool) any {
		p := reflect.New(types[i])
		p.Elem().Field(0).SetInt(int64(v))
		if ptr {
			return p.Interface()
		}
		return p.Elem().Interface()
	}
	type spawned struct {
		e     ecs.Entity
		comps map[int]int // type index → value
	}
	var all []spawned
	for n := range 300 {
		comps := map[int]int{}
		var vals []any
		for k := range 1 + n%4 {
			i := (n*7 + k*5) % len(types)
			if _, ok := comps[i]; ok {
				continue
			}
			comps[i] = n*100 + i
			vals = append(vals, value(i, n*100+i, (n+k)%2 == 0))
		}
		all = append(all, spawned{w.Spawn(vals...), comps})
	}
	for _, s := range all {
		for i, typ := range types {
			v, ok := w.Get(s.e, ids[i])
			want, has := s.comps[i]
			if ok != has {
				t.Fatalf("entity %v: has %v = %v, want %v", s.e, typ, ok, has)
			}
			if has {
				if got := reflect.ValueOf(v).Field(0).Int(); got != int64(want) {
					t.Fatalf("entity %v: %v = %d, want %d", s.e, typ, got, want)
				}
			}
		}
	}
}
