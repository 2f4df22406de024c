package gltfprefab_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/assets/gltf"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/gltfprefab"
)

// idsByPath builds a model and returns each entity's id by its name path ("Body/Lamp").
func idsByPath(t *testing.T, text string) map[string]uint64 {
	t.Helper()
	m, err := gltf.Decode([]byte(text), "", gltf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	w := scene.NewWorld()
	if _, err := gltfprefab.Build(m, "ship.gltf", w, 0); err != nil {
		t.Fatal(err)
	}
	names, sids := ecs.NewMap[scene.Name](w), ecs.NewMap[scene.SceneID](w)
	out := map[string]uint64{}
	for _, e := range scene.EnsureIDs(w) {
		p := names.Get(e).Value
		for a := w.Parent(e); !a.IsZero(); a = w.Parent(a) {
			p = names.Get(a).Value + "/" + p
		}
		out[p] = sids.Get(e).ID
	}
	return out
}

// TestIDsFollowNodePaths: ids come from the nodes' name paths, so a re-export that lists nodes and
// meshes in another order gives every entity its id again; siblings sharing a name and unnamed
// nodes get distinct ids.
func TestIDsFollowNodePaths(t *testing.T) {
	a := idsByPath(t, ship([3]float32{}, [4]float32{1, 1, 1, 1}, 1, false))
	b := idsByPath(t, ship([3]float32{}, [4]float32{1, 1, 1, 1}, 1, true))
	if len(a) != 6 || len(a) != len(b) {
		t.Fatalf("%d and %d entities", len(a), len(b))
	}
	for p, id := range a {
		if b[p] != id {
			t.Errorf("%s: id %d, then %d after reordering", p, id, b[p])
		}
	}
	same := `{"asset": {"version": "2.0"}, "nodes": [{"name": "Post"}, {"name": "Post"}, {}, {}]}`
	ids := map[uint64]bool{}
	m, _ := gltf.Decode([]byte(same), "", gltf.Limits{})
	w := scene.NewWorld()
	if _, err := gltfprefab.Build(m, "f.gltf", w, 0); err != nil {
		t.Fatal(err)
	}
	for _, e := range scene.EnsureIDs(w) {
		ids[ecs.NewMap[scene.SceneID](w).Get(e).ID] = true
	}
	if len(ids) != 4 {
		t.Errorf("4 nodes, %d distinct ids", len(ids))
	}
}

// TestModelPrefabLimitsAndPaths: a model over the entity limit, a model outside the scene folder
// and a model whose buffer climbs out of its folder are refused, naming why; the scene still loads
// with the instance as a placeholder.
func TestModelPrefabLimitsAndPaths(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "ship.gltf"), ship([3]float32{}, [4]float32{1, 1, 1, 1}, 1, false))
	write(t, filepath.Join(dir, "leaky.gltf"), `{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "../secret.bin"}]}`)
	for _, tc := range []struct {
		prefab string
		lim    serialize.Limits
		want   string
	}{
		{"ship.gltf", serialize.Limits{MaxEntities: 3}, "more than 3 entities"},
		{"leaky.gltf", serialize.Limits{}, "secret.bin"},
		{"../ship.gltf", serialize.Limits{}, "climbs out of the scene folder"},
	} {
		src := `{"format": "voltex.scene", "version": 2, "entities": [{"id": 1, "prefab": "` + tc.prefab + `"}]}`
		s, err := serialize.Load(context.Background(), strings.NewReader(src), serialize.LoadOptions{File: filepath.Join(dir, "s.json"), Limits: tc.lim})
		msg := ""
		if err != nil {
			msg = err.Error()
		} else if es := scene.EnsureIDs(s.World); len(es) > 0 {
			if p, ok := ecs.NewMap[scene.Prefab](s.World).TryGet(es[0]); ok {
				msg = p.Problem
			}
			for _, w := range s.Warnings {
				msg += "\n" + w.String()
			}
		}
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %q, want it to say %q", tc.prefab, msg, tc.want)
		}
	}
}
