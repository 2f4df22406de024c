package serialize

import (
	"slices"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/assetref"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// An entity of the plainest form — an id, a name, a parent and an order, and components whose fields are
// numbers, booleans, plain strings and fixed arrays of them, every key known and once — is read straight from the
// input into its components (fastEntity), without the parse tree a load otherwise builds of each entity: the
// tree's part of a load of a million cubes is about half its time. Anything else in an entity (a problem, a
// prefab instance, an unknown key or component, an escaped string, a list, an entity reference, a value near a
// limit…) leaves it to the tree, read again from its start, so that every problem is reported as before.

// fastWindow is how much buffered input an entity read straight looks at: many times an entity of a grid.
const fastWindow = 16 << 10

// fastEntities lets loads read plain entities straight from the input (a test turns it off to compare).
var fastEntities = true

// fastReads reports whether b may read the entities of r straight from the input: a load that spawns them (not
// a check), of the current version (no migrations), with no component under two names, strict.
func (b *binder) fastReads(r *sceneReader) bool {
	return fastEntities && r.version >= CurrentVersion && b.check == nil && !b.hasFormer && !b.ds.lossy &&
		!b.ds.indexRefs
}

// fastEntity reads the entity at d's position straight into the world, if it is of the plainest form; if not, it
// reports false, and neither d nor b have changed (but for scratch values).
func (b *binder) fastEntity(d *jsonpos.Decoder) bool {
	if b.ds.probs.HasErrors() {
		return false // the tree's read spawns nothing after a problem
	}
	c, ok := d.Cursor(fastWindow)
	if !ok {
		return false
	}
	vals := b.vals[:0]
	defer func() {
		clear(vals)
		b.vals = vals[:0]
	}()
	hasMesh, hasTransform := false, false
	use := int64(entityOverhead)
	pe, ok := readPlain(&c, func(c *jsonpos.Cursor) bool { return b.fastComponents(c, &vals, &use, &hasMesh, &hasTransform) })
	if !ok {
		return false
	}
	rec := entRec{id: pe.id, parent: pe.parent, order: pe.order, idLine: pe.idLine, idCol: pe.idCol,
		parLine: pe.parLine, parCo: pe.parCol}
	use += int64(len(pe.name))
	ds := &b.ds
	if hasMesh && !hasTransform || !c.Within() || ds.maxData > 0 && ds.data+use > ds.maxData {
		return false // each a problem or a warning: the tree's read reports it
	}
	d.Commit(&c)
	ds.data += use
	if pe.named {
		b.name.Value = string(pe.name)
		vals = append(vals, &b.name)
	}
	b.sid = scene.SceneID{ID: uint64(rec.id), Order: rec.order}
	vals = append(vals, &b.sid)
	b.spawnRec(&rec, vals)
	b.recs.push(rec)
	b.fastN++
	return true
}

// fastComponents reads an entity's "components" straight into vals (see fastEntity), adding the memory they take
// to use; false if they are not all of the plainest form.
func (b *binder) fastComponents(c *jsonpos.Cursor, vals *[]any, use *int64, hasMesh, hasTransform *bool) bool {
	if !c.Open('{') {
		return false
	}
	used := b.used[:0]
	defer func() { b.used = used[:0] }()
	for first := true; ; first = false {
		key, more, ok := c.Member(first)
		if !ok || !more {
			return ok
		}
		bd := b.byNm[string(key)]
		if bd == nil || bd.refuse != "" || slices.Contains(used, bd) {
			return false
		}
		used = append(used, bd)
		switch bd.id {
		case b.meshID:
			*hasMesh = true
		case b.transformID:
			*hasTransform = true
		}
		bd.reset()
		if !bd.codec.fast(&b.ds, c, bd.ptr, use) {
			return false
		}
		*use += int64(bd.scratch.Elem().Type().Size()) + componentOverhead + bd.held
		*vals = append(*vals, bd.scratch.Interface())
	}
}

// plainEntity is what an entity read straight says besides its components.
type plainEntity struct {
	id, parent                     int64
	idLine, idCol, parLine, parCol int32
	order                          float64
	name                           []byte // the input's
	named                          bool
}

// readPlain reads an entity of the plainest form at c: its id, name, parent and order, each once, and its
// components with comps (if it has any); false for anything else, a missing id included.
func readPlain(c *jsonpos.Cursor, comps func(*jsonpos.Cursor) bool) (pe plainEntity, ok bool) {
	if !c.Open('{') {
		return pe, false
	}
	var seen uint8
	for first := true; ; first = false {
		key, more, ok := c.Member(first)
		if !ok || !more {
			return pe, ok && seen&1 != 0
		}
		var bit uint8
		switch string(key) {
		case "id":
			bit = 1
			pe.id, pe.idLine, pe.idCol, ok = fastID(c)
		case "name":
			bit = 2
			pe.name, ok = c.String()
			pe.named = true
		case "parent":
			bit = 4
			pe.parent, pe.parLine, pe.parCol, ok = fastID(c)
		case "order":
			bit = 8
			pe.order, ok = fastOrder(c)
		case "components":
			bit = 16
			ok = comps(c)
		default:
			ok = false
		}
		if !ok || seen&bit != 0 {
			return pe, false
		}
		seen |= bit
	}
}

// fastID reads an entity id (a positive integer of plain digits) and where it is.
func fastID(c *jsonpos.Cursor) (id int64, line, col int32, ok bool) {
	lit, at, ok := c.Number()
	id, ok = plainInt(lit, ok)
	return id, int32(at.Line), int32(at.Col), ok && id > 0
}

// fastOrder reads an entity's order (any number a float64 holds).
func fastOrder(c *jsonpos.Cursor) (float64, bool) {
	lit, _, ok := c.Number()
	if !ok {
		return 0, false
	}
	f, err := jsonpos.ParseFloat(lit, 64)
	return f, err == nil
}

// plainInt is the integer a number's literal of at most 18 digits, with a sign or none, says (ok: a number was
// read); false for any other literal (a fraction, an exponent), which the tree's read converts.
func plainInt(lit []byte, ok bool) (int64, bool) {
	if !ok || len(lit) == 0 {
		return 0, false
	}
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	if len(lit) == 0 || len(lit) > 18 {
		return 0, false
	}
	var n int64
	for _, ch := range lit {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = n*10 + int64(ch-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// fast reads the value at the cursor into p (which holds the defaults) as decode does, if it is of the plainest
// form (see jsonpos.Cursor), adding what it holds to use as decode counts it; false otherwise, with nothing
// reported (the entity is read again with decode).
func (c *codec) fast(d *decodeState, cur *jsonpos.Cursor, p unsafe.Pointer, use *int64) bool {
	switch c.kind {
	case kStruct:
		return c.fastStruct(d, cur, p, use)
	case kArray:
		return c.fastArray(d, cur, p, use)
	case kFloat:
		lit, _, ok := cur.Number()
		if !ok {
			return false
		}
		f, err := jsonpos.ParseFloat(lit, c.bits)
		return c.setFloat(f, err, p)
	case kInt, kUint:
		lit, _, ok := cur.Number()
		n, ok := plainInt(lit, ok)
		if !ok || !c.fits(n) {
			return false
		}
		if c.kind == kInt {
			setInt(p, c.bits, n)
		} else {
			setUint(p, c.bits, uint64(n))
		}
		return true
	case kBool:
		v, ok := cur.Bool()
		if ok {
			*(*bool)(p) = v
		}
		return ok
	case kString:
		s, ok := cur.String()
		if !ok {
			return false
		}
		str := d.internString(s)
		if c.asset && (c.noEmpty || len(s) > 0) {
			if _, err := assetref.Check(str); err != nil || d.checkAsset != nil && !d.assets[str] {
				return false // a problem, or an asset not yet asked about (a warning if it is missing)
			}
		}
		if len(s) > internMax {
			*use += int64(len(s))
		}
		*(*string)(p) = str
		return true
	}
	return false // lists and entity references
}

// fits reports whether n is a value the integer codec c takes without a word: within its type, its range and
// its enum.
func (c *codec) fits(n int64) bool {
	f := float64(n)
	if bottom, top := c.intLimits(); n < bottom || n >= 0 && uint64(n) > top {
		return false
	}
	if c.hasMin && f < c.min || c.hasMax && f > c.max {
		return false
	}
	return c.enum == nil || slices.ContainsFunc(c.enum, func(ev ecs.EnumValue) bool { return ev.Value == n })
}

// fieldIndex is the index of the struct codec's field named name, -1 if none.
func (c *codec) fieldIndex(name []byte) int {
	for i := range c.fields {
		if c.fields[i].name == string(name) {
			return i
		}
	}
	return -1
}

// fastStruct is fast of a struct: its fields, each known and once.
func (c *codec) fastStruct(d *decodeState, cur *jsonpos.Cursor, p unsafe.Pointer, use *int64) bool {
	if c.hasFormer || len(c.fields) > 64 || !cur.Open('{') {
		return false
	}
	var seen uint64
	for first := true; ; first = false {
		key, more, ok := cur.Member(first)
		if !ok || !more {
			return ok
		}
		k := c.fieldIndex(key)
		if k < 0 || seen&(1<<k) != 0 {
			return false
		}
		seen |= 1 << k
		f := &c.fields[k]
		if !f.fast(d, cur, unsafe.Add(p, f.offset), use) {
			return false
		}
	}
}

// fastArray is fast of a fixed array: its length of items.
func (c *codec) fastArray(d *decodeState, cur *jsonpos.Cursor, p unsafe.Pointer, use *int64) bool {
	if c.elem.def.IsValid() || !cur.Open('[') {
		return false // items with defaults of their own are the tree's
	}
	for i := 0; ; i++ {
		more, ok := cur.Next(']', i == 0)
		if !ok || !more {
			return ok && i == c.length
		}
		if i >= c.length || !c.elem.fast(d, cur, unsafe.Add(p, uintptr(i)*c.elem.size), use) {
			return false
		}
	}
}
