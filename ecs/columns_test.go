package ecs

import (
	"reflect"
	"testing"
)

func TestEachColumnSeesEveryValueOnce(t *testing.T) {
	type pos struct{ X, Y float32 }
	type tag struct{}
	type flag struct{ On bool }
	w := NewWorld()
	Register[pos](w)
	Register[tag](w)
	fid := Register[flag](w, WithStorage(SparseSet))
	pm, fm := NewMap[pos](w), NewMap[flag](w)
	want := map[Entity]float32{}
	for i := range 50 {
		var e Entity
		if i%3 == 0 {
			e = w.Spawn(pos{X: float32(i)}, tag{})
		} else {
			e = pm.Spawn(pos{X: float32(i)})
		}
		want[e] = float32(i)
		if i%5 == 0 {
			fm.Add(e, flag{On: true})
		}
	}
	pid, _ := ComponentIDOf[pos](w)
	got := map[Entity]float32{}
	w.EachColumn(pid, func(ents []Entity, values reflect.Value) bool {
		ps := values.Interface().([]pos)
		for i, e := range ents {
			got[e] = ps[i].X
		}
		return true
	})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("EachColumn saw %v, want %v", got, want)
	}
	n := 0
	w.EachColumn(fid, func(ents []Entity, values reflect.Value) bool {
		for i, e := range ents {
			if !values.Index(i).Field(0).Bool() || !fm.Has(e) {
				t.Errorf("sparse value of %v is wrong", e)
			}
			n++
		}
		return true
	})
	if n != 10 {
		t.Fatalf("the sparse set gave %d values, want 10", n)
	}
	tid, _ := ComponentIDOf[tag](w)
	tags := 0
	w.EachColumn(tid, func(ents []Entity, values reflect.Value) bool { tags += len(ents); return values.Len() == len(ents) })
	if tags != 17 {
		t.Fatalf("tag columns gave %d entities, want 17", tags)
	}
}
