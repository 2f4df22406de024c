package program

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs/scene"
)

// An entity added under a prefab entity that the scene removes from its instance is refused by
// every subcommand that reads the scene, at its "parent", and no file is written: validate said ok,
// fmt dropped the parent and export made the entity a root.
func TestAddedUnderARemovedPrefabEntityIsRefused(t *testing.T) {
	weapon := strconv.FormatUint(scene.InstanceID(10, 2), 10)
	level := `{ "format": "voltex.scene", "version": 2, "entities": [
 { "id": 10, "name": "Enemy", "order": 1, "prefab": "enemy.json" },
 { "id": ` + weapon + `, "instance": 10, "source": 2, "removed": true },
 { "id": 50, "name": "Added", "parent": ` + weapon + `, "order": 1 } ] }`
	dir := writeFiles(t, map[string]string{"level.json": level, "enemy.json": `{ "format": "voltex.scene", "version": 2, "entities": [
 { "id": 1, "name": "Body", "order": 1 }, { "id": 2, "name": "Weapon", "parent": 1, "order": 1 } ] }`})
	path := filepath.Join(dir, "level.json")
	out := filepath.Join(dir, "level.export.json")
	want := "level.json:4:41: entities[2].parent: parent " + weapon + " is entity 2 of prefab instance 10, which this file removes"
	for _, args := range [][]string{{"validate", path}, {"fmt", "-w", path}, {"fmt", path}, {"export", path, "-o", out}} {
		code, stdout, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s: code %d\nstdout %s\nstderr %s", args[0], code, stdout, stderr)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != level {
		t.Errorf("fmt -w changed the file:\n%s", data)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("export wrote a file")
	}
}
