package live

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// batchEntities bounds the entities of one delta part.
const batchEntities = 256

// partsInFlight bounds the delta parts waiting for one connection's writer.
const partsInFlight = 4

// compMeta is what the loop and the writers know of a registered component. A slice of them is
// never changed once made (new registrations make a new slice), so writers read it freely.
type compMeta struct {
	name     string
	quoted   []byte // the name as a JSON string
	enc      *serialize.ComponentEncoder
	info     *ecs.ComponentInfo
	computed bool
}

// loopState is the server's state that only Frame touches.
type loopState struct {
	s        *Server
	frame    uint64
	paused   bool
	steps    int
	spawned  int
	comps    []compMeta
	hello    []byte
	watchers map[*conn]*watcher
	last     time.Time
	credit   time.Duration
	ids      []ecs.ComponentID
}

// watcher is one connection as Frame sees it.
type watcher struct {
	c        *conn
	watching bool
	seq      uint64 // the last delta begun
	acked    uint64
	after    uint32 // the next delta sends the changes after this tick (0: everything)
	started  time.Time
	cyc      *cycle
	known    []known // by entity index: what the client was last sent
	mark     []uint32
	pending  []ecs.Entity // to send in the next delta (spawned, changed shape)
	gone     []uint64     // to report removed in the next delta
	sweepAt  int
}

// known is an entity as the client has it: its handle and the signature of its shape.
type known struct {
	h       uint64
	sig     uint32
	pending bool // in the watcher's pending list
}

// cycle is a delta being prepared, over as many frames as its budget needs.
type cycle struct {
	seq     uint64
	frame   uint64
	updates uint64
	paused  bool
	cut     uint32
	list    []ecs.Entity
	pos     int
	removed []uint64
}

func (l *loopState) init(s *Server) {
	l.s = s
	l.watchers = map[*conn]*watcher{}
	l.refreshComps()
}

// refreshComps rebuilds the component table when components were registered since.
func (l *loopState) refreshComps() {
	w := l.s.w
	ids := w.ComponentIDs()
	if len(ids) == len(l.comps) {
		return
	}
	comps := make([]compMeta, len(ids))
	schemas := make([]Schema, 0, len(ids))
	for _, id := range ids {
		info := w.ComponentInfo(id)
		q, _ := json.Marshal(info.Name)
		m := compMeta{name: info.Name, quoted: q, info: info, computed: info.Computed}
		sc := Schema{Name: info.Name, Tag: info.IsTag, Computed: info.Computed, Transient: info.Transient,
			EditorOnly: info.EditorOnly, Sparse: info.Storage == ecs.SparseSet}
		if enc, err := serialize.NewComponentEncoder(info, refNumber); err != nil {
			sc.Unstorable = err.Error()
		} else {
			m.enc = enc
			if !info.IsTag {
				def := reflect.New(info.Type).Elem()
				def.Set(reflect.ValueOf(info.Schema.Default))
				if b, err := enc.Append(nil, def); err == nil {
					sc.Default = b
				}
			}
		}
		for i := range info.Schema.Fields {
			sc.Fields = append(sc.Fields, fieldOf(&info.Schema.Fields[i]))
		}
		comps[id] = m
		schemas = append(schemas, sc)
	}
	l.comps = comps
	l.hello, _ = json.Marshal(hello{Op: "hello", Version: Version, Components: schemas, Scene: l.s.opts.Scene})
	l.hello = append(l.hello, '\n')
	for c := range l.watchers { // components registered since they connected
		c.send(l.hello)
	}
}

// Frame does the link's work for one frame, on the game's loop, between two updates of the
// world (never while its systems run): it applies the requests that came since the last frame,
// and prepares deltas for the clients that watch, within its share of the frame. It reports
// whether the game should run its systems this frame: false while a client has paused it, true
// once for each step asked.
func (s *Server) Frame() bool {
	l := &s.loop
	l.frame++
	now := time.Now()
	share := s.opts.FrameShare
	if !l.last.IsZero() {
		l.credit += time.Duration(share * float64(now.Sub(l.last)))
		l.credit = min(l.credit, time.Duration(share*float64(100*time.Millisecond)))
	}
	l.last = now
	l.refreshComps()
	for range requestsPerFrame {
		select {
		case in := <-s.inbox:
			l.handle(in)
			continue
		default:
		}
		break
	}
	for c, wt := range l.watchers {
		if c.gone.Load() {
			delete(l.watchers, c)
			continue
		}
		if share >= 1 {
			l.progress(wt, deadlineNever)
		} else if l.credit > 0 {
			start := time.Now()
			l.progress(wt, start.Add(l.credit))
			l.credit -= time.Since(start)
		}
	}
	run := !l.paused || l.steps > 0
	if l.paused && l.steps > 0 {
		l.steps--
	}
	return run
}

// deadlineNever is the deadline of an unlimited budget.
var deadlineNever time.Time

// over reports whether the deadline passed (deadlineNever never does).
func over(deadline time.Time) bool { return !deadline.IsZero() && time.Now().After(deadline) }

// progress prepares delta parts for wt until its writer has enough of them waiting or the
// deadline passes, then spends what is left on the sweep.
func (l *loopState) progress(wt *watcher, deadline time.Time) {
	if wt.cyc == nil && wt.watching && wt.acked == wt.seq && time.Since(wt.started) >= l.s.opts.Interval {
		l.begin(wt)
	}
	for wt.cyc != nil && wt.c.queued.Load() < partsInFlight {
		l.part(wt, deadline)
		if over(deadline) {
			return
		}
	}
	l.sweep(wt, deadline)
}

// begin starts a delta: the entities whose components changed after wt.after, those the sweep
// found and those the client's commands touched.
func (l *loopState) begin(wt *watcher) {
	w := l.s.w
	wt.seq++
	wt.started = time.Now()
	cyc := &cycle{seq: wt.seq, frame: l.frame, updates: w.Updates(), paused: l.paused, cut: w.AdvanceTick(), removed: wt.gone}
	wt.gone = nil
	var list []ecs.Entity
	if wt.after == 0 {
		list = make([]ecs.Entity, 0, w.Len())
		w.EachEntity(func(e ecs.Entity) bool { list = append(list, e); return true })
	} else {
		for id := range l.comps {
			if !l.comps[id].computed {
				list = w.AppendChanged(list, ecs.ComponentID(id), wt.after)
			}
		}
		list = append(list, wt.pending...)
	}
	for _, e := range wt.pending {
		wt.knownAt(e.Index()).pending = false
	}
	wt.pending = wt.pending[:0]
	// one entry per entity (an entity changes in several components)
	stamp := uint32(wt.seq)
	out := list[:0]
	for _, e := range list {
		i := int(e.Index())
		if i >= len(wt.mark) {
			wt.mark = append(wt.mark, make([]uint32, i+1-len(wt.mark)+len(wt.mark)/2)...)
		}
		if wt.mark[i] != stamp {
			wt.mark[i] = stamp
			out = append(out, e)
		}
	}
	cyc.list = out
	wt.cyc = cyc
}

// batch is one delta part: entities, their shapes and copies of the values to send, taken from
// the world in Frame; the connection's writer turns it into JSON.
type batch struct {
	d       delta // header fields
	comps   []compMeta
	ents    []batchEnt
	ids     []ecs.ComponentID // the has and sent lists of ents, back to back
	cols    []colCopy
	colOf   []int32 // by component id: index in cols + 1
	removed []uint64
}

type batchEnt struct {
	e, parent         uint64
	has0, has1, sent1 int32 // has = ids[has0:has1], sent = ids[has1:sent1]
}

type colCopy struct {
	id   ecs.ComponentID
	ents []ecs.Entity
	vals ecs.Values
	next int // the writer's cursor
}

// part copies the next entities of wt's delta into a batch and queues it; the last part ends the
// delta.
func (l *loopState) part(wt *watcher, deadline time.Time) {
	w := l.s.w
	cyc := wt.cyc
	b := &batch{comps: l.comps, colOf: make([]int32, len(l.comps)),
		d: delta{Seq: cyc.seq, Frame: cyc.frame, Updates: cyc.updates, Paused: cyc.paused}}
	n := 0
	for ; cyc.pos < len(cyc.list) && n < batchEntities; cyc.pos++ {
		if n%32 == 31 && over(deadline) {
			break
		}
		e := cyc.list[cyc.pos]
		n++
		k := wt.knownAt(e.Index())
		if !w.Alive(e) {
			if k.h == Handle(e) {
				cyc.removed = append(cyc.removed, k.h)
				k.h = 0
			}
			continue
		}
		if k.h != 0 && k.h != Handle(e) { // the slot's former entity is gone
			cyc.removed = append(cyc.removed, k.h)
			k.h = 0
		}
		l.ids = l.appendIDs(l.ids[:0], e)
		parent := w.Parent(e)
		full := k.h == 0
		be := batchEnt{e: Handle(e), parent: Handle(parent), has0: int32(len(b.ids))}
		b.ids = append(b.ids, l.ids...)
		be.has1 = int32(len(b.ids))
		for _, id := range l.ids {
			m := &l.comps[id]
			if m.enc == nil {
				continue
			}
			if !full {
				if _, ch, _ := w.Ticks(e, id); ch <= wt.after {
					continue
				}
			}
			b.ids = append(b.ids, id)
			if !m.info.IsTag {
				ci := b.colOf[id]
				if ci == 0 {
					b.cols = append(b.cols, colCopy{id: id})
					ci = int32(len(b.cols))
					b.colOf[id] = ci
				}
				b.cols[ci-1].ents = append(b.cols[ci-1].ents, e)
			}
		}
		be.sent1 = int32(len(b.ids))
		b.ents = append(b.ents, be)
		k.h, k.sig = Handle(e), signature(l.ids, parent)
	}
	for i := range b.cols {
		col := &b.cols[i]
		vals, err := w.CopyValues(col.id, col.ents)
		if err != nil { // cannot be: every entity was checked above
			panic(err)
		}
		col.vals, col.ents = vals, nil
	}
	if cyc.pos == len(cyc.list) {
		b.d.End = true
		b.removed = cyc.removed
		wt.after = cyc.cut
		wt.cyc = nil
	}
	if len(b.ents) == 0 && !b.d.End {
		return
	}
	wt.c.queued.Add(1)
	select {
	case wt.c.out <- outMsg{batch: b}:
	default:
		wt.c.queued.Add(-1)
		wt.c.closeWith("too many unread messages")
	}
}

// appendIDs appends e's components that are not computed by the world.
func (l *loopState) appendIDs(dst []ecs.ComponentID, e ecs.Entity) []ecs.ComponentID {
	n := len(dst)
	dst = l.s.w.AppendComponents(dst, e)
	out := dst[:n]
	for _, id := range dst[n:] {
		if int(id) < len(l.comps) && !l.comps[id].computed {
			out = append(out, id)
		}
	}
	return out
}

// signature sums up an entity's shape: its components and its parent (FNV-1a).
func signature(ids []ecs.ComponentID, parent ecs.Entity) uint32 {
	h := uint32(2166136261)
	mix := func(x uint64, n int) {
		for range n {
			h = (h ^ uint32(x&0xff)) * 16777619
			x >>= 8
		}
	}
	for _, id := range ids {
		mix(uint64(id), 2)
	}
	mix(Handle(parent), 8)
	return h
}

// addPending notes e for the next delta, once however often it is noted.
func (wt *watcher) addPending(e ecs.Entity) {
	if k := wt.knownAt(e.Index()); !k.pending {
		k.pending = true
		wt.pending = append(wt.pending, e)
	}
}

func (wt *watcher) knownAt(i uint32) *known {
	if int(i) >= len(wt.known) {
		wt.known = append(wt.known, make([]known, int(i)+1-len(wt.known)+len(wt.known)/2)...)
	}
	return &wt.known[i]
}

// sweep walks the entities the client was sent, a few each frame, and notes those despawned
// (for the next delta's removed list) and those whose components or parent changed without a
// change tick (a removed component, a new parent) for the next delta.
func (l *loopState) sweep(wt *watcher, deadline time.Time) {
	if len(wt.known) == 0 || deadline.IsZero() && wt.cyc != nil {
		return
	}
	w := l.s.w
	limit := len(wt.known)
	if deadline.IsZero() {
		limit = len(wt.known) // unlimited budget: one pass
	}
	for n := range limit {
		if n%64 == 63 && over(deadline) {
			return
		}
		if wt.sweepAt >= len(wt.known) {
			wt.sweepAt = 0
		}
		k := &wt.known[wt.sweepAt]
		wt.sweepAt++
		if k.h == 0 {
			continue
		}
		e := entityOf(k.h)
		if !w.Alive(e) {
			wt.gone = append(wt.gone, k.h)
			k.h = 0
			continue
		}
		l.ids = l.appendIDs(l.ids[:0], e)
		if sig := signature(l.ids, w.Parent(e)); sig != k.sig {
			k.sig = sig
			wt.addPending(e)
		}
	}
}

// touch notes, for every watcher, an entity whose shape a command changed: the next delta sends
// it (or its removal) without waiting for the sweep.
func (l *loopState) touch(e ecs.Entity) {
	for _, wt := range l.watchers {
		if l.s.w.Alive(e) {
			wt.addPending(e)
		} else if k := wt.knownAt(e.Index()); k.h == Handle(e) {
			wt.gone = append(wt.gone, k.h)
			k.h = 0
		}
	}
}

// handle applies one request.
func (l *loopState) handle(in inbound) {
	if in.req.Op == "join" {
		if in.c.gone.Load() {
			return
		}
		l.watchers[in.c] = &watcher{c: in.c}
		in.c.send(l.hello)
		return
	}
	wt := l.watchers[in.c]
	if wt == nil {
		return
	}
	r := in.req
	rep := reply{Op: "reply", ID: r.ID}
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("the game refused it: %v", p)
			}
		}()
		rep.E, err = l.apply(wt, r)
	}()
	if err != nil {
		rep.Error = err.Error()
	} else {
		rep.OK = true
	}
	if r.Op == "ack" {
		return // acks are not answered
	}
	rep.Frame, rep.Updates, rep.Paused, rep.Watch = l.frame, l.s.w.Updates(), l.paused, r.Op == "watch"
	b, _ := json.Marshal(rep)
	in.c.send(append(b, '\n'))
}

// apply runs one request on the world; a spawn returns the entity made.
func (l *loopState) apply(wt *watcher, r request) (uint64, error) {
	w := l.s.w
	switch r.Op {
	case "status":
	case "watch":
		wt.watching = true
		wt.cyc, wt.after, wt.acked = nil, 0, wt.seq
		clear(wt.known)
		wt.pending, wt.gone = wt.pending[:0], nil
		wt.started = time.Time{}
	case "ack":
		if r.Seq == wt.seq && wt.cyc == nil {
			wt.acked = r.Seq
		}
	case "pause":
		l.paused = true
	case "resume":
		l.paused, l.steps = false, 0
	case "step":
		l.paused = true
		l.steps += max(r.N, 1)
		l.steps = min(l.steps, maxSteps)
	case "set":
		e, id, err := l.target(r)
		if err != nil {
			return 0, err
		}
		js := string(r.Value)
		if r.Path != "" {
			if js, err = l.withField(e, id, r.Path, r.Value); err != nil {
				return 0, err
			}
		}
		v, err := l.decode(id, js)
		if err != nil {
			return 0, err
		}
		return 0, w.Set(e, id, v)
	case "add":
		e, id, err := l.target(r)
		if err != nil {
			return 0, err
		}
		var v any
		if len(r.Value) > 0 {
			if v, err = l.decode(id, string(r.Value)); err != nil {
				return 0, err
			}
		}
		if err := w.Add(e, id, v); err != nil {
			return 0, err
		}
		l.touch(e)
	case "remove":
		e, id, err := l.target(r)
		if err != nil {
			return 0, err
		}
		if err := w.Remove(e, id); err != nil {
			return 0, err
		}
		l.touch(e)
	case "despawn":
		e := entityOf(r.E)
		if !w.Alive(e) {
			return 0, fmt.Errorf("entity %d is not alive", r.E)
		}
		if r.Recursive {
			w.DespawnRecursive(e) // the sweep reports the descendants
		} else {
			w.Despawn(e)
		}
		l.touch(e)
	case "spawn":
		return l.spawn(r)
	}
	return 0, nil
}

func (l *loopState) spawn(r request) (uint64, error) {
	w := l.s.w
	if l.spawned >= l.s.opts.MaxSpawns {
		return 0, fmt.Errorf("clients spawned %d entities, the most this game allows", l.spawned)
	}
	var parent ecs.Entity
	if r.Parent != 0 {
		if parent = entityOf(r.Parent); !w.Alive(parent) {
			return 0, fmt.Errorf("parent %d is not alive", r.Parent)
		}
	}
	vals := make([]any, 0, len(r.Components))
	for name, js := range r.Components {
		id, err := l.component(name)
		if err != nil {
			return 0, err
		}
		v, err := l.decode(id, string(js))
		if err != nil {
			return 0, err
		}
		vals = append(vals, v)
	}
	e := w.Spawn(vals...)
	l.spawned++
	if !parent.IsZero() {
		if err := w.SetParent(e, parent); err != nil {
			w.Despawn(e)
			return 0, err
		}
	}
	l.touch(e)
	return Handle(e), nil
}

// ref resolves an entity reference in a client's JSON (a handle).
func (l *loopState) ref(h uint64) (ecs.Entity, bool) {
	e := entityOf(h)
	return e, l.s.w.Alive(e)
}

// component finds a component a client may write by name.
func (l *loopState) component(name string) (ecs.ComponentID, error) {
	id, ok := l.s.w.ComponentByName(name)
	if !ok {
		return 0, fmt.Errorf("no component %q", clip(name))
	}
	if m := &l.comps[id]; m.computed || m.enc == nil {
		return 0, fmt.Errorf("component %s cannot be written by clients", name)
	}
	return id, nil
}

// target checks a request's live entity and component.
func (l *loopState) target(r request) (ecs.Entity, ecs.ComponentID, error) {
	e := entityOf(r.E)
	if !l.s.w.Alive(e) {
		return e, 0, fmt.Errorf("entity %d is not alive", r.E)
	}
	id, err := l.component(r.C)
	return e, id, err
}

// withField returns entity e's component id as JSON with the field at path replaced by val.
func (l *loopState) withField(e ecs.Entity, id ecs.ComponentID, path string, val json.RawMessage) (string, error) {
	v, ok := l.s.w.Get(e, id)
	if !ok {
		return "", fmt.Errorf("entity %d has no %s", Handle(e), l.comps[id].name)
	}
	p := reflect.New(reflect.TypeOf(v)).Elem()
	p.Set(reflect.ValueOf(v))
	cur, err := l.comps[id].enc.Append(nil, p)
	if err != nil {
		return "", err
	}
	return setPath(cur, path, val)
}

// decode reads a value of component id from a client's JSON, checked as the scene loader checks
// it. Name and SceneID, which scene files hold as entity keys, are read as plain JSON.
func (l *loopState) decode(id ecs.ComponentID, js string) (any, error) {
	switch l.comps[id].info.Type {
	case reflect.TypeFor[scene.Name]():
		return decodeStrict[scene.Name](js)
	case reflect.TypeFor[scene.SceneID]():
		return decodeStrict[scene.SceneID](js)
	}
	return serialize.DecodeComponent(l.s.w, id, js, l.ref)
}

func decodeStrict[T any](js string) (*T, error) {
	d := json.NewDecoder(strings.NewReader(js))
	d.DisallowUnknownFields()
	v := new(T)
	if err := d.Decode(v); err != nil {
		return nil, fmt.Errorf("%T: %v", *v, err)
	}
	return v, nil
}
