package editor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

const (
	// trimAfter is how many bytes the Go heap allocates, since the last collection the editor started, before an
	// editor going idle collects again (memTrim).
	trimAfter = 64 << 20
	// releaseAfter is how long the editor stays idle after such a collection before it gives its free memory back.
	releaseAfter = 30 * time.Second
)

// memTrim collects the garbage of big passing work when the editor goes idle after it (a save's clone of the world,
// what an open, a delete or its undo built and dropped), and gives the free memory back to the system once the
// editor has stayed idle for releaseAfter. The collector alone would keep that garbage: an idle editor allocates
// nothing, so no collection runs to find it, and the runtime keeps freed pages up to its heap goal (set by the live
// heap of the last collection, the garbage included). At a million cubes that was a few hundred MB of resident
// memory after a session of edits.
//
// The two steps are apart because memory given back is dear to take again: every page the next big edit touches
// then faults in fresh and zeroed (on the virtual machines measured, a fresh gigabyte takes seconds to touch:
// docs/performance.md). While the user works, the editor keeps free pages up to a quarter of its live heap for the next
// step to reuse (the runtime's scavenger returns what exceeds its own heap goal in the background), and gives back at
// once what is more; an editor left alone gives everything free back (debug.FreeOSMemory, and the C heap's:
// release). Each step runs on a goroutine of its own, the collection at most once per trimAfter bytes allocated:
// editing a few values never triggers one, and an idle editor costs nothing.
type memTrim struct {
	// release, if set, gives the C heap's free pages back too (glrender.ReleaseFreedMemory: the GL driver's
	// buffers that the renderer freed).
	release func()
	running atomic.Bool
	at      uint64      // the heap's allocated bytes (/gc/heap/allocs:bytes) when the last collection started
	held    atomic.Bool // a collection ran since the free memory was last given back
	sample  [1]metrics.Sample
}

// due reports whether enough was allocated since the last collection (and no step is running).
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

// start begins a collection; done is called on its goroutine when it has ended. A collection that leaves more of
// the heap free than a quarter of what is live gives the free memory back at once (keepsTooMuch).
func (m *memTrim) start(done func()) {
	m.at = m.sample[0].Value.Uint64()
	m.held.Store(true)
	m.run(done, func() {
		runtime.GC()
		if keepsTooMuch() {
			m.giveBack() // collects again: the runtime gives free pages back only after a collection of its own
		}
	})
}

// run runs step on a goroutine of its own while running is set, then calls done there.
func (m *memTrim) run(done, step func()) {
	m.running.Store(true)
	go func() {
		step()
		m.running.Store(false)
		done()
	}()
}

// keepsTooMuch reports whether the heap's free pages, not yet given back, are more than a quarter of its live objects:
// what a big step that dropped much (a save's clone, a spawn's old columns) leaves, more than the next step reuses.
func keepsTooMuch() bool {
	s := [2]metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s[:])
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return true
	}
	return s[0].Value.Uint64() > s[1].Value.Uint64()/4
}

// releaseDue reports whether the free memory should be given back after the editor has been idle for idle: a
// collection ran since it last was, none is running, and the editor has stayed idle for releaseAfter.
func (m *memTrim) releaseDue(idle time.Duration) bool {
	return m.held.Load() && idle >= releaseAfter && !m.running.Load()
}

// startRelease gives the free memory back; done is called on its goroutine when it has ended.
func (m *memTrim) startRelease(done func()) { m.run(done, m.giveBack) }

// giveBack gives the free memory back to the system (a collection first), the C heap's too.
func (m *memTrim) giveBack() {
	m.held.Store(false)
	debug.FreeOSMemory()
	if m.release != nil {
		m.release()
	}
}
