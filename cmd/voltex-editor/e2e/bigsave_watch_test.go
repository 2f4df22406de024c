package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestBigSaveIsQuietAndOutsideEditsStillCount: a scene big enough to save in the background (20,000 cubes) is
// saved; the watcher takes the file as the save hashed it while writing (no read-back). With an edit made after it,
// neither the save nor another program's rewrite of the same bytes brings a "changed on disk" question; other
// content written by another program does.
func TestBigSaveIsQuietAndOutsideEditsStillCount(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "scenes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "big.json")
	if code := runTool(t, "grid", "--nx", "200", "--nz", "100", "-o", path); code != 0 {
		t.Fatal("grid failed")
	}
	small := filepath.Join(t.TempDir(), "small.json")
	if code := runTool(t, "grid", "--nx", "3", "--nz", "2", "-o", small); code != 0 {
		t.Fatal("grid failed")
	}
	e := launchOn(t, path)
	settle(e)
	if p, _ := e.ReadProbe(); p == nil || p.Entities != 20000 {
		t.Fatalf("opened %v", p)
	}
	sent := e.KeyAt("ctrl+s")
	m := waitMark(e, "save", sent.UnixNano()-int64(time.Second))
	if m.Cancelled {
		t.Fatal("the save was cancelled")
	}
	e.Key("ctrl+shift+n") // an edit: an event taken for an outside change would now ask
	e.WaitProbe(30*time.Second, "the edit", func(p *guitest.Probe) bool { return p.Dirty && p.Entities == 20001 })
	// Another program rewrites the file with what the save wrote (a sync tool, a checkout of the same commit):
	// the same content is no change, which the watcher knows only from the hash the save computed.
	replace := func(content []byte) {
		t.Helper()
		tmp := path + ".other.tmp"
		if err := os.WriteFile(tmp, content, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	replace(saved)
	time.Sleep(3 * time.Second) // several of the watcher's quiet periods: the rewrite's events settle
	p, _ := e.ReadProbe()
	if p.Modal != "" || p.Entities != 20001 {
		t.Fatalf("after the save and a rewrite of its bytes: modal %q, %d entities (want none, 20001)", p.Modal, p.Entities)
	}
	for _, line := range p.Console {
		if strings.Contains(line, "changed") || strings.Contains(line, "reload") {
			t.Fatalf("the console took the save or the rewrite of its bytes for a change: %q", line)
		}
	}
	// Another program writes other content: the editor asks (the scene has unsaved changes).
	data, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	replace(data)
	e.WaitProbe(time.Minute, "the question", func(p *guitest.Probe) bool { return p.Modal == "prompt:Scene changed on disk" })
}
