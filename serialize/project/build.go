package project

import (
	"github.com/voltex-editor/voltex/internal/words"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

var (
	boolType   = reflect.TypeFor[bool]()
	int32Type  = reflect.TypeFor[int32]()
	floatType  = reflect.TypeFor[float32]()
	stringType = reflect.TypeFor[string]()
	vec2Type   = reflect.TypeFor[mgl32.Vec2]()
	vec3Type   = reflect.TypeFor[mgl32.Vec3]()
	vec4Type   = reflect.TypeFor[mgl32.Vec4]()
	entityType = reflect.TypeFor[ecs.Entity]()
	markerType = reflect.TypeFor[struct{}]()
)

// markerField is the Go name of the zero-size field that makes each component's type distinct
// (reflect.StructOf returns one type for equal field lists, and a world registers each type once).
// Field names end in "_" only as Default_, so it cannot clash.
const markerField = "Voltex_"

// build makes the Go types and default values of every declaration.
func (p *parser) build() {
	p.built = map[*Struct]int{}
	for _, s := range p.proj.Structs {
		p.buildStruct(s, nil)
	}
	for i, c := range p.proj.Components {
		mark := p.path.Key("components")
		im := p.path.Index(i)
		sf := []reflect.StructField{{Name: markerField, Type: markerType,
			Tag: reflect.StructTag(`json:"-" voltex:"component=` + c.Name + `"`)}}
		t, def, ok := p.structOf(c.Fields, sf)
		if ok {
			if t.Size() > MaxTypeSize {
				p.probs.Errorf(c.Pos.Line, c.Pos.Col, p.path.String(), "component %s takes %s; at most %s (use a list for long sequences)",
					c.Name, words.Bytes(int64(t.Size())), words.Bytes(int64(MaxTypeSize)))
			}
			c.Type, c.Default = t, def.Interface()
		}
		p.path.Truncate(im)
		p.path.Truncate(mark)
	}
}

// buildStruct builds a named or inline struct's type once; from is the type that refers to it
// (nil for the top-level pass). A struct that contains itself is reported.
func (p *parser) buildStruct(s *Struct, from *Type) bool {
	switch p.built[s] {
	case 1:
		if site, ok := p.typePos[from]; ok {
			p.probs.Errorf(site.pos.Line, site.pos.Col, site.path, "struct %s contains itself; declared types cannot be recursive", s.Name)
		}
		return false
	case 2:
		return s.Type != nil
	}
	p.built[s] = 1
	t, def, ok := p.structOf(s.Fields, nil)
	p.built[s] = 2
	if ok {
		s.Type, s.Default = t, def
	}
	return ok
}

// structOf builds a struct type from fields (after the given leading fields) and its default.
func (p *parser) structOf(fields []*Field, sf []reflect.StructField) (reflect.Type, reflect.Value, bool) {
	ok := true
	for _, f := range fields {
		gt := p.goType(f.Type)
		if gt == nil {
			ok = false
			continue
		}
		sf = append(sf, reflect.StructField{Name: f.GoName, Type: gt, Tag: tagOf(f, true)})
	}
	if !ok {
		return nil, reflect.Value{}, false
	}
	t := reflect.StructOf(sf)
	def := reflect.New(t).Elem()
	off := len(sf) - len(fields)
	held := 0 // what the default's lists and strings hold: every value of the type starts with a copy
	for i, f := range fields {
		v := def.Field(off + i)
		zeroDefault(f.Type, v)
		intoRange(f.Type, f.Hints, v)
		if d, has := p.defs[f]; has {
			p.decode(&d.v, f.Type, v, f.Hints, d.path)
		}
		if held += ecs.HeldBytes(v); held > MaxTypeSize {
			if s, ok := p.typePos[f.Type]; ok {
				p.probs.Errorf(s.pos.Line, s.pos.Col, s.path, "with this field, the default holds more than %s in its lists "+
					"and strings (each value of the type starts with a copy of it)", words.Bytes(MaxTypeSize))
			}
			return nil, reflect.Value{}, false
		}
	}
	return t, def, true
}

// goType returns the Go type of t (nil after reporting a problem).
func (p *parser) goType(t *Type) reflect.Type {
	if t.Go != nil {
		return t.Go
	}
	switch t.Kind {
	case Bool:
		t.Go = boolType
	case Int, EnumKind:
		t.Go = int32Type
	case Float:
		t.Go = floatType
	case String, Asset:
		t.Go = stringType
	case Vec2:
		t.Go = vec2Type
	case Vec3:
		t.Go = vec3Type
	case Vec4, Color:
		t.Go = vec4Type
	case Entity:
		t.Go = entityType
	case Array, List:
		e := p.goType(t.Elem)
		if e == nil {
			return nil
		}
		if t.Kind == Array {
			// Bounded by bytes and by values (arrays of empty structs take no bytes, but every
			// value is visited when defaults are set).
			if uintptr(t.Len) > MaxTypeSize/max(e.Size(), 1) || t.Len*valueCount(t.Elem) > MaxTypeSize {
				if s, ok := p.typePos[t]; ok {
					p.probs.Errorf(s.pos.Line, s.pos.Col, s.path, "an array of %d %s takes more than %s; use a list",
						t.Len, describeType(t.Elem), words.Bytes(int64(MaxTypeSize)))
				}
				return nil
			}
			t.Go = reflect.ArrayOf(t.Len, e)
		} else {
			t.Go = reflect.SliceOf(e)
		}
	case StructKind:
		if !p.buildStruct(t.Struct, t) {
			return nil
		}
		t.Go = t.Struct.Type
	}
	return t.Go
}

// valueCount returns how many values a value of t holds (arrays count every element, structs
// every field), saturating above MaxTypeSize.
func valueCount(t *Type) int {
	switch t.Kind {
	case Array:
		return min(t.Len*valueCount(t.Elem), MaxTypeSize+1)
	case StructKind:
		n := 1
		for _, f := range t.Struct.Fields {
			n = min(n+valueCount(f.Type), MaxTypeSize+1)
		}
		return n
	}
	return 1
}

// tagOf returns the struct tag of a declared field: its JSON name and its voltex hints, with the
// names of enum values when withEnum is set (Go types made by gen name them with methods instead).
func tagOf(f *Field, withEnum bool) reflect.StructTag {
	items := hintItems(f.Hints)
	if len(f.FormerNames) > 0 {
		items = append(items, "former="+strings.Join(f.FormerNames, "|"))
	}
	if l := leaf(f.Type); l.Kind == EnumKind && withEnum {
		items = append(items, "enum="+enumTag(l.Enum.Values))
	}
	tag := `json:` + strconv.Quote(f.Name)
	if len(items) > 0 {
		tag += ` voltex:` + strconv.Quote(strings.Join(items, ","))
	}
	return reflect.StructTag(tag)
}

// hintItems writes hints as voltex tag items (the inverse of ecs's tag parser).
func hintItems(h ecs.Hints) []string {
	var items []string
	num := func(key string, x float64) { items = append(items, key+"="+strconv.FormatFloat(x, 'g', -1, 64)) }
	if h.HasMin {
		num("min", h.Min)
	}
	if h.HasMax {
		num("max", h.Max)
	}
	if h.HasStep {
		num("step", h.Step)
	}
	for _, b := range []struct {
		on   bool
		name string
	}{{h.Degrees, "degrees"}, {h.Color, "color"}, {h.ReadOnly, "readonly"}, {h.Hidden, "hidden"},
		{h.Multiline, "multiline"}, {h.Asset, "asset"}} {
		if b.on {
			items = append(items, b.name)
		}
	}
	if h.Tooltip != "" {
		items = append(items, "tooltip='"+strings.ReplaceAll(h.Tooltip, "'", "''")+"'")
	}
	return items
}

func enumTag(vals []ecs.EnumValue) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = v.Name + ":" + strconv.FormatInt(v.Value, 10)
	}
	return strings.Join(parts, "|")
}

// zeroDefault sets v (a zero value of t's Go type) to what a field of type t holds when it has no
// "default": structs their own defaults, colours opaque white, enums their first value when 0 is
// not one of them, and the same for each element of arrays.
func zeroDefault(t *Type, v reflect.Value) {
	switch t.Kind {
	case StructKind:
		if t.Struct.Default.IsValid() {
			v.Set(ecs.DeepCopy(t.Struct.Default))
		}
	case Color:
		v.Set(reflect.ValueOf(mgl32.Vec4{1, 1, 1, 1}))
	case EnumKind:
		if !hasValue(t.Enum, 0) && len(t.Enum.Values) > 0 {
			v.SetInt(t.Enum.Values[0].Value)
		}
	case Array:
		for i := range t.Len {
			zeroDefault(t.Elem, v.Index(i))
		}
	}
}

// intoRange moves the numbers of v (a zero default of type t) into the range of hints h: a range
// that leaves out the value starts at its nearest end (ints: the nearest int inside it). It works
// on ints and floats, the channels of vectors and colours, and the items of arrays.
func intoRange(t *Type, h ecs.Hints, v reflect.Value) {
	clamp := func(x float64) float64 {
		if h.HasMin && x < h.Min {
			x = h.Min
		}
		if h.HasMax && x > h.Max {
			x = h.Max
		}
		return x
	}
	switch t.Kind {
	case Int:
		x0 := float64(v.Int())
		x := clamp(x0)
		if x > x0 {
			x = math.Ceil(x)
		} else {
			x = math.Floor(x)
		}
		v.SetInt(int64(max(math.MinInt32, min(math.MaxInt32, x))))
	case Float:
		v.SetFloat(float64(float32In(clamp(v.Float()), h)))
	case Vec2, Vec3, Vec4, Color:
		for i := range v.Len() {
			v.Index(i).SetFloat(float64(float32In(clamp(v.Index(i).Float()), h)))
		}
	case Array:
		for i := range t.Len {
			intoRange(t.Elem, h, v.Index(i))
		}
	}
}

func hasValue(e *Enum, n int64) bool {
	for _, v := range e.Values {
		if v.Value == n {
			return true
		}
	}
	return false
}

// decode reads a "default" value j of type t into v, reporting problems at path.
func (p *parser) decode(j *jsonpos.Value, t *Type, v reflect.Value, h ecs.Hints, path string) { //nolint:gocyclo // one flat case per field type
	bad := func(format string, args ...any) {
		q := j.Pos()
		p.probs.Errorf(q.Line, q.Col, path, format, args...)
	}
	inRange := func(f float64) bool {
		if (h.HasMin && f < h.Min) || (h.HasMax && f > h.Max) {
			bad("%s is outside the field's range %s..%s", j.Text(), bound(h.HasMin, h.Min, "-∞"), bound(h.HasMax, h.Max, "∞"))
			return false
		}
		return true
	}
	switch t.Kind {
	case Bool:
		if j.Kind() != jsonpos.Bool {
			bad("expected true or false, got %s", j.Describe())
			return
		}
		v.SetBool(j.Bool())
	case Int:
		n, err := j.Int()
		if j.Kind() != jsonpos.Number || err != nil || n < math.MinInt32 || n > math.MaxInt32 {
			bad("expected a whole number within -2147483648..2147483647, got %s", j.Describe())
			return
		}
		if inRange(float64(n)) {
			v.SetInt(n)
		}
	case Float:
		f, err := j.Float(32)
		if j.Kind() != jsonpos.Number || err != nil {
			bad("expected a number that a float holds (±%g), got %s", float32(math.MaxFloat32), j.Describe())
			return
		}
		outside := func(x float64) bool { return (h.HasMin && x < h.Min) || (h.HasMax && x > h.Max) }
		if exact, _ := j.Float(64); outside(f) && !outside(exact) { // float32(0.7) is below 0.7
			bad("%s is %s as a float, outside the field's range %s..%s (as scenes read it too); write %s",
				j.Text(), strconv.FormatFloat(f, 'g', -1, 64), bound(h.HasMin, h.Min, "-∞"), bound(h.HasMax, h.Max, "∞"),
				strconv.FormatFloat(float64(float32In(exact, h)), 'g', -1, 32))
			return
		}
		if inRange(f) {
			v.SetFloat(f)
		}
	case String, Asset:
		if j.Kind() != jsonpos.String {
			bad("expected a string, got %s", j.Describe())
			return
		}
		v.SetString(j.Str())
	case Vec2, Vec3, Vec4, Color:
		n := v.Len()
		if j.Kind() != jsonpos.Array || j.Len() != n {
			bad("expected an array of %d numbers, got %s", n, j.Describe())
			return
		}
		for i := range n {
			x := j.Index(i)
			p.decode(x, &Type{Kind: Float}, v.Index(i), h, path+"["+strconv.Itoa(i)+"]")
		}
	case Entity:
		n, err := j.Int()
		if j.Kind() != jsonpos.Null && (j.Kind() != jsonpos.Number || err != nil || n != 0) {
			bad("an entity reference can only default to 0 or null (none), got %s", j.Describe())
		}
	case EnumKind:
		switch j.Kind() {
		case jsonpos.String:
			for _, ev := range t.Enum.Values {
				if ev.Name == j.Str() {
					v.SetInt(ev.Value)
					return
				}
			}
			bad("%s is not a value of %s%s", j.Describe(), t.Enum.Name, valueNames(t.Enum, j.Str()))
		case jsonpos.Number:
			n, err := j.Int()
			if err != nil || !hasValue(t.Enum, n) {
				bad("%s is not a value of %s%s", j.Describe(), t.Enum.Name, valueNames(t.Enum, ""))
				return
			}
			v.SetInt(n)
		default:
			bad("expected the name of a value of %s, got %s", t.Enum.Name, j.Describe())
		}
	case Array, List:
		if j.Kind() != jsonpos.Array || (t.Kind == Array && j.Len() != t.Len) {
			if t.Kind == Array {
				bad("expected an array of %d items, got %s", t.Len, describeLen(j))
			} else {
				bad("expected an array, got %s", j.Describe())
			}
			return
		}
		if t.Kind == List {
			if int64(j.Len())*int64(v.Type().Elem().Size()) > MaxTypeSize {
				bad("a list of %d %s takes more than %s; start it shorter", j.Len(), describeType(t.Elem), words.Bytes(MaxTypeSize))
				return
			}
			v.Set(reflect.MakeSlice(v.Type(), j.Len(), j.Len()))
		}
		for i := range j.Len() {
			e := v.Index(i)
			zeroDefault(t.Elem, e)
			p.decode(j.Index(i), t.Elem, e, h, path+"["+strconv.Itoa(i)+"]")
		}
	case StructKind:
		s := t.Struct
		if j.Kind() != jsonpos.Object {
			bad("expected an object with fields of %s, got %s", s.Name, j.Describe())
			return
		}
		names := make([]string, len(s.Fields))
		for i, f := range s.Fields {
			names[i] = f.Name
		}
		keys := jsonpos.NewKeyIndex(j)
		for k := range j.Len() {
			m := j.Index(k)
			kp := m.KeyPos()
			at := path + "." + m.Key()
			if keys.First(k) != k {
				p.probs.Errorf(kp.Line, kp.Col, at, "duplicate key")
				continue
			}
			i := indexOf(names, m.Key())
			if i < 0 {
				p.probs.Errorf(kp.Line, kp.Col, at, "%s has no field %q%s", s.Name, m.Key(), diag.DidYouMean(m.Key(), names))
				continue
			}
			f := s.Fields[i]
			p.decode(m, f.Type, v.FieldByName(f.GoName), f.Hints, at)
		}
	}
}

func bound(has bool, x float64, none string) string {
	if !has {
		return none
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func describeLen(j *jsonpos.Value) string {
	if j.Kind() == jsonpos.Array {
		return strconv.Itoa(j.Len()) + " items"
	}
	return j.Describe()
}

// valueNames lists an enum's values for a message, with a suggestion for name.
func valueNames(e *Enum, name string) string {
	names := make([]string, len(e.Values))
	for i, v := range e.Values {
		names[i] = v.Name
	}
	if name != "" {
		if s := diag.DidYouMean(name, names); s != "" {
			return s
		}
	}
	return " (" + quotedList(names) + ")"
}

func indexOf(names []string, n string) int {
	for i, x := range names {
		if x == n {
			return i
		}
	}
	return -1
}
