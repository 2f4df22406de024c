package serialize

import (
	"os"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

func keysOf(v *jsonpos.Value) []string {
	var ks []string
	for i := range v.Len() {
		ks = append(ks, v.Index(i).Key())
	}
	return ks
}

// TestJSONSchemas keeps docs/schema in step with the code: both files are
// JSON, and the scene schema's built-in components have the fields of the
// registered types, in schema order, with their ranges.
func TestJSONSchemas(t *testing.T) {
	var sceneSchema jsonpos.Value
	for _, name := range []string{"voltex.scene", "voltex.export"} {
		data, err := os.ReadFile("../docs/schema/" + name + ".schema.json")
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonpos.Parse(data, jsonpos.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !v.Get("properties").Get("format").Get("const").IsStr(name) {
			t.Errorf("%s: wrong format const", name)
		}
		if name == "voltex.scene" {
			sceneSchema = v
		}
	}
	if got := strings.Join(keysOf(sceneSchema.Get("properties")), ","); got != "format,version,name,editor,entities" {
		t.Errorf("top-level keys %s", got)
	}
	w := scene.NewWorld()
	for _, comp := range []string{"Transform", "Mesh", "Color", "Spin", "Camera", "Material", "Light"} {
		id, _ := w.ComponentByName(comp)
		c, err := newCodec(w.ComponentInfo(id))
		if err != nil {
			t.Fatal(err)
		}
		def := sceneSchema.Get("$defs").Get(comp)
		if def == nil {
			t.Errorf("no $defs.%s", comp)
			continue
		}
		props := def.Get("properties")
		var want []string
		for _, f := range c.fields {
			want = append(want, f.name)
			p := props.Get(f.name)
			if p == nil {
				continue
			}
			if f.elem != nil {
				if items := p.Get("items"); items != nil {
					p = items
				}
			}
			lo, hi := p.Get("minimum"), p.Get("maximum")
			rng := f
			if f.elem != nil {
				rng = *f.elem
			}
			if (lo != nil) != rng.hasMin || (hi != nil) != rng.hasMax {
				t.Errorf("%s.%s: schema range (min %v, max %v) differs from the hints", comp, f.name, lo != nil, hi != nil)
			}
			if lo != nil {
				if x, _ := lo.Float(64); x != rng.min {
					t.Errorf("%s.%s: minimum %v, hint %v", comp, f.name, x, rng.min)
				}
			}
			if hi != nil {
				if x, _ := hi.Float(64); x != rng.max {
					t.Errorf("%s.%s: maximum %v, hint %v", comp, f.name, x, rng.max)
				}
			}
		}
		if got := strings.Join(keysOf(props), ","); got != strings.Join(want, ",") {
			t.Errorf("%s: schema fields %s, code %s", comp, got, strings.Join(want, ","))
		}
	}
}
