package fields

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
)

// Kind says which widget edits a field.
type Kind uint8

// The field kinds.
const (
	Unsupported Kind = iota // maps, pointers, interfaces, funcs, channels: shown read-only
	Bool
	Int    // signed integers (Scalar says which)
	Uint   // unsigned integers
	Float  // float32 or float64
	String // Hints.Multiline selects a text box
	Enum   // an integer type implementing ecs.Enum: a combo of named values
	Vector // 2–4 floats (Len), edited per channel
	Euler  // 3 angles in degrees (a vector with the degrees hint)
	Color  // RGB or RGBA (Len 3 or 4) floats in [0,1] or uint8 in [0,255]
	Matrix // mgl32.Mat2/3/4 (Len 4, 9 or 16 floats, column-major)
	Asset  // a string naming an asset (the asset hint)
	EntityRef
	Struct
	Array
	Slice
)

var kindNames = [...]string{
	Unsupported: "Unsupported", Bool: "Bool", Int: "Int", Uint: "Uint", Float: "Float", String: "String",
	Enum: "Enum", Vector: "Vector", Euler: "Euler", Color: "Color", Matrix: "Matrix", Asset: "Asset",
	EntityRef: "EntityRef", Struct: "Struct", Array: "Array", Slice: "Slice",
}

// String returns the kind's name ("Vector").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Compound reports whether the kind is a fixed group of numeric channels edited together (Vector,
// Euler, Color, Matrix); their channels are described by Field.Elem.
func (k Kind) Compound() bool { return k == Vector || k == Euler || k == Color || k == Matrix }

// Field describes one field of a component (or the element template of an array, slice or
// compound field) for the inspector.
type Field struct {
	Kind Kind
	// Name is the Go field name ("" for element templates); JSONName the name in field paths.
	Name, JSONName string
	// Label is the text shown beside the widget: the Go name split into words ("Max Speed").
	Label string
	// Path is the field's ecs field path. Fields that are not inside an array or slice element have
	// their full path from the component root ("transform.position"); fields inside an element
	// template have the path relative to the element ("x", or "" for the element itself). Use
	// JoinPath to build the path of a field inside a particular element.
	Path string
	// ID is a stable ImGui widget ID for the field within its parent ("##position").
	ID string
	// Type is the field's Go type.
	Type reflect.Type
	// Index is the field's index in its parent struct (-1 for element templates).
	Index int
	// Hints are the parsed `voltex` tag hints (element templates inherit their parent's).
	Hints ecs.Hints
	// Enum lists the named values of an Enum field, EnumNames their names (same order).
	Enum      []ecs.EnumValue
	EnumNames []string
	// Fields are the nested fields of a Struct.
	Fields []Field
	// Elem is the element template of an Array or Slice, or the channel of a compound kind.
	Elem *Field
	// Len is the length of an Array or the channel count of a compound kind.
	Len int
	// Scalar is the reflect kind of an Int, Uint, Float or Enum field.
	Scalar reflect.Kind
	// Min and Max are the effective range of a numeric field: the hinted range limited to the
	// type's range (floats without hints: ±the largest finite value).
	Min, Max float64
	// IMin and IMax (Int, Enum) and UMax (Uint) are the same range as integers.
	IMin, IMax int64
	UMax       uint64
	UMin       uint64
	// Speed is the drag speed in units per pixel.
	Speed float64
	// Format is the printf format for drag widgets ("%.3f", "%d", "%llu", "%.1f°").
	Format string
	// ReadOnly fields are shown but not editable (the readonly hint, or a computed component).
	ReadOnly bool
	// Tooltip is Hints.Tooltip with '%' escaped, safe as a printf format.
	Tooltip string
	// Default, on the element template of an Array or Slice, is what a new item starts with (ecs
	// Field.Default; nil: the zero value). See NewItem.
	Default any

	nodes int // node count of the subtree when static, -1 when it depends on slice lengths
}

// Component is the inspector model of one registered component type.
type Component struct {
	// Name is the component's registered name; Label the text shown on its header.
	Name, Label string
	Type        reflect.Type
	Fields      []Field
	// Computed components are derived by the world: read-only, never added or removed by the user.
	Computed bool
	// IsTag components have no fields.
	IsTag bool
	// Default is the schema's default value (a value of Type).
	Default any
	// Deep reports whether values contain slices, maps or pointers, so a copy of a value can share
	// memory with the world (see Copy).
	Deep bool

	nodes  int    // as Field.nodes, for the root node plus all fields
	leaves []leaf // the leaves of a pointer-free type, for fast comparison (nil otherwise)
}

// New builds the model of a registered component.
func New(info *ecs.ComponentInfo) *Component {
	c := &Component{
		Name:     info.Name,
		Label:    Humanize(info.Name),
		Type:     info.Type,
		Computed: info.Computed,
		IsTag:    info.IsTag,
		Deep:     info.SharesMemory,
	}
	if s := info.Schema; s != nil {
		c.Default = s.Default
		c.Fields = make([]Field, len(s.Fields))
		for i := range s.Fields {
			c.Fields[i] = build(&s.Fields[i], nil, info.Computed)
		}
	}
	if c.Default == nil {
		c.Default = reflect.Zero(info.Type).Interface()
	}
	c.nodes = 1
	for i := range c.Fields {
		if c.Fields[i].nodes < 0 || c.nodes < 0 {
			c.nodes = -1
		} else {
			c.nodes += c.Fields[i].nodes
		}
	}
	c.leaves = flatLeaves(c)
	return c
}

var (
	mat2Type = reflect.TypeFor[mgl32.Mat2]()
	mat3Type = reflect.TypeFor[mgl32.Mat3]()
	mat4Type = reflect.TypeFor[mgl32.Mat4]()
)

// build converts an ecs field description. parent is the hints of the array or slice field whose
// element template this is (nil for struct fields).
func build(ef *ecs.Field, parent *ecs.Hints, readOnly bool) Field {
	f := Field{
		Name:     ef.Name,
		JSONName: ef.JSONName,
		Path:     ef.Path,
		Type:     ef.Type,
		Index:    -1,
		Hints:    ef.Hints,
		Enum:     ef.Enum,
		Default:  ef.Default,
	}
	if parent != nil {
		f.Hints = inherit(*parent)
	}
	if ef.Name != "" {
		f.Index = ef.Index[len(ef.Index)-1]
		f.Label = Humanize(ef.Name)
		f.ID = "##" + ef.JSONName
	} else {
		f.ID = "##elem"
	}
	f.ReadOnly = readOnly || f.Hints.ReadOnly
	f.Tooltip = strings.ReplaceAll(f.Hints.Tooltip, "%", "%%")
	f.Kind = classify(ef, f.Hints)
	f.nodes = 1
	switch f.Kind {
	case Int, Uint, Float, Enum:
		f.Scalar = ef.Kind
		setRange(&f)
		for _, ev := range f.Enum {
			f.EnumNames = append(f.EnumNames, ev.Name)
		}
	case Struct:
		f.Fields = make([]Field, len(ef.Fields))
		for i := range ef.Fields {
			f.Fields[i] = build(&ef.Fields[i], nil, f.ReadOnly)
			if f.Fields[i].nodes < 0 || f.nodes < 0 {
				f.nodes = -1
			} else {
				f.nodes += f.Fields[i].nodes
			}
		}
	case Array, Slice:
		e := build(ef.Elem, &f.Hints, f.ReadOnly)
		f.Elem = &e
		f.Len = ef.Len
		switch {
		case f.Kind == Slice || e.nodes < 0:
			f.nodes = -1
		default:
			f.nodes = 1 + f.Len*e.nodes
		}
	case Vector, Euler, Color, Matrix:
		h := f.Hints
		if f.Kind == Color { // channels default to [0,1] floats or [0,255] bytes
			top := 1.0
			if isInteger(ef.Elem.Kind) {
				top = 255
			}
			if !h.HasMin {
				h.Min, h.HasMin = 0, true
			}
			if !h.HasMax {
				h.Max, h.HasMax = top, true
			}
		}
		e := build(ef.Elem, &h, f.ReadOnly)
		f.Elem = &e
		f.Len = ef.Len
		f.nodes = 1 + f.Len
	}
	return f
}

// inherit returns the hints an element template takes from its array or slice field.
func inherit(h ecs.Hints) ecs.Hints {
	h.Hidden = false
	h.Tooltip = ""
	return h
}

func classify(ef *ecs.Field, h ecs.Hints) Kind {
	k := ef.Kind
	switch {
	case ef.IsEntity:
		return EntityRef
	case len(ef.Enum) > 0 && isInteger(k):
		return Enum
	case k == reflect.Bool:
		return Bool
	case isSigned(k):
		return Int
	case isUnsigned(k):
		return Uint
	case k == reflect.Float32 || k == reflect.Float64:
		return Float
	case k == reflect.String:
		if h.Asset {
			return Asset
		}
		return String
	case k == reflect.Struct:
		return Struct
	case k == reflect.Slice:
		return Slice
	case k == reflect.Array:
		ek := ef.Elem.Kind
		isFloat := ek == reflect.Float32 || ek == reflect.Float64
		switch {
		case ef.Type == mat2Type || ef.Type == mat3Type || ef.Type == mat4Type:
			return Matrix
		case h.Color && (ef.Len == 3 || ef.Len == 4) && (isFloat || ek == reflect.Uint8) && len(ef.Elem.Enum) == 0:
			return Color
		case isFloat && h.Degrees && ef.Len == 3:
			return Euler
		case isFloat && ef.Len >= 2 && ef.Len <= 4:
			return Vector
		}
		return Array
	}
	return Unsupported
}

func isSigned(k reflect.Kind) bool {
	return k == reflect.Int || k == reflect.Int8 || k == reflect.Int16 || k == reflect.Int32 || k == reflect.Int64
}

func isUnsigned(k reflect.Kind) bool {
	return k == reflect.Uint || k == reflect.Uint8 || k == reflect.Uint16 || k == reflect.Uint32 ||
		k == reflect.Uint64 || k == reflect.Uintptr
}

func isInteger(k reflect.Kind) bool { return isSigned(k) || isUnsigned(k) }

// setRange resolves the range, drag speed and format of a numeric field.
func setRange(f *Field) {
	h := f.Hints
	lo, hi := h.Min, h.Max
	hasLo, hasHi := h.HasMin && !math.IsNaN(lo), h.HasMax && !math.IsNaN(hi)
	if hasLo && hasHi && lo > hi { // a contradictory tag: ignore the range rather than lock the field
		hasLo, hasHi = false, false
	}
	bits := f.Type.Bits()
	switch f.Kind {
	case Float:
		limit := math.MaxFloat64
		if f.Scalar == reflect.Float32 {
			limit = math.MaxFloat32
		}
		f.Min, f.Max = -limit, limit
		if hasLo {
			f.Min = math.Max(lo, -limit)
		}
		if hasHi {
			f.Max = math.Min(hi, limit)
		}
	case Int, Enum:
		if isUnsigned(f.Scalar) { // an enum over an unsigned type
			f.UMax = maxUint(bits)
			f.IMin, f.IMax = 0, int64(min(f.UMax, math.MaxInt64))
		} else {
			f.IMin, f.IMax = -1<<(bits-1), 1<<(bits-1)-1
		}
		if hasLo && lo > float64(f.IMin) {
			f.IMin = int64(math.Min(math.Ceil(lo), float64(f.IMax)))
		}
		if hasHi && hi < float64(f.IMax) {
			f.IMax = int64(math.Max(math.Floor(hi), float64(f.IMin)))
		}
		f.Min, f.Max = float64(f.IMin), float64(f.IMax)
	case Uint:
		f.UMax = maxUint(bits)
		if hasLo && lo > 0 {
			f.UMin = uint64(math.Min(math.Ceil(lo), float64(f.UMax)))
		}
		if hasHi && hi < float64(f.UMax) {
			f.UMax = uint64(math.Max(math.Floor(math.Max(hi, 0)), float64(f.UMin)))
		}
		f.Min, f.Max = float64(f.UMin), float64(f.UMax)
	}
	f.Speed = speed(f, hasLo && hasHi)
	f.Format = format(f)
}

func maxUint(bits int) uint64 {
	if bits == 64 {
		return math.MaxUint64
	}
	return 1<<bits - 1
}

func speed(f *Field, bounded bool) float64 {
	h := f.Hints
	switch {
	case h.HasStep && h.Step > 0 && !math.IsInf(h.Step, 0):
		return h.Step
	case bounded && f.Max > f.Min:
		s := (f.Max - f.Min) / 200
		if f.Kind != Float {
			s = math.Max(s, 0.05)
		}
		return s
	case f.Kind != Float:
		return 0.25
	case h.Degrees:
		return 0.5
	}
	return 0.01
}

func format(f *Field) string {
	switch f.Kind {
	case Int, Enum:
		if f.Type.Bits() == 64 {
			return "%lld"
		}
		return "%d"
	case Uint:
		if f.Type.Bits() == 64 {
			return "%llu"
		}
		return "%u"
	}
	decimals := 3
	if h := f.Hints; h.HasStep && h.Step > 0 && h.Step < 1 {
		decimals = int(math.Ceil(-math.Log10(h.Step) - 1e-9))
		decimals = max(0, min(decimals, 6))
	} else if h.HasStep && h.Step >= 1 {
		decimals = 0
	}
	if f.Hints.Degrees {
		if !f.Hints.HasStep {
			decimals = 1
		}
		return "%." + string(rune('0'+decimals)) + "f°"
	}
	return "%." + string(rune('0'+decimals)) + "f"
}

// Humanize splits a Go or component name into words for display: "MaxSpeed" → "Max Speed",
// "HTTPPort" → "HTTP Port", "globalTransform" → "Global Transform".
func Humanize(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if i > 0 && isUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && isLower(rs[i+1])
			if isLower(prev) || isDigit(prev) || (isUpper(prev) && nextLower) {
				b.WriteByte(' ')
			}
		}
		if r == '_' {
			b.WriteByte(' ')
			continue
		}
		if i == 0 && isLower(r) {
			r -= 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isUpper(r rune) bool { return r >= 'A' && r <= 'Z' }
func isLower(r rune) bool { return r >= 'a' && r <= 'z' }
func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// JoinPath returns the path of a field inside an element: base is the element's path
// ("items[2]"), rel the field's path relative to the element ("x", or "" for the element itself).
func JoinPath(base, rel string) string {
	switch {
	case rel == "":
		return base
	case base == "":
		return rel
	}
	return base + "." + rel
}

// ElemPath returns the path of element i of the array or slice at path ("items" → "items[2]").
func ElemPath(path string, i int) string {
	return path + "[" + itoa(i) + "]"
}

// Cache holds the models of a world's components, built on first use. Component IDs may differ
// between worlds, so the cache is keyed by Go type; the per-ID lookup is rebuilt when the world
// changes.
type Cache struct {
	byType map[reflect.Type]*Component
	world  *ecs.World
	byID   []*Component
}

// Component returns the model of component id of w.
func (c *Cache) Component(w *ecs.World, id ecs.ComponentID) *Component {
	if w != c.world {
		c.world = w
		clear(c.byID)
		c.byID = c.byID[:0]
	}
	if int(id) < len(c.byID) {
		if m := c.byID[id]; m != nil {
			return m
		}
	}
	info := w.ComponentInfo(id)
	if c.byType == nil {
		c.byType = map[reflect.Type]*Component{}
	}
	m := c.byType[info.Type]
	if m == nil || m.Name != info.Name || m.Computed != info.Computed {
		m = New(info)
		c.byType[info.Type] = m
	}
	for int(id) >= len(c.byID) {
		c.byID = append(c.byID, nil)
	}
	c.byID[id] = m
	return m
}

// Find returns the field at a dotted path of JSON names ("inner.weight"); "[]" steps into the
// element template of an array, slice or compound field ("points[].label", "position[]"). It
// returns nil if there is no such field.
func (c *Component) Find(path string) *Field {
	fs := c.Fields
	var cur *Field
	for path != "" {
		var seg string
		seg, path, _ = strings.Cut(path, ".")
		elems := 0
		for strings.HasSuffix(seg, "[]") {
			seg = seg[:len(seg)-2]
			elems++
		}
		cur = nil
		for i := range fs {
			if fs[i].JSONName == seg {
				cur = &fs[i]
				break
			}
		}
		for ; cur != nil && elems > 0; elems-- {
			cur = cur.Elem
		}
		if cur == nil {
			return nil
		}
		fs = cur.Fields
	}
	return cur
}
