package serialize

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/assetref"
	"github.com/voltex-editor/voltex/internal/atomicfile"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// ExportFile loads the scene file in and writes its game export to out
// atomically (see [Export], [LoadFile] and [atomicfile.WriteFileFunc]).
func ExportFile(ctx context.Context, in, out string, opts LoadOptions) error {
	s, err := LoadFile(ctx, in, opts)
	if err != nil {
		return err
	}
	return atomicfile.WriteFileFunc(out, func(w io.Writer) error { return Export(ctx, w, s) })
}

// Export writes s for games, in the voltex.export format (version 1, read
// by package serialize/game; see docs/scene-format.md):
//
//   - entities flattened into one array in hierarchy order (parents before
//     their children, siblings in their order), each with its name, the index
//     of its parent (-1 for roots), its mesh as an index into a mesh table
//     that lists each asset once (-1 for none; a Mesh without a Transform
//     is not drawn, so it has none), its colour, and its world matrix (16
//     floats, column-major as mgl32.Mat4) baked from the hierarchy;
//   - the other components (Transform as the local transform, Spin, Camera,
//     components of other packages and unknown components kept verbatim)
//     under "components", with entity references written as entity indices
//     (-1 for none);
//   - editor-only data left out: the editor camera and selection, scene ids,
//     and components whose type is scene.EditorOnly or scene.Transient.
//
// Export does not change the world except to give entities missing scene
// ids one (as Save does).
func Export(ctx context.Context, out io.Writer, s *Scene) error {
	if s == nil || s.World == nil {
		panic("serialize.Export: the scene has no world; load or create one first (scene.NewWorld)")
	}
	w := s.World
	if err := brokenInstance(w); err != nil {
		return err
	}
	sw := newSceneWriter(w)
	sw.exporting = true
	order := exportOrder(w, scene.EnsureIDs(w))
	index := newSlotMap(order) // export index by entity
	sw.enc.refID = func(e ecs.Entity) int64 {
		if w.Alive(e) {
			if i, ok := index.get(e); ok {
				return int64(i)
			}
		}
		return -1
	}
	meshes := ecs.NewMap[scene.Mesh](w)
	colors := ecs.NewMap[scene.Color](w)
	transforms := ecs.NewMap[ecs.Transform](w)
	// drawn returns an entity's mesh if it is drawn: it needs a Transform to have a place.
	drawn := func(e ecs.Entity) (scene.Mesh, bool) {
		if !transforms.Has(e) {
			return scene.Mesh{}, false
		}
		return meshes.TryGet(e)
	}
	meshIndex := map[string]int{}
	var meshList []string
	for _, e := range order {
		if m, ok := drawn(e); ok {
			if _, seen := meshIndex[m.Asset]; !seen {
				if _, err := assetref.Check(m.Asset); err != nil {
					return sw.valueError(e, "Mesh", &encodeError{path: "asset", msg: err.Error()})
				}
				meshIndex[m.Asset] = len(meshList)
				meshList = append(meshList, m.Asset)
			}
		}
	}
	// Components written under "components": not flattened, not editor-only.
	notExported := func(c savedComp) bool {
		t := w.ComponentInfo(c.id).Type
		return t == reflect.TypeFor[scene.Mesh]() || t == reflect.TypeFor[scene.Color]() || scene.IsEditorOnly(w.ComponentInfo(c.id))
	}
	sw.comps = slices.DeleteFunc(sw.comps, notExported)
	sw.out = out
	b := append(make([]byte, 0, flushAt+4096), "{\n  \"format\": \"voltex.export\",\n  \"version\": 1,\n  \"name\": "...)
	b = jsonpos.AppendString(b, s.Name)
	b = append(b, ",\n  \"meshes\": ["...)
	for i, m := range meshList {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = jsonpos.AppendString(b, m)
	}
	b = append(b, "],\n  \"entities\": ["...)
	if len(order) > 0 {
		b = append(b, '\n')
	}
	sw.buf = b
	// One entity of the array (entity i of order), appended to ew.buf; it only reads the world.
	entity := func(ew *sceneWriter, i int, e ecs.Entity) error {
		b := append(ew.buf, "    {\n      \"name\": "...)
		name, _ := ew.names.TryGet(e)
		b = jsonpos.AppendString(b, name.Value)
		b = append(b, ",\n      \"parent\": "...)
		parent := -1
		if p := w.Parent(e); !p.IsZero() {
			parent, _ = index.get(p)
		}
		b = appendInt(b, parent)
		b = append(b, ",\n      \"mesh\": "...)
		mesh := -1
		if m, ok := drawn(e); ok {
			mesh = meshIndex[m.Asset]
		}
		b = appendInt(b, mesh)
		if c, ok := colors.TryGet(e); ok {
			if !allFinite(c.RGBA[:]) {
				ew.buf = b
				return ew.valueError(e, "Color", &encodeError{path: "rgba", msg: "is not finite; exports cannot hold NaN or infinite numbers"})
			}
			b = append(b, ",\n      \"color\": ["...)
			b = appendFloats32(b, c.RGBA[:])
			b = append(b, ']')
		}
		m := w.WorldMatrix(e)
		if !allFinite(m[:]) {
			ew.buf = b
			return ew.valueError(e, "Transform", &encodeError{msg: "gives a world matrix that is not finite (its Transform, or a parent's, " +
				"overflows a 32-bit float; loading the scene warns where)"})
		}
		b = append(b, ",\n      \"world\": ["...)
		b = appendFloats32(b, m[:])
		b = append(b, ']')
		ew.buf = b
		if err := ew.exportComponents(e); err != nil {
			return err
		}
		ew.buf = append(ew.buf, "\n    }"...)
		if i < len(order)-1 {
			ew.buf = append(ew.buf, ',')
		}
		ew.buf = append(ew.buf, '\n')
		return nil
	}
	if len(order) >= parallelMin && saveWorkers() > 1 {
		if w.TransformsDirty() {
			w.PropagateTransforms() // WorldMatrix only reads the world from here on
		}
		worker := func() *sceneWriter {
			ew := newSceneWriter(w)
			ew.exporting, ew.enc.refID = true, sw.enc.refID
			ew.comps = slices.DeleteFunc(ew.comps, notExported)
			return ew
		}
		if err := sw.entitiesParallel(ctx, order, nil, worker, entity); err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				return fmt.Errorf("exporting: %w", ctx.Err())
			}
			return err
		}
	} else {
		for i, e := range order {
			if i&1023 == 1023 {
				if err := ctx.Err(); err != nil {
					return fmt.Errorf("exporting: %w", err)
				}
			}
			if err := entity(sw, i, e); err != nil {
				return err
			}
			if len(sw.buf) >= flushAt {
				sw.flush()
				if sw.err != nil {
					return sw.err
				}
			}
		}
	}
	if len(order) > 0 {
		sw.buf = append(sw.buf, "  "...)
	}
	sw.buf = append(sw.buf, "]\n}\n"...)
	sw.flush()
	return sw.err
}

// exportComponents appends `,\n      "components": {…}` if e has any
// component to export.
func (sw *sceneWriter) exportComponents(e ecs.Entity) error {
	mark := len(sw.buf)
	sw.buf = append(sw.buf, ",\n      \"components\": {"...)
	if err := sw.components(e); err != nil {
		return err
	}
	if string(sw.buf[len(sw.buf)-2:]) == "{}" {
		sw.buf = sw.buf[:mark]
	}
	return nil
}

// exportOrder lists the entities parents first (depth-first), roots and
// siblings in sibling order (scene.Compare: order key, then id).
func exportOrder(w *ecs.World, byID []ecs.Entity) []ecs.Entity {
	sib := slices.Clone(byID)
	scene.SortSiblings(w, sib) // every parent's children in sibling order, as a subsequence
	rank := newSlotMap(sib)
	out := make([]ecs.Entity, 0, len(byID))
	var stack []ecs.Entity
	for _, root := range sib {
		if !w.Parent(root).IsZero() {
			continue
		}
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			out = append(out, e)
			n := len(stack)
			stack = w.AppendChildren(stack, e)
			// Pushed in descending order so they pop in ascending order.
			slices.SortFunc(stack[n:], func(a, b ecs.Entity) int {
				ra, _ := rank.get(a)
				rb, _ := rank.get(b)
				return cmp.Compare(rb, ra)
			})
		}
	}
	return out
}

// slotMap maps live entities to their position in a list: an int32 per
// entity slot (about 4 bytes per entity, where a map takes 40 or more).
type slotMap []int32 // by entity index: position + 1, 0 for none

func newSlotMap(es []ecs.Entity) slotMap {
	var top uint32
	for _, e := range es {
		top = max(top, e.Index())
	}
	m := make(slotMap, int(top)+1)
	for i, e := range es {
		m[e.Index()] = int32(i + 1)
	}
	return m
}

// get returns the position of e, which must be alive (a stale handle would
// find the entity now in its slot).
func (m slotMap) get(e ecs.Entity) (int, bool) {
	if i := int(e.Index()); i < len(m) && m[i] > 0 {
		return int(m[i] - 1), true
	}
	return 0, false
}

func appendInt(b []byte, n int) []byte {
	if n < 0 {
		return appendUint(append(b, '-'), uint64(-n))
	}
	return appendUint(b, uint64(n))
}

func allFinite(fs []float32) bool {
	for _, f := range fs {
		if !finite32(f) {
			return false
		}
	}
	return true
}
