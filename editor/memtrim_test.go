package editor

import (
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
)

// heapBytes returns a memory class of the runtime/metrics heap classes ("objects", "free", "released").
func heapBytes(class string) uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/" + class + ":bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

var live, sink [][]byte

func allocMB(dst [][]byte, mb int) [][]byte {
	for range mb {
		dst = append(dst, make([]byte, 1<<20))
	}
	return dst
}

// TestMemTrimKeepsThenGivesBack: a collection that frees less than a quarter of what stays live frees it but keeps
// its pages (the C heap's too). Giving back is due only after releaseAfter of idle, and then the free memory goes
// back to the system, the C heap's too. After more than trimAfter bytes were allocated, a collection is due; one that
// frees more than a quarter of what stays live gives it back at once; right after it none is due.
func TestMemTrimKeepsThenGivesBack(t *testing.T) {
	var released atomic.Int32
	m := memTrim{release: func() { released.Add(1) }}
	wait := func(start func(func())) {
		done := make(chan struct{})
		start(func() { close(done) })
		<-done
		for m.running.Load() {
			runtime.Gosched()
		}
	}
	m.due()
	wait(m.start)
	wait(m.startRelease)
	if m.due() {
		t.Fatal("a collection is due right after one")
	}
	if m.releaseDue(releaseAfter) {
		t.Fatal("giving back is due right after it ran, with no collection since")
	}

	const liveMB, garbageMB = 128, 24
	live = allocMB(nil, liveMB)
	wait(m.startRelease)
	released.Store(0)
	sink = allocMB(nil, garbageMB)
	sink = nil
	wait(m.start)
	if got := heapBytes("objects") >> 20; got > liveMB+garbageMB/2 {
		t.Errorf("%d MB of objects after the collection, want the %d MB dropped beside %d MB live collected", got,
			garbageMB, liveMB)
	}
	if got := heapBytes("free") >> 20; got < garbageMB/2 {
		t.Errorf("%d MB of the heap free after the collection, want most of the %d MB dropped kept", got, garbageMB)
	}
	if n := released.Load(); n != 0 {
		t.Errorf("the C heap was released %d times by a collection that keeps its pages", n)
	}
	if m.releaseDue(releaseAfter - 1) {
		t.Error("giving back is due before releaseAfter of idle")
	}
	if !m.releaseDue(releaseAfter) {
		t.Fatal("giving back is not due after releaseAfter of idle")
	}
	wait(m.startRelease)
	if got := heapBytes("free") >> 20; got > garbageMB/4 {
		t.Errorf("%d MB of the heap free but kept after giving back, of %d MB dropped", got, garbageMB)
	}
	if n := released.Load(); n != 1 {
		t.Errorf("the C heap was released %d times by giving back", n)
	}
	if m.releaseDue(releaseAfter) {
		t.Error("giving back is due right after it ran")
	}

	live = nil
	const bigMB = trimAfter>>20 + 32
	sink = allocMB(nil, bigMB)
	sink = nil
	if !m.due() {
		t.Fatalf("no collection due after %d MB were allocated", bigMB)
	}
	wait(m.start)
	if got := heapBytes("free") >> 20; got > garbageMB/4 {
		t.Errorf("%d MB of the heap free but kept after a collection that freed %d MB beside little live", got,
			liveMB+bigMB)
	}
	if n := released.Load(); n != 2 {
		t.Errorf("the C heap was released %d times, want twice", n)
	}
	if m.due() {
		t.Error("a collection is due right after one")
	}
	if m.releaseDue(releaseAfter) {
		t.Error("giving back is due right after a collection gave back")
	}
}
