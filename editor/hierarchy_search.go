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
// its own, over a copy of the world made to read (ecs.World.ReadCopyOf: the names, the scene ids and what the
// query compares; one copy per version of the scene, shared by every key typed meanwhile), so that no key waits
// for it: the rows show the last search's results until the new one's are ready, and a search a newer text or
// version makes stale stops and its result is dropped.

// searchSnap is the scene as searches read it: a copy of a version of a world (in a small scene, the world itself,
// read on the loop thread).
type searchSnap struct {
	world   *ecs.World // the world it copies
	version uint64
	comps   []ecs.ComponentID // the components whose values it holds
	w       *ecs.World        // what the searches read
	ids     *ecs.Map[scene.SceneID]
	// Made by the first search that needs them (one search runs at a time on a snapshot).
	roots  []ecs.Entity
	finder *hierarchy.NameFinder
}

// newSearchSnap copies version v of w with the values of comps (the scene's names and ids are always copied);
// copied false reads w itself.
func newSearchSnap(w *ecs.World, v uint64, comps []ecs.ComponentID, copied bool) *searchSnap {
	for _, id := range nameAndID(w) {
		if !hasComp(comps, id) {
			comps = append(comps, id)
		}
	}
	s := &searchSnap{world: w, version: v, comps: comps, w: w}
	if copied {
		s.w = w.ReadCopyOf(comps...)
	}
	if _, ok := ecs.ComponentIDOf[scene.SceneID](s.w); ok {
		s.ids = ecs.NewMap[scene.SceneID](s.w)
	}
	return s
}

// holds reports whether the snapshot is of version v of w with the values of comps.
func (s *searchSnap) holds(w *ecs.World, v uint64, comps []ecs.ComponentID) bool {
	if s == nil || s.world != w || s.version != v {
		return false
	}
	for _, id := range comps {
		if !hasComp(s.comps, id) {
			return false
		}
	}
	return true
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

// Tree of the snapshot for hierarchy.Filter.
func (s *searchSnap) Children(e ecs.Entity) []ecs.Entity { return s.w.Children(e) }
func (s *searchSnap) ChildCount(e ecs.Entity) int        { return s.w.ChildCount(e) }
func (s *searchSnap) Parent(e ecs.Entity) ecs.Entity     { return s.w.Parent(e) }
func (s *searchSnap) ID(e ecs.Entity) uint64 {
	if s.ids == nil {
		return 0
	}
	v, _ := s.ids.TryGet(e)
	return v.ID
}

// names returns the snapshot's name finder, made on first use.
func (s *searchSnap) names() *hierarchy.NameFinder {
	if s.finder == nil {
		var ents []ecs.Entity
		var names []string
		if id, ok := ecs.ComponentIDOf[scene.Name](s.w); ok {
			ents = make([]ecs.Entity, 0, s.w.Len())
			names = make([]string, 0, s.w.Len())
			s.w.EachColumn(id, func(es []ecs.Entity, values reflect.Value) bool {
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

// rootsOf returns the snapshot's roots in sibling order, found on first use.
func (s *searchSnap) rootsOf() []ecs.Entity {
	if s.roots == nil {
		s.roots = scene.Roots(s.w)
	}
	return s.roots
}

// searchReq is one search to run.
type searchReq struct {
	gen   uint64
	text  string       // as typed
	q     *query.Query // nil: a part of names is searched
	kept  []ecs.Entity // rows kept while renamed
	snap  *searchSnap
	delay time.Duration // tests only: the search lasts this much longer (Options.JobStepDelay)
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
	s := r.snap
	res := &searchResult{gen: r.gen, text: r.text, world: s.world, version: s.version}
	if r.q != nil {
		res.matches = r.q.Eval(s.w)
		res.found = res.matches.Entities()
	} else {
		var ok bool
		if res.found, ok = s.names().Find(r.text, stop); !ok {
			return nil, false
		}
	}
	if stop() {
		return nil, false
	}
	rows, ok := hierarchy.Filter(s, s.rootsOf(), res.found, r.kept, stop)
	if !ok {
		return nil, false
	}
	res.rows = rows
	for end := time.Now().Add(r.delay); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		if stop() {
			return nil, false
		}
	}
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
}

// start runs r on the goroutine (the search running, if any, is stale now).
func (s *searcher) start(r *searchReq) {
	r.gen = s.gen.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = r
	if !s.running {
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
		s.mu.Unlock()
		res, ok := r.run(func() bool { return s.gen.Load() != r.gen })
		if !ok {
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
	return s.running || s.pending != nil
}
