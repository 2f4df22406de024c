package ecs

import (
	"errors"
	"fmt"
	"reflect"
)

// Commands is a command buffer: structural changes (spawn, despawn, add, remove) and writes
// recorded while queries iterate, applied later in recording order at a sync point (Apply, the end
// of World.Update, or the end of a schedule stage for the buffers handed to systems).
//
// Operations on entities that are dead when the buffer is applied are skipped and reported in the
// error returned by Apply.
type Commands struct {
	w   *World
	ops []cmdOp
}

type cmdKind uint8

const (
	cmdSpawn cmdKind = iota
	cmdDespawn
	cmdDespawnRecursive
	cmdAdd
	cmdSet
	cmdRemove
	cmdSetParent
	cmdFunc
)

type cmdOp struct {
	kind   cmdKind
	e, e2  Entity
	id     ComponentID
	byType bool // id is resolved from the value's type when applied
	v      any
	vals   []any
	fn     func(Entity)
	wfn    func(*World)
}

// NewCommands returns an empty command buffer for w.
func NewCommands(w *World) *Commands { return &Commands{w: w} }

// Commands returns the world's own command buffer, applied by Update (or by calling its Apply).
func (w *World) Commands() *Commands {
	if w.cmds == nil {
		w.cmds = NewCommands(w)
	}
	return w.cmds
}

// Len returns the number of recorded operations.
func (c *Commands) Len() int { return len(c.ops) }

// Spawn records the creation of an entity with the given component values.
func (c *Commands) Spawn(values ...any) { c.SpawnThen(nil, values...) }

// SpawnThen records the creation of an entity and calls fn (if not nil) with it when applied.
func (c *Commands) SpawnThen(fn func(Entity), values ...any) {
	for _, v := range values {
		if v != nil {
			if _, ok := c.w.idOfValue(v); !ok {
				panic(unregisteredMsg(typeOfValue(v)))
			}
		}
	}
	c.ops = append(c.ops, cmdOp{kind: cmdSpawn, vals: append([]any(nil), values...), fn: fn})
}

// Despawn records the removal of an entity (its children become roots).
func (c *Commands) Despawn(e Entity) { c.ops = append(c.ops, cmdOp{kind: cmdDespawn, e: e}) }

// DespawnRecursive records the removal of an entity and all its descendants.
func (c *Commands) DespawnRecursive(e Entity) {
	c.ops = append(c.ops, cmdOp{kind: cmdDespawnRecursive, e: e})
}

// Add records adding component id with value v (nil for the default) to e.
func (c *Commands) Add(e Entity, id ComponentID, v any) {
	c.ops = append(c.ops, cmdOp{kind: cmdAdd, e: e, id: id, v: v})
}

// AddValue records adding the component v (a registered type T or *T) to e.
func (c *Commands) AddValue(e Entity, v any) {
	c.mustType(v)
	c.ops = append(c.ops, cmdOp{kind: cmdAdd, e: e, byType: true, v: v})
}

// Set records overwriting component id of e with v.
func (c *Commands) Set(e Entity, id ComponentID, v any) {
	c.ops = append(c.ops, cmdOp{kind: cmdSet, e: e, id: id, v: v})
}

// SetValue records overwriting e's component of v's type with v.
func (c *Commands) SetValue(e Entity, v any) {
	c.mustType(v)
	c.ops = append(c.ops, cmdOp{kind: cmdSet, e: e, byType: true, v: v})
}

// Remove records removing component id from e.
func (c *Commands) Remove(e Entity, id ComponentID) {
	c.ops = append(c.ops, cmdOp{kind: cmdRemove, e: e, id: id})
}

// SetParent records World.SetParent(child, parent).
func (c *Commands) SetParent(child, parent Entity) {
	c.ops = append(c.ops, cmdOp{kind: cmdSetParent, e: child, e2: parent})
}

// Run records an arbitrary function to run on the world when applied.
func (c *Commands) Run(fn func(*World)) { c.ops = append(c.ops, cmdOp{kind: cmdFunc, wfn: fn}) }

func (c *Commands) mustType(v any) {
	if _, ok := c.w.idOfValue(v); !ok {
		panic(unregisteredMsg(typeOfValue(v)))
	}
}

// Apply runs the recorded operations in order and empties the buffer. Operations that fail (dead
// entity, missing or duplicate component) are skipped; their errors are joined in the result. It
// panics if called while a query iterates.
func (c *Commands) Apply() error {
	if len(c.ops) == 0 {
		return nil
	}
	w := c.w
	w.checkStructural("apply a command buffer")
	var errs []error
	ops := c.ops
	c.ops = nil // operations may record new commands (SpawnThen callbacks)
	for i := range ops {
		op := &ops[i]
		var err error
		id := op.id
		if op.byType {
			id, _ = w.idOfValue(op.v)
		}
		switch op.kind {
		case cmdSpawn:
			e := w.Spawn(op.vals...)
			if op.fn != nil {
				op.fn(e)
			}
		case cmdDespawn:
			if !w.Despawn(op.e) {
				err = fmt.Errorf("ecs: despawn %v: %w", op.e, ErrDeadEntity)
			}
		case cmdDespawnRecursive:
			if w.DespawnRecursive(op.e) == 0 {
				err = fmt.Errorf("ecs: despawn %v: %w", op.e, ErrDeadEntity)
			}
		case cmdAdd:
			err = w.Add(op.e, id, op.v)
		case cmdSet:
			err = w.Set(op.e, id, op.v)
		case cmdRemove:
			err = w.Remove(op.e, id)
		case cmdSetParent:
			err = w.SetParent(op.e, op.e2)
		case cmdFunc:
			op.wfn(w)
		}
		if err != nil {
			errs = append(errs, err)
		}
		*op = cmdOp{}
	}
	if c.ops == nil {
		c.ops = ops[:0]
	} else {
		// callbacks recorded more commands: apply them too, keeping order
		if err := c.Apply(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func typeOfValue(v any) reflect.Type { return reflect.TypeOf(v) }
