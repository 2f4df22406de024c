package serialize_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/project"
)

// benchProject declares the components of the declared-vs-Go benchmark; benchHealth and benchUnit
// are the same components written in Go (TestBenchTypesAgree checks that they agree).
const benchProject = `{"format": "voltex.project", "version": 1,
  "enums": [{"name": "BenchTeam", "values": ["Red", "Blue"]}],
  "structs": [{"name": "BenchPost", "fields": [{"name": "at", "type": "vec3"}, {"name": "wait", "type": "float", "default": 1}]}],
  "components": [
    {"name": "BenchHealth", "fields": [{"name": "current", "type": "float", "default": 100, "min": 0}, {"name": "max", "type": "float", "default": 100}]},
    {"name": "BenchUnit", "fields": [{"name": "target", "type": "entity"}, {"name": "team", "type": "BenchTeam"},
      {"name": "speed", "type": "float", "default": 2}, {"name": "home", "type": "BenchPost"}, {"name": "label", "type": "string"}]}
  ]}`

type benchTeam int32

func (benchTeam) EnumValues() []ecs.EnumValue {
	return []ecs.EnumValue{{Name: "Red", Value: 0}, {Name: "Blue", Value: 1}}
}

type benchPost struct {
	At   mgl32.Vec3 `json:"at"`
	Wait float32    `json:"wait"`
}

type benchHealth struct {
	Current float32 `json:"current" voltex:"min=0"`
	Max     float32 `json:"max"`
}

func (benchHealth) Default() benchHealth { return benchHealth{Current: 100, Max: 100} }

type benchUnit struct {
	Target ecs.Entity `json:"target"`
	Team   benchTeam  `json:"team"`
	Speed  float32    `json:"speed"`
	Home   benchPost  `json:"home"`
	Label  string     `json:"label"`
}

func (benchUnit) Default() benchUnit { return benchUnit{Speed: 2, Home: benchPost{Wait: 1}} }

// benchGoWorld registers the Go versions of the benchmark's components.
func benchGoWorld() *ecs.World {
	w := scene.NewWorld()
	ecs.Register[benchHealth](w, ecs.WithName("BenchHealth"))
	ecs.Register[benchUnit](w, ecs.WithName("BenchUnit"))
	return w
}

func benchDeclaredWorld(t testing.TB) func() *ecs.World {
	return projectWorld(t)(project.Parse([]byte(benchProject), "bench.project.json"))
}

// benchDeclaredFile is a scene of n entities with a Transform, a name and both benchmark components
// (each unit targets the entity before it).
func benchDeclaredFile(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"format": "voltex.scene", "version": 1, "name": "Bench", "entities": [` + "\n")
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": %d, "name": "Unit %d", "components": {"BenchHealth": {"current": %d, "max": 100}, `+
			`"BenchUnit": {"target": %d, "team": %d, "speed": %g, "home": {"at": [%d, 0, %d], "wait": 1.5}, "label": "u%d"}, `+
			`"Transform": {"position": [%d, 0, %d], "rotation": [0, 0, 0], "scale": [1, 1, 1]}}}`,
			i, i, i%100, i-1, i%2, float32(i%7)/2, i%100, i/100, i, i%100, i/100)
	}
	b.WriteString("\n]}\n")
	var out bytes.Buffer
	s, err := serialize.Load(context.Background(), strings.NewReader(b.String()), serialize.LoadOptions{NewWorld: benchGoWorld})
	if err != nil {
		panic(err)
	}
	if err := serialize.Save(context.Background(), &out, s, serialize.SaveOptions{}); err != nil {
		panic(err)
	}
	return out.Bytes()
}

// The Go types of the benchmark are the declared ones, and both load a file the same way.
func TestBenchTypesAgree(t *testing.T) {
	p, err := project.Parse([]byte(benchProject), "bench.project.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Register(benchGoWorld()); err != nil {
		t.Fatal(err)
	}
	data := benchDeclaredFile(50)
	for name, mk := range map[string]func() *ecs.World{"go": benchGoWorld, "declared": benchDeclaredWorld(t)} {
		s, err := serialize.Load(context.Background(), bytes.NewReader(data), serialize.LoadOptions{NewWorld: mk})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := serialize.Save(context.Background(), &out, s, serialize.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("%s: the round trip changed the file", name)
		}
	}
}

// BenchmarkLoad100kDeclared loads a 100,000-entity scene whose game components come from a project
// file (reflect.StructOf types), and the same scene with the same components registered as Go types,
// alternately in one run. Target: declared ≤ 1.2× go (the "declared/go" metric).
func BenchmarkLoad100kDeclared(b *testing.B) {
	const n = 100_000
	data := benchDeclaredFile(n)
	declared := benchDeclaredWorld(b)
	load := func(mk func() *ecs.World) {
		s, err := serialize.Load(context.Background(), bytes.NewReader(data), serialize.LoadOptions{NewWorld: mk})
		if err != nil || s.World.Len() != n {
			b.Fatal(err)
		}
	}
	var goNs, declNs int64
	b.SetBytes(int64(len(data)) * 2)
	for b.Loop() { // alternately, so that both see the same load of the machine
		t0 := b.Elapsed()
		load(benchGoWorld)
		t1 := b.Elapsed()
		load(declared)
		t2 := b.Elapsed()
		goNs += int64(t1 - t0)
		declNs += int64(t2 - t1)
	}
	b.ReportMetric(float64(goNs)/float64(b.N)/n, "go-ns/entity")
	b.ReportMetric(float64(declNs)/float64(b.N)/n, "declared-ns/entity")
	b.ReportMetric(float64(declNs)/float64(goNs), "declared/go")
}
