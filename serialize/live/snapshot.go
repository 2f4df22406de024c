package live

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// Components a snapshot does not write as components: the entity's name and id are keys of the
// scene file, and a snapshot is flat (prefab instances are written as the entities they are).
var notWritten = map[string]bool{"Name": true, "SceneID": true, "Unknown": true, "Prefab": true,
	"PrefabPart": true, "PrefabKept": true}

// SnapshotScene returns the client's view as a scene (the form serialize/merge compares): every
// entity, with its name, parent and the components a scene file stores. An entity keeps the id
// its SceneID gives it (so the snapshot compares with the scene the game loaded); one without a
// SceneID, or whose id another entity took first, gets a new id; entity references are written as
// those ids.
func (c *Client) SnapshotScene(name string) (*serialize.RawScene, error) {
	rs, _, err := c.snapshot(name, c.View())
	return rs, err
}

// SnapshotSceneIDs is SnapshotScene, and the entity (handle) each id of the scene is, to name entities found in
// the scene to the game.
func (c *Client) SnapshotSceneIDs(name string) (*serialize.RawScene, map[uint64]uint64, error) {
	rs, idOf, err := c.snapshot(name, c.View())
	if err != nil {
		return nil, nil, err
	}
	handles := make(map[uint64]uint64, len(idOf))
	for h, id := range idOf {
		handles[uint64(id)] = h
	}
	return rs, handles, nil
}

// SnapshotSceneOf is SnapshotScene of the entities roots and their descendants only (a selection
// saved as a prefab): those whose parent is left out are roots, and references to entities left
// out are none.
func (c *Client) SnapshotSceneOf(name string, roots []uint64) (*serialize.RawScene, error) {
	view := c.View()
	keep := map[uint64]bool{}
	for _, h := range roots {
		if _, ok := view[h]; ok {
			keep[h] = true
		}
	}
	for grew := true; grew; { // descendants, whatever the order of the view
		grew = false
		for h, e := range view {
			if !keep[h] && keep[e.Parent] {
				keep[h], grew = true, true
			}
		}
	}
	maps.DeleteFunc(view, func(h uint64, _ Entity) bool { return !keep[h] })
	rs, _, err := c.snapshot(name, view)
	return rs, err
}

// snapshot is SnapshotScene of view, and the id it gave each entity (by handle).
func (c *Client) snapshot(name string, view map[uint64]Entity) (*serialize.RawScene, map[uint64]int64, error) {
	handles := slices.Sorted(func(yield func(uint64) bool) {
		for h := range view {
			if !yield(h) {
				return
			}
		}
	})
	idOf := make(map[uint64]int64, len(view))
	used := map[uint64]bool{}
	order := make(map[uint64]float64, len(view))
	for i, h := range handles {
		order[h] = float64(i)
		js, ok := view[h].Components["SceneID"]
		if !ok {
			continue
		}
		var sid scene.SceneID
		if json.Unmarshal([]byte(js), &sid) != nil {
			continue
		}
		order[h] = sid.Order
		if sid.ID != 0 && sid.ID <= scene.MaxID && !used[sid.ID] {
			used[sid.ID] = true
			idOf[h] = int64(sid.ID)
		}
	}
	ids := scene.RandomIDs()
	ids.Taken = func(id uint64) bool { return used[id] }
	for _, h := range handles {
		if _, ok := idOf[h]; !ok {
			id := ids.New()
			used[id] = true
			idOf[h] = int64(id)
		}
	}
	rs := &serialize.RawScene{Name: name}
	for _, h := range handles {
		e := view[h]
		re := serialize.RawEntity{ID: idOf[h], Parent: idOf[e.Parent], Order: order[h]}
		if js, ok := e.Components["Name"]; ok {
			var n scene.Name
			if err := json.Unmarshal([]byte(js), &n); err == nil {
				re.Name, re.HasName = n.Value, true
			}
		}
		for comp, js := range e.Components {
			sc := c.Schema(comp)
			if notWritten[comp] || sc == nil || sc.Transient || sc.Computed || sc.Unstorable != "" {
				continue
			}
			if js == "" {
				return nil, nil, fmt.Errorf("live: snapshot: entity %d: no value of %s yet", h, comp)
			}
			js, err := remapRefs(js, sc.Fields, idOf)
			if err != nil {
				return nil, nil, fmt.Errorf("live: snapshot: entity %d: %s: %v", h, comp, err)
			}
			re.Components = append(re.Components, scene.RawComponent{Name: comp, JSON: js})
		}
		slices.SortFunc(re.Components, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
		rs.Entities = append(rs.Entities, re)
	}
	slices.SortFunc(rs.Entities, func(a, b serialize.RawEntity) int { return cmp.Compare(a.ID, b.ID) })
	return rs, idOf, nil
}

// Snapshot writes the client's view as a scene file (see SnapshotScene).
func (c *Client) Snapshot(ctx context.Context, out io.Writer, name string) error {
	rs, err := c.SnapshotScene(name)
	if err != nil {
		return err
	}
	return serialize.WriteRaw(ctx, out, rs)
}

// SnapshotFile writes the client's view as a scene file at path, atomically.
func (c *Client) SnapshotFile(ctx context.Context, path, name string) error {
	rs, err := c.SnapshotScene(name)
	if err != nil {
		return err
	}
	return serialize.WriteRawFile(ctx, path, rs)
}

// remapRefs rewrites the entity references of a component's JSON from handles to scene ids (0,
// none, for an entity the view lacks). JSON without references is returned as it is.
func remapRefs(js string, fields []Field, idOf map[uint64]int64) (string, error) {
	if !anyRef(fields) {
		return js, nil
	}
	v, err := decodeNumbers([]byte(js))
	if err != nil {
		return "", err
	}
	v = remapValue(v, &Field{Kind: "struct", Fields: fields}, idOf)
	b, err := json.Marshal(v)
	return string(b), err
}

func anyRef(fields []Field) bool {
	for i := range fields {
		f := &fields[i]
		if f.Entity || anyRef(f.Fields) || f.Elem != nil && (f.Elem.Entity || anyRef(f.Elem.Fields)) {
			return true
		}
	}
	return false
}

func remapValue(v any, f *Field, idOf map[uint64]int64) any {
	switch {
	case f.Entity:
		n, ok := v.(json.Number)
		if !ok {
			return v
		}
		var h uint64
		if x, err := n.Int64(); err == nil {
			h = uint64(x)
		}
		return idOf[h]
	case f.Elem != nil:
		items, ok := v.([]any)
		if !ok {
			return v
		}
		for i := range items {
			items[i] = remapValue(items[i], f.Elem, idOf)
		}
	case len(f.Fields) > 0:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for i := range f.Fields {
			if x, ok := m[f.Fields[i].Name]; ok {
				m[f.Fields[i].Name] = remapValue(x, &f.Fields[i], idOf)
			}
		}
	}
	return v
}
