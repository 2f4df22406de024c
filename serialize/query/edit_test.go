package query

import (
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
)

func TestEdits(t *testing.T) {
	cases := []struct {
		edit string
		want func(u *unit, tr *ecs.Transform, h *health)
	}{
		{"Unit.speed+=10", func(u *unit, _ *ecs.Transform, _ *health) { u.Speed += 10 }},
		{"Unit.speed -= 0.5", func(u *unit, _ *ecs.Transform, _ *health) { u.Speed -= 0.5 }},
		{"Unit.speed*=0.5", func(u *unit, _ *ecs.Transform, _ *health) { u.Speed *= 0.5 }},
		{"Unit.speed/=4", func(u *unit, _ *ecs.Transform, _ *health) { u.Speed /= 4 }},
		{"Unit.speed= x*2 + 1", func(u *unit, _ *ecs.Transform, _ *health) { u.Speed = u.Speed*2 + 1 }},
		{"Unit.speed=-(x - 1) * (2 + 1)", func(u *unit, _ *ecs.Transform, _ *health) { u.Speed = -(u.Speed - 1) * 3 }},
		{"Unit.speed=max(x, 2.5)", func(u *unit, _ *ecs.Transform, _ *health) { u.Speed = max(u.Speed, 2.5) }},
		{"Unit.level*=1.5", func(u *unit, _ *ecs.Transform, _ *health) { u.Level = int16(float64(u.Level)*1.5 + 0.5) }},
		{"Unit.team=Blue", func(u *unit, _ *ecs.Transform, _ *health) { u.Team = blue }},
		{`Unit.tag="a \"b\""`, func(u *unit, _ *ecs.Transform, _ *health) { u.Tag = `a "b"` }},
		{`Unit.tag=plain words`, func(u *unit, _ *ecs.Transform, _ *health) { u.Tag = "plain words" }},
		{`name="Renamed"`, nil},
		{"Unit.alive=true", func(u *unit, _ *ecs.Transform, _ *health) { u.Alive = true }},
		{"Transform.position.y+=1", func(_ *unit, tr *ecs.Transform, _ *health) { tr.Position[1]++ }},
		{"Transform.scale*=2", func(_ *unit, tr *ecs.Transform, _ *health) { tr.Scale = tr.Scale.Mul(2) }},
		{"Transform.position+=[1, 0, -1]", func(_ *unit, tr *ecs.Transform, _ *health) { tr.Position = tr.Position.Add(mgl32.Vec3{1, 0, -1}) }},
		{"Health.current=x/2", func(_ *unit, _ *ecs.Transform, h *health) { h.Current /= 2 }},
	}
	for _, c := range cases {
		w, es := testScene(t)
		e, err := ParseEdit(w, c.edit)
		if err != nil {
			t.Errorf("%s: %v", c.edit, err)
			continue
		}
		ents := []ecs.Entity{es["Orc Grunt"], es["Orc Chief"], es["Tree"]}
		changes, err := e.Apply(w, ents, 1)
		if err != nil {
			t.Errorf("%s: %v", c.edit, err)
			continue
		}
		if c.want == nil {
			if len(changes) != 3 {
				t.Errorf("%s: %d changes", c.edit, len(changes))
			}
			continue
		}
		for _, ch := range changes {
			switch v := ch.Value.(type) {
			case unit:
				want := ecs.NewMap[unit](w).Get(ch.Entity)
				c.want(&want, nil, nil)
				if v != want {
					t.Errorf("%s: got %+v, want %+v", c.edit, v, want)
				}
			case ecs.Transform:
				want := ecs.NewMap[ecs.Transform](w).Get(ch.Entity)
				c.want(nil, &want, nil)
				if v != want {
					t.Errorf("%s: got %+v, want %+v", c.edit, v, want)
				}
			case health:
				want := ecs.NewMap[health](w).Get(ch.Entity)
				c.want(nil, nil, &want)
				if v != want {
					t.Errorf("%s: got %+v, want %+v", c.edit, v, want)
				}
			}
		}
		if len(changes) == 0 {
			t.Errorf("%s: no change", c.edit)
		}
	}
}

func TestEditLeavesUnchangedOnesOut(t *testing.T) {
	w, es := testScene(t)
	e, err := ParseEdit(w, "Unit.team=Red")
	if err != nil {
		t.Fatal(err)
	}
	changes, err := e.Apply(w, []ecs.Entity{es["Orc Grunt"], es["Elf Archer"], es["Tree"]}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Entity != es["Elf Archer"] {
		t.Fatalf("changes = %+v, want the elf's alone (the orc is red already, the tree has no Unit)", changes)
	}
}

func TestRandIsSeededPerEntity(t *testing.T) {
	w, es := testScene(t)
	e, err := ParseEdit(w, "Transform.position.x=rand(-10, 10)")
	if err != nil {
		t.Fatal(err)
	}
	both := []ecs.Entity{es["Orc Grunt"], es["Tree"]}
	a, _ := e.Apply(w, both, 7)
	b, _ := e.Apply(w, []ecs.Entity{es["Tree"], es["Orc Grunt"]}, 7)
	c, _ := e.Apply(w, both, 8)
	x := func(ch []Change, i int) float32 { return ch[i].Value.(ecs.Transform).Position[0] }
	if x(a, 0) != x(b, 1) || x(a, 1) != x(b, 0) {
		t.Fatalf("the same seed gave other values in another order: %v %v / %v %v", x(a, 0), x(a, 1), x(b, 1), x(b, 0))
	}
	if x(a, 0) == x(a, 1) || x(a, 0) == x(c, 0) {
		t.Fatalf("rand gave the same value twice: %v %v %v", x(a, 0), x(a, 1), x(c, 0))
	}
	for _, ch := range append(a, c...) {
		if v := ch.Value.(ecs.Transform).Position[0]; v < -10 || v >= 10 {
			t.Fatalf("rand(-10, 10) gave %v", v)
		}
	}
}

func TestEditErrors(t *testing.T) {
	w, es := testScene(t)
	cases := []struct {
		edit string
		col  int
		want string
	}{
		{"", 1, "empty edit"},
		{"Unit.sped+=1", 1, "did you mean speed?"},
		{"Unit.speed", 11, "ends before its operator"},
		{"Unit.speed+=", 13, "ends before its value"},
		{"Unit.speed+=y", 13, `unknown "y"`},
		{"Unit.speed+=rnd(1,2)", 13, "did you mean rand?"},
		{"Unit.speed+=rand(1)", 13, "rand takes 2 values, got 1"},
		{"Unit.speed+=(1", 13, "not closed"},
		{"Unit.speed+=1 2", 15, `unexpected "2"`},
		{"Unit.tag+=1", 9, "only = sets it"},
		{"Unit.team=Gren", 11, `Unit.team has no value "Gren" (there are Red, Blue)`},
		{"Unit.team=Bleu", 11, `did you mean Blue?`},
		{"Unit.alive=maybe", 12, "true or false"},
		{"Unit.target=3", 13, "entity reference"},
		{"Transform.position=[1,2]", 20, "has 3 items, the list 2"},
		{"Unit.speed=[1,2]", 12, "single value"},
		{"Unit.speed^=2", 11, `expected =, +=`},
	}
	for _, c := range cases {
		_, err := ParseEdit(w, c.edit)
		wantError(t, c.edit, err, c.col, c.want)
	}
	apply := []struct{ edit, want string }{
		{"Unit.level*=100000", `entity 3 "Orc Grunt": Unit.level would be 300000: out of the range of a 16-bit integer`},
		{"Unit.gold-=1", "out of the range of a 8-bit unsigned integer"},
		{"Unit.speed/=0", "a division by zero"},
		{"Unit.speed=x/(x-x)", "not a finite number"},
		{"Unit.speed*=1e300", "more than a 32-bit float holds"},
	}
	for _, c := range apply {
		e, err := ParseEdit(w, c.edit)
		if err != nil {
			t.Errorf("%s: %v", c.edit, err)
			continue
		}
		_, err = e.Apply(w, []ecs.Entity{es["Orc Grunt"]}, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.edit, err, c.want)
		}
	}
}

func TestFieldEdit(t *testing.T) {
	w, es := testScene(t)
	for src, want := range map[string]float32{"+= 10": 12, "*= 0.5": 1, "= x*2": 4, "7": 7, "-3": -3, "-= 1": 1} {
		e, err := ParseFieldEdit(w, "Unit", "speed", src)
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		ch, err := e.Apply(w, []ecs.Entity{es["Orc Grunt"]}, 0)
		if err != nil || len(ch) != 1 || ch[0].Value.(unit).Speed != want {
			t.Errorf("%q: got %+v %v, want speed %v", src, ch, err, want)
		}
	}
	_, err := ParseFieldEdit(w, "Unit", "speed", "x*")
	wantError(t, "x*", err, 3, "ends before a value")
}
