package serialize

import (
	"slices"
	"strings"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/assetref"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// A raw read (ReadRaw: diff and merge) takes an entity of the plainest form — an id, a name, a parent and an
// order, and components written as WriteRaw writes them, on one line in their inline form, as every file the
// editor saves has them — straight from the input: a component's JSON is then the file's own bytes. Anything
// else in an entity is read into a tree, as before, which reports what is wrong with it.

// rawComp is a component read straight: its name and its JSON, still in the input.
type rawComp struct {
	name string
	json []byte
}

// fast reads the entity at d's position straight into the scene, if it is of the plainest form; if not, it
// reports false, and neither d nor rr have changed.
func (rr *rawReader) fast(d *jsonpos.Decoder) bool {
	c, ok := d.Cursor(fastWindow)
	if !ok {
		return false
	}
	comps := rr.fastComps[:0]
	defer func() { rr.fastComps = comps[:0] }()
	hasComps := false
	pe, ok := readPlain(&c, func(c *jsonpos.Cursor) bool {
		hasComps = true
		var read bool
		comps, read = rr.fastComponents(c, comps)
		return read
	})
	if !ok || !c.Within() {
		return false
	}
	e := RawEntity{ID: pe.id, Parent: pe.parent, Order: pe.order}
	pos := rawPos{pe.idLine, pe.idCol, pe.parLine, pe.parCol}
	if pe.named {
		e.Name, e.HasName = rr.str(pe.name), true
	}
	if hasComps {
		if cap(rr.comps)-len(rr.comps) < len(comps) {
			rr.comps = make([]scene.RawComponent, 0, max(min(rawCompChunk, 64+2*cap(rr.comps)), len(comps)))
		}
		start := len(rr.comps)
		for _, rc := range comps {
			rr.comps = append(rr.comps, scene.RawComponent{Name: rc.name, JSON: rr.str(rc.json)})
		}
		e.Components = rr.comps[start:len(rr.comps):len(rr.comps)]
		if !slices.IsSortedFunc(e.Components, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) }) {
			slices.SortFunc(e.Components, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
		}
	}
	d.Commit(&c)
	rr.s.Entities = append(rr.s.Entities, e)
	rr.pos = append(rr.pos, pos)
	rr.fastN++
	return true
}

// fastComponents reads an entity's "components" straight, appending them to comps; false if one is not an
// object in its inline form, is there twice, may not be stored, or holds an asset path a read reports.
func (rr *rawReader) fastComponents(c *jsonpos.Cursor, comps []rawComp) ([]rawComp, bool) {
	if !c.Open('{') {
		return comps, false
	}
	for first := true; ; first = false {
		key, more, ok := c.Member(first)
		if !ok || !more {
			return comps, ok
		}
		name, known := rr.names[string(key)]
		if !known {
			name = string(key)
			rr.names[name] = name
		}
		if bd := rr.b.byNm[name]; bd != nil && bd.refuse != "" ||
			slices.ContainsFunc(comps, func(rc rawComp) bool { return rc.name == name }) || c.Peek() != '{' {
			return comps, false
		}
		js, ok := c.Inline()
		if !ok {
			return comps, false
		}
		if cd := rr.assets[name]; cd != nil {
			vc := jsonpos.NewCursor(js, jsonpos.Limits{})
			if !assetsPlain(cd, &vc) {
				return comps, false
			}
		}
		comps = append(comps, rawComp{name: name, json: js})
	}
}

// assetsPlain reads the value at c (in its inline form) as checkAssets does, and reports whether every asset
// path in it keeps the asset path rule (one that breaks it is left to the tree's read, which reports it).
func assetsPlain(cd *codec, c *jsonpos.Cursor) bool {
	switch next := c.Peek(); {
	case cd.kind == kString && next == '"':
		s, ok := c.String()
		if ok && cd.asset && (cd.noEmpty || len(s) > 0) {
			_, err := assetref.Check(string(s))
			return err == nil
		}
		return ok
	case (cd.kind == kArray || cd.kind == kSlice) && next == '[':
		c.Open('[')
		for first := true; ; first = false {
			more, ok := c.Next(']', first)
			if !ok || !more {
				return ok
			}
			if !assetsPlain(cd.elem, c) {
				return false
			}
		}
	case cd.kind == kStruct && next == '{':
		c.Open('{')
		for first := true; ; first = false {
			key, more, ok := c.Member(first)
			if !ok || !more {
				return ok
			}
			if f := cd.field(key); f != nil && f.hasAssets() {
				if !assetsPlain(f, c) {
					return false
				}
			} else if _, ok := c.Inline(); !ok {
				return false
			}
		}
	}
	_, ok := c.Inline() // no asset in it
	return ok
}
