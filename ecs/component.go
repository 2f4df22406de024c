package ecs

import (
	"fmt"
	"github.com/voltex-editor/voltex/internal/prefault"
	"reflect"
	"unsafe"
)

// ComponentID identifies a registered component type within one World. IDs are dense, assigned in
// registration order from 0; a World holds at most MaxComponents of them.
type ComponentID uint16

// Storage selects how a component's values are stored.
type Storage uint8

const (
	// Table stores the component in archetype tables: one column per component, entities with the same
	// set of Table components share a table. Fastest to iterate; adding or removing moves the entity
	// to another table. This is the default.
	Table Storage = iota
	// SparseSet stores the component in a sparse set beside the tables: O(1) add and remove without
	// moving the entity, at the cost of slower iteration. Meant for frequently toggled tags such as
	// Selected or Hidden.
	SparseSet
)

// String returns "Table" or "SparseSet".
func (s Storage) String() string {
	switch s {
	case Table:
		return "Table"
	case SparseSet:
		return "SparseSet"
	}
	return fmt.Sprintf("Storage(%d)", uint8(s))
}

// ComponentInfo describes a registered component type.
type ComponentInfo struct {
	ID      ComponentID
	Name    string       // stable name (WithName, or the Go type name)
	Type    reflect.Type // the Go type
	Storage Storage
	IsTag   bool    // the type has no fields (zero size): no values are stored
	Size    uintptr // bytes per value
	Schema  *Schema // reflected fields, hints and default value
	// Computed components are derived by the world itself (GlobalTransform): serializers should skip
	// them and inspectors should show them read-only.
	Computed bool
	// FormerNames are names the component had before (WithFormerNames): scene files that use them
	// still load, and are written back under Name.
	FormerNames []string
	// Transient components are never written to files; EditorOnly ones are saved in scenes but left
	// out of game exports (WithTransient, WithEditorOnly; types can also say so with methods, see
	// package ecs/scene).
	Transient, EditorOnly bool
	// SharesMemory reports whether values hold slices, maps, pointers, interfaces, funcs or channels,
	// so that a copy made by assignment shares memory with the original and a private copy needs
	// DeepCopy. (Strings are immutable and do not count.)
	SharesMemory bool
}

// RegisterOption configures Register.
type RegisterOption func(*registerConfig)

type registerConfig struct {
	name       string
	storage    Storage
	computed   bool
	def        any
	former     []string
	transient  bool
	editorOnly bool
	items      map[reflect.Type]any
}

// WithName sets the component's stable name (used by scene files and ComponentByName). The default
// is the Go type name.
func WithName(name string) RegisterOption { return func(c *registerConfig) { c.name = name } }

// WithStorage selects Table (default) or SparseSet storage.
func WithStorage(s Storage) RegisterOption { return func(c *registerConfig) { c.storage = s } }

func withComputed() RegisterOption { return func(c *registerConfig) { c.computed = true } }

// WithDefault sets the component's default value (a value of the component type), in place of the
// zero value or what Defaulter returns. Types made at run time (RegisterType) have no methods, so
// this is how they get a default.
func WithDefault(v any) RegisterOption { return func(c *registerConfig) { c.def = v } }

// WithItemDefaults gives the values new items of arrays and slices start with, by item type (see
// Field.Default), for item types that cannot have a Default method because they are made at run
// time with reflect.StructOf. Each value must be of its key's type.
func WithItemDefaults(defaults map[reflect.Type]any) RegisterOption {
	return func(c *registerConfig) { c.items = defaults }
}

// WithFormerNames records names the component was registered under before a rename; scene
// readers accept them and write the current name (see ComponentInfo.FormerNames).
func WithFormerNames(names ...string) RegisterOption {
	return func(c *registerConfig) { c.former = append(c.former, names...) }
}

// WithTransient marks the component as never written to files (ComponentInfo.Transient).
func WithTransient() RegisterOption { return func(c *registerConfig) { c.transient = true } }

// WithEditorOnly marks the component as saved in scenes but left out of game exports
// (ComponentInfo.EditorOnly).
func WithEditorOnly() RegisterOption { return func(c *registerConfig) { c.editorOnly = true } }

// Register registers component type T with w and returns its ID. It is idempotent per type:
// registering T again returns the same ID (and panics if the options ask for a different name or
// storage). It panics if T is not a struct, if the name is taken by another type, or when the world
// already holds MaxComponents types.
func Register[T any](w *World, opts ...RegisterOption) ComponentID {
	t := reflect.TypeFor[T]()
	if id, ok := w.typeToID[t]; ok {
		return w.checkReregister(id, t, opts)
	}
	var zero T
	def := zero
	if d, ok := any(zero).(Defaulter[T]); ok {
		def = d.Default()
	}
	if v := configOf(t, opts).def; v != nil {
		d, ok := v.(T)
		if !ok {
			panic(fmt.Sprintf("ecs: WithDefault(%T) for component %v; pass a value of the component type", v, t))
		}
		def = d
	}
	return w.register(t, &typedOps[T]{def: def}, def, opts)
}

// RegisterType registers a component type known only at run time (a struct type, e.g. built with
// reflect.StructOf for scripting). It behaves like Register; typed accessors are not available for
// such types, the type-erased API is. Defaulter is honoured.
func RegisterType(w *World, t reflect.Type, opts ...RegisterOption) ComponentID {
	if t == nil {
		panic("ecs: RegisterType needs a type")
	}
	if id, ok := w.typeToID[t]; ok {
		return w.checkReregister(id, t, opts)
	}
	if t.Kind() != reflect.Struct {
		return w.register(t, nil, nil, opts) // panics with the message for non-structs
	}
	def := reflect.New(t).Elem()
	if m := def.MethodByName("Default"); m.IsValid() && m.Type().NumIn() == 0 && m.Type().NumOut() == 1 && m.Type().Out(0) == t {
		def = m.Call(nil)[0]
	}
	if v := configOf(t, opts).def; v != nil {
		if reflect.TypeOf(v) != t {
			panic(fmt.Sprintf("ecs: WithDefault(%T) for component %v; pass a value of the component type", v, t))
		}
		def = reflect.ValueOf(v)
	}
	ops := newReflectOps(t, def)
	return w.register(t, ops, def.Interface(), opts)
}

// configOf applies opts to the defaults for type t.
func configOf(t reflect.Type, opts []RegisterOption) registerConfig {
	cfg := registerConfig{name: t.Name(), storage: Table}
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

func (w *World) checkReregister(id ComponentID, t reflect.Type, opts []RegisterOption) ComponentID {
	cfg := configOf(t, opts)
	info := &w.comps[id].info
	if info.Name != cfg.name || info.Storage != cfg.storage {
		panic(fmt.Sprintf("ecs: component %v is already registered as %q (%v); register it once, with the same options",
			t, info.Name, info.Storage))
	}
	return id
}

func (w *World) register(t reflect.Type, ops columnOps, def any, opts []RegisterOption) ComponentID {
	w.beforeWrite()
	cfg := configOf(t, opts)
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("ecs: component type %v is a %v; components must be struct types (wrap it: type X struct{ V %v })", t, t.Kind(), t))
	}
	if cfg.name == "" {
		panic(fmt.Sprintf("ecs: component type %v has no name; pass ecs.WithName(\"...\") to Register", t))
	}
	if other, ok := w.nameToID[cfg.name]; ok {
		panic(fmt.Sprintf("ecs: component name %q is already used by %v; pass ecs.WithName(\"...\") to Register %v under another name",
			cfg.name, w.comps[other].info.Type, t))
	}
	if len(w.comps) >= MaxComponents {
		panic(fmt.Sprintf("ecs: cannot register %v: a world holds at most %d component types", t, MaxComponents))
	}
	if cfg.storage != Table && cfg.storage != SparseSet {
		panic(fmt.Sprintf("ecs: invalid storage %v for %v; use ecs.Table or ecs.SparseSet", cfg.storage, t))
	}
	id := ComponentID(len(w.comps))
	s := &componentStore{
		info: ComponentInfo{
			ID: id, Name: cfg.name, Type: t, Storage: cfg.storage, IsTag: t.Size() == 0,
			Size: t.Size(), Computed: cfg.computed, FormerNames: cfg.former,
			Transient: cfg.transient, EditorOnly: cfg.editorOnly, SharesMemory: sharesMemory(t),
		},
		ops:     ops,
		size:    t.Size(),
		trivial: !typeHasPointers(t),
	}
	for it, v := range cfg.items {
		if reflect.TypeOf(v) != it {
			panic(fmt.Sprintf("ecs: WithItemDefaults gives a %T for item type %v; pass a value of that type", v, it))
		}
	}
	s.info.Schema = buildSchema(t, def, cfg.items)
	s.cols = make([]*column, len(w.tables))
	if cfg.storage == SparseSet {
		s.sparse = newSparseSet(s)
		w.sparseIDs = append(w.sparseIDs, id)
	}
	w.comps = append(w.comps, s)
	w.typeToID[t] = id
	w.nameToID[cfg.name] = id
	w.compIDs = append(w.compIDs, id)
	return id
}

// Defaulter is implemented by component types that declare a default value other than the zero
// value (Transform's scale is {1,1,1}). The default is used by World.Add with a nil value and is
// reported in the schema.
type Defaulter[T any] interface {
	Default() T
}

// ComponentIDOf returns the ID of component type T, and false if T is not registered.
func ComponentIDOf[T any](w *World) (ComponentID, bool) {
	id, ok := w.typeToID[reflect.TypeFor[T]()]
	return id, ok
}

// mustID returns the ID of T or panics with a fix-it message.
func mustID[T any](w *World) ComponentID {
	id, ok := w.typeToID[reflect.TypeFor[T]()]
	if !ok {
		t := reflect.TypeFor[T]()
		panic(fmt.Sprintf("ecs: component type %v is not registered with this world: call ecs.Register[%v](w) first", t, typeExpr(t)))
	}
	return id
}

func typeExpr(t reflect.Type) string {
	if t.PkgPath() != "" {
		return t.String()
	}
	return t.String()
}

// ComponentInfo returns the description of a registered component. It panics on an unknown ID.
func (w *World) ComponentInfo(id ComponentID) *ComponentInfo {
	return &w.store(id).info
}

// ComponentByName returns the ID of the component registered under name.
func (w *World) ComponentByName(name string) (ComponentID, bool) {
	id, ok := w.nameToID[name]
	return id, ok
}

// ComponentIDs returns the IDs of all registered components in registration order. The slice is
// a copy.
func (w *World) ComponentIDs() []ComponentID {
	return append([]ComponentID(nil), w.compIDs...)
}

// idOfValue returns the ID for a dynamic value's type (T or *T).
// spawnIDOf is idOfValue for Spawn, which the world's owner alone calls (never a parallel system): it remembers
// the last types it was asked about, since a load spawns a million entities of the same few types and two map
// lookups a value were a third of each spawn.
func (w *World) spawnIDOf(v any) (ComponentID, bool) {
	t := reflect.TypeOf(v)
	for i := range w.spawnTypes {
		if h := &w.spawnTypes[i]; h.t == t && t != nil {
			return h.id, true
		}
	}
	id, ok := w.idOfValue(v)
	if ok { // types are never registered again under another id: a hit stays true
		w.spawnTypes[w.spawnNext%uint8(len(w.spawnTypes))] = typeHit{t, id}
		w.spawnNext++
	}
	return id, ok
}

// typeHit is a value type and its component id (World.spawnTypes).
type typeHit struct {
	t  reflect.Type
	id ComponentID
}

func (w *World) idOfValue(v any) (ComponentID, bool) {
	t := reflect.TypeOf(v)
	if t == nil {
		return 0, false
	}
	if id, ok := w.typeToID[t]; ok {
		return id, true
	}
	if t.Kind() == reflect.Pointer {
		if id, ok := w.typeToID[t.Elem()]; ok {
			return id, true
		}
	}
	return 0, false
}

// valueAt returns the addressable component value at p.
func (s *componentStore) valueAt(p unsafe.Pointer) reflect.Value {
	if o, ok := s.ops.(*reflectOps); ok {
		return o.at(p)
	}
	return reflect.NewAt(s.info.Type, p).Elem()
}

func (w *World) store(id ComponentID) *componentStore {
	if int(id) >= len(w.comps) {
		panic(fmt.Sprintf("ecs: unknown component ID %d (this world has %d registered components)", id, len(w.comps)))
	}
	return w.comps[id]
}

// componentStore holds everything the world knows about one component type.
type componentStore struct {
	info    ComponentInfo
	ops     columnOps
	size    uintptr
	trivial bool
	// cols maps a table index to the table's column for this component (nil if the table lacks it).
	cols   []*column
	sparse *sparseSet // non-nil for SparseSet storage
	// requires lists companions added and removed together with this component (Transform ->
	// GlobalTransform).
	requires []ComponentID
	// lastChange is the highest change tick written to any value of this component.
	lastChange uint32
	// shared says a snapshot may read the columns' memory (see Snapshot).
	shared bool
}

// columnOps are the typed operations on a component's memory, implemented generically per type
// at registration so that moves respect the garbage collector's write barriers without reflection.
type columnOps interface {
	alloc(n int) unsafe.Pointer
	grow(p unsafe.Pointer, n, newCap int) unsafe.Pointer
	move(dst, src unsafe.Pointer)
	zero(p unsafe.Pointer)
	setDefault(p unsafe.Pointer)
	load(p unsafe.Pointer) any
	store(p unsafe.Pointer, v any) bool
	// deepCopy copies n values from src to dst; shared is the type's ComponentInfo.SharesMemory.
	deepCopy(dst, src unsafe.Pointer, n int, shared bool)
}

type typedOps[T any] struct{ def T }

var zeroBase [8]uint64

func (o *typedOps[T]) alloc(n int) unsafe.Pointer {
	var z T
	if unsafe.Sizeof(z) == 0 || n == 0 {
		return unsafe.Pointer(&zeroBase)
	}
	s := make([]T, n)
	return unsafe.Pointer(&s[0])
}

func (o *typedOps[T]) grow(p unsafe.Pointer, n, newCap int) unsafe.Pointer {
	var z T
	if unsafe.Sizeof(z) == 0 {
		return unsafe.Pointer(&zeroBase)
	}
	s := make([]T, newCap)
	prefault.Slice(s) // the rows copied now, and the room that grew for rows to come
	if n > 0 {
		copyInChunks(s, unsafe.Slice((*T)(p), n))
	}
	return unsafe.Pointer(&s[0])
}

func (o *typedOps[T]) move(dst, src unsafe.Pointer) { *(*T)(dst) = *(*T)(src) }
func (o *typedOps[T]) zero(p unsafe.Pointer) {
	var z T
	*(*T)(p) = z
}
func (o *typedOps[T]) setDefault(p unsafe.Pointer) { *(*T)(p) = o.def }
func (o *typedOps[T]) load(p unsafe.Pointer) any   { return *(*T)(p) }
func (o *typedOps[T]) store(p unsafe.Pointer, v any) bool {
	switch x := v.(type) {
	case *T:
		if x == nil {
			return false
		}
		*(*T)(p) = *x
	case T:
		*(*T)(p) = x
	default:
		return false
	}
	return true
}

func (o *typedOps[T]) deepCopy(dst, src unsafe.Pointer, n int, shared bool) {
	d := unsafe.Slice((*T)(dst), n)
	s := unsafe.Slice((*T)(src), n)
	if !shared {
		copyInChunks(d, s)
		return
	}
	for i := range s {
		reflect.ValueOf(&d[i]).Elem().Set(deepCopyValue(reflect.ValueOf(s[i])))
	}
}

// reflectOps implements columnOps with reflection, for types registered with RegisterType.
type reflectOps struct {
	t       reflect.Type
	def     reflect.Value
	trivial bool           // no pointers: values move as bytes
	ptrWord unsafe.Pointer // the type word of an interface holding a *t (see at)
}

func newReflectOps(t reflect.Type, def reflect.Value) *reflectOps {
	tmpl := reflect.New(t).Interface()
	return &reflectOps{t: t, def: def, trivial: !typeHasPointers(t), ptrWord: (*eface)(unsafe.Pointer(&tmpl)).typ}
}

// eface is the layout of an interface value (runtime.eface).
type eface struct{ typ, data unsafe.Pointer }

func (o *reflectOps) alloc(n int) unsafe.Pointer {
	if o.t.Size() == 0 || n == 0 {
		return unsafe.Pointer(&zeroBase)
	}
	return reflect.MakeSlice(reflect.SliceOf(o.t), n, n).Index(0).Addr().UnsafePointer()
}

func (o *reflectOps) grow(p unsafe.Pointer, n, newCap int) unsafe.Pointer {
	if o.t.Size() == 0 {
		return unsafe.Pointer(&zeroBase)
	}
	s := reflect.MakeSlice(reflect.SliceOf(o.t), newCap, newCap)
	prefault.Range(s.Index(0).Addr().UnsafePointer(), uintptr(newCap)*o.t.Size())
	if n > 0 {
		old := reflect.NewAt(reflect.ArrayOf(n, o.t), p).Elem()
		reflect.Copy(s, old)
	}
	return s.Index(0).Addr().UnsafePointer()
}

// at returns the addressable value at p. It makes the *t interface by hand rather than with
// reflect.NewAt, whose pointer-type lookup is slow for types made by reflect.StructOf (they have
// no pointer type cached in them): a scene of declared components loads as fast as Go ones.
func (o *reflectOps) at(p unsafe.Pointer) reflect.Value {
	var x any
	e := (*eface)(unsafe.Pointer(&x))
	e.typ, e.data = o.ptrWord, p
	return reflect.ValueOf(x).Elem()
}
func (o *reflectOps) move(dst, src unsafe.Pointer) {
	if o.trivial {
		n := o.t.Size()
		copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
		return
	}
	o.at(dst).Set(o.at(src))
}
func (o *reflectOps) zero(p unsafe.Pointer)       { o.at(p).SetZero() }
func (o *reflectOps) setDefault(p unsafe.Pointer) { o.at(p).Set(o.def) }
func (o *reflectOps) load(p unsafe.Pointer) any   { return o.at(p).Interface() }
func (o *reflectOps) store(p unsafe.Pointer, v any) bool {
	rv := reflect.ValueOf(v)
	switch {
	case !rv.IsValid():
		return false
	case rv.Type() == o.t:
		o.at(p).Set(rv)
	case rv.Kind() == reflect.Pointer && rv.Type().Elem() == o.t && !rv.IsNil():
		if o.trivial {
			o.move(p, rv.UnsafePointer())
			return true
		}
		o.at(p).Set(rv.Elem())
	default:
		return false
	}
	return true
}

func (o *reflectOps) deepCopy(dst, src unsafe.Pointer, n int, shared bool) {
	if !shared {
		if size := int(o.t.Size()) * n; size > 0 {
			if o.trivial {
				copyInChunks(unsafe.Slice((*byte)(dst), size), unsafe.Slice((*byte)(src), size))
			} else {
				copy(unsafe.Slice((*byte)(dst), size), unsafe.Slice((*byte)(src), size))
			}
		}
		return
	}
	for i := range n {
		off := uintptr(i) * o.t.Size()
		o.at(unsafe.Add(dst, off)).Set(deepCopyValue(o.at(unsafe.Add(src, off))))
	}
}

// typeHasPointers reports whether values of t contain pointers, strings included (memory the
// garbage collector must see cleared).
func typeHasPointers(t reflect.Type) bool { return pointerKinds(t, true) }

// sharesMemory reports whether a copy of a value of t made by assignment can share mutable memory
// with the original (ComponentInfo.SharesMemory).
func sharesMemory(t reflect.Type) bool { return pointerKinds(t, false) }

// pointerKinds reports whether t holds a pointer-like value (strings count if withStrings).
func pointerKinds(t reflect.Type, withStrings bool) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.String:
		return withStrings
	case reflect.Array:
		return t.Len() > 0 && pointerKinds(t.Elem(), withStrings)
	case reflect.Struct:
		for i := range t.NumField() {
			if pointerKinds(t.Field(i).Type, withStrings) {
				return true
			}
		}
		return false
	}
	return true
}

// DeepCopy returns a copy of v that shares no mutable memory with it: slices, maps and pointed-to
// values are duplicated (recursively), as World.Clone copies components and resources. Strings,
// funcs, channels and the dynamic values of interfaces are shared.
func DeepCopy(v reflect.Value) reflect.Value { return deepCopyValue(v) }

// deepCopyValue implements DeepCopy.
func deepCopyValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(deepCopyValue(v.Index(i)))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			c.SetMapIndex(it.Key(), deepCopyValue(it.Value()))
		}
		return c
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(deepCopyValue(v.Elem()))
		return c
	case reflect.Struct:
		if !sharesMemory(v.Type()) {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(v) // copies unexported fields as well
		for i := range v.NumField() {
			if c.Field(i).CanSet() {
				c.Field(i).Set(deepCopyValue(v.Field(i)))
			}
		}
		return c
	case reflect.Array:
		if !sharesMemory(v.Type()) {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			c.Index(i).Set(deepCopyValue(v.Index(i)))
		}
		return c
	}
	return v
}
