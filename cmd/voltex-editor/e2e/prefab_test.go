package e2e

import (
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// prefabLevel is a level with an "Enemy": a red body and a blue hat.
const prefabLevel = `{ "format": "voltex.scene", "version": 2, "name": "Level",
  "editor": { "camera": { "pivot": [0, 0.5, 0], "yaw": 0, "pitch": -20, "distance": 13 } },
  "entities": [
    { "id": 1, "name": "Enemy", "order": 1, "components": { "Transform": {} } },
    { "id": 2, "name": "Body", "parent": 1, "order": 1, "components": { "Color": { "rgba": [1, 0, 0, 1] }, "Mesh": { "asset": "builtin:cube" }, "Transform": {} } },
    { "id": 3, "name": "Hat", "parent": 1, "order": 2, "components": { "Color": { "rgba": [0.2, 0.2, 1, 1] }, "Mesh": { "asset": "builtin:sphere" }, "Transform": { "position": [0, 0.9, 0], "scale": [0.6, 0.6, 0.6] } } }
  ] }
`

// menu opens a menu of the menu bar and clicks one of its items.
func menu(t *testing.T, e *guitest.Editor, title, item string) {
	t.Helper()
	p := e.WaitProbe(10*time.Second, "the menu bar", func(p *guitest.Probe) bool { return p.Menus[title].W > 0 })
	x, y := p.Menus[title].Center()
	e.Click(x, y, 1)
	name := title + "/" + item
	p = e.WaitProbe(10*time.Second, "menu item "+name, func(p *guitest.Probe) bool { return p.Menus[name].W > 0 })
	x, y = p.Menus[name].Center()
	e.Move(x, y) // hover first, as a person does (Move returns once the editor has seen it)
	e.Click(x, y, 1)
}

// clickRow clicks the hierarchy row named name (the n-th one with that name, from 0).
func clickRow(t *testing.T, e *guitest.Editor, name string, n int) *guitest.Probe {
	t.Helper()
	var r guitest.Row
	e.WaitProbe(10*time.Second, "row "+name, func(p *guitest.Probe) bool {
		k := 0
		for _, x := range p.Hierarchy {
			if x.Name == name {
				if k == n {
					r = x
					return true
				}
				k++
			}
		}
		return false
	})
	x, y := r.Center()
	e.Click(x, y, 1)
	return e.WaitProbe(10*time.Second, "row "+name+" selected", func(p *guitest.Probe) bool {
		k := 0
		for _, x := range p.Hierarchy {
			if x.Name == name {
				if k == n {
					return x.Selected && len(p.Selected) == 1
				}
				k++
			}
		}
		return false
	})
}

// search types text into the hierarchy's search field (replacing what it had; "" clears it).
func search(t *testing.T, e *guitest.Editor, text string) {
	t.Helper()
	p, _ := e.ReadProbe()
	sx, sy := p.HierarchySearch.Center()
	e.Click(sx, sy, 1)
	e.WaitProbe(10*time.Second, "the search field", func(p *guitest.Probe) bool { return p.TextInput })
	e.Key("ctrl+a")
	if text == "" {
		e.Key("BackSpace")
	} else {
		e.Type(text)
	}
	e.Key("Return")
}

// TestPrefabWorkflow is the prefab end-to-end test: make a prefab from a selection, place three
// instances, override a colour on one, edit the prefab in another editor window — the other two
// instances change and the overridden one keeps its colour — then export and decode in the game.
func TestPrefabWorkflow(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-game", "scenes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "level.json")
	if err := os.WriteFile(path, []byte(prefabLevel), 0o644); err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, path)

	// Save Selection as Prefab: the Enemy becomes an instance of enemy.json.
	clickRow(t, e, "Enemy", 0)
	menu(t, e, "Entity", "Save Selection as Prefab...")
	e.WaitProbe(10*time.Second, "the save dialog", func(p *guitest.Probe) bool { return p.Modal == "file:Save Selection as Prefab" })
	e.Key("ctrl+a")
	e.Type("enemy.json")
	e.Key("Return")
	p := e.WaitProbe(10*time.Second, "the instance", func(p *guitest.Probe) bool {
		r, ok := p.Row("Enemy")
		return ok && r.Prefab == "instance" && p.Modal == ""
	})
	if data, err := os.ReadFile(filepath.Join(dir, "enemy.json")); err != nil || !strings.Contains(string(data), `"name": "Hat"`) {
		t.Fatalf("the prefab file: %v\n%s", err, data)
	}
	if p.Entities != 4 {
		t.Fatalf("%d entities after Save as Prefab, want 4 (the instance and the prefab's enemy, body and hat)", p.Entities)
	}

	// Two more instances, from the Entity menu, moved apart.
	for i, x := range []string{"4", "-4"} {
		menu(t, e, "Entity", "Instantiate Prefab...")
		e.WaitProbe(10*time.Second, "the open dialog", func(p *guitest.Probe) bool { return p.Modal == "file:Instantiate Prefab" })
		e.Key("ctrl+a")
		e.Type("enemy.json")
		e.Key("Return")
		want := 4 * (i + 2)
		p = e.WaitProbe(10*time.Second, "a new instance", func(p *guitest.Probe) bool {
			return p.Entities == want && p.Modal == "" && p.Inspector["Transform.position[0]"].W > 0
		})
		typeIntoChannel(e, widget(t, p, "Transform.position[0]"), 0, 1, 0, x)
		e.WaitProbe(10*time.Second, "moved", func(p *guitest.Probe) bool { return p.Inspector["Transform.position[0]"].Shown == x })
	}

	// Override the body colour of the second instance (yellow).
	search(t, e, "Body")
	clickRow(t, e, "Body", 1)
	p, _ = e.ReadProbe()
	typeIntoChannel(e, widget(t, p, "Color.rgba"), 1, 4, widget(t, p, "Color.rgba").H, "1")
	p = e.WaitProbe(10*time.Second, "the override", func(p *guitest.Probe) bool {
		return strings.HasPrefix(p.Inspector["Color.rgba"].Shown, "1,1,0,") && p.Inspector["override:Color.rgba"].W > 0
	})
	if p.Inspector["override:Color.rgba"].W == 0 || p.Inspector["revert:Color.rgba"].W == 0 || p.Inspector["apply:Color.rgba"].W == 0 {
		t.Errorf("the override is not shown with Revert and Apply: %v", keys(p.Inspector))
	}
	docShot(t, e, "prefab-overrides.png")
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })

	// Another editor window edits the prefab: its body becomes magenta.
	d2 := guitest.StartDisplay(t, 1600, 1000)
	e2 := guitest.LaunchIn(t, d2, filepath.Dir(dir), []string{"HOME=" + filepath.Dir(filepath.Dir(dir))},
		"--size", "1600x1000", "--settings", t.TempDir(), "scenes/enemy.json")
	failShot(t, e2, t.Name()+"-prefab")
	search(t, e2, "Body")
	p2 := clickRow(t, e2, "Body", 0)
	typeIntoChannel(e2, widget(t, p2, "Color.rgba"), 2, 4, widget(t, p2, "Color.rgba").H, "1")
	e2.WaitProbe(10*time.Second, "magenta", func(p *guitest.Probe) bool {
		return strings.HasPrefix(p.Inspector["Color.rgba"].Shown, "1,0,1,")
	})
	e2.Key("ctrl+s")
	e2.WaitProbe(10*time.Second, "the prefab saved", func(p *guitest.Probe) bool { return !p.Dirty })

	// The first window follows: two magenta bodies, the overridden one still yellow.
	e.WaitProbe(20*time.Second, "the instances updated", func(p *guitest.Probe) bool {
		return hasMessage(p, "info: enemy.json changed: 3 instances updated")
	})
	for i, want := range []string{"1,0,1,", "1,1,0,", "1,0,1,"} {
		clickRow(t, e, "Body", i)
		e.WaitProbe(10*time.Second, "body colour", func(p *guitest.Probe) bool {
			return strings.HasPrefix(p.Inspector["Color.rgba"].Shown, want)
		})
	}
	// As a person sees it: the viewport shows magenta and yellow bodies.
	p, _ = e.ReadProbe()
	img := e.ScreenshotOf(p)
	magenta := guitest.CountPixels(img, viewportRect(p), func(c color.RGBA) bool { return c.R > 150 && c.G < 60 && c.B > 150 })
	yellow := guitest.CountPixels(img, viewportRect(p), func(c color.RGBA) bool { return c.R > 150 && c.G > 150 && c.B < 60 })
	if magenta < 500 || yellow < 200 {
		t.Errorf("the viewport shows %d magenta and %d yellow pixels; want two magenta bodies and a yellow one", magenta, yellow)
	}

	// Export: the game reads twelve plain entities with their colours.
	ex := exportForGame(t, e, filepath.Join(dir, "level.export.json"))
	if len(ex.Entities) != 12 {
		t.Fatalf("the export has %d entities, want 12 (3 instances of an enemy with a body and a hat)", len(ex.Entities))
	}
	var bodies []string
	for _, en := range ex.Entities {
		if en.Name == "Body" {
			switch en.Color {
			case [4]float32{1, 0, 1, 1}:
				bodies = append(bodies, "magenta")
			case [4]float32{1, 1, 0, 1}:
				bodies = append(bodies, "yellow")
			default:
				bodies = append(bodies, "other")
			}
			if en.World[12] != 0 && en.World[12] != 4 && en.World[12] != -4 {
				t.Errorf("a body at x=%v", en.World[12])
			}
		}
	}
	if strings.Join(bodies, ",") != "magenta,yellow,magenta" && strings.Count(strings.Join(bodies, ","), "magenta") != 2 {
		t.Errorf("exported bodies %v, want two magenta and one yellow", bodies)
	}
}

func keys(m map[string]guitest.Widget) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// enemyPrefab is the prefab the level's Enemy makes (see prefabLevel).
const enemyPrefab = `{ "format": "voltex.scene", "version": 2, "name": "enemy",
  "entities": [
    { "id": 1, "name": "Enemy", "order": 1, "components": { "Transform": {} } },
    { "id": 2, "name": "Body", "parent": 1, "order": 1, "components": { "Color": { "rgba": [1, 0, 0, 1] }, "Mesh": { "asset": "builtin:cube" }, "Transform": {} } },
    { "id": 3, "name": "Hat", "parent": 1, "order": 2, "components": { "Color": { "rgba": [0.2, 0.2, 1, 1] }, "Mesh": { "asset": "builtin:sphere" }, "Transform": { "position": [0, 0.9, 0], "scale": [0.6, 0.6, 0.6] } } }
  ] }
`

// typeField types values into the parts of a grid dialog field, from its first: Ctrl+click puts
// the first into text input (whatever the frame rate), Tab goes to the next, Return commits.
func typeField(t *testing.T, e *guitest.Editor, name string, values ...string) {
	t.Helper()
	p := e.WaitProbe(10*time.Second, "field "+name, func(p *guitest.Probe) bool { return p.Grid != nil && p.Grid.Fields[name].W > 0 })
	f := p.Grid.Fields[name]
	e.Click(f.X+f.W/10, f.Y+f.H/2, 1, "ctrl")
	e.WaitProbe(10*time.Second, name+" in text input", func(p *guitest.Probe) bool { return p.Grid != nil && p.Grid.Typing })
	for i, v := range values {
		if i > 0 {
			e.Key("Tab")
		}
		e.Key("ctrl+a")
		e.Type(v)
	}
	e.Key("Return")
}

// TestGridOfPrefab: Spawn Grid repeats a prefab, each copy an instance turned a
// step more than the one before; the preview shows the copies; the spawn is one undo step.
func TestGridOfPrefab(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-game", "scenes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(enemyPrefab), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "level.json")
	if err := os.WriteFile(path, []byte(`{ "format": "voltex.scene", "version": 2, "name": "Level",
  "editor": { "camera": { "pivot": [0, 0, 0], "yaw": 25, "pitch": -30, "distance": 24 } },
  "entities": [ { "id": 1, "name": "Floor", "order": 1, "components": { "Color": { "rgba": [0.35, 0.4, 0.35, 1] }, "Mesh": { "asset": "builtin:plane" }, "Transform": { "position": [0, -0.5, 0], "scale": [20, 1, 14] } } } ] }
`), 0o644); err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, path)
	p0 := e.WaitProbe(10*time.Second, "the scene", func(p *guitest.Probe) bool { return p.Entities == 1 })
	e.Key("ctrl+g")
	p := e.WaitProbe(10*time.Second, "grid dialog", func(p *guitest.Probe) bool { return p.Grid != nil && p.Grid.Fields["source:prefab"].W > 0 })
	x, y := p.Grid.Fields["source:prefab"].Center()
	e.Click(x, y, 1)
	e.WaitProbe(10*time.Second, "the prefab chosen", func(p *guitest.Probe) bool { return p.Grid != nil && p.Grid.Fields["prefab"].W > 0 })
	typeField(t, e, "count", "4", "1", "3")
	typeField(t, e, "spacing", "3", "1.5", "3")
	typeField(t, e, "rotate", "0", "30", "0")
	typeField(t, e, "centre", "0", "0", "0")
	p = e.WaitProbe(20*time.Second, "the preview of 12 copies", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Preview == "cubes" && p.Grid.PreviewCubes == 12
	})
	if p.Entities != 1 {
		t.Fatalf("the preview changed the scene: %d entities", p.Entities)
	}
	if p.Grid.Title != "Spawn Grid of prefab enemy.json" { // it said Spawn Cube Grid whatever it repeated
		t.Errorf("the dialog is titled %q", p.Grid.Title)
	}
	img := e.Screenshot()
	red := guitest.CountPixels(img, viewportRect(p), func(c color.RGBA) bool { return c.R > 150 && c.G < 80 && c.B < 80 })
	if red < 300 {
		t.Errorf("the preview shows %d red pixels; want the copies' bodies", red)
	}
	lookShot(t, e, "prefab-grid-preview.png")
	x, y = p.Grid.Fields["spawn"].Center()
	e.Click(x, y, 1)
	p = e.WaitProbe(20*time.Second, "the copies", func(p *guitest.Probe) bool { return p.Grid == nil && p.Entities == 1+12*4 })
	if p.UndoDepth != p0.UndoDepth+1 {
		t.Errorf("the grid made %d undo steps, want 1", p.UndoDepth-p0.UndoDepth)
	}
	n := 0
	for _, r := range p.Hierarchy {
		if strings.HasPrefix(r.Name, "enemy ") && r.Prefab == "instance" {
			n++
		}
	}
	if n != 12 {
		t.Errorf("%d instance rows named \"enemy x,z\", want 12: %+v", n, p.Hierarchy)
	}
	e.Click(p.Viewport.X+5, p.Viewport.Y+p.Viewport.H-5, 1) // nothing selected: the picture as it is
	e.WaitProbe(10*time.Second, "nothing selected", func(p *guitest.Probe) bool { return len(p.Selected) == 0 })
	docShot(t, e, "prefab-grid.png")
	lookShot(t, e, "prefab-grid.png")
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	data, err := os.ReadFile(path)
	if err != nil || strings.Count(string(data), `"prefab": "enemy.json"`) != 12 || strings.Contains(string(data), `"instance"`) {
		t.Errorf("the saved scene should hold 12 instances and no override:\n%s", data)
	}
	e.Key("ctrl+z")
	e.WaitProbe(10*time.Second, "undone", func(p *guitest.Probe) bool { return p.Entities == 1 })
}
