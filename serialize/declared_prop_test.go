package serialize_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/project"
)

// randProject writes a random project file: a named enum and struct, and 1–4 components with
// fields of every kind (scalars with and without ranges, vectors, colours, entity references,
// enums, fixed arrays, lists, nested structs).
func randProject(r *rand.Rand) string {
	scalar := func() string {
		return []string{`"type": "bool"`, `"type": "int"`, `"type": "int", "min": -5, "max": 5`, `"type": "float"`,
			`"type": "float", "min": 0, "max": 1`, `"type": "string"`, `"type": "string", "multiline": true`, `"type": "asset"`,
			`"type": "vec2"`, `"type": "vec3"`, `"type": "vec4"`, `"type": "color"`, `"type": "entity"`, `"type": "E0"`,
			`"type": "enum", "values": ["X", {"name": "Y", "value": -3}]`}[r.IntN(15)]
	}
	elem := func() string {
		return []string{`"bool"`, `"int"`, `"float"`, `"string"`, `"vec3"`, `"color"`, `"entity"`, `"E0"`, `"S0"`}[r.IntN(9)]
	}
	field := func(i int) string {
		var t string
		switch r.IntN(6) {
		case 0:
			t = fmt.Sprintf(`"type": "array", "len": %d, "of": %s`, 1+r.IntN(3), elem())
		case 1:
			t = `"type": "list", "of": ` + elem()
		case 2:
			t = `"type": "S0"`
		default:
			t = scalar()
		}
		return fmt.Sprintf(`{"name": "f%d", %s}`, i, t)
	}
	var comps []string
	for c := range 1 + r.IntN(4) {
		var fs []string
		for i := range r.IntN(7) {
			fs = append(fs, field(i))
		}
		comps = append(comps, fmt.Sprintf(`{"name": "C%d", "fields": [%s]}`, c, strings.Join(fs, ", ")))
	}
	return `{"format": "voltex.project", "version": 1,
  "enums": [{"name": "E0", "values": ["A", "B", {"name": "C", "value": 10}]}],
  "structs": [{"name": "S0", "fields": [{"name": "n", "type": "int"}, {"name": "v", "type": "vec3"}, {"name": "who", "type": "entity"},
    {"name": "e", "type": "E0", "default": "C"}]}],
  "components": [` + strings.Join(comps, ",\n") + `]}`
}

// randValue fills v (a value of t's Go type) with random data within t's declaration; ents are the
// entities references may point at.
func randValue(r *rand.Rand, t *project.Type, h ecs.Hints, v reflect.Value, ents []ecs.Entity) {
	switch t.Kind {
	case project.Bool:
		v.SetBool(r.IntN(2) == 0)
	case project.Int:
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		if h.HasMin {
			lo, hi = int64(h.Min), int64(h.Max)
		}
		v.SetInt(lo + r.Int64N(hi-lo+1))
	case project.Float:
		f := float64(float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10))))
		if h.HasMin {
			f = float64(float32(h.Min + r.Float64()*(h.Max-h.Min)))
		}
		v.SetFloat(f)
	case project.Asset: // well-formed references (or none): others are refused on load and save
		v.SetString([]string{"", "builtin:cube", "ships/a b.obj", "é/日本.obj"}[r.IntN(4)])
	case project.String:
		var b strings.Builder
		runes := []rune("aZ0 \"\\\n\t\x01é日🙂/")
		for range r.IntN(8) {
			b.WriteRune(runes[r.IntN(len(runes))])
		}
		v.SetString(b.String())
	case project.Vec2, project.Vec3, project.Vec4, project.Color:
		for i := range v.Len() {
			randValue(r, &project.Type{Kind: project.Float}, h, v.Index(i), ents)
		}
	case project.Entity:
		if k := r.IntN(len(ents) + 1); k < len(ents) {
			v.Set(reflect.ValueOf(ents[k]))
		}
	case project.EnumKind:
		v.SetInt(t.Enum.Values[r.IntN(len(t.Enum.Values))].Value)
	case project.Array, project.List:
		if t.Kind == project.List {
			n := r.IntN(4)
			v.Set(reflect.MakeSlice(v.Type(), n, n))
		}
		for i := range v.Len() {
			randValue(r, t.Elem, h, v.Index(i), ents)
		}
	case project.StructKind:
		for _, f := range t.Struct.Fields {
			randValue(r, f.Type, f.Hints, v.FieldByName(f.GoName), ents)
		}
	}
}

// sameValue compares values of two worlds, references by the scene ids of their targets.
func sameValue(a, b reflect.Value, ida, idb func(ecs.Entity) uint64) bool {
	if a.Type() == reflect.TypeFor[ecs.Entity]() {
		return ida(a.Interface().(ecs.Entity)) == idb(b.Interface().(ecs.Entity))
	}
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i), ida, idb) {
				return false
			}
		}
		return true
	case reflect.Array, reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i), ida, idb) {
				return false
			}
		}
		return true
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float() && math.Signbit(a.Float()) == math.Signbit(b.Float())
	}
	return a.Interface() == b.Interface()
}

// Random declarations, random values: save, load, and every value comes back (references to the
// same entities), and saving again gives the same bytes.
func TestDeclaredRoundTripProperty(t *testing.T) {
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 11))
		src := randProject(r)
		p, err := project.Parse([]byte(src), "p.json")
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		mk, err := p.NewWorld(nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		w := mk()
		ents := make([]ecs.Entity, 2+r.IntN(6))
		for i := range ents {
			ents[i] = w.Spawn()
		}
		for _, e := range ents {
			for _, c := range p.Components {
				if r.IntN(3) == 0 {
					continue
				}
				v := reflect.New(c.Type).Elem()
				randValue(r, &project.Type{Kind: project.StructKind, Struct: &project.Struct{Fields: c.Fields}}, ecs.Hints{}, v, ents)
				id, _ := w.ComponentByName(c.Name)
				if err := w.Add(e, id, v.Interface()); err != nil {
					t.Fatal(err)
				}
			}
		}
		s := &serialize.Scene{Name: "prop", World: w}
		var first bytes.Buffer
		if err := serialize.Save(context.Background(), &first, s, serialize.SaveOptions{}); err != nil {
			t.Fatalf("seed %d: save: %v", seed, err)
		}
		s2, err := serialize.Load(context.Background(), bytes.NewReader(first.Bytes()), serialize.LoadOptions{NewWorld: mk, File: "prop.json"})
		if err != nil {
			t.Fatalf("seed %d: load: %v\n%s\n%s", seed, err, src, first.Bytes())
		}
		w2 := s2.World
		ida, idb := sceneIDs(w), sceneIDs(w2)
		byID := map[uint64]ecs.Entity{}
		for _, e := range scene.EnsureIDs(w2) {
			byID[idb(e)] = e
		}
		for _, e := range ents {
			e2 := byID[ida(e)]
			for _, c := range p.Components {
				id, _ := w.ComponentByName(c.Name)
				id2, _ := w2.ComponentByName(c.Name)
				v, ok := w.Get(e, id)
				v2, ok2 := w2.Get(e2, id2)
				if ok != ok2 || ok && !sameValue(reflect.ValueOf(v), reflect.ValueOf(v2), ida, idb) {
					t.Fatalf("seed %d: entity %d %s:\nsaved  %+v\nloaded %+v\n%s", seed, ida(e), c.Name, v, v2, first.Bytes())
				}
			}
		}
		var second bytes.Buffer
		if err := serialize.Save(context.Background(), &second, s2, serialize.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("seed %d: saving the loaded scene gave other bytes", seed)
		}
	}
}

func sceneIDs(w *ecs.World) func(ecs.Entity) uint64 {
	ids := ecs.NewMap[scene.SceneID](w)
	return func(e ecs.Entity) uint64 {
		if e.IsZero() {
			return 0
		}
		v, _ := ids.TryGet(e)
		return v.ID
	}
}
