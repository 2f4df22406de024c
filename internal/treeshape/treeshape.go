package treeshape

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// Names lists the shapes, flat (the baseline) first.
var Names = []string{"flat", "chain", "wide", "random"}

// Parents returns the parent of each of n entities as an index (-1 for a root) for the named
// shape; a parent always comes before its children. random is the same for the same n.
func Parents(shape string, n int) []int {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	ps := make([]int, n)
	for i := range ps {
		switch shape {
		case "flat":
			ps[i] = -1
		case "chain":
			ps[i] = i - 1
		case "wide":
			ps[i] = min(i-1, 0)
		case "random":
			ps[i] = -1
			if i > 0 {
				ps[i] = r.IntN(i)
			}
		default:
			panic(fmt.Sprintf("treeshape: unknown shape %q (one of %v)", shape, Names))
		}
	}
	return ps
}

// WriteScene writes a voltex.scene file of len(parents) entities (ids 1..n, entity i has id
// i+1) linked as parents says, each with a Transform that moves it 1 along X from its parent.
func WriteScene(w io.Writer, parents []int) error {
	b := make([]byte, 0, 64<<10)
	b = append(b, `{"format": "voltex.scene", "version": 1, "name": "shape", "entities": [`...)
	for i, p := range parents {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n{\"id\": "...)
		b = strconv.AppendInt(b, int64(i+1), 10)
		if p >= 0 {
			b = append(b, `, "parent": `...)
			b = strconv.AppendInt(b, int64(p+1), 10)
		}
		b = append(b, `, "components": {"Transform": {"position": [1, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}}}`...)
		if len(b) > 60<<10 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, "\n]}\n"...)
	_, err := w.Write(b)
	return err
}

// Benchmark times run on every shape (in the order of Names) in the same iterations — prepare
// makes its input of n entities, untimed — and reports ns/entity per shape and each shape's time
// relative to flat: "chain/flat" is the figure with a target (linear work gives about 1–3). run
// may leave setup out of the timing with the Timer's Pause and Resume.
func Benchmark[T any](b *testing.B, n int, prepare func(shape string) T, run func(in T, t *Timer)) {
	inputs := make([]T, len(Names))
	for i, shape := range Names {
		inputs[i] = prepare(shape)
	}
	timers := make([]Timer, len(Names))
	for b.Loop() {
		for i, in := range inputs {
			timers[i].Resume()
			run(in, &timers[i])
			timers[i].Pause()
		}
	}
	for i, shape := range Names {
		b.ReportMetric(float64(timers[i].total.Nanoseconds())/float64(b.N)/float64(n), shape+"-ns/entity")
		if i > 0 {
			b.ReportMetric(float64(timers[i].total)/float64(timers[0].total), shape+"/flat")
		}
	}
}

// Timer adds up the time between Resume and Pause.
type Timer struct {
	total time.Duration
	start time.Time
}

// Pause stops counting.
func (t *Timer) Pause() { t.total += time.Since(t.start) }

// Resume counts again.
func (t *Timer) Resume() { t.start = time.Now() }
