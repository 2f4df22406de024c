package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// The settings writer writes beside the caller, the newest content last; flush waits for it and reports a failed
// write once; the loop is woken when everything asked for is written.
func TestSettingsWriterWritesTheNewestLast(t *testing.T) {
	var wakes atomic.Int32
	sw := newSettingsWriter(func() { wakes.Add(1) })
	path := filepath.Join(t.TempDir(), "settings.json")
	for i := range 200 {
		sw.write(path, []byte(fmt.Sprint(i)))
	}
	if err := sw.flush(); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "199" {
		t.Fatalf("the file holds %q (%v), want the newest content, 199", got, err)
	}
	if sw.writing() {
		t.Fatal("after flush the writer still says it is writing")
	}
	// The wake comes after the writer is idle, so flush may return before it.
	for deadline := time.Now().Add(10 * time.Second); wakes.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the writer wrote everything and never woke the loop")
		}
	}

	// A folder that cannot be made: the failure is reported once.
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sw.write(filepath.Join(file, "dir", "settings.json"), []byte("x"))
	if err := sw.flush(); err == nil {
		t.Fatal("a write under a file reported no error")
	}
	if err := sw.takeErr(); err != nil {
		t.Fatalf("the failure was reported again: %v", err)
	}
}
