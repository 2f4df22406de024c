package doc

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
)

// maxSceneEntities is the most entities a scene may hold and still open again: serialize's
// default Limits.MaxEntities. Grids and grids of copies that would go past it are refused (a
// variable so that tests can lower it).
var maxSceneEntities = serialize.DefaultMaxEntities

// checkRoom reports an error if adding n entities would make the scene hold more than a scene
// file may.
func (d *core) checkRoom(n int) error {
	if have := d.world.Len(); have+n > maxSceneEntities {
		return fmt.Errorf("the scene would hold %s entities, more than a scene file may hold (%s)",
			words.Thousands(int64(have+n)), words.Thousands(int64(maxSceneEntities)))
	}
	return nil
}

// ids and handles only

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// SpawnGrid spawns the cube grid p (scene.SpawnGrid: the generator `voltex-editor grid` uses too)
// as ONE undoable step and selects its group entity if p.Group is set, else its cubes (undo selects
// what was selected before, redo the grid again).
// It returns the group (zero if none) and the cubes. It is PrepareGrid, GridJob.Run and FinishGrid
// in one go, on the calling goroutine: progress (may be nil) gets the entities planned and their
// total before the first and after every chunk; if ctx is cancelled before the plan is complete, ctx's error is returned and
// the document is left exactly as it was.
//
// 100×100×10 cubes take well under 200 ms, and so does undoing them (BenchmarkSpawnGrid100k,
// BenchmarkUndoSpawnGrid100k).
func (d *Document) SpawnGrid(ctx context.Context, p scene.GridParams, progress func(done, total int64)) (ecs.Entity, []ecs.Entity, error) {
	j, err := d.PrepareGrid(p)
	if err != nil {
		return ecs.Entity{}, nil, err
	}
	if err := j.Run(ctx, progress); err != nil {
		return ecs.Entity{}, nil, err
	}
	return d.FinishGrid(j)
}

// GridJob is a Spawn Cube Grid in two halves: Run computes every cube (position, colour, name) as
// plain data and may run on a background goroutine, as it touches only the job; FinishGrid, on the
// document's goroutine, adds the cubes to the world as one undoable step. Between the two the
// document can be used and changed as usual: nothing of it is held.
type GridJob struct {
	doc  *Document
	plan *scene.GridPlan
	room *ecs.Room // the world's table made ready for the cubes by Run (nil: small, or room enough)
	done bool      // Run returned nil
	look *gridLook // the world lent to Run to find the cubes' names (nil: small)
}

// gridLook is the world lent to a big grid's Run (ecs.World.Lend), which finds the names its roots leave the
// grid's beside its plan (scene.GridPlan.FindNames), not on the loop thread at FinishGrid: a look at every root's
// name, 60–100 ms beside a million. FinishGrid takes the names found if the scene did not change since.
type gridLook struct {
	world   *ecs.World
	version uint64 // the document's Version when lent
	state   atomic.Int32
	end     func()
	names   *scene.GridNames // found by Run (nil: not)
}

// The states of a gridLook: lent, not read yet; being read; given back (read, or reclaimed before).
const (
	lookLent int32 = iota
	lookReading
	lookBack
)

// read finds the plan's names in the lent world unless the loop thread took the world back first.
func (l *gridLook) read(plan *scene.GridPlan) {
	if l.state.CompareAndSwap(lookLent, lookReading) {
		l.names = plan.FindNames(l.world)
		l.state.Store(lookBack)
		l.end()
	}
}

// giveBack gives the world back unread (Run stopped before its names, or never ran).
func (l *gridLook) giveBack() bool {
	if l.state.CompareAndSwap(lookLent, lookBack) {
		l.end()
		return true
	}
	return false
}

// roomFrom is the number of cubes from which a grid job makes the world's table ready for them while it plans
// (ecs.Room): the memory a big spawn writes to is then in place before FinishGrid, on the loop thread, spawns.
const roomFrom = 4096

// GridChunk is the number of cubes GridJob.Run computes between two progress reports and checks
// of its context.
const GridChunk = 8192

// PrepareGrid validates p and returns the job that spawns it (see GridJob). It returns ErrPlaying
// while playing and p's validation error.
func (d *Document) PrepareGrid(p scene.GridParams) (*GridJob, error) {
	if err := d.checkEditable(); err != nil {
		return nil, err
	}
	plan, err := scene.NewGridPlan(p)
	if err != nil {
		return nil, err
	}
	j := &GridJob{doc: d, plan: plan}
	if err := d.checkRoom(j.Len()); err != nil {
		return nil, err
	}
	if j.Len() >= roomFrom {
		j.room = plan.PlanRoom(d.world)
		l := &gridLook{world: d.world, version: d.version}
		l.end = d.world.Lend(l.giveBack) // the loop thread's next write takes it back unread, or waits for the read
		j.look = l
	}
	return j, nil
}

// For reports whether the job was prepared by d (FinishGrid takes only those).
func (j *GridJob) For(d *Document) bool { return j.doc == d }

// Len returns the number of entities the job makes (cubes, plus the group if any).
func (j *GridJob) Len() int {
	if j.plan.Params().Group != "" {
		return j.plan.Len() + 1
	}
	return j.plan.Len()
}

// Run computes the grid in chunks of GridChunk cubes, calling progress (if not nil) with the
// entities done and their total (Len) before the first and after each, and stops with ctx's error as soon as ctx is cancelled (checked
// before every chunk). It may run on any goroutine: it touches only the job.
func (j *GridJob) Run(ctx context.Context, progress func(done, total int64)) error {
	total := int64(j.Len())
	report := func() {
		if progress != nil {
			done := int64(j.plan.Planned())
			if j.plan.Done() {
				done = total // the group, if any, is counted once its cubes are
			}
			progress(done, total)
		}
	}
	report()
	made := make(chan struct{})
	go func() { // beside the plan: on two cores both are done in the time of the longer
		j.room.Make(ctx) // stopped early by ctx: the spawn grows the table itself
		close(made)
	}()
	defer func() { <-made }()
	if j.look != nil {
		defer j.look.giveBack()
	}
	for !j.plan.Done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		j.plan.Plan(GridChunk)
		report()
	}
	if j.look != nil {
		j.look.read(j.plan)
	}
	j.done = true
	return nil
}

// FinishGrid adds the grid computed by j.Run to the world as ONE undoable step, selecting its group
// if it has one, else its cubes, and returns the group (zero if none) and the cubes. The scene ids are drawn now,
// so edits made while the job ran cannot collide with them. It returns ErrPlaying while
// playing (the job stays usable: finish it after Stop). It panics if j belongs to another document
// or its Run did not return nil.
func (d *Document) FinishGrid(j *GridJob) (ecs.Entity, []ecs.Entity, error) {
	if j.doc != d {
		panic("doc.FinishGrid: the job was prepared by another document; pass it to the document whose PrepareGrid made it")
	}
	if !j.done || j.plan == nil {
		panic("doc.FinishGrid: the job's Run has not completed (or FinishGrid ran already); finish a job once, after Run returned nil")
	}
	if err := d.hist.begin(); err != nil {
		return ecs.Entity{}, nil, err
	}
	if err := d.checkRoom(j.Len()); err != nil { // the scene may have grown while the job ran
		return ecs.Entity{}, nil, err
	}
	p := j.plan.Params()
	if l := j.look; l != nil && l.names != nil && l.world == d.world && l.version == d.version {
		j.plan.UseNames(l.names) // found beside the plan, in the scene as it still is
	}
	c := &gridCmd{p: p, n: j.Len(), grouped: p.Group != "", plan: j.plan}
	j.plan = nil
	selBefore := d.sel.ids()
	if err := c.apply(d.core); err != nil {
		return ecs.Entity{}, nil, err
	}
	// Selected before the step is recorded, so that redo selects what the spawn did (undo what was before).
	if c.grouped {
		d.sel.set(c.ids[:1])
	} else {
		d.sel.set(c.ids)
	}
	d.hist.push(c, selBefore)
	return c.group, c.cubes, nil
}
