package ecs

import (
	"fmt"
	"reflect"
)

type termKind uint8

const (
	termWith termKind = iota
	termWithout
	termOptional
	termChanged
	termAdded
	termRead
)

// Term is a query option: a filter (With, Without, Changed, Added) or an access modifier (Optional,
// Read) naming a component type. Terms are resolved to component IDs when the query is created.
type Term struct {
	kind termKind
	typ  reflect.Type
}

// With requires matched entities to have component T (without fetching it).
func With[T any]() Term { return Term{termWith, reflect.TypeFor[T]()} }

// Without excludes entities that have component T.
func Without[T any]() Term { return Term{termWithout, reflect.TypeFor[T]()} }

// Optional makes one of the query's own components optional: entities without it still match and
// Get returns nil for it.
func Optional[T any]() Term { return Term{termOptional, reflect.TypeFor[T]()} }

// Changed keeps only entities whose component T changed (or was added) since this query's previous
// run ("since the last run of the query that asks", as Bevy's Changed). Several Changed/Added terms
// must all hold.
func Changed[T any]() Term { return Term{termChanged, reflect.TypeFor[T]()} }

// Added keeps only entities that got component T since this query's previous run.
func Added[T any]() Term { return Term{termAdded, reflect.TypeFor[T]()} }

// Read declares that the query only reads its component T: iterating does not mark T changed.
// Writing through a pointer to a component declared Read is a bug the change detection cannot see.
// By default a query writes (and marks changed) all of its components.
func Read[T any]() Term { return Term{termRead, reflect.TypeFor[T]()} }

// String renders the term as it is written in Go, e.g. "Without[ecs_test.Frozen]".
func (t Term) String() string {
	names := [...]string{"With", "Without", "Optional", "Changed", "Added", "Read"}
	return fmt.Sprintf("%s[%v]", names[t.kind], t.typ)
}

func (w *World) termID(t Term) ComponentID {
	id, ok := w.typeToID[t.typ]
	if !ok {
		panic(unregisteredMsg(t.typ))
	}
	return id
}
