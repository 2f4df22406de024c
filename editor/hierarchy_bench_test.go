package editor

import (
	"context"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/hierarchy"
)

// BenchmarkHierarchyChange1M: the Hierarchy's rows ready after a change to a flat scene of 1,000,000 roots — one
// entity renamed, or one root added (and undone untimed). full-build is a row per root over the roots scanned and
// sorted (what a list that materialises every row costs); visible is the model as the panel uses it: Update, then
// the 40 rows of a screen.
func BenchmarkHierarchyChange1M(b *testing.B) {
	d := doc.New("Big", doc.Options{})
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 100, 100}
	_, cubes, err := d.SpawnGrid(context.Background(), p, nil)
	if err != nil {
		b.Fatal(err)
	}
	t := newDocTree(d)
	var rows []hierarchy.Row
	full := func() {
		roots := scene.Roots(d.World())
		rows = make([]hierarchy.Row, 0, len(roots)) // as the full build did, a new list each time
		for _, e := range roots {
			rows = append(rows, hierarchy.Row{Entity: e, ID: t.ID(e), HasKids: t.ChildCount(e) > 0})
		}
	}
	m := hierarchy.New()
	visible := func() {
		n := m.Update(t, d.Version(), d.World())
		for i := range min(n, 40) {
			m.Row(i)
		}
	}
	names := [2]string{"renamed", "cube"}
	for _, c := range []struct {
		name   string
		change func(i int)
		after  func()
	}{
		{"rename", func(i int) {
			if err := d.Rename([]ecs.Entity{cubes[7]}, names[i%2]); err != nil {
				b.Fatal(err)
			}
		}, func() {}},
		{"add", func(int) {
			if _, err := d.SpawnEmpty(ecs.Entity{}); err != nil {
				b.Fatal(err)
			}
		}, func() {
			if err := d.History().Undo(); err != nil {
				b.Fatal(err)
			}
		}},
	} {
		for _, build := range []struct {
			name string
			fn   func()
		}{{"full-build", full}, {"visible", visible}} {
			b.Run(c.name+"/"+build.name, func(b *testing.B) {
				build.fn()
				i := 0
				for b.Loop() {
					b.StopTimer()
					c.change(i)
					i++
					b.StartTimer()
					build.fn()
					b.StopTimer()
					c.after()
					build.fn()
					b.StartTimer()
				}
			})
		}
	}
}
