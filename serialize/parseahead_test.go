package serialize

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingReader counts the bytes read through it and closes reached once count passes at.
type countingReader struct {
	r       io.Reader
	n       atomic.Int64
	at      int64
	reached chan struct{}
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.n.Add(int64(n)) >= c.at && c.n.Load()-int64(n) < c.at {
		close(c.reached)
	}
	return n, err
}

// While the first entity is being bound, the entities after it are parsed: the input is read far past
// what the decoder's buffer holds before the first entity is handed on.
func TestLoadParsesAhead(t *testing.T) {
	data := longNames()
	const past = 150 << 10 // the decoder reads 64 KiB at a time
	cr := &countingReader{r: strings.NewReader(data), at: past, reached: make(chan struct{})}
	first := true
	r := newSceneReader(context.Background(), NewInput(cr, "ahead.json"), "ahead.json", Limits{}, nil, func(*entityDoc) {
		if !first {
			return
		}
		first = false
		select {
		case <-cr.reached:
		case <-time.After(scaled(20 * time.Second)):
			t.Errorf("binding the first entity, %d bytes of the input read: nothing is parsed ahead", cr.n.Load())
		}
	})
	if h, err := r.read(); err != nil || h == nil {
		t.Fatalf("read: %v %v", h, r.probs.Err())
	}
}

// longNames is a scene of 400 entities with names of 4,000 bytes each (1.6 MB: many decoder buffers).
func longNames() string {
	var sb strings.Builder
	sb.WriteString(`{"format": "voltex.scene", "version": 2, "entities": [`)
	name := strings.Repeat("n", 4000)
	for i := 1; i <= 400; i++ {
		if i > 1 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id": %d, "name": "%s"}`, i, name)
	}
	sb.WriteString("]}")
	return sb.String()
}

// scaled stretches a deadline by VOLTEX_TIMEOUT_SCALE.
func scaled(d time.Duration) time.Duration {
	if f, err := strconv.ParseFloat(os.Getenv("VOLTEX_TIMEOUT_SCALE"), 64); err == nil && f > 1 {
		return time.Duration(float64(d) * f)
	}
	return d
}

// withAhead runs fn with the parse-ahead batches and arenas set, then sets them back.
func withAhead(items, arenaBytes, arenaValues int, fn func()) {
	oi, ob, ov := aheadBatchItems, aheadArenaBytes, aheadArenaValues
	aheadBatchItems, aheadArenaBytes, aheadArenaValues = items, arenaBytes, arenaValues
	defer func() { aheadBatchItems, aheadArenaBytes, aheadArenaValues = oi, ob, ov }()
	fn()
}

// loadOutcome is what a load gives: the saved scene, or the error's text.
func loadOutcome(t *testing.T, data []byte, lim Limits) string {
	s, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{NewWorld: testWorld, Limits: lim, File: "gen.json"})
	if err != nil {
		return "error: " + err.Error()
	}
	return string(saveBytes(t, s))
}

// genScene writes a scene of n entities of many shapes (some broken when broken is set), with
// whitespace that moves every position.
func genScene(r *rand.Rand, n int, broken bool) []byte {
	var b bytes.Buffer
	b.WriteString(`{"format": "voltex.scene", "version": 2, "name": "gen", "entities": [` + "\n")
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(",")
			b.WriteString(strings.Repeat("\n", r.IntN(2)) + strings.Repeat(" ", r.IntN(3)))
		}
		id := i
		if broken && r.IntN(20) == 0 {
			id = r.IntN(n) + 1 // a duplicate
		}
		fmt.Fprintf(&b, `{"id": %d, "name": "e%d%s"`, id, i, strings.Repeat("x", r.IntN(3)*r.IntN(300)))
		if i > 1 && r.IntN(3) == 0 {
			fmt.Fprintf(&b, `, "parent": %d`, r.IntN(i-1)+1)
		}
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, `, "order": %d`, r.IntN(5))
		}
		b.WriteString(`, "components": {`)
		fmt.Fprintf(&b, `"Transform": {"position": [%d, %g, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}`, r.IntN(100), r.Float32())
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, `, "Kinds": {"i": %d, "s": "s%d", "sl": [%s], "nested": {"a": 1, "tags": ["t"]}, "ref": %d}`,
				r.IntN(9), i, strings.TrimSuffix(strings.Repeat("1.5,", r.IntN(40)), ","), r.IntN(n)+1)
		}
		if broken {
			switch r.IntN(40) {
			case 0:
				b.WriteString(`, "Kinds": {"i": "not a number"}`)
			case 1:
				b.WriteString(`, "Nope": {}`)
			case 2:
				b.WriteString(`, "Transform": 3`)
			}
		}
		b.WriteString("}}")
	}
	b.WriteString("\n]}\n")
	data := b.Bytes()
	if broken {
		switch r.IntN(3) {
		case 0: // cut short
			data = data[:r.IntN(len(data))]
		case 1: // a byte changed
			data[r.IntN(len(data))] = "{}[],:\"x0 "[r.IntN(10)]
		}
	}
	return data
}

// Parsing ahead in batches gives what parsing each entity only once the one before it is bound gives
// (a zero arena makes every entity too big for one, so the parser waits for the reader after each):
// the same world, or the same problems at the same places, for generated scenes whole and broken
// (cut anywhere, a byte changed, bad values, duplicate ids, over the entity limit), with batch
// boundaries after every entity, every few, and at arena sizes that end batches mid-way.
func TestParseAheadAgreesWithParsingInTurn(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	trials := 150
	if testing.Short() {
		trials = 30
	}
	failed := 0
	for trial := range trials {
		broken := trial%3 != 0
		data := genScene(r, 1+r.IntN(120), broken)
		lim := Limits{MaxProblems: 1 + r.IntN(30)}
		if r.IntN(5) == 0 {
			lim.MaxEntities = 1 + r.IntN(100)
		}
		var want string
		withAhead(1, 0, 0, func() { want = loadOutcome(t, data, lim) })
		if strings.HasPrefix(want, "error: ") {
			failed++
		}
		for _, c := range [][3]int{{256, 64 << 10, 4 << 10}, {1, 64 << 10, 4 << 10}, {2, 64 << 10, 4 << 10}, {3, 600, 40}, {7, 2000, 100}, {256, 300, 20}} {
			var got string
			withAhead(c[0], c[1], c[2], func() { got = loadOutcome(t, data, lim) })
			if got != want {
				t.Fatalf("trial %d, batches of %d, arena %d bytes %d values: parsing ahead gives\n%.2000s\nin turn\n%.2000s\nscene:\n%.3000s",
					trial, c[0], c[1], c[2], got, want, data)
			}
		}
	}
	if failed < trials/4 || failed > trials*3/4 {
		t.Fatalf("%d of %d generated scenes failed to load: the test needs both kinds", failed, trials)
	}
}

// With Alternate open, the parse waits for the binding of each batch (nothing is parsed more than a batch ahead
// of the entity being bound); once it is closed the parse runs ahead again. Either way the load gives what a
// load without it gives, broken scenes' errors too.
func TestLoadAlternatesUntilClosed(t *testing.T) {
	data := longNames()
	gate := make(chan struct{})
	cr := &countingReader{r: strings.NewReader(data), at: int64(len(data)), reached: make(chan struct{})}
	bound := 0
	r := newSceneReader(context.Background(), NewInput(cr, "alt.json"), "alt.json", Limits{}, nil, func(*entityDoc) {
		bound++
		// One batch is at most a quarter arena of names (64 KiB / 4 / 4 KB: 4 entities) ahead, and the decoder's
		// buffer reads 64 KiB at a time: far less than a parse run ahead would have read.
		if read, want := cr.n.Load(), int64(bound*4000+200<<10); gate != nil && read > want {
			t.Errorf("binding entity %d with %d bytes read: the parse ran ahead while alternating", bound, read)
		}
		if bound == 200 {
			close(gate)
			gate = nil
		}
	})
	r.alternate = gate
	if h, err := r.read(); err != nil || h == nil {
		t.Fatalf("read: %v %v", h, r.probs.Err())
	}
	if bound != 400 {
		t.Fatalf("%d entities bound, want 400", bound)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 20 {
		scene := genScene(rng, 50+rng.IntN(300), i%3 == 0)
		want := loadOutcome(t, scene, Limits{})
		open := make(chan struct{})
		s, err := Load(context.Background(), bytes.NewReader(scene), LoadOptions{NewWorld: testWorld, File: "gen.json", Alternate: open})
		got := ""
		if err != nil {
			got = "error: " + err.Error()
		} else {
			got = string(saveBytes(t, s))
		}
		if got != want {
			t.Fatalf("scene %d: alternating gives\n%.400s\nwant\n%.400s", i, got, want)
		}
	}
}
