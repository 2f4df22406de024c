package serialize

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/assetref"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// codecKind is what a codec reads and writes.
type codecKind uint8

const (
	kBool codecKind = iota
	kInt
	kUint
	kFloat
	kString
	kArray
	kSlice
	kStruct
	kEntity
)

// codec reads and writes one Go value (a component, or a field or element
// of one) as JSON, in the order and with the names of the component's ecs
// schema. It works on raw pointers so that a component is encoded without
// reflection per value; the layout comes from reflect once, when the codec
// is built.
type codec struct {
	kind   codecKind
	typ    reflect.Type
	size   uintptr // typ.Size()
	bits   int     // of ints, uints and floats
	name   string  // JSON name, for struct fields
	key    []byte  // `"name": `, for struct fields
	offset uintptr // within the parent struct, for struct fields
	length int     // of arrays
	elem   *codec  // of arrays and slices
	fields []codec // of structs, in schema order
	// min and max from the field's voltex hints, checked on load.
	min, max       float64
	hasMin, hasMax bool
	fieldList      string // "position, rotation and scale", for messages
	// former are the field's former JSON names (struct fields); hasFormer is set on a struct
	// codec any of whose fields has some.
	former    []string
	hasFormer bool
	// label names a component's root struct in messages.
	label string
	// enum lists the named values of an enum field (integers); others are refused.
	enum []ecs.EnumValue
	// asset marks strings that name assets (the asset hint, as Mesh.asset): they must be
	// well-formed references (internal/assetref), on load and on save, or empty (no asset) unless
	// noEmpty (Mesh.asset: a Mesh without a mesh is a mistake).
	asset, noEmpty bool
	// def is what a new item of a slice starts with (the element schema's Default, for the
	// element codec; invalid: zero), so that fields an item leaves out take their defaults.
	def reflect.Value
}

// newCodec builds the codec of a registered component from its schema.
func newCodec(info *ecs.ComponentInfo) (*codec, error) {
	c := &codec{kind: kStruct, typ: info.Type, size: info.Type.Size(), label: info.Name}
	if err := c.structFields(info.Schema.Fields); err != nil {
		return nil, fmt.Errorf("component %s cannot be stored in scene files: %w", info.Name, err)
	}
	if info.Type == reflect.TypeFor[scene.Mesh]() {
		for i := range c.fields {
			c.fields[i].noEmpty = c.fields[i].asset // a Mesh names its mesh
		}
	}
	return c, nil
}

func (c *codec) structFields(fields []ecs.Field) error {
	c.fields = make([]codec, len(fields))
	names := make([]string, len(fields))
	for i := range fields {
		f := &fields[i]
		if err := c.fields[i].build(f); err != nil {
			return err
		}
		c.fields[i].name = f.JSONName
		c.fields[i].former = f.FormerNames
		c.hasFormer = c.hasFormer || len(f.FormerNames) > 0
		c.fields[i].key = append(jsonpos.AppendString(nil, f.JSONName), ": "...)
		c.fields[i].offset = c.typ.FieldByIndex(f.Index[len(f.Index)-1:]).Offset
		names[i] = f.JSONName
	}
	c.fieldList = listWords(names)
	return nil
}

func (c *codec) build(f *ecs.Field) error {
	c.typ, c.size = f.Type, f.Type.Size()
	c.min, c.max, c.hasMin, c.hasMax = f.Hints.Min, f.Hints.Max, f.Hints.HasMin, f.Hints.HasMax
	c.enum = f.Enum
	c.asset = f.Hints.Asset
	switch k := f.Type.Kind(); {
	case f.IsEntity:
		c.kind = kEntity
	case k == reflect.Bool:
		c.kind = kBool
	case k >= reflect.Int && k <= reflect.Int64:
		c.kind, c.bits = kInt, int(f.Type.Size()*8)
	case k >= reflect.Uint && k <= reflect.Uint64:
		c.kind, c.bits = kUint, int(f.Type.Size()*8)
	case k == reflect.Float32 || k == reflect.Float64:
		c.kind, c.bits = kFloat, int(f.Type.Size()*8)
	case k == reflect.String:
		c.kind = kString
	case k == reflect.Array || k == reflect.Slice:
		c.kind, c.length = kArray, f.Len
		if k == reflect.Slice {
			c.kind = kSlice
		}
		c.elem = new(codec)
		if err := c.elem.build(f.Elem); err != nil {
			return err
		}
		if k == reflect.Slice && f.Elem.Default != nil {
			c.elem.def = reflect.ValueOf(f.Elem.Default)
		}
		c.elem.asset = c.elem.asset || c.asset
		if !c.elem.hasMin && !c.elem.hasMax { // a range on an array applies to its items
			c.elem.min, c.elem.max, c.elem.hasMin, c.elem.hasMax = c.min, c.max, c.hasMin, c.hasMax
		}
	case k == reflect.Struct:
		c.kind = kStruct
		return c.structFields(f.Fields)
	default:
		return fmt.Errorf("field %s has type %v; scene files hold booleans, numbers, strings, arrays, slices, structs and ecs.Entity",
			f.Path, f.Type)
	}
	return nil
}

func listWords(w []string) string {
	switch len(w) {
	case 0:
		return "no fields"
	case 1:
		return w[0]
	}
	s := w[0]
	for _, x := range w[1 : len(w)-1] {
		s += ", " + x
	}
	return s + " and " + w[len(w)-1]
}

// --- decoding ---

// entityRef is an ecs.Entity field read from a file: the file id it names,
// to be resolved once every entity exists.
type entityRef struct {
	path      string // field path within the component, as ecs.World.SetField takes it (also its JSON path there)
	id        int64
	line, col int32
}

// jsonPath returns the JSON path of the reference of entity index rec of
// the file, in component comp: entities[3].components.Follow.targets[2].
func (r *entityRef) jsonPath(rec int32, comp string) string {
	var p diag.Path
	p.Key("entities")
	p.Index(int(rec))
	p.Key("components")
	p.Key(comp)
	s := p.String()
	switch {
	case r.path == "":
	case r.path[0] == '[':
		s += r.path
	default:
		s += "." + r.path
	}
	return s
}

// decodeState carries what decoding needs besides the value.
type decodeState struct {
	probs   *diag.List
	path    *diag.Path
	refs    []entityRef // entity references found in the current component
	intern  map[string]string
	failed  bool   // set when decoding the current component reported an error
	refPath []byte // field path for refs, built like path
	// indexRefs reads entity references as export indices (-1 for none)
	// instead of scene ids (0 for none).
	indexRefs bool
	// checkAsset (LoadOptions.CheckAsset) is asked once about each
	// well-formed asset reference; assets remembers what was asked.
	checkAsset func(ref string) error
	assets     map[string]bool
	strict     bool // missing assets are errors, not warnings
	// lossy turns values that cannot be read into warnings (LoadOptions.Lossy).
	lossy bool
	// data adds up an estimate of the memory the loaded world takes
	// (Limits.MaxWorldBytes): component values, strings, slices, kept JSON,
	// references and per-entity bookkeeping. Once over maxData, overData is
	// set and the load stops.
	data, maxData int64
	overData      bool
}

// use counts n bytes of world memory; the first time over the limit it
// reports the error at p and reports false.
func (d *decodeState) use(n int64, p jsonpos.Pos) bool {
	d.data += n
	if d.maxData <= 0 || d.data <= d.maxData {
		return true
	}
	if !d.overData {
		d.overData = true
		d.probs.Errorf(p.Line, p.Col, d.path.String(), "the scene takes more than the limit of %s of memory "+
			"(component values, strings and entities; Limits.MaxWorldBytes)", words.Bytes(d.maxData))
	}
	d.failed = true
	return false
}

// asset checks the asset reference ref read at v: a malformed or unsafe
// one is an error; one that CheckAsset finds missing a warning (an error in
// strict mode), reported where it first appears.
func (d *decodeState) asset(v *jsonpos.Value, ref string) {
	if _, err := assetref.Check(ref); err != nil {
		d.errAt(v, "%v", err)
		return
	}
	if d.checkAsset == nil || d.assets[ref] {
		return
	}
	if d.assets == nil {
		d.assets = map[string]bool{}
	}
	d.assets[ref] = true
	err := d.checkAsset(ref)
	switch {
	case err == nil:
	case errors.Is(err, assetref.ErrMissing) && !d.strict:
		p := v.Pos()
		d.probs.Warnf(p.Line, p.Col, d.path.String(), "%v", err)
	default:
		d.errAt(v, "%v", err)
	}
}

func (d *decodeState) errAt(v *jsonpos.Value, format string, args ...any) {
	p := v.Pos()
	d.errorf(p, "the field keeps its default", format, args...)
}

// errorf reports a value that cannot be read at p: an error that fails the
// component, or in a lossy load a warning saying what happens instead.
func (d *decodeState) errorf(p jsonpos.Pos, instead, format string, args ...any) {
	if d.lossy {
		d.probs.Add(diag.Problem{Line: p.Line, Col: p.Col, Path: d.path.String(), Warning: true,
			Msg: fmt.Sprintf(format, args...) + " (dropped: " + instead + ")"})
		return
	}
	d.probs.Errorf(p.Line, p.Col, d.path.String(), format, args...)
	d.failed = true
}

// internMax is the length up to which strings are shared (and not counted
// as world memory: a few thousand of them at most).
const internMax = 64

// internString returns a shared copy of short strings that repeat (asset
// names), so a million cubes do not hold a million copies of "builtin:cube".
func (d *decodeState) internString(b []byte) string {
	if len(b) > internMax {
		return string(b)
	}
	if s, ok := d.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(d.intern) < 4096 {
		d.intern[s] = s
	}
	return s
}

// decode reads v into the value at p, which already holds the defaults.
func (c *codec) decode(d *decodeState, v *jsonpos.Value, p unsafe.Pointer) { //nolint:gocyclo // one flat case per kind of field
	switch c.kind {
	case kStruct:
		if v.Kind() != jsonpos.Object {
			d.errAt(v, "expected an object, got %s", describeValue(v))
			return
		}
		keys := jsonpos.NewKeyIndex(v)
		var seen []*codec // fields read so far, when a field could appear under two names
		for i := range v.Len() {
			m := v.Index(i)
			if duplicateKey(d.probs, d.path, keys, v, i) {
				d.failed = true
				continue
			}
			f := c.field(m.KeyBytes())
			if f == nil {
				kp := m.KeyPos()
				mark := d.path.Key(m.Key())
				hint := ""
				if s := diag.Suggest(m.Key(), c.fieldNames()); s != "" {
					hint = fmt.Sprintf("; did you mean %q?", s)
				}
				d.errorf(kp, "not in the component any more", "unknown field%s (%s has %s)", hint, c.structName(), c.fieldList)
				d.path.Truncate(mark)
				continue
			}
			if c.hasFormer {
				if slices.Contains(seen, f) {
					kp := m.KeyPos()
					mark := d.path.Key(m.Key())
					d.errorf(kp, "the first one is kept", "%s is here twice, under its current and a former name; keep one", f.name)
					d.path.Truncate(mark)
					continue
				}
				seen = append(seen, f)
			}
			mark := d.path.Key(f.name)
			rmark := len(d.refPath)
			if rmark > 0 {
				d.refPath = append(d.refPath, '.')
			}
			d.refPath = append(d.refPath, f.name...)
			f.decode(d, m, unsafe.Add(p, f.offset))
			d.refPath = d.refPath[:rmark]
			d.path.Truncate(mark)
		}
	case kArray, kSlice:
		if v.Kind() != jsonpos.Array {
			d.errAt(v, "expected an array, got %s", describeValue(v))
			return
		}
		n := v.Len()
		base := p
		if c.kind == kArray {
			if n != c.length {
				d.errAt(v, "expected %d items, got %d", c.length, n)
				return
			}
		} else {
			if !d.use(int64(n)*int64(c.elem.size), v.Pos()) {
				return
			}
			s := reflect.MakeSlice(c.typ, n, n)
			reflect.NewAt(c.typ, p).Elem().Set(s)
			base = s.UnsafePointer()
		}
		for i := range n {
			if c.elem.kind == kFloat && c.elem.decodeFloat(v.Index(i), unsafe.Add(base, uintptr(i)*c.elem.size)) {
				continue // a number that fits: nothing to report, so no path to build
			}
			mark := d.path.Index(i)
			rmark := len(d.refPath)
			d.refPath = append(d.refPath, '[')
			d.refPath = strconv.AppendInt(d.refPath, int64(i), 10)
			d.refPath = append(d.refPath, ']')
			at := unsafe.Add(base, uintptr(i)*c.elem.size)
			if c.elem.def.IsValid() {
				reflect.NewAt(c.elem.typ, at).Elem().Set(ecs.DeepCopy(c.elem.def))
			}
			c.elem.decode(d, v.Index(i), at)
			d.refPath = d.refPath[:rmark]
			d.path.Truncate(mark)
		}
	case kFloat:
		if v.Kind() != jsonpos.Number {
			d.errAt(v, "expected a number, got %s", describeValue(v))
			return
		}
		f, err := v.Float(c.bits)
		if err != nil {
			d.errAt(v, "%s is out of range for a %d-bit float", v.Text(), c.bits)
			return
		}
		if !c.inRange(d, v, f) {
			return
		}
		if c.bits == 32 {
			*(*float32)(p) = float32(f)
		} else {
			*(*float64)(p) = f
		}
	case kInt, kUint:
		n, ok := c.integer(d, v)
		if !ok {
			return
		}
		if f := float64(n); c.kind == kUint {
			if !c.inRange(d, v, float64(uint64(n))) {
				return
			}
		} else if !c.inRange(d, v, f) {
			return
		}
		if c.enum != nil && !c.inEnum(d, v, n) {
			return
		}
		if c.kind == kInt {
			setInt(p, c.bits, n)
		} else {
			setUint(p, c.bits, uint64(n))
		}
	case kBool:
		if v.Kind() != jsonpos.Bool {
			d.errAt(v, "expected true or false, got %s", describeValue(v))
			return
		}
		*(*bool)(p) = v.Bool()
	case kString:
		if v.Kind() != jsonpos.String {
			d.errAt(v, "expected a string, got %s", describeValue(v))
			return
		}
		*(*string)(p) = d.internString(v.Text())
		if len(v.Text()) > internMax && !d.use(int64(len(v.Text())), v.Pos()) {
			return
		}
		if c.asset && (c.noEmpty || v.Text() != nil && len(v.Text()) > 0) {
			d.asset(v, *(*string)(p))
		}
	case kEntity:
		if d.indexRefs { // an export: an entity index, -1 for none
			n, err := v.Int()
			if v.Kind() != jsonpos.Number || err != nil || n < -1 {
				d.errAt(v, "expected an entity index (-1 for none), got %s", describeValue(v))
				return
			}
			*(*ecs.Entity)(p) = ecs.Entity{}
			if n >= 0 {
				d.refs = append(d.refs, entityRef{path: string(d.refPath), id: n, line: int32(v.Pos().Line), col: int32(v.Pos().Col)})
			}
			return
		}
		if v.Kind() != jsonpos.Number {
			d.errAt(v, "expected an entity id (0 for none), got %s", describeValue(v))
			return
		}
		n, err := v.Int()
		if err != nil || n < 0 {
			d.errAt(v, "expected an entity id (0 for none), got %s", v.Text())
			return
		}
		*(*ecs.Entity)(p) = ecs.Entity{}
		if n > 0 {
			d.refs = append(d.refs, entityRef{path: string(d.refPath), id: n, line: int32(v.Pos().Line), col: int32(v.Pos().Col)})
		}
	}
}

// decodeFloat stores v at p and reports true if it is a number that fits the float codec c (its bits
// and range); otherwise it stores nothing and decode must read v (and report what is wrong with it).
func (c *codec) decodeFloat(v *jsonpos.Value, p unsafe.Pointer) bool {
	if v.Kind() != jsonpos.Number {
		return false
	}
	f, err := v.Float(c.bits)
	return c.setFloat(f, err, p)
}

// setFloat stores f, converted without an error (err), at p and reports true if it fits the float codec c's range;
// otherwise it stores nothing.
func (c *codec) setFloat(f float64, err error, p unsafe.Pointer) bool {
	if err != nil || (c.hasMin && f < c.min) || (c.hasMax && f > c.max) {
		return false
	}
	if c.bits == 32 {
		*(*float32)(p) = float32(f)
	} else {
		*(*float64)(p) = f
	}
	return true
}

func (c *codec) field(name []byte) *codec {
	if i := c.fieldIndex(name); i >= 0 {
		return &c.fields[i]
	}
	if c.hasFormer {
		for i := range c.fields {
			if slices.Contains(c.fields[i].former, string(name)) {
				return &c.fields[i]
			}
		}
	}
	return nil
}

// fieldNames lists a struct codec's field names, for suggestions.
func (c *codec) fieldNames() []string {
	names := make([]string, len(c.fields))
	for i := range c.fields {
		names[i] = c.fields[i].name
	}
	return names
}

// inEnum reports whether n is one of an enum field's values, reporting it if not.
func (c *codec) inEnum(d *decodeState, v *jsonpos.Value, n int64) bool {
	for _, ev := range c.enum {
		if ev.Value == n {
			return true
		}
	}
	vals := make([]string, len(c.enum))
	for i, ev := range c.enum {
		vals[i] = ev.Name + "=" + strconv.FormatInt(ev.Value, 10)
	}
	what := "this enum"
	if c.typ.PkgPath() != "" {
		what = c.typ.Name()
	}
	d.errAt(v, "%s is not a value of %s (%s)", v.Text(), what, strings.Join(vals, ", "))
	return false
}

// integer reads an integer that fits the codec's type (uint64 values come
// back as their int64 bit pattern).
func (c *codec) integer(d *decodeState, v *jsonpos.Value) (int64, bool) {
	if v.Kind() != jsonpos.Number {
		d.errAt(v, "expected an integer, got %s", describeValue(v))
		return 0, false
	}
	var n int64
	var err error
	bottom, top := c.intLimits()
	lo, hi := strconv.FormatInt(bottom, 10), strconv.FormatUint(top, 10)
	if c.kind == kUint {
		var u uint64
		u, err = v.Uint()
		if err == nil && u > top {
			err = jsonpos.ErrRange
		}
		n = int64(u)
	} else {
		n, err = v.Int()
		if err == nil && (n < bottom || n >= 0 && uint64(n) > top) {
			err = jsonpos.ErrRange
		}
	}
	switch {
	case errors.Is(err, jsonpos.ErrNotInteger):
		d.errAt(v, "expected an integer, got %s", v.Text())
		return 0, false
	case err != nil:
		d.errAt(v, "%s is out of range for %v (%s..%s)", v.Text(), c.typ, lo, hi)
		return 0, false
	}
	return n, true
}

// intLimits is the least and the greatest value of the integer codec c's type.
func (c *codec) intLimits() (bottom int64, top uint64) {
	if c.kind == kUint {
		return 0, uint64(math.MaxUint64) >> (64 - c.bits)
	}
	return int64(-1) << (c.bits - 1), uint64(1)<<(c.bits-1) - 1
}

func (c *codec) inRange(d *decodeState, v *jsonpos.Value, f float64) bool {
	if (c.hasMin && f < c.min) || (c.hasMax && f > c.max) {
		lo, hi := "-∞", "∞"
		if c.hasMin {
			lo = strconv.FormatFloat(c.min, 'g', -1, 64)
		}
		if c.hasMax {
			hi = strconv.FormatFloat(c.max, 'g', -1, 64)
		}
		d.errAt(v, "%s is outside the allowed range %s..%s", v.Text(), lo, hi)
		return false
	}
	return true
}

func setInt(p unsafe.Pointer, bits int, n int64) {
	switch bits {
	case 8:
		*(*int8)(p) = int8(n)
	case 16:
		*(*int16)(p) = int16(n)
	case 32:
		*(*int32)(p) = int32(n)
	default:
		*(*int64)(p) = n
	}
}

func setUint(p unsafe.Pointer, bits int, n uint64) {
	switch bits {
	case 8:
		*(*uint8)(p) = uint8(n)
	case 16:
		*(*uint16)(p) = uint16(n)
	case 32:
		*(*uint32)(p) = uint32(n)
	default:
		*(*uint64)(p) = n
	}
}

// structName names a struct codec's type in messages.
func (c *codec) structName() string {
	if c.label != "" {
		return c.label
	}
	return typeName(c.typ)
}

func typeName(t reflect.Type) string {
	if t.Name() != "" {
		return t.Name()
	}
	return "the struct"
}

// --- encoding ---

// encodeError is a value that cannot be written, with the path to it
// (built while unwinding).
type encodeError struct {
	path string
	msg  string
}

func (e *encodeError) Error() string { return e.path + ": " + e.msg }

func (e *encodeError) under(seg string) *encodeError {
	if e.path == "" || e.path[0] == '[' {
		e.path = seg + e.path
	} else {
		e.path = seg + "." + e.path
	}
	return e
}

// encodeState carries what encoding needs besides the value.
type encodeState struct {
	// refID returns the number an entity reference is written as (a file
	// id in scenes, an entity index in exports; also for the zero Entity).
	refID func(ecs.Entity) int64
}

// items returns the element count and the address of the first element of the array or slice
// value at p (c.kind is kArray or kSlice); element i is at base + i*c.elem.size.
func (c *codec) items(p unsafe.Pointer) (n int, base unsafe.Pointer) {
	if c.kind == kSlice {
		sv := reflect.NewAt(c.typ, p).Elem()
		return sv.Len(), sv.UnsafePointer()
	}
	return c.length, p
}

// encode appends the value at p in canonical inline form.
func (c *codec) encode(s *encodeState, buf []byte, p unsafe.Pointer) ([]byte, error) {
	switch c.kind {
	case kStruct:
		if len(c.fields) == 0 {
			return append(buf, "{}"...), nil
		}
		buf = append(buf, "{ "...)
		for i := range c.fields {
			f := &c.fields[i]
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = append(buf, f.key...)
			var err error
			if buf, err = f.encode(s, buf, unsafe.Add(p, f.offset)); err != nil {
				return buf, err.(*encodeError).under(f.name)
			}
		}
		return append(buf, " }"...), nil
	case kArray, kSlice:
		n, base := c.items(p)
		if n == 0 {
			return append(buf, "[]"...), nil
		}
		buf = append(buf, '[')
		for i := range n {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			var err error
			if buf, err = c.elem.encode(s, buf, unsafe.Add(base, uintptr(i)*c.elem.size)); err != nil {
				return buf, err.(*encodeError).under("[" + strconv.Itoa(i) + "]")
			}
		}
		return append(buf, ']'), nil
	case kFloat:
		var f float64
		if c.bits == 32 {
			f = float64(*(*float32)(p))
		} else {
			f = *(*float64)(p)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return buf, &encodeError{msg: fmt.Sprintf("is %v; scene files cannot hold NaN or infinite numbers", f)}
		}
		return jsonpos.AppendFloat(buf, f, c.bits), nil
	case kInt:
		var n int64
		switch c.bits {
		case 8:
			n = int64(*(*int8)(p))
		case 16:
			n = int64(*(*int16)(p))
		case 32:
			n = int64(*(*int32)(p))
		default:
			n = *(*int64)(p)
		}
		return strconv.AppendInt(buf, n, 10), nil
	case kUint:
		var n uint64
		switch c.bits {
		case 8:
			n = uint64(*(*uint8)(p))
		case 16:
			n = uint64(*(*uint16)(p))
		case 32:
			n = uint64(*(*uint32)(p))
		default:
			n = *(*uint64)(p)
		}
		return strconv.AppendUint(buf, n, 10), nil
	case kBool:
		return strconv.AppendBool(buf, *(*bool)(p)), nil
	case kString:
		if s := *(*string)(p); c.asset && (c.noEmpty || s != "") {
			if _, err := assetref.Check(s); err != nil {
				return buf, &encodeError{msg: err.Error()}
			}
		}
		return jsonpos.AppendString(buf, *(*string)(p)), nil
	case kEntity:
		return strconv.AppendInt(buf, s.refID(*(*ecs.Entity)(p)), 10), nil
	}
	panic("serialize: unknown codec kind")
}
