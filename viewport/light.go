package viewport

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// Light is a scene light placed in the world: what a renderer needs of a scene.Light entity.
type Light struct {
	Kind     scene.LightKind
	Color    mgl32.Vec3 // linear RGB × intensity (lux for directional lights, candela for the others)
	Position mgl32.Vec3 // point and spot lights
	// Direction is the unit vector the light shines along (the entity's -Z axis): directional and spot lights.
	Direction mgl32.Vec3
	Range     float32 // 0: unlimited
	// CosInner and CosOuter are the cosines of a spot's cone angles: full light inside the inner one, none
	// outside the outer one (CosInner ≥ CosOuter).
	CosInner, CosOuter float32
	ID                 uint32 // the entity's EntityID
}

// Lights returns the scene's lights (none: the renderer's default rig lights the scene). It must not be
// modified.
func (d *DrawList) Lights() []Light { return d.lights }

// SetLights sets the scene's lights; a list equal to the current one changes nothing.
func (d *DrawList) SetLights(ls []Light) {
	if slices.Equal(ls, d.lights) {
		return
	}
	d.lights = append(d.lights[:0], ls...)
	d.version++
	d.meshes++
}

// PlaceLight returns light l of an entity with world matrix m.
func PlaceLight(l *scene.Light, m mgl32.Mat4, id uint32) Light {
	dir := m.Mul4x1(mgl32.Vec4{0, 0, -1, 0}).Vec3()
	if n := dir.Len(); n > 0 {
		dir = dir.Mul(1 / n)
	} else {
		dir = mgl32.Vec3{0, -1, 0}
	}
	outer := min(max(l.OuterCone, 0), 90)
	inner := min(max(l.InnerCone, 0), outer)
	cos := func(deg float32) float32 { return float32(math.Cos(float64(mgl32.DegToRad(deg)))) }
	return Light{
		Kind: l.Kind, Color: mgl32.Vec3(l.Color).Mul(max(l.Intensity, 0)),
		Position: m.Col(3).Vec3(), Direction: dir, Range: max(l.Range, 0),
		CosInner: cos(inner), CosOuter: cos(outer), ID: id,
	}
}

// lightsChanged reports whether a light was added, changed, moved or removed since the last call.
func (b *Builder) lightsChanged() bool {
	changed := b.lightCount != b.allLights.Count()
	for _, q := range []*ecs.Query2[ecs.GlobalTransform, scene.Light]{b.movedLights, b.editedLights} {
		for it := q.Iter(); it.Next(); { // iterated to the end: the query's changes are then seen
			changed = true
		}
	}
	return changed
}

// updateLights gives the draw list the world's lights when they changed.
func (b *Builder) updateLights() {
	if !b.lightsChanged() {
		return
	}
	b.lights = b.lights[:0]
	for it := b.allLights.Iter(); it.Next(); {
		g, l := it.Get()
		b.lights = append(b.lights, PlaceLight(l, g.Matrix, EntityID(it.Entity())))
	}
	b.lightCount = len(b.lights)
	b.dl.SetLights(b.lights)
}

func newLightQuery(w *ecs.World, terms ...ecs.Term) *ecs.Query2[ecs.GlobalTransform, scene.Light] {
	return ecs.NewQuery2[ecs.GlobalTransform, scene.Light](w, append(terms, ecs.Read[ecs.GlobalTransform](), ecs.Read[scene.Light]())...)
}
