package program

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/voltex-editor/voltex/serialize/merge"
)

// holdCollector holds the garbage collector back (debug.SetGCPercent(-1)) under a memory limit of what the
// runtime holds now plus room (debug.SetMemoryLimit), until the returned release (which may be called more
// than once) restores both settings. Reading the sides of a diff or merge, merging them and writing the result
// keep nearly everything they allocate: a collection while the sides grow finds little garbage and marks them
// all again, which with the program's target (serialize.GCPercent) was more than half the time of a
// 1,000,000-entity merge. Past the limit the collector runs as usual, so garbage never takes more than room.
// GOGC or GOMEMLIMIT in the environment win: then nothing is held.
func holdCollector(room int64) (release func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" || room <= 0 {
		return func() {}
	}
	limit := debug.SetMemoryLimit(runtimeMemory() + room)
	percent := debug.SetGCPercent(-1)
	return sync.OnceFunc(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

// runtimeMemory returns the memory the Go runtime holds, as debug.SetMemoryLimit counts it.
func runtimeMemory() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// sidesRoom is the room holdCollector gets for a diff or merge of sides of these sizes in bytes (0 for
// a stream, whose size is unknown: then none, and the collector runs as usual): twice their size, and
// half a side's size limit for what the work around them allocates. Read sides take about 1.4 times
// their size, so they are read without a collection, and the room is within the budget of
// docs/limits.md (the size limit, 1 GiB, and 5 or 3.5 times the sides).
func sidesRoom(sizes ...int64) int64 {
	room := merge.SideLimits.MaxFileSize / 2
	for _, n := range sizes {
		if n <= 0 {
			return 0
		}
		room += 2 * n
	}
	return room
}
