package project

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Limits of what a project file may declare.
const (
	MaxFields   = 256  // fields in one component or struct
	MaxArrayLen = 1024 // elements of a fixed array
	MaxTypeSize = 1 << 16
	maxNesting  = 16 // arrays, lists and structs inside each other
)

var (
	typeNameRE  = regexp.MustCompile(`^[A-Z][A-Za-z0-9_]*$`)
	fieldNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
)

// builtinKinds are the type names a field's "type" may use besides declared enums and structs.
var builtinKinds = map[string]Kind{
	"bool": Bool, "int": Int, "float": Float, "string": String, "asset": Asset, "vec2": Vec2, "vec3": Vec3,
	"vec4": Vec4, "color": Color, "entity": Entity, "enum": EnumKind, "array": Array, "list": List, "struct": StructKind,
}

// Parse parses a project file held in memory; file names it in problems. On failure it returns an
// *Error listing every problem found as "file:line:col: path: message" (up to 100).
func Parse(data []byte, file string) (*Project, error) {
	return parse(jsonpos.NewBytesDecoder(data, jsonLimits), file)
}

// parse reads a project file from d: the counted limits (MaxComponents …) stop the reading as soon
// as a count passes its limit.
func parse(d *jsonpos.Decoder, file string) (*Project, error) {
	p := &parser{probs: &diag.List{File: file}, proj: &Project{File: file}, named: map[string]*named{},
		formerAt: map[*Component][]Pos{}}
	root, err := (&treeReader{d: d, probs: p.probs}).read()
	if err != nil {
		var se *jsonpos.SyntaxError
		if !errors.As(err, &se) && !errors.Is(err, errLimit{}) {
			return nil, err
		}
		return nil, p.probs.Err()
	}
	p.file(&root)
	if err := p.probs.Err(); err != nil {
		return nil, err
	}
	p.build()
	if err := p.probs.Err(); err != nil {
		return nil, err
	}
	return p.proj, nil
}

type parser struct {
	probs *diag.List
	path  diag.Path
	proj  *Project
	named map[string]*named // declared enums, structs and components by name
	// structDecls are the named structs' "fields" values, parsed once every name is known.
	structDecls []*jsonpos.Value
	compDecls   []*jsonpos.Value
	// typePos remembers where each Type was written, for errors found while building.
	typePos map[*Type]site
	defs    map[*Field]fieldDefault
	// built tracks named structs while their Go types are built: 1 building, 2 done.
	built map[*Struct]int
	// formerAt is where each component's former names are written.
	formerAt map[*Component][]Pos
}

// fieldDefault is a field's "default" value and its JSON path.
type fieldDefault struct {
	v    jsonpos.Value
	path string
}

// named is a declared name: exactly one of its fields is set.
type named struct {
	enum *Enum
	st   *Struct
	comp *Component
	pos  Pos
}

// site is a position and the JSON path there.
type site struct {
	pos  jsonpos.Pos
	path string
}

func (p *parser) errAt(v *jsonpos.Value, format string, args ...any) {
	pos := v.Pos()
	p.probs.Errorf(pos.Line, pos.Col, p.path.String(), format, args...)
}

func (p *parser) errAtKey(m *jsonpos.Value, format string, args ...any) {
	pos := m.KeyPos()
	p.probs.Errorf(pos.Line, pos.Col, p.path.String(), format, args...)
}

// object calls fn for each member of v (which must be an object), with the key on the path;
// repeated keys and keys not in allowed are reported.
func (p *parser) object(v *jsonpos.Value, what string, allowed []string, fn func(key string, m *jsonpos.Value)) bool {
	if v.Kind() != jsonpos.Object {
		p.errAt(v, "expected %s (an object), got %s", what, v.Describe())
		return false
	}
	keys := jsonpos.NewKeyIndex(v)
	for i := range v.Len() {
		m := v.Index(i)
		mark := p.path.Key(m.Key())
		switch j := keys.First(i); {
		case j != i:
			first := v.Index(j).KeyPos()
			p.errAtKey(m, "duplicate key (first at %d:%d)", first.Line, first.Col)
		case !slices.Contains(allowed, m.Key()):
			p.errAtKey(m, "unknown key%s (%s has %s)", diag.DidYouMean(m.Key(), allowed), what, quotedList(allowed))
		default:
			fn(m.Key(), m)
		}
		p.path.Truncate(mark)
	}
	return true
}

// array calls fn for each item of v, which must be an array, with the index on the path.
func (p *parser) array(v *jsonpos.Value, what string, fn func(i int, m *jsonpos.Value)) {
	if v.Kind() != jsonpos.Array {
		p.errAt(v, "expected %s (an array), got %s", what, v.Describe())
		return
	}
	for i := range v.Len() {
		mark := p.path.Index(i)
		fn(i, v.Index(i))
		p.path.Truncate(mark)
	}
}

func (p *parser) str(v *jsonpos.Value, what string) (string, bool) {
	if v.Kind() != jsonpos.String {
		p.errAt(v, "expected %s (a string), got %s", what, v.Describe())
		return "", false
	}
	return v.Str(), true
}

func (p *parser) boolean(v *jsonpos.Value) (bool, bool) {
	if v.Kind() != jsonpos.Bool {
		p.errAt(v, "expected true or false, got %s", v.Describe())
		return false, false
	}
	return v.Bool(), true
}

func (p *parser) number(v *jsonpos.Value) (float64, bool) {
	f, err := v.Float(64)
	if v.Kind() != jsonpos.Number || err != nil {
		p.errAt(v, "expected a number, got %s", v.Describe())
		return 0, false
	}
	return f, true
}

// names reads a "formerNames" array: the names and where each is written.
func (p *parser) names(v *jsonpos.Value, re *regexp.Regexp, what string) ([]string, []Pos) {
	var out []string
	var at []Pos
	p.array(v, "a list of former names", func(_ int, m *jsonpos.Value) {
		if s, ok := p.str(m, "a former name"); ok {
			if !re.MatchString(s) {
				p.errAt(m, "%q is not a valid %s name", s, what)
				return
			}
			out = append(out, s)
			at = append(at, posOf(m))
		}
	})
	return out, at
}

func posOf(v *jsonpos.Value) Pos { q := v.Pos(); return Pos{q.Line, q.Col} }

// file reads the top level and every declaration (types are resolved, not yet built).
func (p *parser) file(v *jsonpos.Value) {
	var format, version *jsonpos.Value
	var enums, structs, comps *jsonpos.Value
	ok := p.object(v, "a project file", topKeys,
		func(key string, m *jsonpos.Value) {
			switch key {
			case "$schema":
				p.str(m, "the schema's address")
			case "format":
				format = m
				if !m.IsStr(Format) {
					p.errAt(m, "expected %q, got %s", Format, m.Describe())
				}
			case "version":
				version = m
				n, err := m.Int()
				switch {
				case m.Kind() != jsonpos.Number || err != nil || n < 1:
					p.errAt(m, "expected a version number, got %s", m.Describe())
				case n > Version:
					p.errAt(m, "project file version %d is newer than this editor supports (%d); update the editor", n, Version)
				}
			case "enums":
				enums = m
			case "structs":
				structs = m
			case "components":
				comps = m
			}
		})
	if !ok {
		return
	}
	if format == nil || version == nil {
		p.errAt(v, `missing "format": %q and "version": %d`, Format, Version)
	}
	if enums != nil {
		mark := p.path.Key("enums")
		p.array(enums, "a list of enums", func(_ int, m *jsonpos.Value) { p.enumDecl(m) })
		p.path.Truncate(mark)
	}
	if structs != nil {
		mark := p.path.Key("structs")
		p.array(structs, "a list of structs", func(_ int, m *jsonpos.Value) { p.structDecl(m) })
		p.path.Truncate(mark)
	}
	if comps != nil {
		mark := p.path.Key("components")
		p.array(comps, "a list of components", func(_ int, m *jsonpos.Value) { p.componentDecl(m) })
		p.path.Truncate(mark)
	}
	if p.probs.HasErrors() {
		return
	}
	p.checkRenames()
	// Fields, now that every type name is known.
	for i, s := range p.proj.Structs {
		mark := p.path.Key("structs")
		im := p.path.Index(i)
		if d := p.structDecls[i]; d != nil {
			fm := p.path.Key("fields")
			s.Fields = p.fields(d, s.Name)
			p.path.Truncate(fm)
		}
		p.path.Truncate(im)
		p.path.Truncate(mark)
	}
	for i, c := range p.proj.Components {
		mark := p.path.Key("components")
		im := p.path.Index(i)
		if d := p.compDecls[i]; d != nil {
			fm := p.path.Key("fields")
			c.Fields = p.fields(d, c.Name)
			p.path.Truncate(fm)
		}
		p.path.Truncate(im)
		p.path.Truncate(mark)
	}
	p.checkNesting()
	p.checkTypeText()
}

// typeFold computes a number over a type, through its lists and arrays (each adds elem to its
// element's) down to structs (ofStruct) and other types (leaf), each struct once (memo).
type typeFold[N int | int64] struct {
	memo       map[*Struct]N
	leaf, elem N
	// start is a struct's number while it is computed (one that contains itself is reported
	// when types are built).
	start    N
	ofStruct func(*Struct) N
}

func (f *typeFold[N]) of(t *Type) N {
	switch t.Kind {
	case Array, List:
		return f.elem + f.of(t.Elem)
	case StructKind:
		if n, ok := f.memo[t.Struct]; ok {
			return n
		}
		f.memo[t.Struct] = f.start
		n := f.ofStruct(t.Struct)
		f.memo[t.Struct] = n
		return n
	}
	return f.leaf
}

// maxTypeText bounds the text of the Go types a project's declarations make, together: Go spells
// a struct type out with every struct inside it, each time it holds it, so structs holding others
// several times over multiply it (4 fields and 15 levels of structs: 4^14 copies of the last).
const maxTypeText = 32 << 20

// checkTypeText reports the declaration whose Go type takes the text of the declared types past
// maxTypeText, before any is built.
func (p *parser) checkTypeText() {
	text := typeFold[int64]{memo: map[*Struct]int64{}, leaf: 16, elem: 16}
	fieldsText := func(fs []*Field) int64 {
		n := int64(16)
		for _, f := range fs {
			n = min(n+int64(len(f.GoName)+len(tagOf(f, true))+8)+text.of(f.Type), maxTypeText+1)
		}
		return n
	}
	text.ofStruct = func(s *Struct) int64 { return fieldsText(s.Fields) }
	var total int64
	over := func(n int64, what string, pos Pos, path string) bool {
		total = min(total+n, maxTypeText+1)
		if total <= maxTypeText {
			return false
		}
		if n > maxTypeText {
			p.probs.Errorf(pos.Line, pos.Col, path, "the Go type of %s is spelt out in more than %s: it holds structs that "+
				"hold others several times over (Go writes each out every time it is held)", what, words.Bytes(maxTypeText))
		} else {
			p.probs.Errorf(pos.Line, pos.Col, path, "the Go types declared up to %s are spelt out in more than %s: they hold "+
				"structs that hold others several times over (Go writes each out every time it is held)", what, words.Bytes(maxTypeText))
		}
		return true
	}
	for i, s := range p.proj.Structs {
		if over(text.of(&Type{Kind: StructKind, Struct: s}), "struct "+s.Name, s.Pos, "structs["+strconv.Itoa(i)+"]") {
			return
		}
	}
	for i, c := range p.proj.Components {
		if over(fieldsText(c.Fields), "component "+c.Name, c.Pos, "components["+strconv.Itoa(i)+"]") {
			return
		}
	}
}

// checkNesting reports component fields whose values nest more than maxNesting levels of structs,
// arrays and lists: typeSpec bounds the levels one field declaration writes, but a named struct
// starts again at 0 (a chain of 100 structs each holding the next makes scenes nobody can read).
func (p *parser) checkNesting() {
	levels := typeFold[int]{memo: map[*Struct]int{}, elem: 1, start: 1}
	levels.ofStruct = func(s *Struct) int {
		n := 1
		for _, f := range s.Fields {
			n = max(n, 1+levels.of(f.Type))
		}
		return n
	}
	for _, c := range p.proj.Components {
		for _, f := range c.Fields {
			if n := levels.of(f.Type); n > maxNesting {
				s := p.typePos[f.Type]
				p.probs.Errorf(s.pos.Line, s.pos.Col, s.path,
					"values of this field nest %d levels deep (structs, arrays and lists inside each other); at most %d", n, maxNesting)
			}
		}
	}
}

// declare records a type or component name (m is its "name" member), reporting clashes.
func (p *parser) declare(m *jsonpos.Value, name string, n *named) bool {
	mark := p.path.Key("name")
	defer p.path.Truncate(mark)
	if !typeNameRE.MatchString(name) {
		p.errAt(m, "%q is not a valid name: start with a capital letter, then letters, digits or _", name)
		return false
	}
	if _, ok := builtinKinds[strings.ToLower(name)]; ok {
		p.errAt(m, "%q is the name of a built-in type; choose another", name)
		return false
	}
	if prev, ok := p.named[name]; ok {
		p.errAt(m, "%q is declared twice (first at %d:%d)", name, prev.pos.Line, prev.pos.Col)
		return false
	}
	n.pos = posOf(m)
	p.named[name] = n
	return true
}

func (p *parser) enumDecl(v *jsonpos.Value) {
	e := &Enum{Pos: posOf(v)}
	var nameV, valuesV *jsonpos.Value
	if !p.object(v, "an enum", enumKeys, func(key string, m *jsonpos.Value) {
		switch key {
		case "name":
			nameV = m
			e.Name, _ = p.str(m, "the enum's name")
		case "description":
			e.Description, _ = p.str(m, "a description")
		case "values":
			valuesV = m
		}
	}) {
		return
	}
	if valuesV != nil {
		e.Values = p.enumValues(valuesV)
	}
	if nameV == nil || valuesV == nil {
		p.errAt(v, `an enum needs a "name" and "values"`)
		return
	}
	if p.declare(nameV, e.Name, &named{enum: e}) {
		p.proj.Enums = append(p.proj.Enums, e)
	}
}

// enumValues reads ["A", "B"] (numbered from 0) or [{"name": "A", "value": 5}, …] (mixed: a
// bare name takes the previous value plus one).
func (p *parser) enumValues(v *jsonpos.Value) []ecs.EnumValue {
	var out []ecs.EnumValue
	mark := p.path.Key("values")
	defer p.path.Truncate(mark)
	next := int64(0)
	seenName := map[string]bool{}
	seenVal := map[int64]string{}
	p.array(v, "a list of enum values", func(_ int, m *jsonpos.Value) {
		ev := ecs.EnumValue{Value: next}
		switch m.Kind() {
		case jsonpos.String:
			ev.Name = m.Str()
		case jsonpos.Object:
			hasName := false
			p.object(m, "an enum value", enumValueKeys, func(key string, x *jsonpos.Value) {
				switch key {
				case "name":
					ev.Name, hasName = p.str(x, "the value's name")
				case "value":
					n, err := x.Int()
					if x.Kind() != jsonpos.Number || err != nil || n < math.MinInt32 || n > math.MaxInt32 {
						p.errAt(x, "expected a whole number within -2147483648..2147483647, got %s", x.Describe())
						return
					}
					ev.Value = n
				}
			})
			if !hasName {
				p.errAt(m, `an enum value needs a "name"`)
				return
			}
		default:
			p.errAt(m, `expected a name or {"name": …, "value": …}, got %s`, m.Describe())
			return
		}
		switch {
		case !fieldNameRE.MatchString(ev.Name):
			p.errAt(m, "%q is not a valid value name: start with a letter, then letters, digits or _", ev.Name)
		case seenName[ev.Name]:
			p.errAt(m, "value %q is named twice", ev.Name)
		case seenVal[ev.Value] != "":
			p.errAt(m, "%s has the same value (%d) as %s", ev.Name, ev.Value, seenVal[ev.Value])
		case ev.Value > math.MaxInt32:
			p.errAt(m, "%s: the value %d is too large for an int32", ev.Name, ev.Value)
		default:
			seenName[ev.Name] = true
			seenVal[ev.Value] = ev.Name
			out = append(out, ev)
		}
		next = ev.Value + 1
	})
	if len(out) == 0 && v.Kind() == jsonpos.Array && v.Len() == 0 {
		p.errAt(v, "an enum needs at least one value")
	}
	if len(out) > MaxEnumValues {
		p.errAt(v, "an enum has at most %d values", MaxEnumValues)
	}
	return out
}

func (p *parser) structDecl(v *jsonpos.Value) {
	s := &Struct{Pos: posOf(v)}
	var nameV, fieldsV *jsonpos.Value
	if !p.object(v, "a struct", structKeys, func(key string, m *jsonpos.Value) {
		switch key {
		case "name":
			nameV = m
			s.Name, _ = p.str(m, "the struct's name")
		case "description":
			s.Description, _ = p.str(m, "a description")
		case "fields":
			fieldsV = m
		}
	}) {
		return
	}
	if nameV == nil || fieldsV == nil {
		p.errAt(v, `a struct needs a "name" and "fields"`)
		return
	}
	if p.declare(nameV, s.Name, &named{st: s}) {
		p.proj.Structs = append(p.proj.Structs, s)
		p.structDecls = append(p.structDecls, fieldsV)
	}
}

func (p *parser) componentDecl(v *jsonpos.Value) {
	c := &Component{Pos: posOf(v)}
	var nameV, fieldsV *jsonpos.Value
	if !p.object(v, "a component", componentKeys,
		func(key string, m *jsonpos.Value) {
			switch key {
			case "name":
				nameV = m
				c.Name, _ = p.str(m, "the component's name")
			case "description":
				c.Description, _ = p.str(m, "a description")
			case "formerNames":
				c.FormerNames, p.formerAt[c] = p.names(m, typeNameRE, "component")
			case "storage":
				switch {
				case m.IsStr("table"):
					c.Storage = ecs.Table
				case m.IsStr("sparseSet"):
					c.Storage = ecs.SparseSet
				default:
					p.errAt(m, `expected "table" or "sparseSet", got %s`, m.Describe())
				}
			case "editorOnly":
				c.EditorOnly, _ = p.boolean(m)
			case "transient":
				c.Transient, _ = p.boolean(m)
			case "fields":
				fieldsV = m
			}
		}) {
		return
	}
	if nameV == nil {
		p.errAt(v, `a component needs a "name"`)
		return
	}
	if c.EditorOnly && c.Transient {
		p.errAt(v, "a component is either editorOnly (saved, not exported) or transient (never saved), not both")
	}
	if !p.declare(nameV, c.Name, &named{comp: c}) {
		return
	}
	for _, f := range c.FormerNames {
		if f == c.Name {
			p.errAt(nameV, "%q names itself as a former name", c.Name)
		}
	}
	p.proj.Components = append(p.proj.Components, c)
	p.compDecls = append(p.compDecls, fieldsV)
}

// fields reads a "fields" array of the struct or component named owner.
func (p *parser) fields(v *jsonpos.Value, owner string) []*Field {
	var out []*Field
	byName := map[string]*Field{}
	byGo := map[string]*Field{}
	p.array(v, "a list of fields", func(_ int, m *jsonpos.Value) {
		f := p.field(m, owner)
		if f == nil {
			return
		}
		for _, n := range append([]string{f.Name}, f.FormerNames...) {
			if prev := byName[n]; prev != nil {
				p.errAt(m, "field name %q is already used by field %q (at %d:%d)", n, prev.Name, prev.Pos.Line, prev.Pos.Col)
				return
			}
		}
		if prev := byGo[f.GoName]; prev != nil {
			p.errAt(m, "fields %q and %q both become the Go field %s; rename one", prev.Name, f.Name, f.GoName)
			return
		}
		for _, n := range append([]string{f.Name}, f.FormerNames...) {
			byName[n] = f
		}
		byGo[f.GoName] = f
		out = append(out, f)
	})
	if len(out) > MaxFields {
		p.errAt(v, "at most %d fields, got %d", MaxFields, len(out))
	}
	return out
}

// The keys each object of a project file may have (docs/schema/voltex.project.schema.json lists the same).
var (
	topKeys       = []string{"$schema", "format", "version", "enums", "structs", "components"}
	enumKeys      = []string{"name", "description", "values"}
	enumValueKeys = []string{"name", "value"}
	structKeys    = []string{"name", "description", "fields"}
	componentKeys = []string{"name", "description", "formerNames", "storage", "editorOnly", "transient", "fields"}
	fieldKeys     = []string{"name", "type", "of", "len", "values", "fields", "default", "formerNames", "description",
		"min", "max", "step", "degrees", "multiline", "readOnly", "hidden"}
	elemKeys = []string{"type", "of", "len", "values", "fields"}
)

// field reads one field declaration.
func (p *parser) field(v *jsonpos.Value, owner string) *Field {
	f := &Field{Pos: posOf(v)}
	var nameV, typeV, defV *jsonpos.Value
	if !p.object(v, "a field", fieldKeys, func(key string, m *jsonpos.Value) {
		switch key {
		case "name":
			nameV = m
			f.Name, _ = p.str(m, "the field's name")
		case "type":
			typeV = m
		case "default":
			defV = m
		case "formerNames":
			f.FormerNames, _ = p.names(m, fieldNameRE, "field")
		case "description":
			f.Description, _ = p.str(m, "a description")
			f.Hints.Tooltip = f.Description
		case "min":
			f.Hints.Min, f.Hints.HasMin = p.number(m)
		case "max":
			f.Hints.Max, f.Hints.HasMax = p.number(m)
		case "step":
			f.Hints.Step, f.Hints.HasStep = p.number(m)
			if f.Hints.HasStep && !(f.Hints.Step > 0) {
				p.errAt(m, "the step must be more than 0")
			}
		case "degrees":
			f.Hints.Degrees, _ = p.boolean(m)
		case "multiline":
			f.Hints.Multiline, _ = p.boolean(m)
		case "readOnly":
			f.Hints.ReadOnly, _ = p.boolean(m)
		case "hidden":
			f.Hints.Hidden, _ = p.boolean(m)
		}
	}) {
		return nil
	}
	if nameV == nil || typeV == nil {
		p.errAt(v, `a field needs a "name" and a "type"`)
		return nil
	}
	if !fieldNameRE.MatchString(f.Name) {
		p.errAt(nameV, "%q is not a valid field name: start with a letter, then letters, digits or _", f.Name)
		return nil
	}
	f.GoName = goName(f.Name)
	if f.GoName == "Default" {
		f.GoName = "Default_" // the Go types gen writes have a Default method
	}
	f.Type = p.typeSpec(v, typeV, owner+f.GoName, 0)
	if f.Type == nil {
		return nil
	}
	p.checkHints(v, f) // a colour's range is 0..1 unless it says otherwise
	if h := f.Hints; h.HasMin && h.HasMax && h.Min > h.Max {
		p.errAt(v, "min %g is more than max %g", h.Min, h.Max)
	} else {
		p.checkRange(v, f)
	}
	if defV != nil {
		f.DefaultJSON = string(jsonpos.AppendInline(nil, defV))
		dm := p.path.Key("default")
		p.defaults()[f] = fieldDefault{defV.Clone(), p.path.String()}
		p.path.Truncate(dm)
	}
	return f
}

// typeSpec reads a type: the field object v (its "type", "of", "len", "values", "fields"), or the
// value of an "of" key (a type name, or an object with those keys). inlineName names inline
// enums and structs.
func (p *parser) typeSpec(v, typeV *jsonpos.Value, inlineName string, depth int) *Type {
	if depth > maxNesting {
		p.errAt(typeV, "types nest at most %d deep", maxNesting)
		return nil
	}
	tmark := -1
	if v != nil { // typeV is v's "type" member
		tmark = p.path.Key("type")
	}
	untype := func() {
		if tmark >= 0 {
			p.path.Truncate(tmark)
			tmark = -1
		}
	}
	defer untype()
	name, ok := p.str(typeV, "a type name")
	if !ok {
		return nil
	}
	t := &Type{}
	p.sites()[t] = site{typeV.Pos(), p.path.String()}
	kind, builtin := builtinKinds[name]
	t.Kind = kind
	if !builtin && !p.namedType(t, typeV, name) {
		return nil
	}
	untype()
	// The keys that only some kinds take.
	get := func(key string) *jsonpos.Value {
		if v == nil || v.Kind() != jsonpos.Object {
			return nil
		}
		return v.Get(key)
	}
	need := map[string]bool{}
	switch {
	case builtin && kind == EnumKind:
		need["values"] = true
		vals := get("values")
		if vals == nil {
			p.errAt(typeV, `an inline enum needs "values"`)
			return nil
		}
		t.Enum = &Enum{Name: inlineName, Values: p.enumValues(vals), Inline: true, Pos: posOf(vals)}
		if !p.declareInline(typeV, inlineName, &named{enum: t.Enum}) {
			return nil
		}
		p.proj.Enums = append(p.proj.Enums, t.Enum)
	case builtin && kind == StructKind:
		need["fields"] = true
		fv := get("fields")
		if fv == nil {
			p.errAt(typeV, `an inline struct needs "fields"`)
			return nil
		}
		t.Struct = &Struct{Name: inlineName, Inline: true, Pos: posOf(fv)}
		if !p.declareInline(typeV, inlineName, &named{st: t.Struct}) {
			return nil
		}
		mark := p.path.Key("fields")
		t.Struct.Fields = p.fields(fv, inlineName)
		p.path.Truncate(mark)
		p.proj.Structs = append(p.proj.Structs, t.Struct)
	case kind == Array || kind == List:
		need["of"] = true
		of := get("of")
		if of == nil {
			p.errAt(typeV, `%s needs "of" (the element type)`, article(kind))
			return nil
		}
		mark := p.path.Key("of")
		elemName := inlineName + "Item"
		if of.Kind() == jsonpos.Object {
			var tv *jsonpos.Value
			p.object(of, "an element type", elemKeys, func(key string, m *jsonpos.Value) {
				if key == "type" {
					tv = m
				}
			})
			if tv == nil {
				p.errAt(of, `an element type needs a "type"`)
				p.path.Truncate(mark)
				return nil
			}
			t.Elem = p.typeSpec(of, tv, elemName, depth+1)
		} else {
			t.Elem = p.typeSpec(nil, of, elemName, depth+1)
		}
		p.path.Truncate(mark)
		if t.Elem == nil {
			return nil
		}
		if kind == Array {
			need["len"] = true
			if !p.arrayLen(t, typeV, get("len")) {
				return nil
			}
		}
	}
	for _, key := range []string{"values", "fields", "of", "len"} {
		if m := get(key); m != nil && !need[key] && v != nil && v != typeV {
			km := p.path.Key(key)
			p.errAt(m, "%q does not apply to type %q", key, name)
			p.path.Truncate(km)
		}
	}
	return t
}

// namedType makes t the enum or struct declared as name; when name is unknown or a component it
// reports the problem at typeV and returns false.
func (p *parser) namedType(t *Type, typeV *jsonpos.Value, name string) bool {
	n := p.named[name]
	switch {
	case n == nil:
		cands := slices.Sorted(func(yield func(string) bool) {
			for k := range builtinKinds {
				if !yield(k) {
					return
				}
			}
			for k, nd := range p.named {
				if nd.comp == nil && !yield(k) {
					return
				}
			}
		})
		p.errAt(typeV, "unknown type %q%s", name, diag.DidYouMean(name, cands))
		return false
	case n.comp != nil:
		p.errAt(typeV, "%q is a component, not a type; declare the shared fields as a struct", name)
		return false
	case n.enum != nil:
		t.Kind, t.Enum = EnumKind, n.enum
	default:
		t.Kind, t.Struct = StructKind, n.st
	}
	return true
}

// arrayLen sets t.Len from an array's "len" member lv (nil when there is none); when it is missing
// or not a length within 1..MaxArrayLen it reports the problem and returns false.
func (p *parser) arrayLen(t *Type, typeV, lv *jsonpos.Value) bool {
	n, err := int64(0), error(nil)
	if lv != nil {
		n, err = lv.Int()
	}
	switch {
	case lv == nil:
		p.errAt(typeV, `an array needs "len" (its length)`)
		return false
	case lv.Kind() != jsonpos.Number || err != nil || n < 1 || n > MaxArrayLen:
		lm := p.path.Key("len")
		p.errAt(lv, "expected a length within 1..%d, got %s", MaxArrayLen, lv.Describe())
		p.path.Truncate(lm)
		return false
	}
	t.Len = int(n)
	return true
}

func article(k Kind) string {
	if k == Array {
		return "an array"
	}
	return "a list"
}

// declareInline records the generated name of an inline enum or struct.
func (p *parser) declareInline(at *jsonpos.Value, name string, n *named) bool {
	if prev, ok := p.named[name]; ok {
		p.errAt(at, "this inline type would be called %s in Go, which is already declared (at %d:%d); declare it by name instead",
			name, prev.pos.Line, prev.pos.Col)
		return false
	}
	n.pos = posOf(at)
	p.named[name] = n
	return true
}

// leaf returns the innermost element type of arrays and lists.
func leaf(t *Type) *Type {
	for t.Kind == Array || t.Kind == List {
		t = t.Elem
	}
	return t
}

// checkHints reports hints that do not apply to the field's type.
func (p *parser) checkHints(v *jsonpos.Value, f *Field) {
	l := leaf(f.Type).Kind
	numeric := l == Int || l == Float || l == Vec2 || l == Vec3 || l == Vec4 || l == Color
	h := f.Hints
	bad := func(key, what string) {
		if m := v.Get(key); m != nil {
			km := p.path.Key(key)
			p.errAt(m, "%q applies to %s, not to %s", key, what, describeType(f.Type))
			p.path.Truncate(km)
		}
	}
	if (h.HasMin || h.HasMax || h.HasStep) && !numeric {
		bad("min", "numbers")
		bad("max", "numbers")
		bad("step", "numbers")
	}
	if h.Degrees && l != Float && l != Vec3 {
		bad("degrees", "floats and vec3")
	}
	if h.Multiline && l != String {
		bad("multiline", "strings")
	}
	switch l {
	case Color:
		f.Hints.Color = true
		if !h.HasMin {
			f.Hints.Min, f.Hints.HasMin = 0, true
		}
		if !h.HasMax {
			f.Hints.Max, f.Hints.HasMax = 1, true
		}
		if !h.HasStep {
			f.Hints.Step, f.Hints.HasStep = 0.01, true
		}
	case Asset:
		f.Hints.Asset = true
	}
}

// checkRange reports a range that the numbers of the field's type cannot keep to: a bound (or a
// step) beyond what the type holds (a float's range cannot start at 1e300: its values, and the
// default moved into the range, would be infinite), or a range without a value of the type in it (no whole
// number lies within 0.2..0.8, no float32 within 0.70000001..0.70000002 or above 3.4028235e38).
func (p *parser) checkRange(v *jsonpos.Value, f *Field) {
	h := f.Hints
	isInt := false
	switch leaf(f.Type).Kind {
	case Int:
		isInt = true
	case Float, Vec2, Vec3, Vec4, Color:
	default:
		return
	}
	ok := true
	for _, b := range []struct {
		key string
		has bool
		x   float64
	}{{"min", h.HasMin, h.Min}, {"max", h.HasMax, h.Max}, {"step", h.HasStep, h.Step}} {
		m := v.Get(b.key)
		if !b.has || m == nil {
			continue
		}
		km := p.path.Key(b.key)
		switch {
		case isInt && (b.x < math.MinInt32 || b.x > math.MaxInt32):
			p.errAt(m, "%s is beyond what an int holds (%d..%d)", m.Text(), math.MinInt32, math.MaxInt32)
			ok = false
		case !isInt && math.IsInf(float64(float32(b.x)), 0): // as scenes read numbers: rounded to a float32
			p.errAt(m, "%s is beyond what a float holds (±%g)", m.Text(), float32(math.MaxFloat32))
			ok = false
		}
		p.path.Truncate(km)
	}
	if !ok {
		return
	}
	var empty bool
	holds := "float value"
	if isInt {
		empty, holds = h.HasMin && h.HasMax && math.Ceil(h.Min) > math.Floor(h.Max), "whole number"
	} else {
		empty = floatRangeEmpty(h)
	}
	if empty {
		written := func(key string, has bool, x float64, none string) string {
			if m := v.Get(key); m != nil {
				return string(m.Text())
			}
			return bound(has, x, none)
		}
		p.errAt(v, "the range %s..%s holds no %s", written("min", h.HasMin, h.Min, "-∞"), written("max", h.HasMax, h.Max, "∞"), holds)
	}
}

// float32In returns the float32 nearest x (which lies within the range of h) that lies within
// it too: float32(0.7) is below 0.7, so a range starting at 0.7 starts at the float32 after it.
func float32In(x float64, h ecs.Hints) float32 {
	f := float32(x)
	if h.HasMin && float64(f) < h.Min {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	if h.HasMax && float64(f) > h.Max {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return f
}

// floatRangeEmpty reports whether no finite float32 lies within the range of h.
func floatRangeEmpty(h ecs.Hints) bool {
	lo, hi := float32(-math.MaxFloat32), float32(math.MaxFloat32)
	if h.HasMin {
		if lo = float32(h.Min); float64(lo) < h.Min {
			lo = math.Nextafter32(lo, float32(math.Inf(1)))
		}
	}
	if h.HasMax {
		if hi = float32(h.Max); float64(hi) > h.Max {
			hi = math.Nextafter32(hi, float32(math.Inf(-1)))
		}
	}
	return lo > hi || math.IsInf(float64(lo), 0) || math.IsInf(float64(hi), 0)
}

// describeType names a type in messages ("list of vec3").
func describeType(t *Type) string {
	switch t.Kind {
	case Array:
		return fmt.Sprintf("array of %d %s", t.Len, describeType(t.Elem))
	case List:
		return "list of " + describeType(t.Elem)
	case EnumKind:
		return "enum " + t.Enum.Name
	case StructKind:
		return "struct " + t.Struct.Name
	}
	return t.Kind.String()
}

func (p *parser) sites() map[*Type]site {
	if p.typePos == nil {
		p.typePos = map[*Type]site{}
	}
	return p.typePos
}

// defaults returns the map of the fields' "default" values (parsed, cloned out of the tree).
func (p *parser) defaults() map[*Field]fieldDefault {
	if p.defs == nil {
		p.defs = map[*Field]fieldDefault{}
	}
	return p.defs
}

// goName returns the exported Go name of a JSON field name: max_speed and maxSpeed become
// MaxSpeed; id, url and fov become ID, URL and FOV.
func goName(name string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(name, "_") {
		if part == "" {
			continue
		}
		switch strings.ToLower(part) {
		case "id", "url", "fov", "ui", "hp":
			if part == strings.ToLower(part) {
				b.WriteString(strings.ToUpper(part))
				continue
			}
		}
		b.WriteString(strings.ToUpper(part[:1]))
		b.WriteString(part[1:])
	}
	return b.String()
}

// quotedList lists names as `"a", "b" and "c"`.
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// checkRenames reports former names that do not say which component a scene's name is: one
// claimed by two components, or one that is the name of another component (a scene's B is then
// either B or what B became), the worst case being renames that form a cycle (A was B, B was A).
func (p *parser) checkRenames() {
	type claim struct {
		c   *Component
		pos Pos
	}
	byName := map[string]*Component{}
	for _, c := range p.proj.Components {
		byName[c.Name] = c
	}
	at := func(ci, fi int) string { return fmt.Sprintf("components[%d].formerNames[%d]", ci, fi) }
	claimed := map[string]claim{}
	inCycle := map[[2]*Component]bool{} // renames a reported cycle holds
	for ci, c := range p.proj.Components {
		for fi, f := range c.FormerNames {
			pos := p.formerAt[c][fi]
			if prev, ok := claimed[f]; ok {
				if prev.c == c {
					p.probs.Errorf(pos.Line, pos.Col, at(ci, fi), "former name %q is listed twice", f)
				} else {
					p.probs.Errorf(pos.Line, pos.Col, at(ci, fi), "former name %q of %s is also a former name of %s (at %d:%d); a scene's %s would become either",
						f, c.Name, prev.c.Name, prev.pos.Line, prev.pos.Col, f)
				}
				continue
			}
			claimed[f] = claim{c, pos}
			d := byName[f]
			if d == nil || d == c || inCycle[[2]*Component{c, d}] {
				continue
			}
			if cycle := renamePath(d, c, byName); cycle != nil {
				cycle = append([]*Component{c}, cycle...)
				steps := make([]string, len(cycle)-1)
				for i := range steps {
					steps[i] = cycle[i].Name + " was " + cycle[i+1].Name
					inCycle[[2]*Component{cycle[i], cycle[i+1]}] = true
				}
				p.probs.Errorf(pos.Line, pos.Col, at(ci, fi), "renames form a cycle: %s; a scene's names cannot say which component they are", strings.Join(steps, ", "))
				continue
			}
			dp := p.named[d.Name].pos
			p.probs.Errorf(pos.Line, pos.Col, at(ci, fi), "former name %q of %s is the name of component %s (at %d:%d); a scene's %s would be that one",
				f, c.Name, d.Name, dp.Line, dp.Col, f)
		}
	}
}

// renamePath returns the components from "from" to "to" (both included) following "was" (a
// component to the one its former name names), or nil when there is no such path.
func renamePath(from, to *Component, byName map[string]*Component) []*Component {
	prev := map[*Component]*Component{from: nil}
	queue := []*Component{from}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == to {
			var path []*Component
			for ; c != nil; c = prev[c] {
				path = append(path, c)
			}
			slices.Reverse(path)
			return path
		}
		for _, f := range c.FormerNames {
			if d := byName[f]; d != nil {
				if _, seen := prev[d]; !seen {
					prev[d] = c
					queue = append(queue, d)
				}
			}
		}
	}
	return nil
}
