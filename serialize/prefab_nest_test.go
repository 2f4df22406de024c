package serialize_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/prefabnest"
	"github.com/voltex-editor/voltex/serialize"
)

// nestRefusal is the message of a load of the nest's scene (at the default limits).
var nestRefusal = "level.json:3:38: entities[0].prefab: prefab nest flattens to 111,111,110 entities, over the limit of " +
	"4,000,000 (Limits.MaxEntities): level.json ×10 " + prefabnest.Chain

// aRefusal is the message of a load of a.json, the nest's first prefab.
var aRefusal = "a.json:3:38: entities[0].prefab: prefab nest flattens to 11,111,110 entities, over the limit of " +
	"4,000,000 (Limits.MaxEntities): " + prefabnest.Chain

// A prefab nest over the entity limit is refused from the shape of its files, before any prefab is
// loaded: it used to be expanded level by level (validate refused it after 22 s and 2.1 GB). The
// load makes no world but the scene's own and allocates little.
func TestPrefabNestIsRefusedUnexpanded(t *testing.T) {
	dir := writeFiles(t, prefabnest.Files())
	worlds := 0
	opts := serialize.LoadOptions{NewWorld: func() *ecs.World { worlds++; return scene.NewWorld() }}
	load := func() error {
		_, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "level.json"), opts)
		return err
	}
	if err := load(); err == nil || !strings.Contains(err.Error(), nestRefusal) {
		t.Fatalf("err = %v\nwant %s", err, nestRefusal)
	}
	if worlds != 1 {
		t.Errorf("%d worlds made: prefabs of the nest were loaded", worlds)
	}
	if allocs := testing.AllocsPerRun(2, func() { _ = load() }); allocs > 5000 {
		t.Errorf("%.0f allocations to refuse the nest", allocs)
	}
	// A prefab of the nest, placed (Prefabs.Template), is refused the same way.
	worlds = 0
	p := serialize.NewPrefabs(serialize.PrefabOptions{NewWorld: opts.NewWorld})
	tpl := p.Template(context.Background(), dir, "a.json")
	if err := tpl.Err(); err == nil || !strings.Contains(err.Error(), aRefusal) {
		t.Errorf("template: %v", err)
	}
	if worlds != 1 {
		t.Errorf("%d worlds made for the template of a.json", worlds)
	}
}

// A prefab file that changes on disk into a nest over the limit (live updates) is refused without
// being expanded: the instances become placeholders that say why, keeping their overrides.
func TestLiveUpdateIntoANest(t *testing.T) {
	files := prefabnest.Files()
	nest := files["a.json"]
	files["a.json"] = prefabnest.File("")
	dir := writeFiles(t, files)
	s := loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	if n := s.World.Len(); n != 110 {
		t.Fatalf("%d entities", n)
	}
	a := filepath.Join(dir, "a.json")
	write(t, a, nest)
	var rep serialize.UpdateReport
	allocs := prefabnest.Mallocs(func() {
		rep = serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), a))
	})
	if allocs > 10000 {
		t.Errorf("%d allocations to refuse the nest", allocs)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), aRefusal) {
		t.Errorf("warnings %q\nwant %s", rep.Warnings, aRefusal)
	}
	if n := s.World.Len(); n != 10 {
		t.Errorf("%d entities after the update, want the 10 placeholders", n)
	}
	// Every file of the nest is followed: b.json made a prefab of ten entities, the instances of
	// a.json (ten of b.json) come back.
	b := filepath.Join(dir, "b.json")
	if files := s.Prefabs.Files(); !slices.Contains(files, b) || !slices.Contains(files, filepath.Join(dir, "g.json")) {
		t.Errorf("files followed: %q", files)
	}
	write(t, b, prefabnest.File(""))
	rep = serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), b))
	if n := s.World.Len(); n != 10+10*110 || len(rep.Warnings) > 0 {
		t.Errorf("%d entities after b.json shrank, want 1,110; warnings %q", n, rep.Warnings)
	}
}
