package serialize

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/game"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// SpawnExport adds the entities of a game export (read with game.Load or game.LoadFile) to w, which
// must have the scene components registered (scene.Register) and the game's own (its Go types,
// e.g. made by `voltex-editor gen`, or a project file's): it is how a game that runs its systems on
// an ecs.World starts a level. Each entity gets its Name, Transform (the local transform), Mesh,
// Color, Spin, Camera, Material and Light, its parent, and every component under "components" that w knows by name
// or former name, decoded through the same schema as scene files: fields the export lacks keep the
// component's default, entity references (indices in the export) become the spawned entities.
// Components w does not know are kept in a scene.Unknown. The spawned entities are returned in
// export order (so index i of the export is ents[i]). Values that do not fit their types are
// reported as an *Error naming entities[i].components.Name.field at its file:line:col (game.Scene.File
// and Where), and then nothing is spawned.
func SpawnExport(w *ecs.World, s *game.Scene) (ents []ecs.Entity, err error) {
	b := newBinder(w)
	probs := &diag.List{File: s.File}
	var path diag.Path
	b.probs, b.ds.probs, b.ds.path = probs, probs, &path
	b.ds.indexRefs = true
	type valueSet struct {
		vals []any
		refs []refRec
	}
	sets := make([]valueSet, len(s.Entities))
	for i := range s.Entities {
		e := &s.Entities[i]
		vs := &sets[i]
		vs.vals = append(vs.vals, &scene.Name{Value: e.Name})
		if t := e.Transform; t != nil {
			vs.vals = append(vs.vals, &ecs.Transform{Position: t.Position, Rotation: t.Rotation, Scale: t.Scale})
		}
		if e.Mesh >= 0 && e.Mesh < len(s.Meshes) {
			vs.vals = append(vs.vals, &scene.Mesh{Asset: s.Meshes[e.Mesh]})
		}
		if e.HasColor {
			vs.vals = append(vs.vals, &scene.Color{RGBA: e.Color})
		}
		if sp := e.Spin; sp != nil {
			vs.vals = append(vs.vals, &scene.Spin{Axis: sp.Axis, Speed: sp.Speed})
		}
		if c := e.Camera; c != nil {
			cam := scene.Camera{FOV: c.FOV, Near: c.Near, Far: c.Far, Aspect: c.Aspect, XMag: c.XMag, YMag: c.YMag}
			if c.Orthographic {
				cam.Projection = scene.Orthographic
			}
			vs.vals = append(vs.vals, &cam)
		}
		if m := e.Material; m != nil {
			vs.vals = append(vs.vals, materialOf(m))
		}
		if l := e.Light; l != nil {
			vs.vals = append(vs.vals, &scene.Light{Kind: scene.LightKind(l.Kind), Color: l.Color, Intensity: l.Intensity, Range: l.Range,
				InnerCone: l.InnerCone, OuterCone: l.OuterCone})
		}
		var unknown []scene.RawComponent
		names := make([]string, 0, len(e.Components))
		for name := range e.Components {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			raw := e.Components[name]
			path.Truncate(0)
			path.Key("entities")
			path.Index(i)
			path.Key("components")
			path.Key(name)
			bd := b.byNm[name]
			switch {
			case bd == nil:
				unknown = append(unknown, scene.RawComponent{Name: name, JSON: string(raw)})
			case bd.refuse != "":
				line, col := s.Where(i, name, 0)
				probs.Errorf(line, col, path.String(), "%s cannot be loaded: %s", name, bd.refuse)
			default:
				v, perr := jsonpos.Parse(raw, jsonpos.Limits{MaxDepth: DefaultMaxDepth, MaxString: DefaultMaxString})
				if perr != nil {
					line, col := s.Where(i, name, 0)
					probs.Errorf(line, col, path.String(), "%v", perr)
					break
				}
				bd.reset()
				b.ds.failed = false
				first := len(probs.Problems)
				bd.codec.decode(&b.ds, &v, bd.ptr)
				// Positions in the component's compact JSON (line 1) become positions in the export.
				for k := first; k < len(probs.Problems); k++ {
					p := &probs.Problems[k]
					p.Line, p.Col = exportPos(s, i, name, p.Line, p.Col)
				}
				for _, r := range b.ds.refs {
					line, col := exportPos(s, i, name, int(r.line), int(r.col))
					r.line, r.col = int32(line), int32(col)
					vs.refs = append(vs.refs, refRec{rec: int32(i), comp: bd.id, ref: r})
				}
				b.ds.refs = b.ds.refs[:0]
				if !b.ds.failed {
					vs.vals = append(vs.vals, bd.scratch.Elem().Interface())
				}
			}
		}
		if len(unknown) > 0 {
			vs.vals = append(vs.vals, &scene.Unknown{Components: unknown})
		}
		for _, r := range vs.refs {
			if r.ref.id >= int64(len(s.Entities)) {
				probs.Errorf(int(r.ref.line), int(r.ref.col), r.ref.jsonPath(r.rec, b.w.ComponentInfo(r.comp).Name), "entity %d does not exist (the export has %d)", r.ref.id, len(s.Entities))
			}
		}
	}
	if err := probs.Err(); err != nil {
		return nil, err
	}
	ents = make([]ecs.Entity, len(s.Entities))
	for i := range sets {
		ents[i] = w.Spawn(sets[i].vals...)
	}
	for i, e := range s.Entities {
		if e.Parent >= 0 && e.Parent < i {
			if err := w.SetParent(ents[i], ents[e.Parent]); err != nil {
				return nil, fmt.Errorf("entities[%d].parent: %w", i, err)
			}
		}
	}
	for i := range sets {
		for _, r := range sets[i].refs {
			if err := w.SetField(ents[i], r.comp, r.ref.path, ents[r.ref.id]); err != nil {
				return nil, fmt.Errorf("entities[%s]: %w", strconv.Itoa(i), err)
			}
		}
	}
	return ents, nil
}

// exportPos maps line:col in the compact JSON of entity i's component name to the export (0, 0
// where that is not known).
func exportPos(s *game.Scene, i int, name string, line, col int) (int, int) {
	if line != 1 || col < 1 {
		return 0, 0
	}
	return s.Where(i, name, col-1)
}

// materialOf converts an exported material back into the component.
func materialOf(m *game.Material) *scene.Material {
	tex := func(t game.Texture) scene.Texture {
		return scene.Texture{Image: t.Image, UV: uint8(t.UV), WrapS: scene.Wrap(t.WrapS), WrapT: scene.Wrap(t.WrapT),
			MagFilter: scene.Filter(t.MagFilter), MinFilter: scene.Filter(t.MinFilter), Mipmaps: scene.Mipmaps(t.Mipmaps),
			Offset: t.Offset, Scale: t.Scale, Rotation: t.Rotation}
	}
	return &scene.Material{BaseColor: m.BaseColor, BaseColorTexture: tex(m.BaseColorTexture), Metallic: m.Metallic,
		Roughness: m.Roughness, MetallicRoughnessTexture: tex(m.MetallicRoughnessTexture), NormalTexture: tex(m.NormalTexture),
		NormalScale: m.NormalScale, OcclusionTexture: tex(m.OcclusionTexture), OcclusionStrength: m.OcclusionStrength,
		Emissive: m.Emissive, EmissiveStrength: m.EmissiveStrength, EmissiveTexture: tex(m.EmissiveTexture),
		AlphaMode: scene.AlphaMode(m.AlphaMode), AlphaCutoff: m.AlphaCutoff, DoubleSided: m.DoubleSided}
}
