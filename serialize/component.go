package serialize

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Single components as JSON: what the editor needs to apply one side of a merge conflict (the
// values a conflict records are JSON as scene files write them).

// ComponentJSON returns entity e's component cid as a scene file writes it (one line, entity
// references as scene ids, 0 for none).
func ComponentJSON(w *ecs.World, e ecs.Entity, cid ecs.ComponentID) (string, error) {
	info := w.ComponentInfo(cid)
	sids := ecs.NewMap[scene.SceneID](w)
	enc, err := NewComponentEncoder(info, func(r ecs.Entity) int64 {
		if r.IsZero() || !w.Alive(r) {
			return 0
		}
		s, _ := sids.TryGet(r)
		return int64(s.ID)
	})
	if err != nil {
		return "", err
	}
	v, ok := w.Get(e, cid)
	if !ok {
		return "", fmt.Errorf("entity has no %s", info.Name)
	}
	p := reflect.New(info.Type).Elem()
	p.Set(reflect.ValueOf(v))
	b, err := enc.Append(nil, p)
	return string(b), err
}

// ComponentEncoder writes values of one component as scene files write them: one line, fields in
// schema order, entity references as the numbers its ref function returns. It keeps nothing of
// the world it was made from, so Append may run on any goroutine, on copies of values (an
// ecs.Values), while the world goes on.
type ComponentEncoder struct {
	c    *codec
	s    encodeState
	info *ecs.ComponentInfo
}

// NewComponentEncoder returns the encoder of a registered component, or an error saying why scene
// files cannot store it. ref gives the number an entity reference is written as (also for the
// zero Entity); it is called on the goroutine that calls Append.
func NewComponentEncoder(info *ecs.ComponentInfo, ref func(ecs.Entity) int64) (*ComponentEncoder, error) {
	c, err := newCodec(info)
	if err != nil {
		return nil, err
	}
	return &ComponentEncoder{c: c, s: encodeState{refID: ref}, info: info}, nil
}

// Append appends v, an addressable value of the component's type, to buf. A value JSON cannot hold
// (NaN, an asset path that breaks the rule) is an error naming the component and field.
func (enc *ComponentEncoder) Append(buf []byte, v reflect.Value) ([]byte, error) {
	if v.Type() != enc.info.Type || !v.CanAddr() {
		panic(fmt.Sprintf("serialize: ComponentEncoder.Append of %s needs an addressable %v, got %v", enc.info.Name, enc.info.Type, v.Type()))
	}
	n := len(buf)
	b, err := enc.c.encode(&enc.s, buf, v.Addr().UnsafePointer())
	if err != nil {
		return b[:n], fmt.Errorf("%s: %v", enc.info.Name, err)
	}
	return b, nil
}

// DecodeComponent reads a value of component cid (registered in w) from js, JSON as a scene file
// holds it: missing fields take the component's defaults, values are checked as the loader checks
// them, and entity references (scene ids) are resolved with ref (0 is none; an id ref does not know
// is an error). It returns a *T.
func DecodeComponent(w *ecs.World, cid ecs.ComponentID, js string, ref func(id uint64) (ecs.Entity, bool)) (any, error) {
	info := w.ComponentInfo(cid)
	v, err := jsonpos.Parse([]byte(js), jsonpos.Limits{MaxDepth: DefaultMaxDepth, MaxString: DefaultMaxString})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", info.Name, err)
	}
	b := newBinder(w)
	bd := b.byNm[info.Name]
	if bd == nil || bd.codec == nil {
		return nil, fmt.Errorf("%s cannot be read from JSON: %s", info.Name, bd.refuse)
	}
	probs := &diag.List{File: info.Name, Max: 10}
	var path diag.Path
	b.ds.probs, b.ds.path = probs, &path
	bd.reset()
	bd.codec.decode(&b.ds, &v, bd.ptr)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	out := bd.scratch.Interface()
	for _, r := range b.ds.refs {
		e, ok := ref(uint64(r.id))
		if !ok {
			return nil, fmt.Errorf("%s.%s: entity %d does not exist", info.Name, r.path, r.id)
		}
		if err := ecs.SetFieldOf(out, r.path, e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// SetJSON returns the JSON object js with the member at path (keys of nested objects, as
// "inner.x") set to the JSON value val, or removed when val is "". Objects on the way are made
// if missing. The result is in canonical inline form.
func SetJSON(js, path, val string) (string, error) {
	root, err := jsonpos.Parse([]byte(js), jsonpos.Limits{MaxDepth: DefaultMaxDepth, MaxString: DefaultMaxString})
	if err != nil {
		return "", err
	}
	keys := strings.Split(path, ".")
	cur := &root
	for _, k := range keys[:len(keys)-1] {
		if cur.Kind() != jsonpos.Object {
			return "", fmt.Errorf("%s: not an object", path)
		}
		next := cur.Get(k)
		if next == nil {
			cur.Set(k, jsonpos.NewObject())
			next = cur.Get(k)
		}
		cur = next
	}
	if cur.Kind() != jsonpos.Object {
		return "", fmt.Errorf("%s: not an object", path)
	}
	last := keys[len(keys)-1]
	if val == "" {
		cur.Delete(last)
	} else {
		x, err := jsonpos.Parse([]byte(val), jsonpos.Limits{MaxDepth: DefaultMaxDepth, MaxString: DefaultMaxString})
		if err != nil {
			return "", err
		}
		cur.Set(last, x)
	}
	return string(jsonpos.AppendInline(nil, &root)), nil
}
