package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestPrefabModeEditsThePrefabAlone: Entity → Open Prefab on an instance opens its prefab file alone, with a
// breadcrumb back to the scene; an entity added to the prefab and saved is in the instance once Back to Scene
// has brought the scene back.
func TestPrefabModeEditsThePrefabAlone(t *testing.T) {
	dir := writeScenes(t, map[string]string{
		"enemy.json": prefabLevel,
		"level.json": `{ "format": "voltex.scene", "version": 2, "name": "Level",
  "editor": { "camera": { "pivot": [0, 0.5, 0], "yaw": 0, "pitch": -20, "distance": 13 } },
  "entities": [ { "id": 10, "name": "Enemy A", "order": 1, "prefab": "enemy.json", "components": { "Transform": {} } } ] }
`,
	})
	e := launchOn(t, filepath.Join(dir, "level.json"))
	e.WaitProbe(20*time.Second, "the level", func(p *guitest.Probe) bool { return p.Entities == 4 && p.MenuBar })
	clickRow(t, e, "Enemy A", 0)
	menu(t, e, "Entity", "Open Prefab")
	p := e.WaitProbe(20*time.Second, "the prefab open alone", func(p *guitest.Probe) bool {
		return strings.HasSuffix(p.ScenePath, "enemy.json") && p.Breadcrumb == "level.json > enemy.json"
	})
	if p.Entities != 3 {
		t.Errorf("the prefab shows %d entities, want its 3", p.Entities)
	}
	e.Settle()
	lookShot(t, e, "prefab-mode.png")
	docShot(t, e, "prefab-mode.png")

	e.Key("ctrl+shift+n")
	e.WaitProbe(10*time.Second, "an entity added to the prefab", func(p *guitest.Probe) bool { return p.Entities == 4 && p.Dirty })
	e.Key("ctrl+s")
	p = e.WaitProbe(10*time.Second, "the prefab saved", func(p *guitest.Probe) bool { return !p.Dirty })
	x, y := p.BackToScene.Center()
	e.Click(x, y, 1)
	p = e.WaitProbe(20*time.Second, "back in the level", func(p *guitest.Probe) bool {
		return strings.HasSuffix(p.ScenePath, "level.json") && p.Breadcrumb == ""
	})
	if p.Entities != 5 {
		t.Errorf("back in the level it has %d entities, want 5 (the instance with the prefab's new entity)", p.Entities)
	}
}
