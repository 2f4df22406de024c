// Package ecs is the entity-component-system core of Voltex: entities, components and their
// schemas, Table and SparseSet storage, typed queries with change detection, resources, events,
// command buffers, systems with a parallel scheduler, the parent/child hierarchy with Transform
// propagation, world cloning and statistics.
//
// # Entities
//
// An [Entity] is a slot index plus a generation. [World.Spawn] creates one (with component values),
// [World.Despawn] removes it and increments the slot's generation, so stale handles are rejected
// by every operation ([World.Alive] is false, type-erased calls return [ErrDeadEntity], typed
// accessors panic) and never reach the entity that reuses the slot. The zero Entity is never alive.
// [World.Len] is O(1); [World.EachEntity] visits live entities by ascending index.
//
// # Components
//
// Components are Go struct types (types without fields are tags and store no values), registered
// once per world with [Register], which assigns a dense [ComponentID] (up to [MaxComponents] = 256
// per world) and a stable name ([WithName], default: the Go type name), and chooses the storage
// ([WithStorage]): [Table] (archetype tables, the default: fastest iteration) or [SparseSet] (O(1)
// add/remove without moving the entity, for toggled tags such as Selected). Every registered type
// has a [Schema] built by reflection: fields with Go and JSON names, paths, kinds, nested structs,
// array and slice elements, inspector [Hints] from the `voltex:"..."` tag (min=, max=, step=,
// degrees, color, readonly, hidden, multiline, asset, tooltip=), enum values for integer types that
// implement [Enum], Entity-typed fields flagged as references, and the default value (a type can
// declare one by implementing [Defaulter], as [Transform] does for its scale).
//
// Components are usually registered by the packages that define them (ecs/scene for the scene
// model); [RegisterType] registers a type known only at run time. Type-erased access by ID, for the
// inspector and the serializer: [World.Has], [World.Get] (a
// copy), [World.Set], [World.Add] (nil value = schema default), [World.Remove], [World.GetField] and
// [World.SetField] (paths in JSON names such as "position[0]" or "a.b"), [World.EachColumn] (a
// component's values table by table, to read many at once), [World.ComponentsOf],
// [World.Ticks]. Errors wrap [ErrDeadEntity], [ErrNoComponent], [ErrHasComponent], [ErrValueType],
// [ErrPath], [ErrComputed] and [ErrUnknownComponent].
//
// # Typed access
//
// [Map] (one component) and [Map2] .. [Map6] are typed accessors created once and reused: Spawn,
// SpawnBatch, Get (a copy), Mut (a pointer, marked changed), Set, Has, Add, Remove. Typed calls panic
// on programmer misuse (dead entity, missing component) with a message saying what to do.
//
// # Queries
//
// [Query1] .. [Query6] are typed queries created once (NewQuery2[A, B](w, terms...)) and iterated
// every frame without allocating:
//
//	q := ecs.NewQuery2[Pos, Vel](w, ecs.Read[Vel](), ecs.Without[Frozen]())
//	it := q.Iter()
//	for it.Next() {
//		p, v := it.Get()
//		p.X += v.X
//	}
//
// Terms: [With], [Without], [Optional] (Get returns nil when absent), [Read] (the component is only
// read), [Changed] and [Added] (only entities whose component changed / was added since this
// query's previous run, with Bevy's semantics: a query does not see its own writes, and sees every
// other write exactly once).
//
// [Query2.EachTable] (on every query type) calls a function once per matching table with its
// entities and columns as slices: the way to write a system that loops over columns, at the speed
// of a loop over plain slices:
//
//	move.EachTable(func(ents []ecs.Entity, ps []Pos, vs []Vel) {
//		vs = vs[:len(ps)] // same length: no bounds checks on vs
//		for i := range ps {
//			ps[i].X += vs[i].X
//		}
//	})
//
// (NextTable and Columns do the same as a loop written in place.)
//
// A query writes every component it does not declare [Read]: iterating marks them changed for the
// entities it visits (a whole table in O(1)). A query runs one iteration at a time (starting a
// second one of the same query before the first ended panics: use a second query for nested
// loops); breaking out of a loop requires Close. The iterator keeps its hot state on the caller's
// stack, so loops allocate nothing and cost about what Ark's do.
//
// # Change detection
//
// Every stored value has an added tick and a changed tick. Every write through the API marks it:
// type-erased Set/SetField/Add, Map Mut/Set/Add/Spawn, and queries, which mark the components they
// do not declare [Read] for every entity they visit. There is no typed way to get a writable
// pointer without marking. The world tick ([World.Tick]) advances by one on every [World.Update]
// and after every run of a Changed/Added query (so that "since the last run" is exact);
// [World.Updates] counts Update calls. Each column
// keeps, per page of 64 rows, the newest changed tick, a bit mask of the rows that have it and a
// bound of the others, so a Changed query skips untouched pages and takes the changed rows of a
// touched page from its mask; a query that writes a whole table marks it in O(1) (a per-column floor
// tick). When few rows changed and they are clustered (a moved group, new entities), a Changed query
// costs a small fraction of a full scan; changes scattered at random cost about one cache miss per
// changed entity (BenchmarkChangedQuery measures both).
// [World.LastChange] answers "did any X change since tick t" in O(1).
//
// # Structural changes, command buffers
//
// Spawning, despawning, adding and removing components while a query iterates panics with a message
// pointing to [Commands], which records those operations (and Set, SetParent, arbitrary functions)
// and applies them later in order: [World.Commands] is applied by Update; systems get their own.
//
// # Resources and events
//
// Resources are typed singletons: [SetResource], [Resource], [HasResource], [RemoveResource].
// Events are typed queues: [SendEvent] and [EventReader] (each reader sees each event once; events
// live for two Updates).
//
// # Systems
//
// [World.AddSystem] schedules a [System]: a Run function with declared [Access] (component,
// resource and event reads and writes; [AccessOf] derives it from queries), a Stage, and
// Before/After constraints. [World.Update] runs the stages in order; within a stage, systems whose
// writes do not overlap the others' reads and writes run in parallel on goroutines, others in
// constraint order, then insertion order. Results are identical to a serial run
// ([Schedule.SetParallel](false)). Structural changes go through the *Commands a system receives,
// applied at the end of its stage. [Schedule.SetCheckAccess] (for tests) runs systems one by one and
// panics when a system iterates a query outside its declared Access.
//
// # Hierarchy and transforms
//
// [World.SetParent] (zero parent = root; cycles are refused with [ErrCycle]), [World.SetParents]
// (many links checked as a whole, for loaders), [World.SetChildren] (reorder and move children),
// [World.Parent], [World.Children] (in order), [World.ChildCount], [World.DespawnRecursive];
// [World.Despawn] makes the children roots. Children are kept in linked sibling lists, so every
// hierarchy operation (and propagation) is linear whatever the shape: a million-deep chain costs
// about what a million roots cost. [Transform] is the local position / Euler rotation in degrees / scale, with
// [Transform.Matrix] = T·Ry·Rx·Rz·S. Adding a Transform also adds a [GlobalTransform] (computed: read
// only), which [World.PropagateTransforms] (run by Update, and lazily by [World.WorldMatrix]) keeps
// equal to parent world matrix × local matrix, visiting only the subtrees whose Transform or parent
// changed.
//
// # Clone and stats
//
// [World.Clone] deep-copies a world with the same entity handles (for play mode), a big one's tables on
// several goroutines; [World.ReadCopy] is a cheaper copy to read on another goroutine (no change
// ticks, no computed values, so most of its memory is never touched), [World.ReadCopyOf] one with the
// values of some components only; [World.Snapshot] copies nothing: it shares the world's memory with a reader
// on another goroutine (a search), and the owner copies what the snapshot holds before it next writes it, until the
// snapshot is released; [World.Lend] copies nothing either: it
// lends the world itself to readers on other goroutines (a save), and the owner's next write waits
// for them (or, through its reclaim, hands them a copy instead); [World.Stats]
// reports entities, archetypes and bytes per component. [World.CopyValues] copies one component of
// many entities into a [Values] (a column outside the world: one slice of the type, nothing boxed) and
// [World.SpawnValues] spawns entities from such columns again, in their old slots (an editor's undo
// history keeps deleted entities this way). [World.DespawnDetach] despawns every entity of a table by
// moving the table's storage out whole, as a [Detached], whose [Detached.Values] read it in place, and
// [World.SpawnDetached] gives it back: a delete of a million alike entities and its undo copy nothing.
//
// # Room for a big spawn
//
// A [Room] is a table's grown storage made ahead of a big batch spawn: planned on the world's
// goroutine (Map.PlanRoom), allocated and its pages touched on any other ([Room.Make]), installed
// just before the spawn ([World.UseRoom]), which then writes into memory already in place instead of
// growing the table itself. A stale room is ignored.
package ecs
