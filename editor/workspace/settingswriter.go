package workspace

import (
	"sync"

	"github.com/voltex-editor/voltex/editor/settings"
)

// settingsWriter writes the settings file on a goroutine of its own, the newest content last. The write syncs the
// file to disk, and a sync waits behind whatever else the disk is writing: right after a save of a million cubes it
// took 90–100 ms here, a frame the loop thread would have waited for.
type settingsWriter struct {
	mu      sync.Mutex
	idle    sync.Cond
	path    string
	pending []byte // the newest content not being written yet (nil: none)
	busy    bool   // the goroutine runs
	err     error  // the first write that failed since takeErr
	wake    func() // called when the goroutine has written everything (nil: nothing)
}

// newSettingsWriter returns a writer that calls wake (if not nil) when it has written everything asked for.
func newSettingsWriter(wake func()) *settingsWriter {
	sw := &settingsWriter{wake: wake}
	sw.idle.L = &sw.mu
	return sw
}

// write asks for data to be written to path, replacing content asked for before that was not written yet.
func (sw *settingsWriter) write(path string, data []byte) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.path, sw.pending = path, data
	if !sw.busy {
		sw.busy = true
		go sw.run()
	}
}

func (sw *settingsWriter) run() {
	sw.mu.Lock()
	for sw.pending != nil {
		path, data := sw.path, sw.pending
		sw.pending = nil
		sw.mu.Unlock()
		err := settings.WriteFile(path, data)
		sw.mu.Lock()
		if err != nil && sw.err == nil {
			sw.err = err
		}
	}
	sw.busy = false
	sw.idle.Broadcast()
	wake := sw.wake
	sw.mu.Unlock()
	if wake != nil {
		wake()
	}
}

// writing reports whether a write asked for has not ended yet.
func (sw *settingsWriter) writing() bool {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.busy
}

// flush waits for every write asked for so far, then reports the first that failed since takeErr.
func (sw *settingsWriter) flush() error {
	sw.mu.Lock()
	for sw.busy {
		sw.idle.Wait()
	}
	sw.mu.Unlock()
	return sw.takeErr()
}

// takeErr returns the first write that failed since the last call, and forgets it.
func (sw *settingsWriter) takeErr() error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	err := sw.err
	sw.err = nil
	return err
}
