package merge

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

const enemy = `{ "format": "voltex.scene", "version": 2, "name": "Enemy", "entities": [
  { "id": 1, "name": "Body", "order": 1, "components": { "Color": { "rgba": [1, 0, 0, 1] }, "Transform": {} } },
  { "id": 2, "name": "Weapon", "parent": 1, "order": 1, "components": { "Color": { "rgba": [0, 0, 1, 1] }, "Transform": {} } }
] }`

func rec(source int64, body string) string {
	id := strconv.FormatUint(scene.InstanceID(10, uint64(source)), 10)
	return `, { "id": ` + id + `, "instance": 10, "source": ` + strconv.FormatInt(source, 10) + body + ` }`
}

func level(extra string) string {
	return `{ "format": "voltex.scene", "version": 2, "name": "L", "entities": [
  { "id": 10, "name": "Enemy", "order": 1, "prefab": "enemy.json", "components": { "Transform": {} } }` + extra + ` ] }`
}

// mergeInDir merges three versions of a level whose prefab is in dir, and loads the result with
// its prefab.
func mergeInDir(t *testing.T, base, ours, theirs string) (string, *Result, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(enemy), 0o644); err != nil {
		t.Fatal(err)
	}
	res := Merge(read(t, base), read(t, ours), read(t, theirs))
	var b bytes.Buffer
	if err := serialize.WriteRaw(context.Background(), &b, res.Scene); err != nil {
		t.Fatal(err)
	}
	_, err := serialize.Load(context.Background(), bytes.NewReader(b.Bytes()),
		serialize.LoadOptions{File: filepath.Join(dir, "level.json"), NewWorld: testWorld})
	return b.String(), res, err
}

func TestMergeOverrides(t *testing.T) {
	base := level("")
	// Both sides override the same prefab entity, different fields: one record, both changes.
	ours := level(rec(2, `, "components": { "Color": { "rgba": [0, 1, 0, 1] } }`))
	theirs := level(rec(2, `, "name": "Sword", "components": { "Transform": { "scale": [2, 2, 2] } }`))
	out, res, err := mergeInDir(t, base, ours, theirs)
	if err != nil || len(res.Conflicts) != 0 {
		t.Fatalf("merge: %v %+v\n%s", err, res.Conflicts, out)
	}
	for _, want := range []string{`"name": "Sword"`, `"Color": { "rgba": [0, 1, 0, 1] }`, `"Transform": { "scale": [2, 2, 2] }`} {
		if !strings.Contains(out, want) {
			t.Errorf("merged lacks %s:\n%s", want, out)
		}
	}
	// The same field two ways: a conflict recorded in the record; the file still loads.
	theirs = level(rec(2, `, "components": { "Color": { "rgba": [1, 1, 0, 1] } }`))
	out, res, err = mergeInDir(t, base, ours, theirs)
	if err != nil || len(res.Conflicts) != 1 || res.Conflicts[0].Path != "components.Color.rgba" {
		t.Fatalf("conflict: %v %+v\n%s", err, res.Conflicts, out)
	}
	// One side removes the weapon from the instance, the other overrides its colour: kept, with a
	// "removed" conflict.
	theirs = level(rec(2, `, "removed": true`))
	out, res, err = mergeInDir(t, base, ours, theirs)
	if err != nil || len(res.Conflicts) != 1 || res.Conflicts[0].Path != "removed" || strings.Contains(out, `"removed": true`) {
		t.Fatalf("removed vs changed: %v %+v\n%s", err, res.Conflicts, out)
	}
	// One side removes it, the other hangs a new entity under it.
	ours = level(rec(2, `, "components": {}`) + `, { "id": 77, "name": "Scope", "parent": ` +
		strconv.FormatUint(scene.InstanceID(10, 2), 10) + `, "order": 1, "components": {} }`)
	out, res, err = mergeInDir(t, base, ours, theirs)
	if err != nil || len(res.Conflicts) != 1 || res.Conflicts[0].Path != "removed" {
		t.Fatalf("removed vs child added: %v %+v\n%s", err, res.Conflicts, out)
	}
	// The instance deleted on one side, overridden on the other: kept (the record needs it).
	ours = `{ "format": "voltex.scene", "version": 2, "name": "L", "entities": [] }`
	theirs = level(rec(1, `, "components": { "Color": { "rgba": [0, 0, 0, 1] } }`))
	out, res, err = mergeInDir(t, base, ours, theirs)
	if err != nil || !strings.Contains(out, `"prefab": "enemy.json"`) || len(res.Conflicts) != 1 {
		t.Fatalf("instance deleted vs overridden: %v %+v\n%s", err, res.Conflicts, out)
	}
}

func TestDiffOverrides(t *testing.T) {
	a := read(t, level(""))
	b := read(t, level(rec(2, `, "name": "Sword", "components": { "Color": { "rgba": [0, 1, 0, 1] }, "Transform": null }`)+rec(1, `, "removed": true`)))
	var out bytes.Buffer
	if err := WriteText(&out, a, b, Diff(a, b)); err != nil {
		t.Fatal(err)
	}
	want := `~ entity ` + strconv.FormatUint(scene.InstanceID(10, 2), 10) + ` "Sword" (entity 2 of instance 10 "Enemy" (instance of enemy.json))
    name: "Sword"
    overrides Color { "rgba": [0, 1, 0, 1] }
    removes Transform
`
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "removed from the instance") {
		t.Fatalf("diff:\n%s\nwant to contain:\n%s", out.String(), want)
	}
	// A change of an existing override, field by field.
	c := read(t, level(rec(2, `, "name": "Sword", "components": { "Color": { "rgba": [1, 1, 1, 1] }, "Transform": null }`)+rec(1, `, "removed": true`)))
	ch := Diff(b, c)
	if len(ch) != 1 || ch[0].Path != "components.Color.rgba" {
		t.Fatalf("changes %+v", ch)
	}
}

// A conflict recorded in an override record (both sides overrode the same field of a prefab's
// entity) is an unresolved conflict like any other: validate refuses the merged file until it is
// resolved, and lists it also beside other conflicts.
func TestConflictInOverrideRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(enemy), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "entities[1].components.MergeConflicts: unresolved merge conflict: components.Color.rgba"
	for _, also := range []bool{false, true} {
		base := level("")
		ours := level(rec(2, `, "components": { "Color": { "rgba": [0, 1, 0, 1] } }`))
		theirs := level(rec(2, `, "components": { "Color": { "rgba": [1, 1, 0, 1] } }`))
		if also { // the instance renamed two ways too
			ours = strings.Replace(ours, `"name": "Enemy"`, `"name": "Orc"`, 1)
			theirs = strings.Replace(theirs, `"name": "Enemy"`, `"name": "Troll"`, 1)
		}
		out, res, err := mergeInDir(t, base, ours, theirs)
		if err != nil || len(res.Conflicts) != 1+btoi(also) {
			t.Fatalf("merge: %v %+v\n%s", err, res.Conflicts, out)
		}
		_, err = serialize.Load(context.Background(), strings.NewReader(out),
			serialize.LoadOptions{File: filepath.Join(dir, "level.json"), NewWorld: testWorld, RefuseConflicts: true})
		if err == nil || !strings.Contains(err.Error(), want) || (also && !strings.Contains(err.Error(), "entities[0].components.MergeConflicts: unresolved merge conflict: name")) {
			t.Fatalf("validate of a scene with a conflict in an override record (and another: %v): %v\n%s", also, err, out)
		}
		if strings.Count(err.Error(), "components.Color.rgba") != 1 {
			t.Errorf("the record's conflict is reported more than once:\n%v", err)
		}
	}
}

// An entity of an instance that one side refers to (its record is the reference's target) and
// the other removes from the instance is kept, with a "removed" conflict, as a plain entity
// deleted on one side and referenced on the other is kept with an "entity" conflict.
func TestMergeKeepsReferencedEntityOfInstance(t *testing.T) {
	weapon := strconv.FormatUint(scene.InstanceID(10, 2), 10)
	follower := `, { "id": 77, "name": "Eye", "order": 2, "components": { "Follow": { "target": ` + weapon + `, "others": [] } } }`
	for _, tc := range []struct{ name, base, ours, theirs string }{
		{"referenced by ours, removed by theirs", level(""), level(rec(2, `, "components": {}`) + follower), level(rec(2, `, "removed": true`))},
		{"referenced by ours, removed with its parent by theirs", level(""), level(rec(2, `, "components": {}`) + follower),
			level(rec(1, `, "removed": true`) + rec(2, `, "removed": true`))},
		{"removed by ours, referenced by theirs", level(""), level(rec(2, `, "removed": true`)), level(rec(2, `, "components": {}`) + follower)},
		// Theirs drops the reference that base had and removes the entity; ours adds another.
		{"referenced in the merged fields", level(rec(2, `, "components": {}`) + follower),
			level(rec(2, `, "components": {}`) + strings.Replace(follower, `"others": []`, `"others": [`+weapon+`]`, 1)),
			level(rec(2, `, "removed": true`) + strings.Replace(follower, weapon, "0", 1))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, res, err := mergeInDir(t, tc.base, tc.ours, tc.theirs)
			if err != nil {
				t.Fatalf("the merged scene does not load: %v\n%s", err, out)
			}
			if len(res.Conflicts) != 1 || res.Conflicts[0].Path != "removed" || strconv.FormatInt(res.Conflicts[0].Entity, 10) != weapon {
				t.Fatalf("conflicts %+v, want one \"removed\" conflict on %s\n%s", res.Conflicts, weapon, out)
			}
			if read(t, out).Entity(int64(scene.InstanceID(10, 2))).Removed || !regexp.MustCompile(`"Follow": \{[^}]*`+weapon).MatchString(out) {
				t.Errorf("the referenced entity is not kept with its reference:\n%s", out)
			}
		})
	}
}

// unpacked returns src (a level instancing enemy.json as entity 10) with the instance unpacked, as
// the editor's Unpack Prefab saves it: entity 10 without "prefab", the prefab's entities plain
// entities with the ids they had in the instance.
func unpacked(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(enemy), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := serialize.Load(context.Background(), strings.NewReader(src),
		serialize.LoadOptions{File: filepath.Join(dir, "level.json"), NewWorld: testWorld})
	if err != nil {
		t.Fatal(err)
	}
	sids := ecs.NewMap[scene.SceneID](s.World)
	for _, e := range scene.EnsureIDs(s.World) {
		if sids.Get(e).ID == 10 {
			if err := serialize.Unpack(s, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	var b bytes.Buffer
	if err := serialize.Save(context.Background(), &b, s, serialize.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `"prefab"`) {
		t.Fatalf("not unpacked:\n%s", b.String())
	}
	return b.String()
}

// One side unpacks an instance and the other changes its overrides: the unpacked entities are
// kept (the overrides cannot be applied without the prefab), with a "prefab" conflict on the
// instance and an "override" conflict holding each changed record; the merged scene loads. An
// unpack merged with changes that leave the overrides alone is clean.
func TestMergeUnpackAgainstOverrides(t *testing.T) {
	weapon := scene.InstanceID(10, 2)
	green := rec(2, `, "components": { "Color": { "rgba": [0, 1, 0, 1] } }`)
	child := `, { "id": 77, "name": "Scope", "parent": ` + strconv.FormatUint(weapon, 10) + `, "order": 1, "components": {} }`
	moved := strings.Replace(level(""), `"order": 1, "prefab"`, `"order": 5, "prefab"`, 1)
	for _, tc := range []struct {
		name                 string
		base, ours, theirs   string
		conflicts            []string // "entity path"
		unpackedWeaponIsKept bool
	}{
		{name: "ours unpacks, theirs overrides", base: level(""), ours: unpacked(t, level("")), theirs: level(green),
			conflicts: []string{"10 prefab", strconv.FormatUint(weapon, 10) + " override"}, unpackedWeaponIsKept: true},
		{name: "theirs unpacks, ours overrides", base: level(""), ours: level(green), theirs: unpacked(t, level("")),
			conflicts: []string{"10 prefab", strconv.FormatUint(weapon, 10) + " override"}, unpackedWeaponIsKept: true},
		{name: "ours unpacks, theirs changes an override", base: level(green), ours: unpacked(t, level(green)),
			theirs:    level(rec(2, `, "components": { "Color": { "rgba": [1, 1, 0, 1] } }`)),
			conflicts: []string{"10 prefab", strconv.FormatUint(weapon, 10) + " override"}, unpackedWeaponIsKept: true},
		{name: "ours unpacks, theirs removes the weapon", base: level(""), ours: unpacked(t, level("")),
			theirs:    level(rec(2, `, "removed": true`)),
			conflicts: []string{"10 prefab", strconv.FormatUint(weapon, 10) + " override"}, unpackedWeaponIsKept: true},
		{name: "ours unpacks and deletes the weapon, theirs overrides it", base: level(""),
			ours: write(t, run(read(t, unpacked(t, level(""))), []edit{{"delete the weapon", del(int64(weapon))}})), theirs: level(green),
			conflicts: []string{"10 prefab", "10 override 2"}},
		{name: "ours unpacks, theirs moves the instance", base: level(""), ours: unpacked(t, level("")), theirs: moved,
			unpackedWeaponIsKept: true},
		{name: "ours unpacks, theirs hangs an entity under the weapon", base: level(""), ours: unpacked(t, level("")),
			theirs: level(rec(2, `, "components": {}`) + child), unpackedWeaponIsKept: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, res, err := mergeInDir(t, tc.base, tc.ours, tc.theirs)
			if err != nil {
				t.Fatalf("the merged scene does not load: %v\n%s", err, out)
			}
			var got []string
			for _, c := range res.Conflicts {
				got = append(got, strconv.FormatInt(c.Entity, 10)+" "+c.Path)
			}
			if !slices.Equal(got, tc.conflicts) {
				t.Errorf("conflicts %q, want %q\n%s", got, tc.conflicts, out)
			}
			m := read(t, out)
			if w := m.Entity(int64(weapon)); tc.unpackedWeaponIsKept && (w == nil || w.IsRecord() || m.Entity(10).Prefab != "") {
				t.Errorf("the unpacked weapon is not kept:\n%s", out)
			}
		})
	}
}
