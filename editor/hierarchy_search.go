package editor

import (
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/hierarchy"
	"github.com/voltex-editor/voltex/serialize/query"
)

// The Hierarchy's search — a query (serialize/query) or a part of names — runs in a big scene on a goroutine of
// its own, over a snapshot of the world (ecs.World.Snapshot: the world's memory, shared, not copied; the names,
// the scene ids and what the query compares are among the values it holds; a write the loop makes meanwhile
// copies what it writes first), so that no key waits for it: the rows show the last search's results until the
// new one's are ready, and a search a newer text or version makes stale stops and its result is dropped.

// searchSnap is what the searches of one version of a world find out once and keep: its roots, its names.
type searchSnap struct {
	world   *ecs.World // the world
	version uint64
	// Made by the first search that needs them (one search runs at a time on a version).
	roots   []ecs.Entity
	parents hierarchy.EntitySet // the entities with children
	finder  *hierarchy.NameFinder
}

// holds reports whether the snapshot is of version v of w.
func (s *searchSnap) holds(w *ecs.World, v uint64) bool {
	return s != nil && s.world == w && s.version == v
}

func hasComp(ids []ecs.ComponentID, id ecs.ComponentID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// nameAndID returns the ids of the Name and SceneID components (those w has).
func nameAndID(w *ecs.World) []ecs.ComponentID {
	var out []ecs.ComponentID
	if id, ok := ecs.ComponentIDOf[scene.Name](w); ok {
		out = append(out, id)
	}
	if id, ok := ecs.ComponentIDOf[scene.SceneID](w); ok {
		out = append(out, id)
	}
	return out
}

// searchView is the world one search reads (a snapshot of it, or in a small scene the world itself, read on the
// loop thread): its tree for hierarchy.Filter.
type searchView struct {
	w       *ecs.World
	parents hierarchy.EntitySet // searchSnap.parents
}

func newSearchView(w *ecs.World) *searchView { return &searchView{w: w} }

func (v *searchView) Children(e ecs.Entity) []ecs.Entity { return v.w.Children(e) }
func (v *searchView) Parent(e ecs.Entity) ecs.Entity     { return v.w.Parent(e) }
func (v *searchView) HasChildren(e ecs.Entity) bool      { return v.parents.Has(e) }

// names returns the version's name finder, made from v on first use.
func (s *searchSnap) names(v *searchView) *hierarchy.NameFinder {
	if s.finder == nil {
		var ents []ecs.Entity
		var names []string
		if id, ok := ecs.ComponentIDOf[scene.Name](v.w); ok {
			ents = make([]ecs.Entity, 0, v.w.Len())
			names = make([]string, 0, v.w.Len())
			v.w.EachColumn(id, func(es []ecs.Entity, values reflect.Value) bool {
				ents = append(ents, es...)
				for _, n := range values.Interface().([]scene.Name) {
					names = append(names, n.Value)
				}
				return true
			})
		}
		s.finder = hierarchy.NewNameFinder(ents, names)
	}
	return s.finder
}

// rootsOf returns the version's roots in sibling order, found in v on first use.
func (s *searchSnap) rootsOf(v *searchView) []ecs.Entity {
	if s.roots == nil {
		s.roots = scene.Roots(v.w)
	}
	return s.roots
}

// parentsOf returns the version's entities with children, found in v on first use: in the order of
// the entities in memory, where the results' rows would ask each in sibling order (in a scene read from a file, a
// cache miss each).
func (s *searchSnap) parentsOf(v *searchView) hierarchy.EntitySet {
	if s.parents == nil {
		s.parents = make(hierarchy.EntitySet, (v.w.IndexCap()+63)/64)
		v.w.EachEntity(func(e ecs.Entity) bool {
			if v.w.ChildCount(e) > 0 {
				s.parents.Add(e)
			}
			return true
		})
	}
	return s.parents
}

// searchReq is one search to run.
type searchReq struct {
	gen     uint64
	text    string          // as typed
	q       *query.Query    // nil: a part of names is searched
	kept    []ecs.Entity    // rows kept while renamed
	buf     []hierarchy.Row // rows nothing reads now, written over (nil: new ones)
	bufEs   []ecs.Entity    // results nothing reads now, written over (nil: new ones)
	snap    *searchSnap
	view    *searchView   // what it reads: the world of snap.version
	release func()        // gives the snapshot back when the search is done with it (nil: the world itself)
	delay   time.Duration // tests only: the search waits this much before it reads (Options.JobStepDelay)
}

// done gives back what the search read.
func (r *searchReq) done() {
	if r.release != nil {
		r.release()
	}
}

// searchResult is what a search found.
type searchResult struct {
	gen     uint64
	text    string
	world   *ecs.World // the world and version searched
	version uint64
	matches *query.Result // a query's matches (nil: a part of names was searched)
	found   []ecs.Entity  // the results, without the ancestors shown with them
	rows    []hierarchy.Row
}

// run runs the search; it returns false as soon as stop says it is stale.
func (r *searchReq) run(stop func() bool) (*searchResult, bool) {
	for end := time.Now().Add(r.delay); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		if stop() {
			return nil, false
		}
	}
	s, v := r.snap, r.view
	res := &searchResult{gen: r.gen, text: r.text, world: s.world, version: s.version}
	if r.q != nil {
		res.matches = r.q.Eval(v.w)
		res.found = res.matches.AppendEntities(r.bufEs)
	} else {
		var ok bool
		if res.found, ok = s.names(v).Find(r.text, r.bufEs, stop); !ok {
			return nil, false
		}
	}
	if stop() {
		return nil, false
	}
	v.parents = s.parentsOf(v)
	rows, ok := hierarchy.Filter(v, s.rootsOf(v), res.found, r.kept, r.buf, stop)
	if !ok {
		return nil, false
	}
	res.rows = rows
	return res, true
}

// searcher runs searches on a goroutine, one at a time, the newest only: a search made stale by a newer one
// stops, and its result is dropped.
type searcher struct {
	gen     atomic.Uint64 // of the newest search asked for
	mu      sync.Mutex
	pending *searchReq    // the newest search not yet started
	running bool          // the goroutine runs
	done    *searchResult // the newest result, not yet taken
	wake    func()        // wakes the loop when a result is ready
	// afterFrame: a search asked for in a frame begins once that frame is presented (launch), so that the key's
	// frame is drawn with both cores for the UI (on a software renderer its drawing is most of the frame); held:
	// one is waiting for that.
	afterFrame, held bool
	// spare, spareEs: rows and results nothing reads any more (those the panel showed before, or a stopped
	// search's), which the next search writes over: a million of each on warm memory, not on fresh pages (and no
	// garbage to collect while typing).
	spare   []hierarchy.Row
	spareEs []ecs.Entity
}

// giveBack gives the searches rows and results nothing reads any more; the biggest are kept.
func (s *searcher) giveBack(rows []hierarchy.Row, es []ecs.Entity) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cap(rows) > cap(s.spare) {
		s.spare = rows
	}
	if cap(es) > cap(s.spareEs) {
		s.spareEs = es
	}
}

// start runs r on the goroutine (the search running, if any, is stale now).
func (s *searcher) start(r *searchReq) {
	r.gen = s.gen.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending != nil {
		s.pending.done() // never to run
	}
	s.pending = r
	switch {
	case s.running || s.held:
	case s.afterFrame:
		s.held = true
	default:
		s.running = true
		go s.work()
	}
}

// launch begins the search start held until the frame that asked for it was presented.
func (s *searcher) launch() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held {
		s.held = false
		s.running = true
		go s.work()
	}
}

// stop makes the search running and its result, if any, stale.
func (s *searcher) stop() { s.gen.Add(1) }

func (s *searcher) work() {
	for {
		s.mu.Lock()
		r := s.pending
		s.pending = nil
		if r == nil {
			s.running = false
			s.mu.Unlock()
			return
		}
		r.buf, s.spare = s.spare, nil
		r.bufEs, s.spareEs = s.spareEs, nil
		s.mu.Unlock()
		res, ok := r.run(func() bool { return s.gen.Load() != r.gen })
		r.done()
		if !ok {
			s.giveBack(r.buf, r.bufEs)
			continue
		}
		s.mu.Lock()
		s.done = res
		s.mu.Unlock()
		if s.wake != nil {
			s.wake()
		}
	}
}

// take returns the result of the newest search if it is ready (once), nil otherwise; a stale one is dropped.
func (s *searcher) take() *searchResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.done
	s.done = nil
	if r == nil || r.gen != s.gen.Load() {
		return nil
	}
	return r
}

// busy reports whether a search is running or waiting to.
func (s *searcher) busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running || s.held || s.pending != nil
}
