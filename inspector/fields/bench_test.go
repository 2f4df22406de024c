package fields_test

import (
	"reflect"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields"
	"github.com/voltex-editor/voltex/inspector/fields/fieldstest"
)

func BenchmarkDiff(b *testing.B) {
	_, c, _ := model(b)
	x, y := reflect.ValueOf(fieldstest.Sample(0)), reflect.ValueOf(fieldstest.Sample(1))
	var bits fields.Bits
	for b.Loop() {
		bits.Reset()
		c.Diff(x, y, &bits)
	}
	b.ReportMetric(float64(c.Nodes(x)), "nodes")
}

// BenchmarkSelection100k: one Update over a 100,000-entity selection of Transform entities, with
// the default budget (a pass takes several updates).
func BenchmarkSelection100k(b *testing.B) {
	w := ecs.NewWorld()
	es := make([]ecs.Entity, 100_000)
	for i := range es {
		es[i] = w.Spawn(ecs.Transform{})
	}
	var cache fields.Cache
	var s fields.Selection
	updates := 0
	for !s.Complete() { // how many updates the first pass takes
		s.Update(w, es, &cache)
		updates++
	}
	for b.Loop() {
		s.Update(w, es, &cache)
	}
	b.ReportMetric(float64(updates), "updates/pass")
}

func BenchmarkTrackerObserve(b *testing.B) {
	w, c, id := model(b)
	e := w.Spawn(fieldstest.Sample(0))
	var tr fields.Tracker
	now := 0.0
	for b.Loop() {
		now += 1.0 / 60
		tr.BeginFrame(w, now)
		tr.Observe(e, id, c, reflect.Value{})
		w.Update() // ticks advance as in play mode: unchanged components are not compared
	}
}
