package glrender

import (
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// bigScene is n unit cubes on a 400-wide grid, spacing 1.5.
func bigScene(b testing.TB, n int) *viewport.DrawList {
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, builtin(b, assets.BuiltinCube))
	for i := range n {
		x, z := i%400, i/400
		dl.Set(assets.BuiltinCube, viewport.Instance{
			World: mgl32.Translate3D(float32(x)*1.5, 0.5, float32(z)*1.5),
			Color: [4]float32{float32(x%7) / 7, float32(z%5) / 5, 0.6, 1},
			ID:    uint32(i + 1),
		})
	}
	return dl
}

// BenchmarkRender100k renders 100,000 cubes per frame three ways in the
// same run, each frame ended by glFinish so the (llvmpipe) GPU work counts:
//
//   - instanced: the renderer — one draw call per mesh, and one Transform
//     edit per frame uploaded incrementally;
//   - uniforms: the Phase-3a method with GL uniforms — per entity, set the
//     model/colour/id uniforms and draw;
//   - ubo: the Phase-3a plan literally — per entity, rewrite the uniform
//     buffer (glBufferSubData), bind the mesh and draw.
//
// Metrics: ms per frame each way, the speed-ups of instancing over each,
// draw calls per frame, and bytes uploaded per frame by the instanced path.
func BenchmarkRender100k(b *testing.B) {
	const n = 100_000
	const w, h = 256, 256
	dl := bigScene(b, n)
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), 1)
	c := glContext(b)
	if err := c.Do(func() {
		r, err := New()
		if err != nil {
			b.Fatal(err)
		}
		defer r.Delete()
		var bl baseline
		defer bl.delete()
		r.Settings.Grid = false
		if err := r.Resize(w, h); err != nil {
			b.Fatal(err)
		}
		modes := []drawMode{drawInstanced, drawUniforms, drawUBO}
		for _, m := range modes { // first upload and shader compiles, untimed
			if err := bl.render(r, dl, cam, m); err != nil {
				b.Fatal(err)
			}
		}
		gl.Finish()
		var took [3]time.Duration
		var calls [3]int
		var uploaded, frames int
		for b.Loop() {
			frames++
			dl.SetWorld(uint32(frames%n+1), mgl32.Translate3D(0, float32(frames%3), 0))
			for i, m := range modes {
				t0 := time.Now()
				if err := bl.render(r, dl, cam, m); err != nil {
					b.Fatal(err)
				}
				gl.Finish()
				took[i] += time.Since(t0)
				s := r.Stats()
				calls[i] = s.DrawCalls
				if m == drawInstanced {
					uploaded = s.UploadedBytes
				}
			}
		}
		ms := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(frames) }
		b.ReportMetric(ms(took[0]), "instanced-ms/frame")
		b.ReportMetric(ms(took[1]), "uniforms-ms/frame")
		b.ReportMetric(ms(took[2]), "ubo-ms/frame")
		b.ReportMetric(float64(took[1])/float64(took[0]), "speedup-vs-uniforms")
		b.ReportMetric(float64(took[2])/float64(took[0]), "speedup-vs-ubo")
		b.ReportMetric(float64(calls[0]), "instanced-draws/frame")
		b.ReportMetric(float64(calls[1]), "per-entity-draws/frame")
		b.ReportMetric(float64(uploaded), "instanced-upload-B/frame")
	}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRenderEditorFrame renders the default scene (20×20 cubes on the
// grid) at 1280×720 with one transform edit per frame: what one editor
// viewport redraw costs on this machine.
func BenchmarkRenderEditorFrame(b *testing.B) {
	dl := cubesScene(b, 20)
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), 1280.0/720)
	withRenderer(b, 1280, 720, func(r *Renderer) {
		frames := 0
		for b.Loop() {
			frames++
			dl.SetWorld(uint32(frames%400+1), mgl32.Translate3D(0, float32(frames%3), 0))
			if err := r.Render(dl, cam); err != nil {
				b.Fatal(err)
			}
			gl.Finish()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(frames), "ms/frame")
		b.ReportMetric(float64(r.Stats().DrawCalls), "draws/frame")
	})
}

// BenchmarkRender10kTexturedInstances renders 10,000 cubes in colours and the same 10,000 cubes with a textured
// metallic-roughness material (a 256×256 mipmapped sRGB texture) in the same run, a whole picture each frame (the
// view turns a little), each frame ended by glFinish. Metrics: ms per frame each way and their ratio (the cost
// of a textured instance against a flat-colour one), and the draw calls of the textured picture (instanced: a
// few per material, not per entity); and maps/flat, the cost of the same cubes with vertex colours and normal,
// occlusion and emissive maps besides.
func BenchmarkRender10kTexturedInstances(b *testing.B) {
	const n = 10_000
	const w, h = 512, 512
	flat := bigScene(b, n)
	textured := viewport.NewDrawList()
	const ref = "builtin:cube\x00textured"
	textured.SetMesh(ref, builtin(b, assets.BuiltinCube))
	img := checker(256, [4]byte{200, 120, 60, 255}, [4]byte{60, 120, 200, 255})
	mat := scene.Material{}.Default()
	mat.Metallic, mat.Roughness = 0.2, 0.5
	textured.SetMaterial(ref, &viewport.Material{Material: mat, BaseColorImage: img})
	for _, bt := range flat.Batches() {
		for _, ch := range bt.Chunks() {
			for _, in := range ch.Instances {
				textured.Set(ref, in)
			}
		}
	}
	// The same cubes with every map and vertex colours: the most a material costs.
	mapped := viewport.NewDrawList()
	const mref = "builtin:cube\x00mapped"
	cube := builtin(b, assets.BuiltinCube)
	coloured := withExtras(cube, nil, nil)
	for i := range cube.VertexCount() {
		p := cube.Position(i)
		coloured.Colors = append(coloured.Colors, p[0]+0.5, p[1]+0.5, p[2]+0.5, 1)
		coloured.Tangents = append(coloured.Tangents, 1, 0, 0, 1)
	}
	mapped.SetMesh(mref, coloured)
	maps := mat
	maps.Emissive = [3]float32{0.2, 0.1, 0}
	mapped.SetMaterial(mref, &viewport.Material{Material: maps, BaseColorImage: img, NormalImage: stripes(64, [4]byte{218, 128, 202, 255}, [4]byte{38, 128, 202, 255}),
		OcclusionImage: stripes(64, [4]byte{255, 255, 255, 255}, [4]byte{90, 90, 90, 255}), EmissiveImage: img})
	for _, bt := range flat.Batches() {
		for _, ch := range bt.Chunks() {
			for _, in := range ch.Instances {
				mapped.Set(mref, in)
			}
		}
	}
	cam := viewport.DefaultCamera()
	cam.Frame(flat.Bounds(), 1)
	withRenderer(b, w, h, func(r *Renderer) {
		r.Settings.Grid = false
		lists := []*viewport.DrawList{flat, textured, mapped}
		for _, dl := range lists { // first uploads and shader compiles, untimed
			if err := r.Render(dl, cam); err != nil {
				b.Fatal(err)
			}
		}
		gl.Finish()
		var took [3]time.Duration
		var calls [3]int
		frames := 0
		for b.Loop() {
			frames++
			for i, dl := range lists {
				c := cam
				c.Yaw += float32(frames) * 0.01 // a new view: no kept picture serves it
				t0 := time.Now()
				if err := r.Render(dl, c); err != nil {
					b.Fatal(err)
				}
				gl.Finish()
				took[i] += time.Since(t0)
				calls[i] = r.Stats().DrawCalls
			}
		}
		ms := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(frames) }
		b.ReportMetric(ms(took[0]), "flat-ms/frame")
		b.ReportMetric(ms(took[1]), "textured-ms/frame")
		b.ReportMetric(float64(took[1])/float64(took[0]), "textured/flat")
		b.ReportMetric(float64(calls[1]), "textured-draws/frame")
		b.ReportMetric(float64(took[2])/float64(took[0]), "maps/flat")
	})
}
