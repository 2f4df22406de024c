package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/project"
)

// arenaCopy copies the example game's project file (examples/arena) and a copy of its level (testdata/arena.json)
// into a fresh folder and returns the level's path.
func arenaCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	project, err := os.ReadFile(repoPath("examples/arena/voltex.project.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"voltex.project.json": project, "arena.json": fixture(t, "arena.json")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "arena.json")
}

var (
	exampleMu   sync.Mutex
	exampleBins = map[string]string{}
)

// exampleBinary builds a command of the example game module (its own go.mod) once per test process.
func exampleBinary(t *testing.T, pkg string) string {
	t.Helper()
	exampleMu.Lock()
	defer exampleMu.Unlock()
	if bin, ok := exampleBins[pkg]; ok {
		return bin
	}
	dir, err := os.MkdirTemp("", "voltex-example-")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Dir = repoPath("examples/arena")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building %s in examples/arena: %v\n%s", pkg, err, out)
	}
	exampleBins[pkg] = bin
	return bin
}

// selectRow clicks the hierarchy row named name and waits until the inspector shows widget want.
func selectRow(t *testing.T, e *guitest.Editor, name, want string) *guitest.Probe {
	t.Helper()
	p := e.WaitProbe(10*time.Second, "row "+name, func(p *guitest.Probe) bool { _, ok := p.Row(name); return ok })
	r, _ := p.Row(name)
	x, y := r.Center()
	e.Click(x, y, 1)
	return e.WaitProbe(10*time.Second, name+" in the inspector", func(p *guitest.Probe) bool { return p.Inspector[want].W > 0 })
}

// option returns the popup entry of the probe whose label starts with prefix ("opt:Scout").
func option(p *guitest.Probe, prefix string) (guitest.Widget, bool) {
	for k, w := range p.Inspector {
		if strings.HasPrefix(k, prefix) && w.W > 0 {
			return w, true
		}
	}
	return guitest.Widget{}, false
}

// pick opens the combo or picker of widget name, clicks its entry starting with label and waits for done.
func pick(t *testing.T, e *guitest.Editor, name, label string, done func(*guitest.Probe) bool) *guitest.Probe {
	t.Helper()
	p, _ := e.ReadProbe()
	x, y := widget(t, p, name).Center()
	e.Click(x, y, 1)
	clickEntry(t, e, "opt:"+label, x, y)
	return e.WaitProbe(10*time.Second, name+" set to "+label, done)
}

// clickEntry clicks the popup entry whose probe name starts with prefix, once the popup has settled: its first
// frame lays it out elsewhere (ImGui sizes a popup before showing it), so the entry must keep its place over two
// frames. The pointer is nudged around (x, y) to get frames from an idle editor.
func clickEntry(t *testing.T, e *guitest.Editor, prefix string, x, y int) {
	t.Helper()
	var last guitest.Widget
	var lastFrame uint64
	deadline := time.Now().Add(guitest.Timeout(20 * time.Second))
	for i := 0; ; i++ {
		p, err := e.ReadProbe()
		if err == nil {
			if o, ok := option(p, prefix); ok {
				if o.Rect == last.Rect && p.Frames > lastFrame+1 {
					ox, oy := o.Center()
					e.Click(ox, oy, 1)
					return
				}
				if o.Rect != last.Rect {
					last, lastFrame = o, p.Frames
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("popup entry %s never settled (last %+v)", prefix, last)
		}
		e.Move(x+i%2, y)
	}
}

// TestStockEditorEditsProjectComponents: the stock editor opens a scene whose game components come from the
// project file next to it, and edits them like built-in ones: a float drag is one undo step, an enum is picked
// from its values, an entity reference from the entities, a component added with its declared defaults; the save
// changes exactly those lines; the export is what the example game plays (references and defaults right).
func TestStockEditorEditsProjectComponents(t *testing.T) {
	path := arenaCopy(t)
	before, _ := os.ReadFile(path)
	e := launchOn(t, path)
	p := selectRow(t, e, "Knight", "Unit.speed")
	if p.Inspector["Unit.team"].Shown != "Red" || !strings.HasPrefix(p.Inspector["Unit.target"].Shown, "Orc") {
		t.Fatalf("the Knight's Unit shows team %q, target %q", p.Inspector["Unit.team"].Shown, p.Inspector["Unit.target"].Shown)
	}
	// Drag the speed: one undo step.
	sp := widget(t, p, "Unit.speed")
	start := sp.Shown
	x, y := sp.Center()
	e.Drag(x, y, x+80, y, 1)
	p = e.WaitProbe(10*time.Second, "speed dragged", func(p *guitest.Probe) bool {
		return p.Inspector["Unit.speed"].Shown != start && p.UndoDepth > 0
	})
	if p.UndoDepth != 1 {
		t.Fatalf("a drag made %d undo steps, want 1", p.UndoDepth)
	}
	speed := p.Inspector["Unit.speed"].Shown
	// An enum value and an entity reference.
	pick(t, e, "Unit.team", "Blue", func(p *guitest.Probe) bool {
		return p.Inspector["Unit.team"].Shown == "Blue" && p.UndoDepth == 2
	})
	pick(t, e, "Unit.target", "Scout", func(p *guitest.Probe) bool {
		return strings.HasPrefix(p.Inspector["Unit.target"].Shown, "Scout") && p.UndoDepth == 3
	})
	// Add a declared component: it comes with its defaults.
	p, _ = e.ReadProbe()
	ax, ay := widget(t, p, "add").Center()
	e.Click(ax, ay, 1)
	clickEntry(t, e, "add:Banner", ax, ay)
	p = e.WaitProbe(10*time.Second, "Banner added", func(p *guitest.Probe) bool {
		return p.Inspector["Banner.team"].W > 0 && p.UndoDepth == 4
	})
	if got := p.Inspector["Banner.team"].Shown; got != "Neutral" {
		t.Errorf("a new Banner's team is %q, want the declared default Neutral", got)
	}
	e.Move(100, 600) // empty hierarchy space: no hover highlight in the picture
	docShot(t, e, "game-components.png")
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })

	// The file: the Knight's Unit line changed and a Banner line was added; nothing else.
	after, _ := os.ReadFile(path)
	var kept [][]byte
	var banner []byte
	for _, l := range bytes.Split(after, []byte("\n")) {
		if bytes.Contains(l, []byte(`"Banner": `)) && banner == nil && bytes.Contains(l, []byte(`"motto": ""`)) {
			banner = l
			continue
		}
		kept = append(kept, l)
	}
	if want := `"Banner": { "team": 0, "motto": "", "tint": [1, 1, 1, 1] },`; banner == nil || strings.TrimSpace(string(banner)) != want {
		t.Errorf("the added Banner line is %q, want %q", bytes.TrimSpace(banner), want)
	}
	diff := diffLines(before, bytes.Join(kept, []byte("\n")))
	s := loadArena(t, path)
	knight, scout := entityNamed(t, s.World, "Knight"), entityNamed(t, s.World, "Scout")
	scoutID := ecs.NewMap[scene.SceneID](s.World).Get(scout).ID
	f, _ := strconv.ParseFloat(speed, 32)
	unit, _ := s.World.ComponentByName("Unit")
	if got, _ := s.World.GetField(knight, unit, "speed"); got.(float32) != float32(f) && strconv.FormatFloat(float64(got.(float32)), 'f', 1, 32) != speed {
		t.Errorf("saved speed %v, the inspector showed %s", got, speed)
	}
	if len(diff) != 1 || !strings.Contains(diff[0], `"Unit": { "team": 1, "target": 3, "speed": 2, "damage": 15, "reach": 1.5 }`) ||
		!strings.Contains(diff[0], `"team": 2, "target": `+strconv.FormatUint(scoutID, 10)+`, "speed": `) {
		t.Fatalf("the save changed other lines than the Knight's Unit:\n%s", strings.Join(diff, "\n"))
	}

	// Export with the stock tool; the example game plays it.
	exp := filepath.Join(filepath.Dir(path), "arena.export.json")
	if code := runTool(t, "export", path, "-o", exp); code != 0 {
		t.Fatal("export failed")
	}
	out, err := exec.Command(exampleBinary(t, "./cmd/arena"), "-ticks", "1", exp).CombinedOutput()
	if err != nil {
		t.Fatalf("the example game: %v\n%s", err, out)
	}
	for _, want := range []string{
		`Knight flies the Neutral banner, motto "", tint [1.00 1.00 1.00 1.00]`,
		"Knight   Blue at ( -5.0,  0.5,   0.0) chasing Scout   health 100/100",
		"Orc      Blue at (  5.0,  0.5,   0.0) chasing Knight  health  80/120",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the game's output lacks %q:\n%s", want, out)
		}
	}
}

// loadArena loads a copy of the arena level with the components of its project file.
func loadArena(t *testing.T, path string) *serialize.Scene {
	t.Helper()
	p, err := project.Load(filepath.Join(filepath.Dir(path), project.FileName))
	if err != nil {
		t.Fatal(err)
	}
	mk, err := p.NewWorld(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := serialize.LoadFile(context.Background(), path, serialize.LoadOptions{NewWorld: mk})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func entityNamed(t *testing.T, w *ecs.World, name string) ecs.Entity {
	t.Helper()
	names := ecs.NewMap[scene.Name](w)
	for _, e := range scene.EnsureIDs(w) {
		if n, ok := names.TryGet(e); ok && n.Value == name {
			return e
		}
	}
	t.Fatalf("no entity named %s", name)
	return ecs.Entity{}
}

// TestExampleEditorPlaysItsSystems: the example game's own editor (examples/arena/cmd/arena-editor, 15 lines on
// package program) runs the game's systems in play mode — the Orc walks toward the Knight and the Knight's hits
// take its health down — and Stop restores the scene.
func TestExampleEditorPlaysItsSystems(t *testing.T) {
	bin := exampleBinary(t, "./cmd/arena-editor")
	path := arenaCopy(t)
	t.Parallel()
	d := guitest.StartDisplay(t, 1600, 1000)
	e := guitest.LaunchBinaryIn(t, d, bin, "", nil, "--size", "1600x1000", "--settings", t.TempDir(), path)
	failShot(t, e, t.Name())
	p := selectRow(t, e, "Orc", "Health.current")
	x0, h0 := p.Inspector["Transform.position[0]"].Shown, p.Inspector["Health.current"].Shown
	if x0 != "5" || h0 != "80" {
		t.Fatalf("the Orc starts at x %s with health %s", x0, h0)
	}
	shot := e.ScreenshotOf(p)
	e.Key("ctrl+p")
	e.WaitProbe(30*time.Second, "the Orc walks", func(p *guitest.Probe) bool {
		return p.Playing && p.Inspector["Transform.position[0]"].Shown != x0
	})
	p = e.WaitProbe(90*time.Second, "the Knight hits the Orc", func(p *guitest.Probe) bool {
		return p.Inspector["Health.current"].Shown != h0
	})
	if n := guitest.DiffPixels(shot, e.ScreenshotOf(p), viewportRect(p), 20); n < 50 {
		t.Errorf("the viewport did not change while the units walked (%d pixels)", n)
	}
	e.Key("ctrl+p")
	e.WaitProbe(10*time.Second, "stopped", func(p *guitest.Probe) bool { return !p.Playing })
	p = e.WaitProbe(10*time.Second, "restored", func(p *guitest.Probe) bool {
		return p.Inspector["Transform.position[0]"].Shown == x0 && p.Inspector["Health.current"].Shown == h0
	})
	if p.Dirty {
		t.Error("play mode left the scene modified")
	}
}

// replaceFile writes data to path the way editors save: a temporary file renamed over it.
func replaceFile(t *testing.T, path, data string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestProjectFileEditsWhileOpen: editing the project file while the editor runs registers the components again
// and re-reads the open scene (a new field appears with its default); a change that would lose values asks first
// (Keep keeps everything); a broken project file is reported with file:line:col and changes nothing.
func TestProjectFileEditsWhileOpen(t *testing.T) {
	path := arenaCopy(t)
	pf := filepath.Join(filepath.Dir(path), "voltex.project.json")
	orig, _ := os.ReadFile(pf)
	e := launchOn(t, path)
	selectRow(t, e, "Knight", "Unit.reach")

	withArmor := strings.Replace(string(orig), `{ "name": "reach", "type": "float", "default": 1.5, "min": 0, "step": 0.1, "description": "Metres" }`,
		`{ "name": "reach", "type": "float", "default": 1.5, "min": 0, "step": 0.1, "description": "Metres" },
        { "name": "armor", "type": "int", "default": 3, "min": 0 }`, 1)
	if withArmor == string(orig) {
		t.Fatal("the example's project file changed; update this test")
	}
	replaceFile(t, pf, withArmor)
	p := e.WaitProbe(20*time.Second, "the new field", func(p *guitest.Probe) bool { return p.Inspector["Unit.armor"].W > 0 })
	if got := p.Inspector["Unit.armor"].Shown; got != "3" {
		t.Errorf("the new field shows %q, want its default 3", got)
	}
	if !hasMessage(p, "info: project file voltex.project.json changed") {
		t.Errorf("no console message about the change: %v", p.Console)
	}

	// Removing a field would lose the scene's values: the editor asks; Keep keeps them.
	noReach := strings.Replace(withArmor, `{ "name": "reach", "type": "float", "default": 1.5, "min": 0, "step": 0.1, "description": "Metres" },`, "", 1)
	replaceFile(t, pf, noReach)
	e.WaitProbe(20*time.Second, "asked", func(p *guitest.Probe) bool { return p.Modal == "prompt:Project file changed" })
	e.Key("k")
	p = e.WaitProbe(10*time.Second, "kept", func(p *guitest.Probe) bool { return p.Modal == "" })
	if p.Inspector["Unit.reach"].W == 0 {
		t.Error("after Keep the reach field is gone")
	}

	// A broken project file: its problems with positions in the console; the components stay.
	broken := `{"format": "voltex.project", "version": 1, "components": [{"name": "Unit", "fields": [{"name": "x", "type": "flaot"}]}]}`
	replaceFile(t, pf, broken)
	// Paths are shown as the user gave the scene: relative to the editor's working folder (the scene's folder).
	want := fmt.Sprintf(`error: %s:1:%d: components[0].fields[0].type: unknown type "flaot" (did you mean "float"?)`,
		"voltex.project.json", strings.Index(broken, `"flaot"`)+1)
	p = e.WaitProbe(20*time.Second, "reported", func(p *guitest.Probe) bool { return hasMessage(p, want) })
	if p.Inspector["Unit.reach"].W == 0 || p.Inspector["Unit.armor"].W == 0 {
		t.Error("a broken project file changed the components")
	}
}

// TestBrokenProjectFileAtStart: a scene whose project file is broken still opens, with the built-in components
// only, says so (a dialog, the console with file:line:col, the status bar), and keeps the game's components as
// they are, so saving loses nothing.
func TestBrokenProjectFileAtStart(t *testing.T) {
	path := arenaCopy(t)
	pf := filepath.Join(filepath.Dir(path), "voltex.project.json")
	replaceFile(t, pf, "{\"format\": \"voltex.project\", \"version\": 1,\n  \"components\": [}\n")
	before, _ := os.ReadFile(path)
	e := launchOn(t, path)
	p := e.WaitProbe(20*time.Second, "the dialog", func(p *guitest.Probe) bool { return p.Modal == "prompt:Project file has problems" })
	if !hasMessage(p, "error: voltex.project.json:2:18: ") { // relative to the editor's working folder, the scene's
		t.Errorf("the console lacks the problem with its position: %v", p.Console)
	}
	if !strings.Contains(p.Status, "voltex.project.json has problems: built-in components only") {
		t.Errorf("the status bar does not say so: %q", p.Status)
	}
	docShot(t, e, "project-broken.png")
	e.Key("Return")
	e.WaitProbe(10*time.Second, "dialog closed", func(p *guitest.Probe) bool { return p.Modal == "" })
	p = selectRow(t, e, "Knight", "header:Unknown")
	if _, ok := p.Inspector["header:Unit"]; ok {
		t.Error("Unit is registered although the project file is broken")
	}
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return hasMessage(p, "info: saved ") })
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("saving with a broken project file changed the scene file")
	}
}
