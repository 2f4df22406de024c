package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
)

// TestAlertWaitsForTheOpenQuestion: a message that comes while a question is open (an export failing in the
// background while "Scene changed on disk" asks) is shown after the question is answered, not in its place: the
// question's answer (Keep mine: the file on disk is no state of the history) must still be given.
func TestAlertWaitsForTheOpenQuestion(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/solar.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "solar.json")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	f := newAppFixture(t, Options{ScenePath: path})
	f.key(ctrl | shift | key(imgui.KeyN))                                // Create Empty: the scene has unsaved changes
	if err := os.WriteFile(path, append(src, '\n'), 0o644); err != nil { // another program changes the file
		t.Fatal(err)
	}
	f.frameUntil(t, "the outside-edit question", func() bool { return f.st.Modal == "prompt:Scene changed on disk" })
	appUI{f.a}.Alert("Export failed", "Could not export to x.json")
	f.ui.modifiers(false, false, false)
	f.frames(2)
	if f.st.Modal != "prompt:Scene changed on disk" {
		t.Fatalf("a message came while the question was open: modal %q (the question must stay)", f.st.Modal)
	}
	appUI{f.a}.Alert("Export failed", "Could not export to x.json") // the same message again: shown once
	f.key(key(imgui.KeyEscape))                                     // Keep mine
	if !strings.Contains(lastConsole(f), "kept your changes") {
		t.Fatalf("Escape did not answer Keep mine: console %q", lastConsole(f))
	}
	if f.st.Modal != "prompt:Export failed" || !strings.Contains(f.st.Prompt, "x.json") {
		t.Fatalf("after the answer: modal %q %q, want the message that waited", f.st.Modal, f.st.Prompt)
	}
	f.key(key(imgui.KeyEnter))
	if f.st.Modal != "" {
		t.Fatalf("after OK: modal %q (the same message twice is shown once)", f.st.Modal)
	}
}

func lastConsole(f *appFixture) string {
	if n := len(f.st.Console); n > 0 {
		return f.st.Console[n-1]
	}
	return ""
}
