package query

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// testScene is a small scene: two waves of orcs and elves under group entities.
func testScene(t testing.TB) (*ecs.World, map[string]ecs.Entity) {
	w := newWorld()
	es := map[string]ecs.Entity{}
	add := func(id uint64, name string, parent string, comps ...any) {
		e := spawn(w, id, name, comps...)
		es[name] = e
		if parent != "" {
			if err := w.SetParent(e, es[parent]); err != nil {
				t.Fatal(err)
			}
		}
	}
	add(1, "Wave 1", "")
	add(2, "Wave 2", "")
	add(3, "Orc Grunt", "Wave 1", unit{Team: red, Speed: 2, Level: 3, Tag: "melee"}, health{Current: 40, Max: 100}, ecs.Transform{Position: mgl32.Vec3{0, 3, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	add(4, "Orc Chief", "Wave 2", unit{Team: red, Speed: 1.5, Level: 9, Tag: "boss", Alive: true}, health{Current: 80, Max: 100}, scene.Spin{Speed: 10})
	add(5, "Elf Archer", "Wave 2", unit{Team: blue, Speed: 3, Level: 4, Tag: "ranged", Alive: true, Home: mgl32.Vec3{1, 2, 3}}, health{Current: 20, Max: 50}, frozen{})
	add(6, "orc pup", "Orc Chief", unit{Team: red, Speed: 4, Gold: 200}, health{Current: 5, Max: 10})
	add(7, "Tree", "", ecs.Transform{Position: mgl32.Vec3{5, -1, 2}, Scale: mgl32.Vec3{2, 2, 2}}, scene.Color{RGBA: [4]float32{0.6, 0.2, 0.1, 1}})
	u := ecs.NewMap[unit](w)
	u.Mut(es["Elf Archer"]).Target = es["Orc Chief"]
	u.Mut(es["orc pup"]).Target = es["Orc Chief"]
	return w, es
}

func names(w *ecs.World, es []ecs.Entity) []string {
	var out []string
	nm := ecs.NewMap[scene.Name](w)
	for _, e := range es {
		out = append(out, nm.Get(e).Value)
	}
	slices.Sort(out)
	return out
}

func TestQueries(t *testing.T) {
	w, _ := testScene(t)
	cases := []struct{ q, want string }{
		{`Unit`, "Elf Archer,Orc Chief,Orc Grunt,orc pup"},
		{`!Unit`, "Tree,Wave 1,Wave 2"},
		{`Unit.team=Red`, "Orc Chief,Orc Grunt,orc pup"},
		{`Unit.team=blue`, "Elf Archer"},
		{`Unit.team!=Red`, "Elf Archer"},
		{`Unit.team=1`, "Elf Archer"},
		{`Health.current<50`, "Elf Archer,Orc Grunt,orc pup"},
		{`Health.current<=40 Health.current>=20`, "Elf Archer,Orc Grunt"},
		{`Unit.team=Red Health.current<50 !Spin`, "Orc Grunt,orc pup"},
		{`name~"Orc*"`, "Orc Chief,Orc Grunt,orc pup"},
		{`name="Orc*"`, "Orc Chief,Orc Grunt"},
		{`name=Tree`, "Tree"},
		{`name~"?rc *"`, "Orc Chief,Orc Grunt,orc pup"},
		{`name!~"*r*"`, "Wave 1,Wave 2"},
		{`parent:"Wave 2"`, "Elf Archer,Orc Chief,orc pup"},
		{`parent:"Wave 2" !Frozen`, "Orc Chief,orc pup"},
		{`parent:(Unit.level>5)`, "orc pup"},
		{`parent:1`, "Orc Grunt"},
		{`Spin or Frozen`, "Elf Archer,Orc Chief"},
		{`Spin | Frozen | name=Tree`, "Elf Archer,Orc Chief,Tree"},
		{`Unit and not (Spin or Frozen)`, "Orc Grunt,orc pup"},
		{`Unit && !(Spin || Frozen)`, "Orc Grunt,orc pup"},
		{`Transform.position.y>2`, "Orc Grunt"},
		{`Transform.position.y<0`, "Tree"},
		{`Transform.scale=[2,2,2]`, "Tree"},
		{`Transform.scale=2`, "Tree"},
		{`Transform.scale!=[1,1,1]`, "Tree"},
		{`Unit.home=[1, 2, 3]`, "Elf Archer"},
		{`Unit.home[2]=3`, "Elf Archer"},
		{`Unit.target="Orc Chief"`, "Elf Archer,orc pup"},
		{`Unit.target=4`, "Elf Archer,orc pup"},
		{`Unit.target=none`, "Orc Chief,Orc Grunt"},
		{`Unit.target!=none`, "Elf Archer,orc pup"},
		{`Unit.alive=true`, "Elf Archer,Orc Chief"},
		{`Unit.alive!=true`, "Orc Grunt,orc pup"},
		{`Unit.tag=boss`, "Orc Chief"},
		{`Unit.tag<"n"`, "Orc Chief,Orc Grunt,orc pup"},
		{`Unit.gold>100`, "orc pup"},
		{`Unit.level=-1`, ""},
		{`Unit.speed=1.5`, "Orc Chief"},
		{`Unit.speed<=1.5`, "Orc Chief"},
		{`Color.rgba.r=0.6`, "Tree"},
		{`Color.rgba.r>0.6`, ""},
		{`Color.rgba=[0.6, 0.2, 0.1, 1]`, "Tree"},
		{`Unit.home.z=3 Unit.home.b>=3`, "Elf Archer"},
		{`id=5`, "Elf Archer"},
		{`id>5`, "Tree,orc pup"},
		{`SceneID.order>6`, "Tree"},
	}
	for _, c := range cases {
		q, err := Parse(w, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		r := q.Eval(w)
		got := strings.Join(names(w, r.Entities()), ",")
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.q, got, c.want)
		}
		if r.Len() != len(r.Entities()) {
			t.Errorf("%s: Len %d, %d entities", c.q, r.Len(), len(r.Entities()))
		}
	}
}

func TestQueryErrors(t *testing.T) {
	w, _ := testScene(t)
	cases := []struct {
		q    string
		col  int
		want string
	}{
		{``, 1, "empty query"},
		{`Unti.team=Red`, 1, `no component "Unti": did you mean Unit?`},
		{`Spin Helth`, 6, `did you mean Health?`},
		{`Unit.taem=Red`, 1, `Unit has no field "taem": did you mean team?`},
		{`Unit.team=Rde`, 11, `Unit.team has no value "Rde": did you mean Red?`},
		{`Unit.team=Green`, 11, `Unit.team has no value "Green" (there are Red, Blue)`},
		{`(Spin`, 1, "this ( is not closed"},
		{`Spin)`, 5, "a ) without its ("},
		{`name~"Orc`, 6, "not closed"},
		{`Unit.speed~2`, 12, "~ matches text"},
		{`Transform.position>2`, 1, "is a vector"},
		{`Transform.position.q>2`, 1, "name an item as .x"},
		{`Transform.position=[1,2]`, 20, "has 3 items, the list 2"},
		{`Unit.alive<true`, 12, "true or false"},
		{`Unit.speed=fast`, 12, `is a number, not "fast"`},
		{`Unit`, 0, ""},
		{`Unit.team`, 10, "needs a comparison"},
		{`name`, 5, "name needs a comparison"},
		{`Spin and`, 9, "ends too soon"},
		{`Spin or or`, 9, "expected a component"},
		{`Unit=3`, 1, "is a component: compare one of its fields"},
		{`Health.current<`, 16, "ends before the value"},
		{`Frozen.x=1`, 1, `Frozen has no field "x"`},
		{`Unit.target<3`, 13, "is an entity"},
		{`Unit.speed:3`, 1, "not a comparison"},
	}
	for _, c := range cases {
		_, err := Parse(w, c.q)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.q, err)
			}
			continue
		}
		wantError(t, c.q, err, c.col, c.want)
	}
}

func TestCompared(t *testing.T) {
	w, es := testScene(t)
	q, err := Parse(w, `Unit.team=Red Health.current<50 name~"Orc*" Unit.team!=Blue`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(q.Compared(), " "); got != "Unit.team Health.current name" {
		t.Fatalf("Compared = %q", got)
	}
	if got := strings.Join(q.Values(w, es["Orc Grunt"]), " "); got != `Red 40 "Orc Grunt"` {
		t.Fatalf("Values = %q", got)
	}
	if got := strings.Join(q.Values(w, es["Tree"]), " "); got != `- - "Tree"` {
		t.Fatalf("Values of Tree = %q", got)
	}
}

// wantError checks that err is an *Error at col whose message holds want.
func wantError(t *testing.T, src string, err error, col int, want string) {
	t.Helper()
	var qe *Error
	if !errors.As(err, &qe) {
		t.Errorf("%s: got %v, want an *Error", src, err)
		return
	}
	if qe.Col != col || !strings.Contains(qe.Msg, want) {
		t.Errorf("%s: got col %d %q, want col %d and %q", src, qe.Col, qe.Msg, col, want)
	}
}
