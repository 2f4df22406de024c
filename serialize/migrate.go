package serialize

import (
	"math"

	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// migration upgrades a scene document from version from to from+1. It works
// on the JSON trees (header members and one entity at a time, so big scenes
// stream through it) before anything is checked against the component
// schemas; problems it finds are reported through the reader.
type migration struct {
	from   int
	what   string
	header func(h *jsonpos.Value, r *sceneReader) // the top-level object without "entities"; may be nil
	entity func(e *jsonpos.Value, r *sceneReader) // one entity object; may be nil
}

// migrations is the chain: migrations[i] has from == i and the last one
// ends at CurrentVersion. A file of version v runs migrations[v:].
var migrations = []migration{
	{from: 0, what: "v0 → v1: Transform.rotation radians → degrees; entity \"color\" → Color component", entity: migrateEntityV0},
	// The order keys themselves are assigned by the binder once every entity
	// is known (see binder.finish): version 1 kept siblings in id order.
	{from: 1, what: "v1 → v2: sibling order explicit in \"order\" (v1 listed siblings by id)", entity: migrateEntityV1},
}

// migrateEntityV1 refuses "order" in a version 1 file (it did not exist; a
// file that has it was edited by hand or is mislabelled).
func migrateEntityV1(e *jsonpos.Value, r *sceneReader) {
	if o := e.Get("order"); o != nil {
		r.errAt(o, "order", "\"order\" is new in version 2; this file says version %d", r.version)
	}
}

// migrateEntityV0 upgrades a version 0 entity: v0 stored Transform.rotation
// in radians and put "color": [r,g,b,a] directly on the entity.
func migrateEntityV0(e *jsonpos.Value, r *sceneReader) {
	comps := e.Get("components")
	if comps != nil && comps.Kind() == jsonpos.Object {
		if t := comps.Get("Transform"); t != nil && t.Kind() == jsonpos.Object {
			if rot := t.Get("rotation"); rot != nil && rot.Kind() == jsonpos.Array {
				for i := range rot.Len() {
					x := rot.Index(i)
					// Non-numbers and values out of range as radians are left for
					// the schema check to report.
					if f, err := x.Float(32); err == nil {
						deg := float64(float32(f * 180 / math.Pi))
						if math.IsInf(deg, 0) {
							mark := r.path.Key("components")
							r.path.Key("Transform")
							r.path.Key("rotation")
							r.path.Index(i)
							r.errAt(x, "", "version 0 stored rotations in radians: %s radians is %g degrees, beyond the range of a 32-bit float",
								x.Text(), f*180/math.Pi)
							r.path.Truncate(mark)
							continue
						}
						n := jsonpos.NewNumber(deg, 32)
						n.SetPos(x.Pos())
						*x = n
					}
				}
			}
		}
	}
	color := e.Get("color")
	if color == nil {
		return
	}
	if comps == nil {
		obj := jsonpos.NewObject()
		obj.SetPos(color.KeyPos())
		e.Set("components", obj)
		comps = e.Get("components")
	}
	switch {
	case comps.Kind() != jsonpos.Object:
		// reported when the entity is checked
	case comps.Get("Color") != nil:
		r.errAt(color, "color", "version 0 entity has both \"color\" and components.Color; keep one")
	default:
		c := jsonpos.NewObject()
		c.SetPos(color.Pos())
		c.Set("rgba", *color)
		comps.Set("Color", c)
		comps.Get("Color").SetKeyPos(color.KeyPos())
	}
	e.Delete("color")
}
