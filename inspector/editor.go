package inspector

import "github.com/voltex-editor/voltex/ecs"

// Editor receives the edits the inspector makes. The editor implements it with undoable commands;
// the inspector never changes the world itself. es is always the live part of the selection, in
// selection order; id is a component of the world passed to Panel.Inspect.
//
// A continuous edit (dragging a number, a colour in the picker, typing in a number field after
// Ctrl+click) is reported as BeginEdit, one or more SetField calls applied live, then EndEdit: the
// whole sequence is one undo step that restores the values from before BeginEdit. Discrete edits
// (a checkbox, a combo choice, a committed text, adding a slice element) are reported the same way
// with a single SetField. BeginEdit is never nested, and EndEdit always follows, even when the
// widget disappears mid-drag (selection changed).
type Editor interface {
	// BeginEdit starts an undo step; label names it for the Edit menu ("Edit Transform.Position").
	BeginEdit(label string)
	// SetField sets the field at path (ecs field path: "position", "position[0]", "points[2].x") of
	// component id on every entity in es to v, a value of the field's Go type, already validated.
	SetField(es []ecs.Entity, id ecs.ComponentID, path string, v any) error
	// EndEdit ends the undo step started by BeginEdit.
	EndEdit()

	// Rename sets the name of every entity in es (one undo step).
	Rename(es []ecs.Entity, name string) error
	// AddComponent adds component id, with its default value, to the entities in es that lack it.
	AddComponent(es []ecs.Entity, id ecs.ComponentID) error
	// RemoveComponent removes component id from every entity in es.
	RemoveComponent(es []ecs.Entity, id ecs.ComponentID) error
	// ResetComponent sets component id of every entity in es to its schema default.
	ResetComponent(es []ecs.Entity, id ecs.ComponentID) error
	// PasteComponent sets component id of every entity in es to value (a value of the component's
	// type, sanitized: numbers within their hints, no NaN).
	PasteComponent(es []ecs.Entity, id ecs.ComponentID, value any) error
}

// Names gives entities their display names (the scene's Name component).
type Names interface {
	// Name returns e's name, or "" if it has none.
	Name(e ecs.Entity) string
}

// IDs gives entities the id a user knows them by (the scene's SceneID), shown beside the name.
type IDs interface {
	// ID returns e's id, or 0 if it has none (the panel then shows the entity handle).
	ID(e ecs.Entity) uint64
}

// Assets lists the assets an asset field can name (*assets.Registry implements it).
type Assets interface {
	// List returns the asset references, sorted. It is called when an asset combo opens.
	List() []string
}

// Expressions is what an Editor also implements to take expressions typed into number fields
// ("+= 10", "*= 0.5", "= x*2", "= rand(0,10)"), each entity's value computed from its own. Without
// it, such text is ignored as ImGui ignores any text that is not a number, and fields offer no
// Randomise.
type Expressions interface {
	// EditExpr applies src to the field at path (a number, a vector, or one channel of a vector:
	// "position[1]") of component id on every entity in es; rand(a, b) draws from seed. It is
	// called between BeginEdit and EndEdit, so the whole edit is one undo step.
	EditExpr(es []ecs.Entity, id ecs.ComponentID, path, src string, seed uint64) error
}
