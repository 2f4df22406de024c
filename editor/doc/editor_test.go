package doc

import "github.com/voltex-editor/voltex/ecs"

// inspectorEditor mirrors inspector.Editor and inspector.Names (which this package cannot import:
// the inspector links giu): the document implements both, so the editor passes it to
// inspector.New as it is.
type inspectorEditor interface {
	BeginEdit(label string)
	SetField(es []ecs.Entity, id ecs.ComponentID, path string, v any) error
	EndEdit()
	Rename(es []ecs.Entity, name string) error
	AddComponent(es []ecs.Entity, id ecs.ComponentID) error
	RemoveComponent(es []ecs.Entity, id ecs.ComponentID) error
	ResetComponent(es []ecs.Entity, id ecs.ComponentID) error
	PasteComponent(es []ecs.Entity, id ecs.ComponentID, value any) error
	Name(e ecs.Entity) string
}

var _ inspectorEditor = (*Document)(nil)
