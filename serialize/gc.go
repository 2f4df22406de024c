package serialize

import (
	"runtime/debug"
	"sync"
)

// Big loads and saves tighten the garbage collector while they run: with
// the default GOGC of 100 the heap may grow to twice what is live before a
// collection, and a world that doubles its tables as a million entities
// stream in leaves a lot of short-lived garbage, so the peak memory of a
// load would be far above the size of the world. At GOGC 25 it stays close
// to it (see TestPeakRSS1M) for a few percent more CPU.
const (
	tightGCPercent  = 25
	tightGCFileSize = 64 << 20 // loads of files at least this big
	tightGCEntities = 200_000  // saves of worlds at least this big
	gcNotChanged    = -2       // sentinel: nothing to restore
	gcOff           = -1       // what SetGCPercent reports for GOGC=off
)

var gcTight struct {
	sync.Mutex
	users int
	prev  int
}

// tightenGC lowers the GC percent to tightGCPercent until the returned
// function is called (nested and concurrent calls share one change). A
// lower setting, or GOGC=off, is left alone.
func tightenGC() (restore func()) {
	gcTight.Lock()
	defer gcTight.Unlock()
	if gcTight.users == 0 {
		prev := debug.SetGCPercent(tightGCPercent)
		if prev == gcOff || prev <= tightGCPercent {
			debug.SetGCPercent(prev)
			prev = gcNotChanged
		}
		gcTight.prev = prev
	}
	gcTight.users++
	return func() {
		gcTight.Lock()
		defer gcTight.Unlock()
		gcTight.users--
		if gcTight.users == 0 && gcTight.prev != gcNotChanged {
			debug.SetGCPercent(gcTight.prev)
		}
	}
}
