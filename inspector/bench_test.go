package inspector

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields/fieldstest"
)

// BenchmarkInspectorFrame builds and renders one frame of the inspector in a windowless ImGui
// context: one entity carrying every kind of field plus a Transform, in a world of 100,000 entities.
func BenchmarkInspectorFrame(b *testing.B) {
	s := newScene(b)
	for i := range 100_000 {
		s.w.Spawn(ecs.Transform{Position: mgl32.Vec3{float32(i), 0, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	}
	h := newHarness(b, s.w)
	h.sel = s.es[:1]
	h.frames(3)
	widgets := len(h.p.debug.byKey)
	h.p.debug = nil // as in the editor
	for b.Loop() {
		h.frame()
	}
	b.ReportMetric(float64(widgets), "widgets")
}

// BenchmarkInspectorFrameMulti: the same with 1,000 selected entities (mixed values), while a
// system-like writer changes them every frame.
func BenchmarkInspectorFrameMulti(b *testing.B) {
	s := newScene(b)
	var sel []ecs.Entity
	for i := range 1000 {
		sel = append(sel, s.w.Spawn(fieldstest.Sample(i), ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}}))
	}
	h := newHarness(b, s.w)
	h.sel = sel
	h.frames(3)
	h.p.debug = nil
	i := 0
	for b.Loop() {
		i++
		_ = s.w.SetField(sel[i%len(sel)], s.everything, "angle", float32(i))
		s.w.Update()
		h.frame()
	}
}

// BenchmarkInspectorFrameSelectAll: 100,000 selected cubes (Select All), their positions all
// different. The first frames scan the selection within the budget; then the world is quiet and
// the result is kept. The world's tick advances every frame, as the viewport's Changed queries
// make it do in the editor (without that, the scan repeats within its budget).
func BenchmarkInspectorFrameSelectAll(b *testing.B) {
	w := ecs.NewWorld()
	sel := make([]ecs.Entity, 100_000)
	for i := range sel {
		sel[i] = w.Spawn(ecs.Transform{Position: mgl32.Vec3{float32(i), 0, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	}
	h := newHarness(b, w)
	h.sel = sel
	h.p.debug = nil
	scanning := 0
	for !h.p.Selection().Complete() {
		h.frame()
		scanning++
	}
	for b.Loop() {
		w.Update()
		h.frame()
	}
	b.ReportMetric(float64(scanning), "frames-to-scan")
}
