package program

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/prefabnest"
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

// A prefab nest over the entity limit (eight small files that flatten to 10^8 entities) is refused
// by every subcommand that builds instances, from the shape of the files and without expanding any
// of it (validate refused it after 22 s and 2.1 GB, export ran for minutes), and nothing is written.
func TestPrefabNestIsRefusedByEverySubcommand(t *testing.T) {
	dir := t.TempDir()
	if err := prefabnest.Write(dir); err != nil {
		t.Fatal(err)
	}
	level := filepath.Join(dir, "level.json")
	before, _ := os.ReadFile(level)
	want := "level.json:3:38: entities[0].prefab: prefab nest flattens to 111,111,110 entities, over the limit of 4,000,000 " +
		"(Limits.MaxEntities): level.json ×10 " + prefabnest.Chain
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{{"validate", level}, {"export", level, "-o", out}, {"render", level, "-o", out}, {"fmt", level},
		{"fmt", "-w", level}} {
		allocs := testing.AllocsPerRun(1, func() {
			code, stdout, stderr := runCLI(args...)
			if code != 1 || !strings.Contains(stderr, want) {
				t.Errorf("%s: code %d\nstdout %s\nstderr %s", args, code, stdout, stderr)
			}
		})
		if allocs > 20000 {
			t.Errorf("%s: %.0f allocations to refuse the nest", args, allocs)
		}
	}
	if data, _ := os.ReadFile(level); string(data) != string(before) {
		t.Error("fmt -w changed the file")
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a file was written")
	}
}
