package ecs

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Schema describes a component type's fields for inspectors and serializers. It is built by
// reflection when the component is registered.
type Schema struct {
	Type    reflect.Type
	Fields  []Field // exported fields, in declaration order (json:"-" fields are skipped)
	Default any     // the default value (a T): the zero value or what Defaulter returns
}

// Field describes one field of a component (or an element of an array or slice field).
type Field struct {
	Name     string // Go field name ("" for elements)
	JSONName string // from the `json` tag, else the lower-camel Go name
	// Path is the field's path from the component root in JSON names ("transform.position");
	// element paths are formed by appending "[i]" to the parent's Path.
	Path  string
	Kind  reflect.Kind
	Type  reflect.Type
	Index []int // reflect field index path from the component root (nil for elements)
	// Fields are the nested fields of a struct field (not of Entity fields).
	Fields []Field
	// Elem describes the elements of an array or slice field; Len is the array length.
	Elem *Field
	Len  int
	// Hints are parsed from the `voltex:"..."` tag.
	Hints Hints
	// Enum lists the named values of an integer type implementing Enum.
	Enum []EnumValue
	// IsEntity marks ecs.Entity-typed fields: references to other entities.
	IsEntity bool
	// FormerNames are JSON names the field had before a rename (the former= item of its voltex
	// tag): scene readers accept them and write JSONName.
	FormerNames []string
	// Default, on the Elem of a slice or array field, is the value a new item starts with (a value
	// of Type): what the element type's Default method returns (see Defaulter), or the value
	// WithItemDefaults gives for types made at run time; nil means the zero value. Scene readers
	// fill the fields an item leaves out from it, and inspectors add items with it.
	Default any
}

// Hints are inspector hints from a field's `voltex` tag, e.g.
// `voltex:"min=0,max=1,step=0.01,degrees,color,readonly,hidden,multiline,asset,tooltip=Shown on hover"`.
// A value containing commas can be quoted with single quotes: tooltip='a, b' (inside the quotes,
// two single quotes in a row stand for one). Two more items of the tag describe the field rather than its widget: former=old|older lists the field's former JSON
// names (Field.FormerNames), and enum=Red:0|Green:1 names the values of an integer field (or of the
// integer elements of an array or slice field) whose type does not implement Enum (Field.Enum) —
// what struct types built at run time use, since they cannot have methods.
type Hints struct {
	Min, Max, Step          float64
	HasMin, HasMax, HasStep bool
	Degrees                 bool   // angles stored in degrees
	Color                   bool   // an RGB(A) colour
	ReadOnly                bool   // shown but not editable
	Hidden                  bool   // not shown
	Multiline               bool   // a multi-line string
	Asset                   bool   // a string naming an asset
	Tooltip                 string // help text
}

// EnumValue is one named value of an enum type.
type EnumValue struct {
	Name  string
	Value int64
}

// Enum is implemented by named integer types whose values have names; the schema lists them in
// Field.Enum.
type Enum interface {
	EnumValues() []EnumValue
}

var (
	entityType = reflect.TypeFor[Entity]()
	enumType   = reflect.TypeFor[Enum]()
)

// buildSchema reflects t (a struct type) with default value def; items gives the defaults of
// item types that have no Default method (WithItemDefaults).
func buildSchema(t reflect.Type, def any, items map[reflect.Type]any) *Schema {
	return &Schema{Type: t, Fields: structFields(t, "", nil, items), Default: def}
}

func structFields(t reflect.Type, prefix string, index []int, items map[reflect.Type]any) []Field {
	var out []Field
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		jsonName, skip := jsonFieldName(sf)
		if skip {
			continue
		}
		path := jsonName
		if prefix != "" {
			path = prefix + "." + jsonName
		}
		idx := append(append([]int(nil), index...), i)
		f := describe(sf.Type, path, idx, items)
		f.Name = sf.Name
		f.JSONName = jsonName
		tag := sf.Tag.Get("voltex")
		f.Hints = parseHints(tag)
		if v, ok := tagValue(tag, "former"); ok && v != "" {
			f.FormerNames = strings.Split(v, "|")
		}
		if v, ok := tagValue(tag, "enum"); ok {
			setTagEnum(&f, parseEnumTag(v))
		}
		out = append(out, f)
	}
	return out
}

// describe builds the Field for a value of type t at path.
func describe(t reflect.Type, path string, index []int, items map[reflect.Type]any) Field {
	f := Field{Path: path, Kind: t.Kind(), Type: t, Index: index}
	if t.Implements(enumType) && isInteger(t.Kind()) {
		f.Enum = reflect.Zero(t).Interface().(Enum).EnumValues()
	}
	switch {
	case t == entityType:
		f.IsEntity = true
	case t.Kind() == reflect.Struct:
		f.Fields = structFields(t, path, index, items)
	case t.Kind() == reflect.Array, t.Kind() == reflect.Slice:
		e := describe(t.Elem(), "", nil, items)
		e.Default = itemDefault(t.Elem(), items)
		f.Elem = &e
		if t.Kind() == reflect.Array {
			f.Len = t.Len()
		}
	}
	return f
}

// itemDefault returns the value a new item of type t starts with: items[t], else what t's
// Default method returns (func (T) Default() T), else nil (the zero value).
func itemDefault(t reflect.Type, items map[reflect.Type]any) any {
	if v, ok := items[t]; ok {
		return v
	}
	if m, ok := t.MethodByName("Default"); ok && m.Type.NumIn() == 1 && m.Type.NumOut() == 1 && m.Type.Out(0) == t {
		return reflect.Zero(t).Method(m.Index).Call(nil)[0].Interface()
	}
	return nil
}

func isInteger(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// jsonFieldName returns the field's JSON name and whether it is skipped (json:"-").
func jsonFieldName(sf reflect.StructField) (string, bool) {
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return "", true
	}
	name, _, _ := strings.Cut(tag, ",")
	if name != "" {
		return name, false
	}
	return lowerCamel(sf.Name), false
}

// lowerCamel lowers the leading upper-case run of a Go name: "Position" -> "position",
// "ID" -> "id", "URLPath" -> "urlPath".
func lowerCamel(s string) string {
	rs := []rune(s)
	n := 0
	for n < len(rs) && unicode.IsUpper(rs[n]) {
		n++
	}
	switch {
	case n == 0:
		return s
	case n == 1 || n == len(rs):
		for i := range n {
			rs[i] = unicode.ToLower(rs[i])
		}
	default:
		for i := range n - 1 {
			rs[i] = unicode.ToLower(rs[i])
		}
	}
	return string(rs)
}

// parseHints parses a `voltex` tag. Unknown keys are ignored so that tags written for newer
// versions do not break older readers.
func parseHints(tag string) Hints {
	var h Hints
	for tag != "" {
		var item string
		item, tag = nextTagItem(tag)
		key, val, hasVal := strings.Cut(strings.TrimSpace(item), "=")
		key = strings.TrimSpace(key)
		val = strings.TrimSpace(val)
		val = unquoteTag(val)
		num := func() (float64, bool) {
			if !hasVal {
				return 0, false
			}
			x, err := strconv.ParseFloat(val, 64)
			return x, err == nil
		}
		switch key {
		case "min":
			h.Min, h.HasMin = num()
		case "max":
			h.Max, h.HasMax = num()
		case "step":
			h.Step, h.HasStep = num()
		case "degrees":
			h.Degrees = true
		case "color":
			h.Color = true
		case "readonly":
			h.ReadOnly = true
		case "hidden":
			h.Hidden = true
		case "multiline":
			h.Multiline = true
		case "asset":
			h.Asset = true
		case "tooltip":
			h.Tooltip = val
		}
	}
	return h
}

// unquoteTag strips the single quotes around a tag value; inside them, two quotes in a row stand for
// one.
func unquoteTag(val string) string {
	if len(val) >= 2 && val[0] == '\'' && val[len(val)-1] == '\'' {
		return strings.ReplaceAll(val[1:len(val)-1], "''", "'")
	}
	return val
}

// tagValue returns the value of item key in a voltex tag (unquoted), and whether the item is there.
func tagValue(tag, key string) (string, bool) {
	for tag != "" {
		var item string
		item, tag = nextTagItem(tag)
		k, val, _ := strings.Cut(strings.TrimSpace(item), "=")
		if strings.TrimSpace(k) != key {
			continue
		}
		val = strings.TrimSpace(val)
		val = unquoteTag(val)
		return val, true
	}
	return "", false
}

// parseEnumTag parses "Red:0|Green:1"; items that do not parse are left out.
func parseEnumTag(v string) []EnumValue {
	var out []EnumValue
	for item := range strings.SplitSeq(v, "|") {
		name, num, ok := strings.Cut(item, ":")
		n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
		if !ok || err != nil || strings.TrimSpace(name) == "" {
			continue
		}
		out = append(out, EnumValue{Name: strings.TrimSpace(name), Value: n})
	}
	return out
}

// setTagEnum gives an integer field without Enum values (or the integer elements of an array or
// slice field) the values of its enum= tag item.
func setTagEnum(f *Field, vals []EnumValue) {
	for f.Elem != nil && !isInteger(f.Kind) {
		f = f.Elem
	}
	if isInteger(f.Kind) && len(f.Enum) == 0 && len(vals) > 0 {
		f.Enum = vals
	}
}

// nextTagItem splits off the first comma-separated item, honouring single quotes.
func nextTagItem(s string) (item, rest string) {
	inQuote := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\'':
			inQuote = !inQuote
		case r == ',' && !inQuote:
			return s[:i], s[i+1:]
		}
		i += size
	}
	return s, ""
}

// FieldByPath returns the field description at path ("position", "a.b", "items[2].x"); element
// fields reached through an index are returned as their Elem description.
func (s *Schema) FieldByPath(path string) (*Field, error) {
	segs, err := parsePath(path)
	if err != nil {
		return nil, err
	}
	var cur *Field
	fields := s.Fields
	for _, sg := range segs {
		if sg.name != "" {
			cur = nil
			for i := range fields {
				if fields[i].JSONName == sg.name {
					cur = &fields[i]
					break
				}
			}
			if cur == nil {
				return nil, fmt.Errorf("%w: %q: no field %q", ErrPath, path, sg.name)
			}
		} else {
			if cur == nil || cur.Elem == nil {
				return nil, fmt.Errorf("%w: %q: [%d] on a value that is not an array or slice", ErrPath, path, sg.index)
			}
			if cur.Kind == reflect.Array && sg.index >= cur.Len {
				return nil, fmt.Errorf("%w: %q: index %d out of range [0,%d)", ErrPath, path, sg.index, cur.Len)
			}
			cur = cur.Elem
		}
		fields = cur.Fields
	}
	if cur == nil {
		return nil, fmt.Errorf("%w: empty path", ErrPath)
	}
	return cur, nil
}
