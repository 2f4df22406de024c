package e2e

import (
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestRecoverAtStart: the editor is killed with unsaved work; started again without a scene, it asks about the
// scene's unsaved work; Recover (Enter) opens the scene, which asks its recovery question; Recover gives the work
// back, unsaved.
func TestRecoverAtStart(t *testing.T) {
	t.Parallel() // each test owns its Xvfb
	d := guitest.StartDisplay(t, 1600, 1000)
	env := []string{"XDG_STATE_HOME=" + t.TempDir()}
	path := copyScene(t, "cubes.json")
	e := guitest.LaunchIn(t, d, "", env, "--size", "1600x1000", "--settings", t.TempDir(), path)
	failShot(t, e, t.Name())
	e.WaitProbe(20*time.Second, "scene open", func(p *guitest.Probe) bool { return p.Entities == 400 && p.Modal == "" })
	e.Key("ctrl+a")
	e.WaitProbe(10*time.Second, "all selected", func(p *guitest.Probe) bool { return p.SelectedCount == 400 })
	e.Key("Delete")
	e.WaitProbe(10*time.Second, "deleted", func(p *guitest.Probe) bool { return p.Entities == 0 && p.Dirty })
	killJournaled(t, e, path, env)

	e = guitest.LaunchIn(t, d, "", env, "--size", "1600x1000", "--settings", t.TempDir())
	failShot(t, e, t.Name()+"-restarted")
	e.WaitProbe(30*time.Second, "the question at the start", func(p *guitest.Probe) bool {
		return p.Modal == "prompt:Unsaved work of other scenes"
	})
	e.Settle()
	e.Key("Return") // Recover
	e.WaitProbe(30*time.Second, "the scene's recovery question", func(p *guitest.Probe) bool {
		return p.Modal == "diff:Recover unsaved work" && p.ScenePath == path
	})
	e.Settle()
	e.Key("Return") // Recover
	e.WaitProbe(20*time.Second, "recovered", func(p *guitest.Probe) bool { return p.Modal == "" && p.Entities == 0 && p.Dirty })
}
