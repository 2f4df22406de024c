package project

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
)

// Register registers the project's components with w (made by scene.NewWorld or a game's own
// world maker). A component w already has under the same name — a Go type the game registered,
// typically made from this file by `voltex-editor gen` — must match its declaration (fields, types,
// hints, enum values, former names, defaults, storage, flags); then the Go type stays and the
// declaration adds nothing. Any mismatch, a declaration named like a built-in component, or a
// former name that another component uses is an *Error at the declaration, and then nothing is
// registered.
func (p *Project) Register(w *ecs.World) error {
	probs := &diag.List{File: p.File}
	var add []*Component
	for i, c := range p.Components {
		path := "components[" + strconv.Itoa(i) + "]"
		if id, ok := w.ComponentByName(c.Name); ok {
			info := w.ComponentInfo(id)
			switch {
			case info.Type == c.Type: // this project, registered before
			case scene.Builtin(info):
				probs.Errorf(c.Pos.Line, c.Pos.Col, path+".name", "%s is a built-in component; give yours another name", c.Name)
			default:
				if d := differs(c, info); d != "" {
					probs.Errorf(c.Pos.Line, c.Pos.Col, path, "component %s is also registered in Go (%v), differently: %s; "+
						"make them agree (voltex-editor gen writes the Go types from this file) or rename one", c.Name, info.Type, d)
				}
			}
		} else {
			add = append(add, c)
		}
		for _, f := range c.FormerNames {
			if id, ok := w.ComponentByName(f); ok && w.ComponentInfo(id).Type != c.Type {
				probs.Errorf(c.Pos.Line, c.Pos.Col, path+".formerNames", "former name %q is the name of another component", f)
			}
		}
	}
	for _, id := range w.ComponentIDs() {
		info := w.ComponentInfo(id)
		for _, f := range info.FormerNames {
			if c := p.Component(f); c != nil && c.Type != info.Type {
				probs.Errorf(c.Pos.Line, c.Pos.Col, "", "%s is a former name of component %s (registered in Go); choose another name", f, info.Name)
			}
		}
	}
	if n := len(w.ComponentIDs()) + len(add); n > ecs.MaxComponents {
		probs.Errorf(1, 1, "components", "%d components in all: a world holds at most %d", n, ecs.MaxComponents)
	}
	if err := probs.Err(); err != nil {
		return err
	}
	for _, c := range add {
		opts := []ecs.RegisterOption{ecs.WithName(c.Name), ecs.WithDefault(c.Default), ecs.WithStorage(c.Storage),
			ecs.WithItemDefaults(itemDefaults(c))}
		if len(c.FormerNames) > 0 {
			opts = append(opts, ecs.WithFormerNames(c.FormerNames...))
		}
		if c.EditorOnly {
			opts = append(opts, ecs.WithEditorOnly())
		}
		if c.Transient {
			opts = append(opts, ecs.WithTransient())
		}
		ecs.RegisterType(w, c.Type, opts...)
	}
	return nil
}

// NewWorld returns a world maker that calls base (scene.NewWorld when nil) and registers the
// project's components. It checks once, on a world made by base, that they can be registered there
// (see Register) and returns that error otherwise; so the maker it returns does not fail.
func (p *Project) NewWorld(base func() *ecs.World) (func() *ecs.World, error) {
	if base == nil {
		base = scene.NewWorld
	}
	if err := p.Register(base()); err != nil {
		return nil, err
	}
	return func() *ecs.World {
		w := base()
		if err := p.Register(w); err != nil {
			panic(fmt.Sprintf("project: the world maker registered other components than on its first call: %v", err))
		}
		return w
	}, nil
}

// differs describes the first difference between declaration c and the registered component
// info ("" when they agree).
func differs(c *Component, info *ecs.ComponentInfo) string {
	switch {
	case c.Storage != info.Storage:
		return fmt.Sprintf("storage: the file says %v, Go has %v", c.Storage, info.Storage)
	case !slices.Equal(c.FormerNames, info.FormerNames):
		return fmt.Sprintf("former names: the file says %q, Go has %q", c.FormerNames, info.FormerNames)
	case c.EditorOnly != scene.IsEditorOnly(info):
		return fmt.Sprintf("editorOnly: the file says %v, Go says %v", c.EditorOnly, scene.IsEditorOnly(info))
	case c.Transient != scene.IsTransient(info):
		return fmt.Sprintf("transient: the file says %v, Go says %v", c.Transient, scene.IsTransient(info))
	}
	tw := ecs.NewWorld()
	decl := tw.ComponentInfo(ecs.RegisterType(tw, c.Type, ecs.WithName(c.Name), ecs.WithDefault(c.Default),
		ecs.WithItemDefaults(itemDefaults(c)))).Schema
	if d := diffFields(decl.Fields, info.Schema.Fields, ""); d != "" {
		return d
	}
	if d := diffValues(reflect.ValueOf(decl.Default), reflect.ValueOf(info.Schema.Default), ""); d != "" {
		return "default " + d
	}
	return ""
}

func diffFields(a, b []ecs.Field, at string) string {
	for i := range max(len(a), len(b)) {
		switch {
		case i >= len(a):
			return fmt.Sprintf("field %q is only in Go", join(at, b[i].JSONName))
		case i >= len(b):
			return fmt.Sprintf("field %q is only in the file", join(at, a[i].JSONName))
		case a[i].JSONName != b[i].JSONName:
			return fmt.Sprintf("field %d is %q in the file and %q in Go", i+1, join(at, a[i].JSONName), join(at, b[i].JSONName))
		}
		if d := diffField(&a[i], &b[i], join(at, a[i].JSONName)); d != "" {
			return d
		}
	}
	return ""
}

func diffField(a, b *ecs.Field, at string) string {
	switch {
	case a.Kind != b.Kind || a.Len != b.Len || a.IsEntity != b.IsEntity:
		return fmt.Sprintf("field %q: the file makes it %v, Go has %v", at, a.Type, b.Type)
	case !slices.Equal(a.Enum, b.Enum):
		return fmt.Sprintf("field %q: enum values %v in the file, %v in Go", at, a.Enum, b.Enum)
	case !slices.Equal(a.FormerNames, b.FormerNames):
		return fmt.Sprintf("field %q: former names %q in the file, %q in Go", at, a.FormerNames, b.FormerNames)
	case a.Hints != b.Hints:
		return fmt.Sprintf("field %q: hints %+v in the file, %+v in Go", at, a.Hints, b.Hints)
	}
	if (a.Elem == nil) != (b.Elem == nil) {
		return fmt.Sprintf("field %q: the file makes it %v, Go has %v", at, a.Type, b.Type)
	}
	if a.Elem != nil {
		if d := diffField(a.Elem, b.Elem, at+"[]"); d != "" {
			return d
		}
		if a.Kind == reflect.Slice {
			if d := diffValues(itemValue(a.Elem), itemValue(b.Elem), at+"[]"); d != "" {
				return "new item " + d
			}
		}
	}
	return diffFields(a.Fields, b.Fields, at)
}

// diffValues compares two values of equivalent types (kinds, lengths, exported fields in order).
func diffValues(a, b reflect.Value, at string) string {
	if a.Kind() != b.Kind() {
		return fmt.Sprintf("of %q: %v in the file, %v in Go", at, a.Type(), b.Type())
	}
	differ := func() string { return fmt.Sprintf("of %q: %v in the file, %v in Go", at, a.Interface(), b.Interface()) }
	switch a.Kind() {
	case reflect.Struct:
		if a.Type() == entityType || b.Type() == entityType {
			if a.Interface() != b.Interface() {
				return differ()
			}
			return ""
		}
		var fa, fb []int
		for i := range a.NumField() {
			if sf := a.Type().Field(i); sf.IsExported() && sf.Tag.Get("json") != "-" {
				fa = append(fa, i)
			}
		}
		for i := range b.NumField() {
			if sf := b.Type().Field(i); sf.IsExported() && sf.Tag.Get("json") != "-" {
				fb = append(fb, i)
			}
		}
		if len(fa) != len(fb) {
			return fmt.Sprintf("of %q: different fields", at)
		}
		for k := range fa {
			if d := diffValues(a.Field(fa[k]), b.Field(fb[k]), join(at, a.Type().Field(fa[k]).Name)); d != "" {
				return d
			}
		}
	case reflect.Array, reflect.Slice:
		if a.Len() != b.Len() {
			return differ()
		}
		for i := range a.Len() {
			if d := diffValues(a.Index(i), b.Index(i), at+"["+strconv.Itoa(i)+"]"); d != "" {
				return d
			}
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return differ()
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return differ()
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if a.Uint() != b.Uint() {
			return differ()
		}
	case reflect.Float32, reflect.Float64:
		if a.Float() != b.Float() {
			return differ()
		}
	case reflect.String:
		if a.String() != b.String() {
			return differ()
		}
	}
	return ""
}

// itemDefaults returns the defaults of the struct types of c's list items (at any depth), which
// reflect.StructOf types cannot give with a Default method (see ecs.WithItemDefaults).
func itemDefaults(c *Component) map[reflect.Type]any {
	m := map[reflect.Type]any{}
	var walk func(t *Type)
	walk = func(t *Type) {
		switch t.Kind {
		case Array, List:
			if e := t.Elem; e.Kind == StructKind && e.Struct.Type != nil {
				if _, seen := m[e.Struct.Type]; !seen {
					m[e.Struct.Type] = e.Struct.Default.Interface()
					walk(e)
				}
				return
			}
			walk(t.Elem)
		case StructKind:
			for _, f := range t.Struct.Fields {
				walk(f.Type)
			}
		}
	}
	for _, f := range c.Fields {
		walk(f.Type)
	}
	return m
}

// itemValue returns the value a new item of an array or slice starts with (e is its Elem).
func itemValue(e *ecs.Field) reflect.Value {
	if e.Default != nil {
		return reflect.ValueOf(e.Default)
	}
	return reflect.Zero(e.Type)
}

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}
