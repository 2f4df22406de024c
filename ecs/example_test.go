package ecs_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

type Position struct{ X, Y float64 }
type Velocity struct{ X, Y float64 }
type Frozen struct{}

func ExampleWorld_Spawn() {
	w := ecs.NewWorld()
	ecs.Register[Position](w)
	ecs.Register[Velocity](w)

	e := w.Spawn(Position{1, 2}, Velocity{X: 1})
	fmt.Println(w.Alive(e), w.Len())

	w.Despawn(e)
	again := w.Spawn()
	fmt.Println(w.Alive(e), again.Index() == e.Index(), again.Generation()-e.Generation())
	// Output:
	// true 1
	// false true 1
}

func ExampleNewQuery2() {
	w := ecs.NewWorld()
	ecs.Register[Position](w)
	ecs.Register[Velocity](w)
	ecs.Register[Frozen](w, ecs.WithStorage(ecs.SparseSet))
	w.Spawn(Position{0, 0}, Velocity{1, 1})
	w.Spawn(Position{5, 5}, Velocity{1, 0}, Frozen{})
	w.Spawn(Position{9, 9})

	// created once; Vel is only read, Pos is written (and marked changed)
	move := ecs.NewQuery2[Position, Velocity](w, ecs.Read[Velocity](), ecs.Without[Frozen]())
	it := move.Iter()
	for it.Next() {
		p, v := it.Get()
		p.X += v.X
		p.Y += v.Y
		fmt.Println(it.Entity(), *p)
	}
	// Output:
	// e1v0 {1 1}
}

// A system that loops over columns: fn runs once per table, with slices the compiler keeps in
// registers.
func ExampleQuery2_EachTable() {
	w := ecs.NewWorld()
	ecs.Register[Position](w)
	ecs.Register[Velocity](w)
	ecs.Register[Frozen](w)
	w.Spawn(Position{0, 0}, Velocity{1, 1})
	w.Spawn(Position{5, 5}, Velocity{1, 0})
	w.Spawn(Position{7, 7}, Velocity{0, 1}, Frozen{}) // another table
	w.Spawn(Position{9, 9})                           // no Velocity: not visited

	move := ecs.NewQuery2[Position, Velocity](w, ecs.Read[Velocity]())
	move.EachTable(func(ents []ecs.Entity, ps []Position, vs []Velocity) {
		vs = vs[:len(ps)] // same length: no bounds checks on vs in the loop
		for i := range ps {
			ps[i].X += vs[i].X
			ps[i].Y += vs[i].Y
		}
		fmt.Println(ents, ps)
	})
	// Output:
	// [e1v0 e2v0] [{1 1} {6 5}]
	// [e3v0] [{7 8}]
}

func ExampleChanged() {
	w := ecs.NewWorld()
	ecs.Register[Position](w)
	pos := ecs.NewMap[Position](w)
	a := pos.Spawn(Position{})
	b := pos.Spawn(Position{})

	moved := ecs.NewQuery1[Position](w, ecs.Changed[Position](), ecs.Read[Position]())
	fmt.Println("first run:", moved.Count())
	it := moved.Iter()
	for it.Next() {
	}

	w.Update()
	pos.Mut(b).X = 3 // Mut marks the change
	_ = pos.Get(a)   // Get only reads
	it = moved.Iter()
	for it.Next() {
		fmt.Println("changed:", it.Entity(), *it.Get())
	}
	fmt.Println("next run:", moved.Count())
	// Output:
	// first run: 2
	// changed: e2v0 {3 0}
	// next run: 0
}

func ExampleCommands() {
	w := ecs.NewWorld()
	ecs.Register[Position](w)
	for i := range 4 {
		w.Spawn(Position{X: float64(i)})
	}
	q := ecs.NewQuery1[Position](w, ecs.Read[Position]())
	cmds := w.Commands()
	it := q.Iter()
	for it.Next() {
		if it.Get().X >= 2 {
			cmds.Despawn(it.Entity()) // w.Despawn here would panic
		}
	}
	fmt.Println(cmds.Apply(), w.Len())
	// Output:
	// <nil> 2
}

func ExampleWorld_SetParent() {
	w := ecs.NewWorld()
	root := w.Spawn(ecs.Transform{Position: mgl32.Vec3{10, 0, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	child := w.Spawn(ecs.Transform{Position: mgl32.Vec3{0, 2, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	if err := w.SetParent(child, root); err != nil {
		panic(err)
	}
	fmt.Println(w.WorldMatrix(child).Col(3).Vec3())
	fmt.Println(w.SetParent(root, child))
	// Output:
	// [10 2 0]
	// ecs: set parent of e1v0 to e2v0: parent would create a cycle
}

func ExampleWorld_SetField() {
	type Light struct {
		Color     [3]float32 `json:"color" voltex:"color"`
		Intensity float32    `json:"intensity" voltex:"min=0,max=10"`
	}
	w := ecs.NewWorld()
	id := ecs.Register[Light](w)
	e := w.Spawn(Light{Intensity: 1})

	for _, f := range w.ComponentInfo(id).Schema.Fields {
		fmt.Println(f.JSONName, f.Kind, f.Hints.Color, f.Hints.HasMax, f.Hints.Max)
	}
	_ = w.SetField(e, id, "color[1]", 0.5) // numbers are converted to the field's type
	v, _ := w.GetField(e, id, "color")
	fmt.Println(v)
	fmt.Println(w.SetField(e, id, "colour", 1))
	// Output:
	// color array true false 0
	// intensity float32 false true 10
	// [0 0.5 0]
	// ecs: set Light.colour: invalid field path: "colour": ecs_test.Light has no field "colour"
}

func ExampleWorld_AddSystem() {
	w := ecs.NewWorld()
	ecs.Register[Position](w)
	ecs.Register[Velocity](w)
	w.Spawn(Position{}, Velocity{1, 2})
	move := ecs.NewQuery2[Position, Velocity](w, ecs.Read[Velocity]())
	w.AddSystem(ecs.System{
		Name:   "move",
		Access: move.Access(),
		Run: func(w *ecs.World, cmds *ecs.Commands) {
			it := move.Iter()
			for it.Next() {
				p, v := it.Get()
				p.X += v.X
				p.Y += v.Y
			}
		},
	})
	w.Update()
	w.Update()
	move.Each(func(e ecs.Entity, p *Position, _ *Velocity) { fmt.Println(e, *p) })
	// Output:
	// e1v0 {2 4}
}

func ExampleSendEvent() {
	type Hit struct{ Damage int }
	w := ecs.NewWorld()
	r := ecs.NewEventReader[Hit](w)
	ecs.SendEvent(w, Hit{3})
	ecs.SendEvent(w, Hit{4})
	fmt.Println(r.Read(), len(r.Read()))
	// Output:
	// [{3} {4}] 0
}

func ExampleSetResource() {
	type Gravity struct{ G float64 }
	w := ecs.NewWorld()
	ecs.SetResource(w, Gravity{9.81})
	ecs.Resource[Gravity](w).G /= 6
	fmt.Printf("%.3f\n", ecs.Resource[Gravity](w).G)
	// Output:
	// 1.635
}

// Values keep components of entities outside the world (what an undo history keeps of deleted entities) and
// spawn them again.
func ExampleWorld_CopyValues() {
	w := ecs.NewWorld()
	pos := ecs.Register[Position](w)
	a, b := w.Spawn(Position{1, 2}), w.Spawn(Position{3, 4})

	kept, err := w.CopyValues(pos, []ecs.Entity{a, b})
	if err != nil {
		panic(err)
	}
	w.Despawn(a)
	w.Despawn(b)
	back := w.SpawnValues([]ecs.Values{kept}, 0, kept.Len())
	fmt.Println(w.Len(), kept.At(1), back[0].Index() == a.Index(), ecs.NewMap[Position](w).Get(back[1]))
	// Output:
	// 2 {3 4} true {3 4}
}
