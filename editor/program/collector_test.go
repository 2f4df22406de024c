package program

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/voltex-editor/voltex/serialize/merge"
)

func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

var sink [][]byte

// allocate allocates n bytes in 1 MiB blocks, kept in sink if keep.
func allocate(n int, keep bool) {
	for range n >> 20 {
		b := make([]byte, 1<<20)
		b[0] = 1
		if keep {
			sink = append(sink, b)
		}
	}
}

func TestHoldCollector(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	defer func() { sink = nil }()
	runtime.GC()

	// Held: what is kept grows without a collection.
	release := holdCollector(256 << 20)
	before := gcCycles()
	allocate(96<<20, true)
	if n := gcCycles() - before; n != 0 {
		t.Errorf("%d collections while held with room to spare", n)
	}
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("GC percent %d while held, want -1", p)
	}
	release()
	release() // a second call changes nothing
	if p := debug.SetGCPercent(25); p != 25 {
		t.Errorf("GC percent %d after release, want 25 again", p)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("memory limit %d after release, want none again", l)
	}
	sink = nil
	runtime.GC()

	// Past the room, the collector runs: garbage stays within it.
	release = holdCollector(32 << 20)
	before = gcCycles()
	allocate(256<<20, false)
	if gcCycles() == before {
		t.Error("no collection with garbage eight times the room")
	}
	release()

	// GOGC in the environment wins.
	t.Setenv("GOGC", "50")
	holdCollector(1 << 30)()
	if p := debug.SetGCPercent(25); p != 25 {
		t.Errorf("GC percent %d with GOGC set, want the program's 25 untouched", p)
	}
}

func TestSidesRoom(t *testing.T) {
	if r := sidesRoom(100, 0, 100); r != 0 {
		t.Errorf("a stream among the sides: room %d, want none", r)
	}
	if r, want := sidesRoom(100, 1, 300), merge.SideLimits.MaxFileSize/2+802; r != want {
		t.Errorf("room %d, want %d", r, want)
	}
}
