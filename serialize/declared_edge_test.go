package serialize_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/game"
	"github.com/voltex-editor/voltex/serialize/project"
)

// edgeNumbers are the bounds, steps and defaults edgeProject writes: the ends of int32 and
// float32, numbers just past them, numbers no float32 is (0.7, 1e-50), ranges with no whole number
// (0.2..0.8) or no float32 (0.70000001..0.70000002) in them.
var edgeNumbers = []string{"0", "1", "-1", "0.7", "-0.7", "0.1", "1e-50", "-1e-50", "1e-45", "2.5", "0.2", "0.8",
	"3.4028235e38", "-3.4028235e38", "3.5e38", "1e300", "-1e300", "2147483647", "-2147483648", "2147483648",
	"-2147483649", "16777217", "0.70000001", "0.70000002"}

// edgeProject writes a project file near and past the limits: ranges, steps and defaults from
// edgeNumbers, enums with the ends of int32, fixed arrays up to 1,024 items and 64 KiB, chains of
// structs, lists and arrays around 16 levels deep, up to 257 fields, and former names that
// sometimes collide or form cycles. Many are refused; the rest must work end to end.
func edgeProject(r *rand.Rand) string {
	num := func() string { return edgeNumbers[r.IntN(len(edgeNumbers))] }
	hints := func(kind string) string {
		var s string
		if r.IntN(3) == 0 {
			s += `, "min": ` + num()
		}
		if r.IntN(3) == 0 {
			s += `, "max": ` + num()
		}
		if r.IntN(6) == 0 {
			s += `, "step": ` + strings.TrimPrefix(num(), "-")
		}
		if r.IntN(4) == 0 {
			switch kind {
			case "int", "float":
				s += `, "default": ` + num()
			case "vec2":
				s += `, "default": [` + num() + `, ` + num() + `]`
			case "vec3":
				s += `, "default": [` + num() + `, ` + num() + `, ` + num() + `]`
			}
		}
		return s
	}
	var structs []string
	// chain declares depth structs named prefix0…, each holding a number and the next (directly,
	// in a list or in a one-item array), and returns the type of the first.
	chain := func(prefix string, depth int) string {
		for i := range depth {
			fs := []string{`{"name": "x", "type": "float"` + hints("float") + `}`}
			if i < depth-1 {
				next := fmt.Sprintf(`"%s%d"`, prefix, i+1)
				switch r.IntN(3) {
				case 0:
					next = `"list", "of": ` + next
				case 1:
					next = `"array", "len": 1, "of": ` + next
				}
				fs = append(fs, `{"name": "next", "type": `+next+`}`)
			}
			structs = append(structs, fmt.Sprintf(`{"name": "%s%d", "fields": [%s]}`, prefix, i, strings.Join(fs, ", ")))
		}
		return fmt.Sprintf(`"%s0"`, prefix)
	}
	field := func(c, i int) string {
		var t string
		switch k := r.IntN(14); k {
		case 0, 1, 2, 3:
			kind := []string{"int", "float", "vec2", "vec3"}[k]
			t = `"` + kind + `"` + hints(kind)
		case 4:
			t = `"color"` + hints("")
		case 5:
			t = fmt.Sprintf(`"array", "len": %d, "of": "%s"`, []int{1, 3, 1024}[r.IntN(3)], []string{"int", "float", "vec4"}[r.IntN(3)]) + hints("")
		case 6:
			t = `"list", "of": "` + []string{"int", "float", "vec3"}[r.IntN(3)] + `"` + hints("")
		case 7:
			t = `"array", "len": 16, "of": {"type": "array", "len": 1024, "of": "float"}` + hints("") // 64 KiB
		case 8:
			t = `"Ends"`
		case 9:
			t = `"enum", "values": [{"name": "Lo", "value": -2147483648}, "Next", {"name": "Hi", "value": 2147483647}]`
		case 10:
			t = []string{`"string"`, `"asset"`, `"bool"`, `"entity"`}[r.IntN(4)]
		default:
			t = chain(fmt.Sprintf("C%dF%dS", c, i), 1+r.IntN(12))
		}
		return fmt.Sprintf(`{"name": "f%d", "type": %s}`, i, t)
	}
	var comps []string
	for c := range 1 + r.IntN(3) {
		var fs []string
		n := r.IntN(5)
		if r.IntN(25) == 0 {
			n = 256 + r.IntN(4)/3
		}
		for i := range n {
			if n > 6 {
				fs = append(fs, fmt.Sprintf(`{"name": "f%d", "type": "float"%s}`, i, hints("float")))
				continue
			}
			fs = append(fs, field(c, i))
		}
		var former []string
		if r.IntN(3) == 0 {
			former = append(former, fmt.Sprintf(`"Old%d"`, c))
		}
		if r.IntN(8) == 0 {
			former = append(former, `"`+[]string{"Old0", "Old1", "C0", "C1", "C2"}[r.IntN(5)]+`"`)
		}
		comps = append(comps, fmt.Sprintf(`{"name": "C%d", "formerNames": [%s], "fields": [%s]}`, c,
			strings.Join(former, ", "), strings.Join(fs, ",\n  ")))
	}
	return `{"format": "voltex.project", "version": 1,
  "enums": [{"name": "Ends", "values": [{"name": "Lo", "value": -2147483648}, {"name": "Hi", "value": 2147483647}]}],
  "structs": [` + strings.Join(structs, ",\n  ") + `],
  "components": [` + strings.Join(comps, ",\n") + `]}`
}

// edgeValue sets v (a value of t's Go type) to the lowest (or highest) value its declaration
// allows: the ends of the field's range, or of int32 and float32 where it has none.
func edgeValue(t *project.Type, h ecs.Hints, v reflect.Value, high bool) {
	switch t.Kind {
	case project.Bool:
		v.SetBool(high)
	case project.Int:
		n := math.Ceil(max(h.Min, math.MinInt32))
		if !h.HasMin {
			n = math.MinInt32
		}
		if high {
			n = math.Floor(min(h.Max, math.MaxInt32))
			if !h.HasMax {
				n = math.MaxInt32
			}
		}
		v.SetInt(int64(n))
	case project.Float:
		f := float32(-math.MaxFloat32)
		if h.HasMin {
			if f = float32(h.Min); float64(f) < h.Min {
				f = math.Nextafter32(f, float32(math.Inf(1)))
			}
		}
		if high {
			f = math.MaxFloat32
			if h.HasMax {
				if f = float32(h.Max); float64(f) > h.Max {
					f = math.Nextafter32(f, float32(math.Inf(-1)))
				}
			}
		}
		v.SetFloat(float64(f))
	case project.String, project.Asset:
		if high {
			v.SetString(map[project.Kind]string{project.String: "é\"\\\n🙂", project.Asset: "builtin:cube"}[t.Kind])
		}
	case project.Vec2, project.Vec3, project.Vec4, project.Color:
		for i := range v.Len() {
			edgeValue(&project.Type{Kind: project.Float}, h, v.Index(i), high)
		}
	case project.EnumKind:
		vals := t.Enum.Values
		v.SetInt(vals[map[bool]int{false: 0, true: len(vals) - 1}[high]].Value)
	case project.Array, project.List:
		if t.Kind == project.List {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			edgeValue(t.Elem, h, v.Index(i), high)
		}
	case project.StructKind:
		for _, f := range t.Struct.Fields {
			edgeValue(f.Type, f.Hints, v.FieldByName(f.GoName), high)
		}
	}
}

// limitProjects are project files exactly at the limits, which must be accepted.
func limitProjects() map[string]string {
	head := `{"format": "voltex.project", "version": 1, `
	// 16 levels: lists of structs each holding a list of the next, the last a list of floats.
	var chain []string
	for i := range 7 {
		chain = append(chain, fmt.Sprintf(`{"name": "S%d", "fields": [{"name": "x", "type": "float", "min": 0.7, "max": 3.4028235e38}, {"name": "next", "type": "list", "of": "S%d"}]}`, i, i+1))
	}
	chain = append(chain, `{"name": "S7", "fields": [{"name": "v", "type": "vec3", "max": -1e-50}]}`)
	var fields []string
	for i := range project.MaxFields {
		fields = append(fields, fmt.Sprintf(`{"name": "f%d", "type": "int", "min": %d, "max": %d}`, i, math.MinInt32+i, math.MaxInt32-i))
	}
	var values []string
	for i := range project.MaxEnumValues {
		values = append(values, fmt.Sprintf(`{"name": "V%d", "value": %d}`, i, math.MaxInt32-i))
	}
	var comps []string
	for i := range ecs.MaxComponents - len(scene.NewWorld().ComponentIDs()) {
		comps = append(comps, fmt.Sprintf(`{"name": "C%d", "formerNames": ["Old%d"]}`, i, i))
	}
	return map[string]string{
		"16 levels":        head + `"structs": [` + strings.Join(chain, ", ") + `], "components": [{"name": "A", "fields": [{"name": "s", "type": "list", "of": "S0"}]}]}`,
		"256 fields":       head + `"components": [{"name": "A", "fields": [` + strings.Join(fields, ", ") + `]}]}`,
		"64 KiB":           head + `"components": [{"name": "A", "fields": [{"name": "a", "type": "array", "len": 16, "of": {"type": "array", "len": 1024, "of": "float"}, "min": -3.4028235e38, "max": 1e-45}]}]}`,
		"1024 enum values": head + `"enums": [{"name": "E", "values": [` + strings.Join(values, ", ") + `]}], "components": [{"name": "A", "fields": [{"name": "e", "type": "array", "len": 1024, "of": "E"}]}]}`,
		"a full world":     head + `"components": [` + strings.Join(comps, ", ") + `]}`,
	}
}

// Every project file Parse and Register accept — near and past every limit — gives scenes that
// round-trip: components at their defaults and at the ends of their ranges save, load with the same
// values, save again to the same bytes, export, load in the game loader and spawn with the same
// values. What they refuse is an *project.Error with a position.
func TestDeclaredEdgeProjectsRoundTrip(t *testing.T) {
	for name, src := range limitProjects() {
		p, err := project.Parse([]byte(src), "p.json")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		mk, err := p.NewWorld(nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		edgeRoundTrip(t, 0, src, p, mk)
	}
	accepted := 0
	const runs = 200
	for seed := range uint64(runs) {
		src := edgeProject(rand.New(rand.NewPCG(seed, 29)))
		p, err := project.Parse([]byte(src), "p.json")
		if err == nil {
			var mk func() *ecs.World
			if mk, err = p.NewWorld(nil); err == nil {
				accepted++
				edgeRoundTrip(t, seed, src, p, mk)
				continue
			}
		}
		var pe *project.Error
		if !errors.As(err, &pe) || len(pe.Problems) == 0 || pe.Problems[0].Line == 0 {
			t.Fatalf("seed %d: refused without a position: %v", seed, err)
		}
	}
	// Both sides of the limits are exercised.
	if accepted < runs/5 || accepted > runs*4/5 {
		t.Fatalf("%d of %d project files accepted", accepted, runs)
	}
}

func edgeRoundTrip(t *testing.T, seed uint64, src string, p *project.Project, mk func() *ecs.World) {
	t.Helper()
	ctx := context.Background()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("seed %d: %s\nproject file:\n%s", seed, fmt.Sprintf(format, args...), src)
	}
	w := mk()
	kinds := []string{"default", "low", "high"}
	var ents []ecs.Entity
	for _, kind := range kinds {
		e := w.Spawn(&scene.Name{Value: kind})
		ents = append(ents, e)
		for _, c := range p.Components {
			v := reflect.New(c.Type).Elem()
			v.Set(reflect.ValueOf(c.Default))
			if kind != "default" {
				edgeValue(&project.Type{Kind: project.StructKind, Struct: &project.Struct{Fields: c.Fields}}, ecs.Hints{}, v, kind == "high")
			}
			id, _ := w.ComponentByName(c.Name)
			if err := w.Add(e, id, v.Interface()); err != nil {
				fail("add %s: %v", c.Name, err)
			}
		}
	}
	s := &serialize.Scene{Name: "edge", World: w}
	var saved bytes.Buffer
	if err := serialize.Save(ctx, &saved, s, serialize.SaveOptions{}); err != nil {
		fail("save: %v", err)
	}
	s2, err := serialize.Load(ctx, bytes.NewReader(saved.Bytes()), serialize.LoadOptions{NewWorld: mk, File: "edge.json", Strict: true})
	if err != nil {
		fail("load: %v", err)
	}
	var again bytes.Buffer
	if err := serialize.Save(ctx, &again, s2, serialize.SaveOptions{}); err != nil {
		fail("save of the loaded scene: %v", err)
	}
	if !bytes.Equal(saved.Bytes(), again.Bytes()) {
		fail("saving the loaded scene gave other bytes")
	}
	var exp bytes.Buffer
	if err := serialize.Export(ctx, &exp, s2); err != nil {
		fail("export: %v", err)
	}
	gs, err := game.LoadWith(&exp, "edge.export.json", game.Limits{})
	if err != nil {
		fail("game load: %v", err)
	}
	gw := mk()
	spawned, err := serialize.SpawnExport(gw, gs)
	if err != nil {
		fail("spawn: %v", err)
	}
	if len(spawned) != len(ents) {
		fail("spawned %d entities, want %d", len(spawned), len(ents))
	}
	byName := map[string]ecs.Entity{}
	for i, ge := range gs.Entities {
		byName[ge.Name] = spawned[i]
	}
	noRefs := func(ecs.Entity) uint64 { return 0 } // the values hold no references
	byID := map[uint64]ecs.Entity{}
	ids2 := sceneIDs(s2.World)
	s2.World.EachEntity(func(e ecs.Entity) bool {
		byID[ids2(e)] = e
		return true
	})
	ids := sceneIDs(w)
	for i, e := range ents {
		for _, c := range p.Components {
			id, _ := w.ComponentByName(c.Name)
			want, _ := w.Get(e, id)
			id2, _ := s2.World.ComponentByName(c.Name)
			got, ok := s2.World.Get(byID[ids(e)], id2)
			if !ok || !sameValue(reflect.ValueOf(want), reflect.ValueOf(got), noRefs, noRefs) {
				fail("entity %d %s loaded as %+v, saved %+v", i, c.Name, got, want)
			}
			gid, _ := gw.ComponentByName(c.Name)
			if got, ok := gw.Get(byName[kinds[i]], gid); !ok || !sameValue(reflect.ValueOf(want), reflect.ValueOf(got), noRefs, noRefs) {
				fail("entity %d %s spawned from the export as %+v, saved %+v", i, c.Name, got, want)
			}
		}
	}
}
