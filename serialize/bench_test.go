package serialize

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// benchScene returns a scene of n cubes with Transform, Name, Mesh, Color
// and Spin (a 100-wide grid with a colour gradient), as used by the
// benchmarks.
func benchScene(n int) *Scene {
	w := scene.NewWorld()
	p := scene.GridParams{Count: [3]int{100, 1, (n + 99) / 100}, Spacing: mgl32.Vec3{1.5, 1.5, 1.5},
		ColorFrom: [4]float32{0.2, 0.5, 1, 1}, ColorTo: [4]float32{1, 0.3, 0.1, 1},
		Spin: &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 45}}
	scene.SpawnGrid(w, p)
	return &Scene{Name: "Bench", World: w, Camera: &scene.EditorCamera{Yaw: 30, Pitch: -25, Distance: 40}}
}

func benchFile(b *testing.B, n int) []byte {
	var buf bytes.Buffer
	if err := Save(context.Background(), &buf, benchScene(n), SaveOptions{}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// The baseline: encoding/json into structs that mirror the file.
type (
	mirrorDoc struct {
		Format   string         `json:"format"`
		Version  int            `json:"version"`
		Name     string         `json:"name"`
		Editor   *mirrorEditor  `json:"editor,omitempty"`
		Entities []mirrorEntity `json:"entities"`
	}
	mirrorEditor struct {
		Camera struct {
			Pivot    [3]float32 `json:"pivot"`
			Yaw      float32    `json:"yaw"`
			Pitch    float32    `json:"pitch"`
			Distance float32    `json:"distance"`
		} `json:"camera"`
	}
	mirrorEntity struct {
		ID         uint64 `json:"id"`
		Name       string `json:"name"`
		Parent     uint64 `json:"parent,omitempty"`
		Components struct {
			Color *struct {
				RGBA [4]float32 `json:"rgba"`
			} `json:"Color,omitempty"`
			Mesh *struct {
				Asset string `json:"asset"`
			} `json:"Mesh,omitempty"`
			Spin *struct {
				Axis  [3]float32 `json:"axis"`
				Speed float32    `json:"speed"`
			} `json:"Spin,omitempty"`
			Transform *struct {
				Position [3]float32 `json:"position"`
				Rotation [3]float32 `json:"rotation"`
				Scale    [3]float32 `json:"scale"`
			} `json:"Transform,omitempty"`
		} `json:"components"`
	}
)

// BenchmarkLoad100k loads a 100,000-cube scene (file in memory → new
// world) and, beside it, unmarshals the same bytes with encoding/json into
// mirror structs. Target: voltex ≤ 1.2× encoding-json.
func BenchmarkLoad100k(b *testing.B) {
	data := benchFile(b, 100_000)
	b.Run("voltex", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			s, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{})
			if err != nil || s.World.Len() != 100_000 {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/entity")
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var d mirrorDoc
			if err := json.Unmarshal(data, &d); err != nil || len(d.Entities) != 100_000 {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/entity")
	})
}

// BenchmarkSave100k saves a 100,000-cube world and, beside it, marshals the
// mirror structs of the same scene with encoding/json. Target: voltex ≤
// 1.2× encoding-json.
func BenchmarkSave100k(b *testing.B) {
	s := benchScene(100_000)
	data := benchFile(b, 100_000)
	b.Run("voltex", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if err := Save(context.Background(), io.Discard, s, SaveOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/entity")
	})
	b.Run("encoding-json", func(b *testing.B) {
		var d mirrorDoc
		if err := json.Unmarshal(data, &d); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			out, err := json.Marshal(&d)
			if err != nil || len(out) == 0 {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/entity")
	})
}

var _ = ecs.Entity{}
