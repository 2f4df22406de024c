package doc

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// Commands in the journal: each kind that has a compact form is written as what it touched by scene
// id (component values as scene JSON), a grid as its parameters and id generator. Replaying one
// rebuilds the command on the replayed scene, applies it and pushes it on the history, so that the
// recovered session can undo it.

// Command tags.
const (
	tagComp byte = iota + 1
	tagName
	tagGrid
	tagPlace
	tagInsert
	tagDelete
	tagMulti
	tagField
)

// Forms of a component value.
const (
	valJSON byte = iota
	valName
	valSceneID
	valRaw
	// valDelta: a plain value of a component edit as the bytes that differ from the one the file
	// last held for that entity and component (the same journal encoding, not the world, is what
	// it is read against: replay rebuilds the same bytes whatever the scene holds).
	valDelta
)

// deltaSlots is how many (entity, value) pairs the writer keeps per component to write the next
// edit of one as a delta; deltaMax bounds the size of the values kept.
const (
	deltaSlots = 64
	deltaMax   = 256
)

// plainTypes memoizes plainMemory per type.
var plainTypes sync.Map // reflect.Type -> bool

// plainMemory reports whether values of t are their bytes alone: no pointers (strings, slices,
// maps…) and no entity references.
func plainMemory(t reflect.Type) bool {
	if v, ok := plainTypes.Load(t); ok {
		return v.(bool)
	}
	var plain func(t reflect.Type) bool
	plain = func(t reflect.Type) bool {
		switch t.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			return true
		case reflect.Array:
			return plain(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if !plain(t.Field(i).Type) {
					return false
				}
			}
			return true
		}
		return false
	}
	r := plain(t) && !hasRefs(t)
	plainTypes.Store(t, r)
	return r
}

// valueBytes returns the memory of x, a boxed value of size bytes without pointers.
func valueBytes(x any, size uintptr) []byte {
	if size == 0 {
		return nil
	}
	return unsafe.Slice((*byte)((*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1]), size)
}

// journaled reports whether cmd has a journal form (the journal writes a snapshot for the others):
// its kind has one, and every value it holds reads back from the form the journal writes it in.
func (j *Journal) journaled(d *core, cmd command) bool {
	switch c := cmd.(type) {
	case *compCmd:
		for i := range c.changes {
			if !j.valueForm(d, c.changes[i].cid) {
				return false
			}
		}
		return true
	case *sceneNameCmd, *gridCmd, *placeCmd, *fieldCmd:
		return true
	case *treeCmd:
		if !c.insert {
			return true
		}
		if len(c.rm.pack.srcs) > 0 { // parts of prefab instances: rebased on their prefab when restored
			return false
		}
		ok := true
		eachCID(c, func(cid ecs.ComponentID) { ok = ok && j.valueForm(d, cid) })
		return ok
	case *multiCmd:
		for _, x := range c.cmds {
			if !j.journaled(d, x) {
				return false
			}
		}
		return true
	}
	return false
}

// valueForm reports whether values of component cid read back from the journal's form: their
// bytes, the entity's name or id, or scene JSON that reads back (tried once per component).
func (j *Journal) valueForm(d *core, cid ecs.ComponentID) bool {
	if int(cid) < len(j.forms) && j.forms[cid] != 0 {
		return j.forms[cid] > 0
	}
	for len(j.forms) <= int(cid) {
		j.forms = append(j.forms, 0)
	}
	info := d.world.ComponentInfo(cid)
	ok := plainMemory(info.Type) || info.Type == reflect.TypeFor[scene.Name]() || info.Type == reflect.TypeFor[scene.SceneID]()
	if !ok { // scene JSON: the component must be one a scene file holds as a component
		_, err := serialize.DecodeComponent(d.world, cid, "{}", func(uint64) (ecs.Entity, bool) { return ecs.Entity{}, true })
		ok = err == nil
	}
	j.forms[cid] = int8(btoi(ok)*2 - 1)
	return ok
}

// eachCID calls fn for the components whose values cmd holds.
func eachCID(cmd command, fn func(ecs.ComponentID)) {
	switch c := cmd.(type) {
	case *compCmd:
		for i := range c.changes {
			fn(c.changes[i].cid)
		}
	case *fieldCmd:
		fn(c.cid)
	case *treeCmd:
		if c.insert {
			for _, g := range c.rm.pack.groups {
				for _, cid := range g.cids {
					fn(cid)
				}
			}
		}
	case *multiCmd:
		for _, x := range c.cmds {
			eachCID(x, fn)
		}
	}
}

// valueCodec writes commands and their component values (writer goroutine).
type valueCodec struct {
	infos []*ecs.ComponentInfo
	encs  map[*ecs.ComponentInfo]*serialize.ComponentEncoder
	// strs numbers the labels and component and type names written since the file began: each is
	// written whole once, then by its number (dec.str).
	strs map[string]uint64
	// forms caches, by component, what writing its values needs.
	forms []valForm
	// last is the string str wrote last and its number: a step's label is its name, written twice.
	last  string
	lastN uint64
}

// valForm is how a component's values are written.
type valForm struct {
	info         *ecs.ComponentInfo
	plain        bool
	size         uintptr
	name, typ    string
	nameN, typeN uint64 // the numbers of name and typ in strs (0: not yet)
	// The last value written of a component edit, by entity, in deltaSlots slots (slot id %
	// deltaSlots): lastIDs[k] is the scene id held in slot k (0 none), lastVals the values.
	lastIDs  []uint64
	lastVals []byte
}

// restart forgets the strings written: the file starts again.
func (vc *valueCodec) restart() {
	vc.strs, vc.last, vc.lastN = nil, "", 0
	for i := range vc.forms {
		vc.forms[i].nameN, vc.forms[i].typeN = 0, 0
		clear(vc.forms[i].lastIDs)
	}
}

// str writes s: 0 and s the first time in the file, then the number it got.
func (vc *valueCodec) str(e *enc, s string) {
	vc.strN(e, s, nil)
}

// strN is str that remembers s's number in *n (when not nil) to write it without a lookup next
// time.
func (vc *valueCodec) strN(e *enc, s string, n *uint64) {
	if n != nil && *n != 0 {
		e.u(*n)
		return
	}
	if vc.lastN != 0 && s == vc.last {
		e.u(vc.lastN)
		return
	}
	k, ok := vc.strs[s]
	if !ok {
		if vc.strs == nil {
			vc.strs = map[string]uint64{}
		}
		k = uint64(len(vc.strs) + 1)
		vc.strs[s] = k
		e.u(0)
		e.s(s)
	} else {
		e.u(k)
	}
	vc.last, vc.lastN = s, k
	if n != nil {
		*n = k
	}
}

// form returns how values of component id are written (nil if it is not registered).
func (vc *valueCodec) form(id ecs.ComponentID) *valForm {
	if int(id) >= len(vc.infos) || vc.infos[id] == nil {
		return nil
	}
	for len(vc.forms) <= int(id) {
		vc.forms = append(vc.forms, valForm{})
	}
	f := &vc.forms[id]
	if info := vc.infos[id]; f.info != info {
		*f = valForm{info: info, plain: plainMemory(info.Type), size: info.Type.Size(), name: info.Name, typ: info.Type.String()}
	}
	return f
}

// val writes v; id, when not 0, is the scene id of the entity whose component edit v is (a plain
// value is then written as a delta from the last one written for it, when there was one).
func (vc *valueCodec) val(e *enc, v compVal, id uint64) error {
	f := vc.form(v.id)
	if f == nil {
		return fmt.Errorf("component %d is not registered", v.id)
	}
	info := f.info
	vc.strN(e, f.name, &f.nameN)
	// The name and the scene id are the entity's own fields in scene files, not components there.
	switch x := v.v.(type) {
	case scene.Name:
		e.c(valName)
		e.s(x.Value)
		return nil
	case scene.SceneID:
		e.c(valSceneID)
		e.u(x.ID)
		e.f(x.Order)
		return nil
	}
	if f.plain {
		// Plain memory (no pointers, no references): its bytes are the value, exactly and cheaply.
		b := valueBytes(v.v, f.size)
		if id != 0 && f.delta(e, id, b) {
			return nil
		}
		e.c(valRaw)
		vc.strN(e, f.typ, &f.typeN)
		e.by(b)
		return nil
	}
	e.c(valJSON)
	ce := vc.encs[info]
	if ce == nil {
		var err error
		// Entity references are zero in held values; their scene ids are in refs.
		if ce, err = serialize.NewComponentEncoder(info, func(ecs.Entity) int64 { return 0 }); err != nil {
			return err
		}
		if vc.encs == nil {
			vc.encs = map[*ecs.ComponentInfo]*serialize.ComponentEncoder{}
		}
		vc.encs[info] = ce
	}
	p := reflect.New(info.Type).Elem()
	p.Set(reflect.ValueOf(v.v))
	js, err := ce.Append(nil, p)
	if err != nil {
		return err
	}
	e.by(js)
	e.bo(v.refs != nil)
	e.ids(v.refs)
	return nil
}

// delta writes b, the value of entity id's component edit, as a delta from the last value
// written for it if that is kept (it reports whether it wrote), and keeps b for the next.
func (f *valForm) delta(e *enc, id uint64, b []byte) bool {
	size := len(b)
	if size == 0 || size > deltaMax {
		return false
	}
	if f.lastIDs == nil {
		f.lastIDs, f.lastVals = make([]uint64, deltaSlots), make([]byte, deltaSlots*size)
	}
	k := id % deltaSlots
	last := f.lastVals[int(k)*size : int(k+1)*size]
	if f.lastIDs[k] != id {
		f.lastIDs[k] = id
		copy(last, b)
		return false
	}
	lo, hi := 0, size
	for lo < hi && b[lo] == last[lo] {
		lo++
	}
	for hi > lo && b[hi-1] == last[hi-1] {
		hi--
	}
	e.c(valDelta)
	e.u(uint64(lo))
	e.by(b[lo:hi])
	copy(last[lo:hi], b[lo:hi])
	return true
}

func (vc *valueCodec) cmd(e *enc, cmd command) error {
	switch c := cmd.(type) {
	case *compCmd:
		e.c(tagComp)
		vc.str(e, c.name)
		e.u(uint64(len(c.changes)))
		for i := range c.changes {
			// The state before is not written: it is what the entity holds when the step is replayed.
			ch := &c.changes[i]
			e.u(ch.id)
			e.bo(ch.after.has)
			if ch.after.has {
				if err := vc.val(e, ch.after.val, ch.id); err != nil {
					return err
				}
				continue
			}
			f := vc.form(ch.cid)
			if f == nil {
				return fmt.Errorf("component %d is not registered", ch.cid)
			}
			vc.strN(e, f.name, &f.nameN)
		}
	case *fieldCmd:
		// The scene ids and each field's value once, as its bytes (plain memory); the values
		// before are what the entities hold when the step is replayed.
		e.c(tagField)
		vc.str(e, c.name)
		f := vc.form(c.cid)
		if f == nil {
			return fmt.Errorf("component %d is not registered", c.cid)
		}
		vc.strN(e, f.name, &f.nameN)
		e.ids(c.ids)
		e.u(uint64(len(c.sets)))
		for _, s := range c.sets {
			t := reflect.TypeOf(s.v)
			e.s(s.path)
			vc.str(e, t.String())
			e.by(valueBytes(s.v, t.Size()))
		}
	case *sceneNameCmd:
		e.c(tagName)
		e.s(c.from)
		e.s(c.to)
	case *gridCmd:
		e.c(tagGrid)
		p, err := json.Marshal(c.p)
		if err != nil {
			return err
		}
		e.by(p)
		key, ctr := c.gen.State()
		e.u(key)
		e.u(ctr)
		e.u(uint64(c.n))
		e.bo(c.grouped)
	case *placeCmd:
		e.c(tagPlace)
		e.s(c.name)
		e.u(uint64(len(c.moves)))
		for _, m := range c.moves {
			e.u(m.id)
			e.u(m.from)
			e.u(m.to)
			e.f(m.fromKey)
			e.f(m.toKey)
		}
	case *treeCmd:
		if !c.insert {
			e.c(tagDelete)
			e.s(c.name)
			e.ids(c.roots)
			return nil
		}
		e.c(tagInsert)
		e.s(c.name)
		p := c.rm.pack
		e.u(uint64(p.len()))
		for i := range p.len() {
			s := p.snap(i)
			e.u(s.id)
			e.u(s.parent)
			e.u(uint64(len(s.comps)))
			for _, v := range s.comps {
				if err := vc.val(e, v, 0); err != nil {
					return err
				}
			}
		}
	case *multiCmd:
		e.c(tagMulti)
		e.s(c.name)
		e.u(uint64(len(c.cmds)))
		for _, x := range c.cmds {
			if err := vc.cmd(e, x); err != nil {
				return err
			}
		}
	default:
		return errNotJournaled
	}
	return nil
}

// replayCmd reads a command from r and does it on d, returning it done (to be pushed on the
// history).
func (d *core) replayCmd(r *dec) (command, error) {
	if r.err != nil || len(r.b) == 0 {
		return nil, errShortRecord
	}
	tag := r.b[0]
	r.b = r.b[1:]
	switch tag {
	case tagComp:
		c := &compCmd{name: r.str()}
		n := r.count()
		for range n {
			ch := compChange{id: r.u()}
			if r.bo() {
				v, err := d.readVal(r, ch.id)
				if err != nil {
					return nil, err
				}
				ch.after, ch.cid = compState{has: true, val: v}, v.id
			} else {
				name := r.str()
				cid, ok := d.world.ComponentByName(name)
				if r.err == nil && !ok {
					return nil, fmt.Errorf("component %s is not registered", name)
				}
				ch.cid = cid
			}
			c.changes = append(c.changes, ch)
		}
		if r.err != nil {
			return nil, r.err
		}
		for i := range c.changes { // in order: a change's before is the state the one before left
			ch := &c.changes[i]
			e, ok := d.entity(ch.id)
			if !ok {
				return nil, fmt.Errorf("%w: scene id %d", ErrNoEntity, ch.id)
			}
			ch.before = d.state(e, ch.cid)
			if err := d.setChangeState(ch, ch.after); err != nil {
				return nil, err
			}
		}
		return c, nil
	case tagField:
		return d.replayField(r)
	case tagName:
		c := &sceneNameCmd{from: r.s(), to: r.s()}
		return c, d.doCmd(c, r)
	case tagGrid:
		c := &gridCmd{}
		if err := json.Unmarshal(r.by(), &c.p); err != nil {
			return nil, err
		}
		key, ctr := r.u(), r.u()
		c.n, c.grouped = int(r.u()), r.bo()
		if r.err != nil {
			return nil, r.err
		}
		ids := d.idAlloc()
		taken := ids.Taken
		*ids = scene.IDsAt(key, ctr)
		ids.Taken = taken
		err := c.apply(d)
		return c, err
	case tagPlace:
		c := &placeCmd{name: r.s()}
		n := r.count()
		for range n {
			c.moves = append(c.moves, placeMove{id: r.u(), from: r.u(), to: r.u(), fromKey: r.f(), toKey: r.f()})
		}
		return c, d.doCmd(c, r)
	case tagDelete:
		name, roots := r.s(), r.ids()
		if r.err != nil {
			return nil, r.err
		}
		es := make([]ecs.Entity, 0, len(roots))
		for _, id := range roots {
			e, ok := d.entity(id)
			if !ok {
				return nil, fmt.Errorf("%w: scene id %d", ErrNoEntity, id)
			}
			es = append(es, e)
		}
		rm := d.removeTrees(d.topLevel(es), keepAll, nil)
		return &treeCmd{name: name, rm: rm, roots: rm.pack.roots()}, nil
	case tagInsert:
		name := r.s()
		n := r.count()
		snaps := make([]entSnap, 0, n)
		for range n {
			s := entSnap{id: r.u(), parent: r.u()}
			k := r.count()
			for range k {
				v, err := d.readVal(r, 0)
				if err != nil {
					return nil, err
				}
				s.comps = append(s.comps, v)
			}
			snaps = append(snaps, s)
		}
		if r.err != nil {
			return nil, r.err
		}
		p := d.packSnaps(snaps)
		c := &treeCmd{name: name, rm: removal{pack: p}, roots: p.roots(), insert: true}
		err := c.apply(d)
		return c, err
	case tagMulti:
		c := &multiCmd{name: r.s()}
		n := r.count()
		for range n {
			x, err := d.replayCmd(r)
			if err != nil {
				return nil, err
			}
			c.cmds = append(c.cmds, x)
		}
		return c, nil // each part was done as it was read
	}
	return nil, fmt.Errorf("unknown command tag %d", tag)
}

// replayField reads a fieldCmd (after its tag) and does it.
func (d *core) replayField(r *dec) (command, error) {
	c := &fieldCmd{name: r.str()}
	comp := r.str()
	c.ids = r.ids()
	n := r.count()
	type rawSet struct {
		path, typ string
		b         []byte
	}
	raw := make([]rawSet, 0, n)
	for range n {
		raw = append(raw, rawSet{path: r.s(), typ: r.str(), b: r.by()})
	}
	if r.err != nil {
		return nil, r.err
	}
	cid, ok := d.world.ComponentByName(comp)
	if !ok {
		return nil, fmt.Errorf("component %s is not registered", comp)
	}
	c.cid = cid
	c.ents = make([]ecs.Entity, len(c.ids))
	for i, id := range c.ids {
		e, ok := d.entity(id)
		if !ok {
			return nil, fmt.Errorf("%w: scene id %d", ErrNoEntity, id)
		}
		c.ents[i] = e
	}
	if len(c.ents) == 0 {
		return nil, fmt.Errorf("a field edit of no entities")
	}
	for _, s := range raw {
		cur, err := d.world.GetField(c.ents[0], cid, s.path)
		if err != nil {
			return nil, err
		}
		t := reflect.TypeOf(cur)
		if !plainMemory(t) || t.String() != s.typ || uintptr(len(s.b)) != t.Size() {
			return nil, fmt.Errorf("%s.%s is no longer the type the journal holds (%s, %d bytes)", comp, s.path, s.typ, len(s.b))
		}
		p := reflect.New(t)
		copy(unsafe.Slice((*byte)(p.UnsafePointer()), len(s.b)), s.b)
		c.sets = append(c.sets, fieldSet{path: s.path, v: p.Elem().Interface()})
	}
	before, err := d.world.CopyValues(cid, c.ents)
	if err != nil {
		return nil, err
	}
	c.before = before
	err = c.apply(d)
	return c, err
}

// doCmd applies c if r was read whole.
func (d *core) doCmd(c command, r *dec) error {
	if r.err != nil {
		return r.err
	}
	return c.apply(d)
}

// readVal reads a value val wrote (with id).
func (d *core) readVal(r *dec, id uint64) (compVal, error) {
	name := r.str()
	cid, ok := d.world.ComponentByName(name)
	if r.err == nil && !ok {
		return compVal{}, fmt.Errorf("component %s is not registered", name)
	}
	form := r.u()
	switch form {
	case uint64(valName):
		return compVal{id: cid, v: scene.Name{Value: r.s()}}, r.err
	case uint64(valSceneID):
		return compVal{id: cid, v: scene.SceneID{ID: r.u(), Order: r.f()}}, r.err
	case uint64(valRaw), uint64(valDelta):
		var b []byte
		if form == uint64(valRaw) {
			tname, raw := r.str(), r.by()
			if r.err != nil {
				return compVal{}, r.err
			}
			info := d.world.ComponentInfo(cid)
			if !plainMemory(info.Type) || info.Type.String() != tname || uintptr(len(raw)) != info.Type.Size() {
				return compVal{}, fmt.Errorf("%s is no longer the type the journal holds (%s, %d bytes)", name, tname, len(raw))
			}
			b = raw
		} else if b = r.delta(name, id); r.err != nil {
			return compVal{}, r.err
		}
		r.keep(name, id, b)
		p := reflect.New(d.world.ComponentInfo(cid).Type)
		copy(unsafe.Slice((*byte)(p.UnsafePointer()), len(b)), b)
		return compVal{id: cid, v: p.Elem().Interface()}, nil
	}
	js := r.by()
	hasRefs, refs := r.bo(), r.ids()
	if r.err != nil {
		return compVal{}, r.err
	}
	p, err := serialize.DecodeComponent(d.world, cid, string(js), func(uint64) (ecs.Entity, bool) { return ecs.Entity{}, true })
	if err != nil {
		return compVal{}, err
	}
	v := compVal{id: cid, v: reflect.ValueOf(p).Elem().Interface()}
	if hasRefs {
		v.refs = refs
	}
	return v, nil
}
