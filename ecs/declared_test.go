package ecs_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// declaredType is a component type built at run time, as project files declare them.
func declaredType() reflect.Type {
	return reflect.StructOf([]reflect.StructField{
		{Name: "Hp", Type: reflect.TypeFor[float32](), Tag: `json:"hp" voltex:"min=0,former=health|hitPoints"`},
		{Name: "Team", Type: reflect.TypeFor[int32](), Tag: `json:"team" voltex:"enum=Red:0|Blue:1|'bad'|Green:7"`},
		{Name: "Teams", Type: reflect.TypeFor[[]uint8](), Tag: `json:"teams" voltex:"enum='Red:0|Blue:1'"`},
		{Name: "Pos", Type: reflect.TypeFor[mgl32.Vec3](), Tag: `json:"pos"`},
	})
}

func TestRegisterTypeOptions(t *testing.T) {
	typ := declaredType()
	def := reflect.New(typ).Elem()
	def.Field(0).SetFloat(100)
	w := ecs.NewWorld()
	id := ecs.RegisterType(w, typ, ecs.WithName("Unit"), ecs.WithDefault(def.Interface()),
		ecs.WithFormerNames("Soldier", "Grunt"), ecs.WithEditorOnly())
	info := w.ComponentInfo(id)
	if !reflect.DeepEqual(info.FormerNames, []string{"Soldier", "Grunt"}) || !info.EditorOnly || info.Transient {
		t.Fatalf("info %+v", info)
	}
	s := info.Schema
	if got := reflect.ValueOf(s.Default).Field(0).Float(); got != 100 {
		t.Fatalf("schema default hp %v", got)
	}
	if !reflect.DeepEqual(s.Fields[0].FormerNames, []string{"health", "hitPoints"}) || !s.Fields[0].Hints.HasMin {
		t.Fatalf("hp field %+v", s.Fields[0])
	}
	if want := []ecs.EnumValue{{Name: "Red", Value: 0}, {Name: "Blue", Value: 1}, {Name: "Green", Value: 7}}; !reflect.DeepEqual(s.Fields[1].Enum, want) {
		t.Fatalf("team enum %v", s.Fields[1].Enum)
	}
	if s.Fields[2].Enum != nil || len(s.Fields[2].Elem.Enum) != 2 {
		t.Fatalf("teams: the enum belongs to the elements: %+v / %+v", s.Fields[2].Enum, s.Fields[2].Elem.Enum)
	}
	if s.Fields[3].Enum != nil || s.Fields[3].Elem.Enum != nil {
		t.Fatal("an enum tag on no field leaked onto pos")
	}
	// Add with no value takes the default; values survive table moves (the byte-copy path).
	e := w.Spawn()
	if err := w.Add(e, id, nil); err != nil {
		t.Fatal(err)
	}
	if v, _ := w.GetField(e, id, "hp"); v.(float32) != 100 {
		t.Fatalf("default hp %v", v)
	}
	if err := w.SetField(e, id, "pos", mgl32.Vec3{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	other := ecs.Register[Inner](w)
	for range 3 {
		w.Spawn(def.Interface())
	}
	if err := w.Add(e, other, nil); err != nil { // moves e to another table
		t.Fatal(err)
	}
	if v, _ := w.GetField(e, id, "pos"); v.(mgl32.Vec3) != (mgl32.Vec3{1, 2, 3}) {
		t.Fatalf("pos after a move %v", v)
	}
	// The same type again with the same options is the same component.
	if again := ecs.RegisterType(w, typ, ecs.WithName("Unit")); again != id {
		t.Fatal("re-registering gave a new id")
	}
}

func TestWithDefaultWrongType(t *testing.T) {
	for name, reg := range map[string]func(w *ecs.World){
		"RegisterType": func(w *ecs.World) { ecs.RegisterType(w, declaredType(), ecs.WithName("X"), ecs.WithDefault(3)) },
		"Register":     func(w *ecs.World) { ecs.Register[Light](w, ecs.WithDefault(Inner{})) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "pass a value of the component type") {
					t.Fatalf("panic %v", r)
				}
			}()
			reg(ecs.NewWorld())
		})
	}
}

func TestWithDefaultGo(t *testing.T) {
	w := ecs.NewWorld()
	id := ecs.Register[Light](w, ecs.WithDefault(Light{Intensity: 7}), ecs.WithTransient())
	if d := w.ComponentInfo(id).Schema.Default.(Light); d.Intensity != 7 || !w.ComponentInfo(id).Transient {
		t.Fatalf("default %+v", d)
	}
	e := w.Spawn()
	if err := w.Add(e, id, nil); err != nil {
		t.Fatal(err)
	}
	if v, _ := w.GetField(e, id, "intensity"); v.(float32) != 7 {
		t.Fatalf("added value %v", v)
	}
}
