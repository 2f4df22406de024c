package query

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// leafKind is how a single value is stored.
type leafKind uint8

const (
	kBool leafKind = iota
	kInt
	kUint
	kFloat
	kString
	kEntity
)

// leaf is one single value inside a component: where it is in the component's memory and in its JSON.
type leaf struct {
	comp ecs.ComponentID
	off  uintptr
	kind leafKind
	size uintptr // bytes of an int, uint or float
	enum []ecs.EnumValue
	name string     // as shown: Transform.position.y
	json []jsonStep // its place in the component's JSON
}

// jsonStep is a key (with the field's former names) or an index of a value's place in JSON.
type jsonStep struct {
	key    string
	former []string
	index  int // when key is ""
}

// target is what a comparison or an edit names: one leaf, or the numbers of a vector (Transform.scale).
type target struct {
	leaves []leaf
	vector bool
}

// axes name a vector's items: x y z w, or r g b a for colours.
var axes = map[string]int{"x": 0, "y": 1, "z": 2, "w": 3, "r": 0, "g": 1, "b": 2, "a": 3}

// components lists the names a query may use, for "did you mean".
func components(w *ecs.World) []string {
	var out []string
	for _, id := range w.ComponentIDs() {
		out = append(out, w.ComponentInfo(id).Name)
	}
	return out
}

// resolveComponent finds a component by name (or a former name).
func resolveComponent(w *ecs.World, name string, col int) (*ecs.ComponentInfo, error) {
	if id, ok := w.ComponentByName(name); ok {
		return w.ComponentInfo(id), nil
	}
	for _, id := range w.ComponentIDs() {
		info := w.ComponentInfo(id)
		if slices.Contains(info.FormerNames, name) {
			return info, nil
		}
	}
	return nil, &Error{Col: col, Msg: fmt.Sprintf("no component %q%s", name, didYouMean(name, components(w)))}
}

// resolve finds the value a target names: "name", "id" or Component.path.
func resolve(w *ecs.World, name string, col int) (target, error) {
	switch name {
	case "name":
		id, _ := w.ComponentByName("Name")
		return resolvePath(w.ComponentInfo(id), "value", "name", col)
	case "id":
		id, _ := ecs.ComponentIDOf[scene.SceneID](w)
		return resolvePath(w.ComponentInfo(id), "id", "id", col)
	}
	comp, rest, _ := strings.Cut(name, ".")
	info, err := resolveComponent(w, comp, col)
	if err != nil {
		return target{}, err
	}
	if rest == "" {
		return target{}, &Error{Col: col, Msg: fmt.Sprintf("%s is a component: compare one of its fields (%s)", comp, fieldList(info.Schema.Fields, comp))}
	}
	return resolvePath(info, rest, info.Name+"."+rest, col)
}

func fieldList(fs []ecs.Field, prefix string) string {
	var names []string
	for _, f := range fs {
		names = append(names, prefix+"."+f.JSONName)
	}
	if len(names) > 4 {
		names = append(names[:4], "…")
	}
	if len(names) == 0 {
		return "it has none: ask for its presence alone"
	}
	return strings.Join(names, ", ")
}

// resolvePath walks path ("position.y", "items[2].wait") through a component's schema.
func resolvePath(info *ecs.ComponentInfo, path, shown string, col int) (target, error) {
	segs, err := splitPath(path)
	if err != nil {
		return target{}, &Error{Col: col, Msg: fmt.Sprintf("%s: %v", shown, err)}
	}
	fields := info.Schema.Fields
	var cur *ecs.Field
	t := info.Type
	var off uintptr
	var steps []jsonStep
	sofar := info.Name
	for _, sg := range segs {
		switch {
		case cur != nil && cur.Kind == reflect.Slice:
			return target{}, &Error{Col: col, Msg: fmt.Sprintf("%s is a list: queries and edits reach single values and vectors, not the items of lists", sofar)}
		case cur != nil && cur.Kind == reflect.Array:
			i := sg.index
			if sg.name != "" {
				a, ok := axes[sg.name]
				if !ok {
					return target{}, &Error{Col: col, Msg: fmt.Sprintf("%s is a vector: name an item as .x .y .z .w (.r .g .b .a) or [i], not .%s", sofar, sg.name)}
				}
				i = a
			}
			if i >= cur.Len {
				return target{}, &Error{Col: col, Msg: fmt.Sprintf("%s has %d items: no item %d", sofar, cur.Len, i)}
			}
			off += uintptr(i) * t.Elem().Size()
			t = t.Elem()
			steps = append(steps, jsonStep{index: i})
			if sg.name != "" {
				sofar += "." + sg.name
			} else {
				sofar += "[" + strconv.Itoa(i) + "]"
			}
			cur = cur.Elem
			fields = cur.Fields
		case sg.name == "":
			return target{}, &Error{Col: col, Msg: fmt.Sprintf("%s is not a vector or list: [%d] reaches nothing", sofar, sg.index)}
		case cur != nil && len(cur.Fields) == 0:
			return target{}, &Error{Col: col, Msg: fmt.Sprintf("%s is a single value: it has no field %q", sofar, sg.name)}
		default:
			f := findField(fields, sg.name)
			if f == nil {
				var names []string
				for _, x := range fields {
					names = append(names, x.JSONName)
				}
				return target{}, &Error{Col: col, Msg: fmt.Sprintf("%s has no field %q%s", sofar, sg.name, didYouMean(sg.name, names))}
			}
			sf := t.Field(f.Index[len(f.Index)-1])
			off += sf.Offset
			t = sf.Type
			steps = append(steps, jsonStep{key: f.JSONName, former: f.FormerNames})
			sofar += "." + f.JSONName
			cur = f
			fields = f.Fields
		}
	}
	if info.Name == "Name" && shown == "name" || shown == "id" {
		sofar = shown
	}
	mk := func(f *ecs.Field, t reflect.Type, off uintptr, steps []jsonStep, name string) (leaf, error) {
		l := leaf{comp: info.ID, off: off, size: t.Size(), enum: f.Enum, name: name, json: steps}
		switch {
		case f.IsEntity:
			l.kind = kEntity
		case t.Kind() == reflect.Bool:
			l.kind = kBool
		case t.Kind() == reflect.String:
			l.kind = kString
		case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
			l.kind = kFloat
		case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
			l.kind = kInt
		case t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64:
			l.kind = kUint
		default:
			return l, &Error{Col: col, Msg: fmt.Sprintf("%s is a group of fields: name one of them (%s)", name, fieldList(f.Fields, name))}
		}
		return l, nil
	}
	if cur.Kind == reflect.Array && cur.Elem != nil && len(cur.Elem.Fields) == 0 && !cur.Elem.IsEntity && cur.Elem.Kind != reflect.Struct {
		var tg target
		tg.vector = true
		for i := range cur.Len {
			l, err := mk(cur.Elem, t.Elem(), off+uintptr(i)*t.Elem().Size(), append(slices.Clone(steps), jsonStep{index: i}), sofar+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return target{}, err
			}
			tg.leaves = append(tg.leaves, l)
		}
		return tg, nil
	}
	if cur.Kind == reflect.Slice || cur.Kind == reflect.Array {
		return target{}, &Error{Col: col, Msg: fmt.Sprintf("%s is a list: queries and edits reach single values and vectors, not the items of lists", sofar)}
	}
	l, err := mk(cur, t, off, steps, sofar)
	if err != nil {
		return target{}, err
	}
	return target{leaves: []leaf{l}}, nil
}

// findField finds a field by JSON name, a former name, or its name in another case.
func findField(fs []ecs.Field, name string) *ecs.Field {
	for i := range fs {
		if fs[i].JSONName == name || slices.Contains(fs[i].FormerNames, name) {
			return &fs[i]
		}
	}
	for i := range fs {
		if strings.EqualFold(fs[i].JSONName, name) || strings.EqualFold(fs[i].Name, name) {
			return &fs[i]
		}
	}
	return nil
}

type pathSeg struct {
	name  string
	index int
}

func splitPath(path string) ([]pathSeg, error) {
	var out []pathSeg
	for part := range strings.SplitSeq(path, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name == "" && (len(out) == 0 || rest == "") {
			return nil, fmt.Errorf("an empty field name")
		}
		if name != "" {
			out = append(out, pathSeg{name: name})
		}
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			n, err := strconv.Atoi(num)
			if !ok || err != nil || n < 0 {
				return nil, fmt.Errorf("a bad index [%s", rest)
			}
			out = append(out, pathSeg{index: n})
			rest = strings.TrimPrefix(after, "[")
			if after != "" && !strings.HasPrefix(after, "[") {
				return nil, fmt.Errorf("a bad index after [%s]", num)
			}
		}
	}
	return out, nil
}

// didYouMean suggests the nearest of names to s (", did you mean X?"), or "".
func didYouMean(s string, names []string) string {
	best, bestD := "", 1<<30
	ls := strings.ToLower(s)
	for _, n := range names {
		d := distance(ls, strings.ToLower(n))
		if d < bestD || d == bestD && n < best {
			best, bestD = n, d
		}
	}
	if best == "" || bestD > max(1, len([]rune(s))/3) {
		if len(names) > 0 && len(names) <= 12 {
			return " (there are " + strings.Join(names, ", ") + ")"
		}
		return ""
	}
	return fmt.Sprintf(": did you mean %s?", best)
}

// distance is the edit distance between a and b in runes, a swap of two neighbours counting as one
// edit (optimal string alignment).
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j-1]+c, d[i-1][j]+1, d[i][j-1]+1)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
