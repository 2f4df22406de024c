package fields_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/voltex-editor/voltex/inspector/fields/fieldstest"
)

// FuzzFloatValue: whatever a user types, an accepted value is finite and inside the field's range,
// and only NaN and ±Inf are refused.
func FuzzFloatValue(f *testing.F) {
	for _, x := range []float64{0, -1, 1e39, -1e39, 0.5, math.NaN(), math.Inf(1), math.SmallestNonzeroFloat64, 255.5} {
		f.Add(x)
	}
	_, c, _ := model(f)
	paths := []string{"speed", "precise", "angle", "tint[]", "inner.weight", "position[]"}
	f.Fuzz(func(t *testing.T, x float64) {
		for _, p := range paths {
			fd := c.Find(p)
			v, ok := fd.FloatValue(x)
			finite := !math.IsNaN(x) && !math.IsInf(x, 0)
			if ok != finite {
				t.Fatalf("%s: FloatValue(%g) ok=%v", p, x, ok)
			}
			if !ok {
				continue
			}
			y := reflect.ValueOf(v).Float()
			if math.IsNaN(y) || math.IsInf(y, 0) || y < fd.Min || y > fd.Max {
				t.Fatalf("%s: FloatValue(%g) = %g outside [%g,%g]", p, x, y, fd.Min, fd.Max)
			}
		}
	})
}

// FuzzSanitize: a sanitized value is valid everywhere, and sanitizing is idempotent.
func FuzzSanitize(f *testing.F) {
	f.Add(1.0, 2.0, int32(3), uint16(4), int16(5))
	f.Add(math.NaN(), math.Inf(-1), int32(-100), uint16(65535), int16(-32768))
	_, c, _ := model(f)
	f.Fuzz(func(t *testing.T, a, b float64, n int32, u uint16, s int16) {
		v := fieldstest.Sample(1)
		v.Speed, v.Precise, v.Angle = float32(a), b, float32(b)
		v.Tint = [4]float32{float32(a), float32(b), float32(-a), float32(b * 2)}
		v.Count, v.Flags, v.Weights[1] = n, u, s
		v.Points[0].Weight = float32(a)
		rv := reflect.ValueOf(&v).Elem()
		c.Sanitize(rv)
		if c.Sanitize(rv) {
			t.Fatalf("second Sanitize changed %+v", v)
		}
		for _, x := range []float64{float64(v.Speed), v.Precise, float64(v.Angle), float64(v.Tint[0]), float64(v.Tint[3]), float64(v.Points[0].Weight)} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("non-finite value left: %+v", v)
			}
		}
		if v.Speed < 0 || v.Speed > 10 || v.Count < -5 || v.Count > 5 || v.Flags > 1000 || v.Weights[1] < 0 || v.Weights[1] > 100 ||
			v.Tint[1] < 0 || v.Tint[1] > 1 || v.Points[0].Weight < 0 || v.Points[0].Weight > 1 {
			t.Fatalf("out of range: %+v", v)
		}
	})
}
