package merge

import (
	"context"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

var loadRuns = flag.Int("load-runs", 800, "triples of versions of one scene TestEveryMergeOutputLoads merges (all of them if fewer)")

// prefabVersions are versions of a level instancing enemy.json as entity 10: overrides, removals
// from the instance, entities hung under it and references into it, the instance moved, deleted
// and unpacked.
func prefabVersions(t *testing.T) []string {
	weapon := strconv.FormatUint(scene.InstanceID(10, 2), 10)
	child := `, { "id": 77, "name": "Scope", "parent": ` + weapon + `, "order": 1, "components": {} }`
	follower := `, { "id": 78, "name": "Eye", "order": 2, "components": { "Follow": { "target": ` + weapon + `, "others": [] } } }`
	unpackedLevel := unpacked(t, level(""))
	noWeapon := read(t, unpackedLevel)
	del(int64(scene.InstanceID(10, 2)))(noWeapon)
	return []string{
		level(""),
		level(rec(2, `, "components": { "Color": { "rgba": [0, 1, 0, 1] } }`)),
		level(rec(2, `, "components": { "Color": { "rgba": [1, 1, 0, 1] } }`)),
		level(rec(2, `, "name": "Sword", "components": { "Spin": null, "Transform": { "scale": [2, 2, 2] } }`)),
		level(rec(1, `, "components": { "Color": { "rgba": [0, 0, 0, 1] } }`)),
		level(rec(2, `, "removed": true`)),
		level(rec(1, `, "removed": true`) + rec(2, `, "removed": true`)),
		level(rec(2, `, "components": {}`) + child),
		level(rec(2, `, "components": {}`) + follower),
		level(rec(2, `, "components": {}`) + strings.Replace(follower, `"others": []`, `"others": [`+weapon+`]`, 1)),
		strings.Replace(level(""), `"order": 1, "prefab"`, `"order": 5, "prefab"`, 1),
		`{ "format": "voltex.scene", "version": 2, "name": "L", "entities": [] }`,
		unpackedLevel,
		unpacked(t, level(rec(2, `, "components": { "Color": { "rgba": [0, 1, 0, 1] } }`))),
		unpacked(t, level(rec(2, `, "components": {}`)+child)),
		unpacked(t, level(rec(1, `, "removed": true`)+rec(2, `, "removed": true`))),
		write(t, noWeapon),
	}
}

// TestEveryMergeOutputLoads: whatever three versions of a scene are merged, in whatever roles, the
// merged file loads with the scene loader, prefabs resolved (recording conflicts as it must), or
// Merge says why the sides cannot be merged without their prefabs (Result.Unmergeable). The
// versions are those the table tests merge: baseScene and the sides and results of every row of
// mergeCases, and prefabVersions.
func TestEveryMergeOutputLoads(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(enemy), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(text string) error {
		_, err := serialize.Load(context.Background(), strings.NewReader(text),
			serialize.LoadOptions{File: filepath.Join(dir, "level.json"), NewWorld: testWorld})
		return err
	}
	plain := []string{write(t, apply(t))}
	for _, tc := range mergeCases() {
		plain = append(plain, write(t, apply(t, tc.ours...)), write(t, apply(t, tc.theirs...)), write(t, apply(t, tc.want...)))
	}
	rng := rand.New(rand.NewPCG(5, 8))
	for _, family := range []struct {
		name     string
		versions []string
	}{{"baseScene", plain}, {"prefab", prefabVersions(t)}} {
		name, versions := family.name, family.versions
		slices.Sort(versions)
		versions = slices.Compact(versions)
		for i, v := range versions {
			if err := load(v); err != nil {
				t.Fatalf("%s version %d does not load (a test bug): %v\n%s", name, i, err, v)
			}
		}
		n, unmergeable := len(versions), 0
		runs := min(*loadRuns, n*n*n)
		for r := range runs {
			k := r
			if runs < n*n*n {
				k = rng.IntN(n * n * n)
			}
			b, o, th := versions[k%n], versions[k/n%n], versions[k/n/n]
			res := Merge(read(t, b), read(t, o), read(t, th))
			if res.Unmergeable != "" {
				// Only an unpack (entity 10 without its "prefab") can need the prefab.
				if !slices.ContainsFunc([]string{b, o, th}, func(v string) bool {
					e := read(t, v).Entity(10)
					return e != nil && e.Prefab == ""
				}) {
					t.Fatalf("%s: refused without an unpack: %s\nbase:\n%s\nours:\n%s\ntheirs:\n%s", name, res.Unmergeable, b, o, th)
				}
				unmergeable++
				continue
			}
			out := write(t, res.Scene)
			if err := load(out); err != nil {
				t.Fatalf("%s: the merge does not load: %v\nbase:\n%s\nours:\n%s\ntheirs:\n%s\nmerged:\n%s", name, err, b, o, th, out)
			}
		}
		t.Logf("%s: %d versions, %d merges (%d unmergeable without the prefab)", name, n, runs, unmergeable)
	}
}
