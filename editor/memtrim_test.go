package editor

import (
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
)

// heapReleased returns the bytes of the heap the runtime has given back to the system.
func heapReleased() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

var sink [][]byte

// TestMemTrimGivesBackWhatWasDropped: after more than trimAfter bytes were allocated and dropped, a trim is due and
// gives the dropped memory back to the system (and the C heap's, through release); right after it none is due.
func TestMemTrimGivesBackWhatWasDropped(t *testing.T) {
	var released atomic.Int32
	m := memTrim{release: func() { released.Add(1) }}
	m.due()
	m.start(func() {})
	for m.running.Load() {
		runtime.Gosched()
	}
	if m.due() {
		t.Fatal("a trim is due right after one")
	}
	const garbage = 2 * trimAfter
	for range garbage / (1 << 20) {
		sink = append(sink, make([]byte, 1<<20))
	}
	sink = nil
	if !m.due() {
		t.Fatalf("no trim due after %d MB were allocated", garbage>>20)
	}
	before := heapReleased()
	done := make(chan struct{})
	m.start(func() { close(done) })
	<-done
	if got := int64(heapReleased()) - int64(before); got < garbage/2 {
		t.Errorf("the trim gave back %d MB of the %d MB dropped, want at least half", got>>20, garbage>>20)
	}
	if m.due() {
		t.Error("a trim is due right after one")
	}
	if n := released.Load(); n != 2 {
		t.Errorf("the C heap was released %d times in two trims", n)
	}
}
