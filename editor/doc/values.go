package doc

import (
	"reflect"
	"sync"

	"github.com/voltex-editor/voltex/ecs"
)

var entityType = reflect.TypeFor[ecs.Entity]()

// compVal is one component value held by the history: a private deep copy whose entity references
// are replaced by the scene ids they named (refs, in walk order), so that it survives the
// referenced entities being despawned and respawned under new handles.
type compVal struct {
	id   ecs.ComponentID
	v    any      // a T, never shared with the world; its ecs.Entity fields are zero
	refs []uint64 // scene ids of its entity references in walk order (0 = none); nil if T has none
}

// compType caches what the document needs to know about a registered component type.
type compType struct {
	info     *ecs.ComponentInfo
	pointers bool // info.SharesMemory: copies must be deep
	refs     bool // values hold ecs.Entity fields
}

// typeRefs memoizes hasRefs per type (shared by all documents; types are immutable).
var typeRefs sync.Map // reflect.Type -> bool

// hasRefs reports whether values of t contain ecs.Entity values (in exported struct fields, arrays
// or slices: what schemas and scene files see).
func hasRefs(t reflect.Type) bool {
	if v, ok := typeRefs.Load(t); ok {
		return v.(bool)
	}
	var r bool
	switch {
	case t == entityType:
		r = true
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && hasRefs(f.Type) {
				r = true
				break
			}
		}
	case t.Kind() == reflect.Array, t.Kind() == reflect.Slice:
		r = hasRefs(t.Elem())
	}
	typeRefs.Store(t, r)
	return r
}

// walkRefs calls fn for every entity reference inside the addressable value v, in a fixed order.
func walkRefs(v reflect.Value, fn func(*ecs.Entity)) {
	t := v.Type()
	switch {
	case t == entityType:
		fn(v.Addr().Interface().(*ecs.Entity))
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && hasRefs(f.Type) {
				walkRefs(v.Field(i), fn)
			}
		}
	case t.Kind() == reflect.Array, t.Kind() == reflect.Slice:
		if hasRefs(t.Elem()) {
			for i := range v.Len() {
				walkRefs(v.Index(i), fn)
			}
		}
	}
}

// compType returns the cached description of component cid of the document's world.
func (d *core) compType(cid ecs.ComponentID) *compType {
	if int(cid) < len(d.types) && d.types[cid].info != nil {
		return &d.types[cid]
	}
	if int(cid) >= len(d.types) {
		d.types = append(d.types, make([]compType, int(cid)+1-len(d.types))...)
	}
	info := d.world.ComponentInfo(cid)
	d.types[cid] = compType{info: info, pointers: info.SharesMemory, refs: hasRefs(info.Type)}
	return &d.types[cid]
}

// own turns a value read from (or destined for) the world into a compVal: a deep copy whose entity
// references are recorded as scene ids and zeroed.
func (d *core) own(cid ecs.ComponentID, v any) compVal { return d.ownIn(cid, v, d.idOf) }

// ownIn is own for a value of another world whose entities have the scene ids idOf returns.
func (d *core) ownIn(cid ecs.ComponentID, v any, idOf func(ecs.Entity) uint64) compVal {
	ct := d.compType(cid)
	c := compVal{id: cid, v: v}
	if ct.pointers {
		c.v = ecs.DeepCopy(reflect.ValueOf(v)).Interface()
	}
	if ct.refs {
		rv := reflect.New(ct.info.Type).Elem()
		rv.Set(reflect.ValueOf(c.v))
		c.refs = []uint64{}
		walkRefs(rv, func(p *ecs.Entity) {
			c.refs = append(c.refs, idOf(*p))
			*p = ecs.Entity{}
		})
		c.v = rv.Interface()
	}
	return c
}

// snapIn snapshots entity e of another world tw (a pasted or instantiated scene) whose entities
// have the scene ids idOf returns; missing names the first component tw has and d's world lacks
// (the snapshot is then incomplete). Computed components are left out.
func (d *core) snapIn(tw *ecs.World, e ecs.Entity, idOf func(ecs.Entity) uint64) (s entSnap, missing string) {
	s = entSnap{id: idOf(e), parent: idOf(tw.Parent(e))}
	for _, tc := range tw.ComponentsOf(e) {
		info := tw.ComponentInfo(tc)
		if info.Computed {
			continue
		}
		cid, ok := d.world.ComponentByName(info.Name)
		if !ok {
			return s, info.Name
		}
		v, _ := tw.Get(e, tc)
		s.comps = append(s.comps, d.ownIn(cid, v, idOf))
	}
	return s, ""
}

// capture returns entity e's component cid as a compVal (ok false if e lacks it).
func (d *core) capture(e ecs.Entity, cid ecs.ComponentID) (compVal, bool) {
	v, ok := d.world.Get(e, cid)
	if !ok {
		return compVal{}, false
	}
	return d.own(cid, v), true
}

// value returns a fresh value for the world from c (a T, or a *T when references were resolved):
// a deep copy with its references resolved to the entities that now carry those scene ids (the
// zero Entity for ids that name no entity). With resolve false the references stay zero.
func (d *core) value(c compVal, resolve bool) any {
	ct := d.compType(c.id)
	v := c.v
	if ct.pointers {
		v = ecs.DeepCopy(reflect.ValueOf(v)).Interface()
	}
	if !resolve || len(c.refs) == 0 {
		return v
	}
	rv := reflect.New(ct.info.Type)
	rv.Elem().Set(reflect.ValueOf(v))
	i := 0
	walkRefs(rv.Elem(), func(p *ecs.Entity) {
		if i < len(c.refs) {
			*p, _ = d.entity(c.refs[i])
		}
		i++
	})
	return rv.Interface()
}

// remapRefs returns c with each reference id replaced by remap(id).
func remapRefs(c compVal, remap func(uint64) uint64) compVal {
	if len(c.refs) == 0 {
		return c
	}
	refs := make([]uint64, len(c.refs))
	for i, id := range c.refs {
		refs[i] = remap(id)
	}
	c.refs = refs
	return c
}

// sameVal reports whether two compVals of the same component hold equal values and references.
func sameVal(a, b compVal) bool {
	if a.id != b.id || len(a.refs) != len(b.refs) {
		return false
	}
	for i := range a.refs {
		if a.refs[i] != b.refs[i] {
			return false
		}
	}
	return reflect.DeepEqual(a.v, b.v)
}

// bytes returns the memory c's value and references take besides c itself (its box, and what the
// value points to).
func (c compVal) bytes() int {
	if c.v == nil {
		return 0
	}
	v := reflect.ValueOf(c.v)
	return int(v.Type().Size()) + ecs.HeldBytes(v) + 8*len(c.refs)
}
