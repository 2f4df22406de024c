package query

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"sort"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// ValueText is one value an edit writes into a scene file: the entity's scene id, its component
// (by name and former names), the value's place in the component and its new JSON text.
type ValueText struct {
	ID        uint64
	Component string
	Field     string // as shown: Transform.position[1]
	Text      string
	former    []string
	path      []jsonStep
}

// Texts returns the values that changes (from [Edit.Apply] on w) write, as scene files write
// them: only the values whose text changes.
func (e *Edit) Texts(w *ecs.World, changes []Change) ([]ValueText, error) {
	comp := e.Component()
	info := w.ComponentInfo(comp)
	sid, _ := ecs.ComponentIDOf[scene.SceneID](w)
	enc, err := serialize.NewComponentEncoder(info, func(r ecs.Entity) int64 {
		if r.IsZero() || !w.Alive(r) {
			return 0
		}
		return int64(sceneID(w, r))
	})
	if err != nil {
		return nil, err
	}
	encode := func(v any) (*jsonpos.Value, error) {
		root := reflect.New(info.Type).Elem()
		root.Set(reflect.ValueOf(v))
		b, err := enc.Append(nil, root)
		if err != nil {
			return nil, err
		}
		j, err := jsonpos.Parse(b, jsonpos.Limits{})
		return &j, err
	}
	var out []ValueText
	for _, c := range changes {
		old, ok := w.Get(c.Entity, comp)
		if !ok {
			continue
		}
		before, err := encode(old)
		if err != nil {
			return nil, err
		}
		after, err := encode(c.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", describe(w, c.Entity), err)
		}
		var id uint64
		if v, ok := w.Get(c.Entity, sid); ok {
			id = v.(scene.SceneID).ID
		}
		for _, l := range e.tg.leaves {
			a, b := at(before, l.json), at(after, l.json)
			if b == nil {
				return nil, fmt.Errorf("%s: %s is not written in scene files", describe(w, c.Entity), l.name)
			}
			ta, tb := literalText(a), literalText(b)
			if bytes.Equal(ta, tb) {
				continue
			}
			out = append(out, ValueText{ID: id, Component: info.Name, Field: l.name, Text: string(tb),
				former: info.FormerNames, path: l.json})
		}
	}
	return out, nil
}

// at returns the value at path in v (keys by their name or a former one), or nil.
func at(v *jsonpos.Value, path []jsonStep) *jsonpos.Value {
	for _, s := range path {
		if v == nil {
			return nil
		}
		switch {
		case s.key != "" && v.Kind() == jsonpos.Object:
			x := v.Get(s.key)
			for _, f := range s.former {
				if x == nil {
					x = v.Get(f)
				}
			}
			v = x
		case s.key == "" && v.Kind() == jsonpos.Array && s.index < v.Len():
			v = v.Index(s.index)
		default:
			return nil
		}
	}
	return v
}

// literalText is a single value's JSON text.
func literalText(v *jsonpos.Value) []byte {
	if v == nil {
		return nil
	}
	switch v.Kind() {
	case jsonpos.String:
		return jsonpos.AppendString(nil, v.Text())
	case jsonpos.Number:
		return v.Text()
	case jsonpos.Bool:
		if v.Bool() {
			return []byte("true")
		}
		return []byte("false")
	case jsonpos.Null:
		return []byte("null")
	}
	return jsonpos.AppendInline(nil, v)
}

// Patch returns the scene file src (named file in messages) with the values of vals written in
// place: every other byte stays as it was, so a version-control diff shows only the edited values.
// A value the file does not hold (left out for its default, or an instance's value that comes
// from its prefab) is an error naming the entity; nothing is patched then.
func Patch(src []byte, file string, vals []ValueText) ([]byte, error) {
	if len(vals) == 0 {
		return slices.Clone(src), nil
	}
	byID := map[uint64][]int{}
	for i, v := range vals {
		byID[v.ID] = append(byID[v.ID], i)
	}
	lines := []int{0}
	for i, c := range src {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	type splice struct {
		from, to int
		text     string
	}
	var splices []splice
	found := map[int]bool{}
	lim := jsonpos.Limits{MaxDepth: serialize.DefaultMaxDepth, MaxString: serialize.DefaultMaxString,
		MaxValues: serialize.DefaultMaxValues, MaxArenaBytes: serialize.DefaultMaxEntityBytes, Unit: "entity"}
	d := jsonpos.NewBytesDecoder(src, lim)
	fail := func(err error) ([]byte, error) { return nil, fmt.Errorf("%s:%w", file, err) }
	if _, err := d.EnterObject(); err != nil {
		return fail(err)
	}
	for {
		key, _, ok, err := d.NextMember()
		if err != nil {
			return fail(err)
		}
		if !ok {
			break
		}
		if string(key) != "entities" {
			if err := d.Skip(); err != nil {
				return fail(err)
			}
			continue
		}
		if _, err := d.EnterArray(); err != nil {
			return fail(err)
		}
		for {
			more, err := d.NextItem()
			if err != nil {
				return fail(err)
			}
			if !more {
				break
			}
			ent, err := d.Value()
			if err != nil {
				return fail(err)
			}
			id := recordID(&ent)
			for _, i := range byID[id] {
				v := vals[i]
				var leaf *jsonpos.Value
				if comps := ent.Get("components"); comps != nil {
					leaf = at(comps, append([]jsonStep{{key: v.Component, former: v.former}}, v.path...))
				}
				if v.Component == "Name" && len(v.path) == 1 && v.path[0].key == "value" {
					leaf = ent.Get("name") // a name is the entity's own member
				}
				if leaf == nil || leaf.Kind() == jsonpos.Object || leaf.Kind() == jsonpos.Array {
					return nil, fmt.Errorf("%s:%s: entity %d: %s is not written in the file (a default left out, or a value of "+
						"a prefab instance that its prefab gives): set changes only the values a scene file holds",
						file, ent.Pos(), id, v.Field)
				}
				p := leaf.Pos()
				from := lines[p.Line-1] + p.Col - 1
				to, err := valueEnd(src, from, leaf)
				if err != nil {
					return nil, fmt.Errorf("%s:%s: %w", file, p, err)
				}
				splices = append(splices, splice{from, to, v.Text})
				found[i] = true
			}
			d.ResetArena()
		}
	}
	if err := d.Finish(); err != nil {
		return fail(err)
	}
	for i, v := range vals {
		if !found[i] {
			return nil, fmt.Errorf("%s: no entity %d in the file", file, v.ID)
		}
	}
	sort.Slice(splices, func(a, b int) bool { return splices[a].from < splices[b].from })
	var out bytes.Buffer
	out.Grow(len(src))
	last := 0
	for _, s := range splices {
		if s.from < last {
			return nil, fmt.Errorf("%s: two edits of the same value", file)
		}
		out.Write(src[last:s.from])
		out.WriteString(s.text)
		last = s.to
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}

// recordID is the scene id of an entity record: its "id", or, for an override record of a prefab
// instance without one, the id its instance and source give.
func recordID(ent *jsonpos.Value) uint64 {
	if v := ent.Get("id"); v != nil {
		if n, err := v.Uint(); err == nil {
			return n
		}
	}
	inst, src := ent.Get("instance"), ent.Get("source")
	if inst != nil && src != nil {
		i, err1 := inst.Uint()
		s, err2 := src.Uint()
		if err1 == nil && err2 == nil {
			return scene.InstanceID(i, s)
		}
	}
	return 0
}

// valueEnd returns where the single value v that starts at from ends in src.
func valueEnd(src []byte, from int, v *jsonpos.Value) (int, error) {
	bad := fmt.Errorf("the value is not where its position says")
	if from < 0 || from >= len(src) {
		return 0, bad
	}
	switch v.Kind() {
	case jsonpos.Number:
		t := v.Text()
		if !bytes.HasPrefix(src[from:], t) {
			return 0, bad
		}
		return from + len(t), nil
	case jsonpos.String:
		if src[from] != '"' {
			return 0, bad
		}
		for i := from + 1; i < len(src); i++ {
			switch src[i] {
			case '\\':
				i++
			case '"':
				return i + 1, nil
			}
		}
		return 0, bad
	case jsonpos.Bool, jsonpos.Null:
		t := string(literalText(v))
		if !bytes.HasPrefix(src[from:], []byte(t)) {
			return 0, bad
		}
		return from + len(t), nil
	}
	return 0, bad
}
