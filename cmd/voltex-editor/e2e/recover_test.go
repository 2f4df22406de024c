package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestRecoverAfterKill: edits, then the editor is killed with SIGKILL; started again on the scene it
// offers to recover the session's work (Recover is the default: Enter); saved, the scene is byte for
// byte the file a session without the crash saves.
func TestRecoverAfterKill(t *testing.T) {
	t.Parallel() // each test owns its Xvfb
	d := guitest.StartDisplay(t, 1600, 1000)
	state := t.TempDir()
	env := []string{"XDG_STATE_HOME=" + state}
	launch := func(path string) *guitest.Editor {
		e := guitest.LaunchIn(t, d, "", env, "--size", "1600x1000", "--settings", t.TempDir(), path)
		failShot(t, e, t.Name())
		e.WaitProbe(20*time.Second, "scene open", func(p *guitest.Probe) bool { return p.Entities == 400 && p.Modal == "" })
		return e
	}
	edit := func(e *guitest.Editor) {
		e.Key("ctrl+a")
		e.WaitProbe(10*time.Second, "all selected", func(p *guitest.Probe) bool { return p.SelectedCount == 400 })
		e.Key("Delete")
		e.WaitProbe(10*time.Second, "deleted", func(p *guitest.Probe) bool { return p.Entities == 0 && p.Dirty })
		e.Key("ctrl+z")
		e.WaitProbe(10*time.Second, "undone", func(p *guitest.Probe) bool { return p.Entities == 400 })
		e.Key("ctrl+y")
		e.WaitProbe(10*time.Second, "redone", func(p *guitest.Probe) bool { return p.Entities == 0 })
	}
	save := func(e *guitest.Editor, path string) []byte {
		e.Key("ctrl+s")
		e.WaitProbe(20*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	// Without a crash.
	clean := copyScene(t, "cubes.json")
	e := launch(clean)
	edit(e)
	want := save(e, clean)
	e.RequestClose()
	if code, err := e.Wait(15 * time.Second); err != nil || code != 0 {
		t.Fatalf("quit: code %d, %v", code, err)
	}

	path := copyScene(t, "cubes.json")
	e = launch(path)
	edit(e)
	killJournaled(t, e, path, env)

	e = guitest.LaunchIn(t, d, "", env, "--size", "1600x1000", "--settings", t.TempDir(), path)
	failShot(t, e, t.Name()+"-restarted")
	p := e.WaitProbe(30*time.Second, "the recovery window", func(p *guitest.Probe) bool { return p.Modal == "diff:Recover unsaved work" })
	// The Differences window lists the session's work: every cube removed, one entity each.
	if !strings.Contains(p.Prompt, "400 changes in 400 entities") || !strings.Contains(p.Prompt, "removed  (entity): present → (none)") {
		t.Errorf("the recovery window shows:\n%.2000s", p.Prompt)
	}
	e.Settle()
	shot := filepath.Join(t.TempDir(), "recover.png")
	if dir := os.Getenv("VOLTEX_DOCS_SHOTS"); dir != "" {
		shot = filepath.Join(dir, "recover.png")
	}
	e.SaveScreenshot(shot)
	t.Logf("the recovery question: %s", shot)
	e.Key("Return") // Recover
	e.WaitProbe(20*time.Second, "recovered", func(p *guitest.Probe) bool { return p.Modal == "" && p.Entities == 0 && p.Dirty })
	if got := save(e, path); !bytes.Equal(got, want) {
		t.Fatalf("the recovered scene, saved, differs from the one saved without the crash:\n%s\nwant\n%s", got, want)
	}
	e.RequestClose()
	if code, err := e.Wait(15 * time.Second); err != nil || code != 0 {
		t.Fatalf("quit: code %d, %v", code, err)
	}
	if left, _ := filepath.Glob(filepath.Join(state, "voltex", "journal", "*.journal")); len(left) != 0 {
		t.Errorf("journals left after a clean quit: %v", left)
	}
}

// killJournaled kills e with SIGKILL once the journal of the scene at path (in env's state folder) holds its
// unsaved work: once `recover` finds some (exit 1).
func killJournaled(t *testing.T, e *guitest.Editor, path string, env []string) {
	t.Helper()
	guitest.WaitFor(t, 20*time.Second, "the steps journaled", func() error {
		cmd := exec.Command(guitest.Binary(t), "recover", path)
		cmd.Env = append(os.Environ(), env...)
		var ee *exec.ExitError
		if err := cmd.Run(); errors.As(err, &ee) && ee.ExitCode() == 1 {
			return nil
		}
		return errors.New("recover finds nothing yet")
	})
	e.Signal(syscall.SIGKILL)
	_, _ = e.Wait(15 * time.Second)
}
