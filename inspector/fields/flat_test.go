package fields

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
)

type flatInner struct {
	On    bool
	Level int8
	Pos   [2]float64
}

type flatComp struct {
	A     float32
	B     int64
	In    flatInner
	Rot   mgl32.Vec3 `voltex:"degrees"`
	Ref   ecs.Entity
	Grid  [2][3]uint16
	Tint  [4]uint8 `voltex:"color"`
	Basis mgl32.Mat3
}

func bitList(b *Bits) []int {
	var out []int
	for i := b.Next(0); i >= 0; i = b.Next(i + 1) {
		out = append(out, i)
	}
	return out
}

// slowDiff is Diff by walking reflect values, the reference for the flat path.
func slowDiff(c *Component, a, b reflect.Value, out *Bits) {
	o := 1
	for i := range c.Fields {
		f := &c.Fields[i]
		diff(f, a.Field(f.Index), b.Field(f.Index), &o, out)
	}
}

// The memory-reading Diff of pointer-free components agrees with the reflect walk.
func TestFlatDiffMatchesReflect(t *testing.T) {
	w := ecs.NewWorld()
	c := New(w.ComponentInfo(ecs.Register[flatComp](w)))
	if c.leaves == nil {
		t.Fatal("flatComp has no flat leaves")
	}
	ents := []ecs.Entity{w.Spawn(), w.Spawn()}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() float64 {
		return []float64{0, math.Copysign(0, -1), 1, math.NaN(), math.Inf(1)}[rng.IntN(5)]
	}
	randomize := func(v *flatComp) {
		v.A = float32(pick())
		v.B = int64(rng.IntN(2))
		v.In = flatInner{On: rng.IntN(2) == 0, Level: int8(rng.IntN(2)), Pos: [2]float64{pick(), pick()}}
		v.Rot = mgl32.Vec3{float32(pick()), 0, float32(pick())}
		v.Ref = ents[rng.IntN(2)]
		v.Grid[rng.IntN(2)][rng.IntN(3)] = uint16(rng.IntN(2))
		v.Tint[rng.IntN(4)] = uint8(rng.IntN(2))
		v.Basis[rng.IntN(9)] = float32(pick())
	}
	for i := range 2000 {
		var a, b flatComp
		randomize(&a)
		randomize(&b)
		if i%3 == 0 {
			b = a
		}
		var fast, slow Bits
		// non-addressable values (as from ecs.World.Get) and addressable ones
		va, vb := reflect.ValueOf(a), reflect.ValueOf(&b).Elem()
		fastFound := c.Diff(va, vb, &fast)
		slowDiff(c, va, vb, &slow)
		if !slices.Equal(bitList(&fast), bitList(&slow)) || fastFound != !slow.Empty() {
			t.Fatalf("a=%+v\nb=%+v\nfast %v (%v), slow %v", a, b, bitList(&fast), fastFound, bitList(&slow))
		}
	}
	if got := len(c.leaves); got != 1+1+4+3+1+6+4+9 {
		t.Errorf("%d leaves", got)
	}
}
