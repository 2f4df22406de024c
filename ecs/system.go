package ecs

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
)

// Access declares what a system (or a query) reads and writes: components by ID, resources and
// event queues by Go type. Two systems conflict when one writes something the other reads or
// writes; the scheduler never runs conflicting systems at the same time.
type Access struct {
	Reads, Writes                 []ComponentID
	ResourceReads, ResourceWrites []reflect.Type
}

// Merge returns the union of a and b.
func (a Access) Merge(b Access) Access {
	return Access{
		Reads:          append(slices.Clone(a.Reads), b.Reads...),
		Writes:         append(slices.Clone(a.Writes), b.Writes...),
		ResourceReads:  append(slices.Clone(a.ResourceReads), b.ResourceReads...),
		ResourceWrites: append(slices.Clone(a.ResourceWrites), b.ResourceWrites...),
	}
}

// AccessOf merges the access of queries (anything with an Access method, such as *Query2).
func AccessOf(qs ...interface{ Access() Access }) Access {
	var a Access
	for _, q := range qs {
		a = a.Merge(q.Access())
	}
	return a
}

// ReadsResource adds a read of resource (or event) type T.
func ReadsResource[T any](a Access) Access {
	a.ResourceReads = append(slices.Clone(a.ResourceReads), reflect.TypeFor[T]())
	return a
}

// WritesResource adds a write of resource (or event) type T.
func WritesResource[T any](a Access) Access {
	a.ResourceWrites = append(slices.Clone(a.ResourceWrites), reflect.TypeFor[T]())
	return a
}

func (q *queryState) access() Access {
	var a Access
	for i, id := range q.ids {
		if q.write[i] {
			a.Writes = append(a.Writes, id)
		} else {
			a.Reads = append(a.Reads, id)
		}
	}
	a.Reads = append(a.Reads, q.with...)
	a.Reads = append(a.Reads, q.changed...)
	a.Reads = append(a.Reads, q.added...)
	return a
}

// conflicts reports whether a and b may not run at the same time.
func (a *Access) conflicts(b *Access) bool {
	overlap := func(w []ComponentID, o ...[]ComponentID) bool {
		for _, x := range w {
			for _, s := range o {
				if slices.Contains(s, x) {
					return true
				}
			}
		}
		return false
	}
	overlapT := func(w []reflect.Type, o ...[]reflect.Type) bool {
		for _, x := range w {
			for _, s := range o {
				if slices.Contains(s, x) {
					return true
				}
			}
		}
		return false
	}
	return overlap(a.Writes, b.Reads, b.Writes) || overlap(b.Writes, a.Reads) ||
		overlapT(a.ResourceWrites, b.ResourceReads, b.ResourceWrites) || overlapT(b.ResourceWrites, a.ResourceReads)
}

// System is a function over the world with declared access and ordering.
type System struct {
	// Name identifies the system for ordering constraints; it must be unique in a schedule.
	Name string
	// Stage groups systems: stages run in ascending order, and the command buffers of a stage's
	// systems are applied (in system order) when the stage ends.
	Stage int
	// Access declares the components, resources and events the system reads and writes. A system
	// must not touch anything it did not declare: undeclared access can race with parallel systems.
	Access Access
	// After and Before name systems of the same stage this one must run after / before.
	After, Before []string
	// Run does the work. Structural changes must go through cmds (the world is locked while
	// systems run in parallel); cmds is applied at the end of the stage.
	Run func(w *World, cmds *Commands)
}

// Schedule runs a world's systems: stage by stage; within a stage, in batches of systems that do not
// conflict, each batch in parallel on goroutines (or one system after another when parallelism is
// off; the results are identical). Systems that conflict run in the order their constraints, and
// otherwise their insertion order, give.
type Schedule struct {
	systems  []*sysEntry
	batches  [][][]*sysEntry // by stage: batches of systems
	stages   []int
	dirty    bool
	parallel bool
	check    bool
}

type sysEntry struct {
	System
	order int
	cmds  *Commands
}

// Schedule returns the world's schedule (created on first use); Update runs it.
func (w *World) Schedule() *Schedule {
	if w.schedule == nil {
		w.schedule = &Schedule{parallel: true}
	}
	return w.schedule
}

// AddSystem adds a system to the world's schedule. It panics on a duplicate or empty name or a nil
// Run.
func (w *World) AddSystem(s System) {
	sc := w.Schedule()
	if s.Name == "" || s.Run == nil {
		panic("ecs: a System needs a Name and a Run function")
	}
	for _, o := range sc.systems {
		if o.Name == s.Name {
			panic(fmt.Sprintf("ecs: a system named %q is already scheduled", s.Name))
		}
	}
	sc.systems = append(sc.systems, &sysEntry{System: s, order: len(sc.systems), cmds: NewCommands(w)})
	sc.dirty = true
}

// SetParallel turns parallel execution on (the default) or off.
func (s *Schedule) SetParallel(on bool) { s.parallel = on }

// SetCheckAccess turns access checking on or off (off by default): systems then run one after
// another, and a query iterated by a system that reads or writes components outside the system's
// declared Access panics, naming the system and the component. Meant for tests.
func (s *Schedule) SetCheckAccess(on bool) { s.check = on }

// checkQueryAccess panics if query q accesses components outside the running system's declaration.
func (w *World) checkQueryAccess(q *queryState) {
	sys := w.checking
	a := q.access()
	for _, id := range a.Writes {
		if !slices.Contains(sys.Access.Writes, id) {
			panic(fmt.Sprintf("ecs: system %q writes %s through a query but does not declare it in Access.Writes "+
				"(declare it, or mark the query's component ecs.Read)", sys.Name, w.comps[id].info.Name))
		}
	}
	for _, id := range a.Reads {
		if !slices.Contains(sys.Access.Reads, id) && !slices.Contains(sys.Access.Writes, id) {
			panic(fmt.Sprintf("ecs: system %q reads %s through a query but does not declare it in Access.Reads",
				sys.Name, w.comps[id].info.Name))
		}
	}
}

// Batches returns the system names of each stage's batches, in execution order (for tests and
// debugging). It panics if the ordering constraints have a cycle.
func (s *Schedule) Batches() [][]string {
	s.build()
	var out [][]string
	for _, st := range s.batches {
		for _, b := range st {
			var names []string
			for _, e := range b {
				names = append(names, e.Name)
			}
			out = append(out, names)
		}
	}
	return out
}

// build computes the batches: a topological order by constraints (ties by insertion order), then
// greedy batching where a system joins the current batch if all its predecessors ran in earlier
// batches and it conflicts with nobody in the batch.
func (s *Schedule) build() {
	if !s.dirty && s.batches != nil {
		return
	}
	s.dirty = false
	s.batches = nil
	s.stages = nil
	byStage := map[int][]*sysEntry{}
	for _, e := range s.systems {
		if _, ok := byStage[e.Stage]; !ok {
			s.stages = append(s.stages, e.Stage)
		}
		byStage[e.Stage] = append(byStage[e.Stage], e)
	}
	slices.Sort(s.stages)
	for _, st := range s.stages {
		s.batches = append(s.batches, batchStage(byStage[st]))
	}
}

func batchStage(sys []*sysEntry) [][]*sysEntry {
	n := len(sys)
	idx := map[string]int{}
	for i, e := range sys {
		idx[e.Name] = i
	}
	// preds[i] = systems that must finish before i
	preds := make([][]int, n)
	addEdge := func(before, after int) {
		if !slices.Contains(preds[after], before) {
			preds[after] = append(preds[after], before)
		}
	}
	for i, e := range sys {
		for _, a := range e.After {
			j, ok := idx[a]
			if !ok {
				panic(fmt.Sprintf("ecs: system %q runs after %q, which is not in stage %d", e.Name, a, e.Stage))
			}
			addEdge(j, i)
		}
		for _, b := range e.Before {
			j, ok := idx[b]
			if !ok {
				panic(fmt.Sprintf("ecs: system %q runs before %q, which is not in stage %d", e.Name, b, e.Stage))
			}
			addEdge(i, j)
		}
	}
	// topological order, ties by insertion order (Kahn with the lowest index first)
	indeg := make([]int, n)
	succ := make([][]int, n)
	for i, ps := range preds {
		indeg[i] = len(ps)
		for _, p := range ps {
			succ[p] = append(succ[p], i)
		}
	}
	var order []int
	ready := []int{}
	for i := range n {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		slices.Sort(ready)
		i := ready[0]
		ready = ready[1:]
		order = append(order, i)
		for _, j := range succ[i] {
			if indeg[j]--; indeg[j] == 0 {
				ready = append(ready, j)
			}
		}
	}
	if len(order) != n {
		panic("ecs: the systems' Before/After constraints form a cycle")
	}
	pos := make([]int, n)
	for p, i := range order {
		pos[i] = p
	}
	// conflicting systems keep their topological order: add implicit edges
	for a := range n {
		for b := a + 1; b < n; b++ {
			if sys[a].Access.conflicts(&sys[b].Access) {
				if pos[a] < pos[b] {
					addEdge(a, b)
				} else {
					addEdge(b, a)
				}
			}
		}
	}
	// batch: level = 1 + max level of predecessors
	level := make([]int, n)
	maxLevel := 0
	for _, i := range order {
		l := 0
		for _, p := range preds[i] {
			l = max(l, level[p]+1)
		}
		level[i] = l
		maxLevel = max(maxLevel, l)
	}
	batches := make([][]*sysEntry, maxLevel+1)
	for _, i := range order {
		batches[level[i]] = append(batches[level[i]], sys[i])
	}
	return batches
}

func (s *Schedule) run(w *World) {
	s.build()
	for _, stage := range s.batches {
		for _, batch := range stage {
			w.frozen = true
			if s.parallel && !s.check && len(batch) > 1 {
				var wg sync.WaitGroup
				var mu sync.Mutex
				var panicked any
				for _, e := range batch {
					wg.Add(1)
					go func() {
						defer wg.Done()
						defer func() {
							if r := recover(); r != nil {
								mu.Lock()
								if panicked == nil {
									panicked = fmt.Sprintf("ecs: system %q panicked: %v", e.Name, r)
								}
								mu.Unlock()
							}
						}()
						e.Run(w, e.cmds)
					}()
				}
				wg.Wait()
				if panicked != nil {
					w.frozen = false
					panic(panicked)
				}
			} else {
				for _, e := range batch {
					func() {
						defer func() {
							w.checking = nil
							if r := recover(); r != nil {
								w.frozen = false
								panic(r)
							}
						}()
						if s.check {
							w.checking = &e.System
						}
						e.Run(w, e.cmds)
					}()
				}
			}
			w.frozen = false
			w.tick++
		}
		for _, batch := range stage {
			for _, e := range batch {
				if err := e.cmds.Apply(); err != nil {
					_ = err // failed commands (dead entities) are skipped by design
				}
			}
		}
	}
}
