package editor

import (
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// trimAfter is how many bytes the Go heap allocates, since the memory was last given back, before an editor going
// idle gives it back again (memTrim).
const trimAfter = 64 << 20

// memTrim gives the memory of big passing work back to the system when the editor goes idle after it: a save's
// clone of the world, what an open, a delete or its undo built and dropped. The collector alone keeps it: an idle
// editor allocates nothing, so no collection runs to find that garbage, and the runtime keeps freed pages up to
// its heap goal (set by the live heap of the last collection, the garbage included). At a million cubes that was a
// few hundred MB of resident memory after a session of edits. A trim is one collection and a release of the free
// pages (debug.FreeOSMemory, and the C heap's: release) on a goroutine of its own, at most once per trimAfter bytes
// allocated: editing a few values never triggers one, and an idle editor costs nothing.
type memTrim struct {
	// release, if set, gives the C heap's free pages back too (glrender.ReleaseFreedMemory: the GL driver's
	// buffers that the renderer freed).
	release func()
	running atomic.Bool
	at      uint64 // the heap's allocated bytes (/gc/heap/allocs:bytes) when the last trim started
	sample  [1]metrics.Sample
}

// due reports whether enough was allocated since the last trim (and none is running).
func (m *memTrim) due() bool {
	if m.running.Load() {
		return false
	}
	if m.sample[0].Name == "" {
		m.sample[0].Name = "/gc/heap/allocs:bytes"
	}
	metrics.Read(m.sample[:])
	return m.sample[0].Value.Kind() == metrics.KindUint64 && m.sample[0].Value.Uint64()-m.at >= trimAfter
}

// start begins a trim; done is called on its goroutine when it has ended.
func (m *memTrim) start(done func()) {
	m.at = m.sample[0].Value.Uint64()
	m.running.Store(true)
	go func() {
		debug.FreeOSMemory()
		if m.release != nil {
			m.release()
		}
		m.running.Store(false)
		done()
	}()
}
