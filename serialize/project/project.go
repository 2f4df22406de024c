package project

import (
	"errors"
	"fmt"
	"github.com/voltex-editor/voltex/internal/words"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// FileName is the name of a project file. [Find] looks for it next to a scene and in the
// folders above.
const FileName = "voltex.project.json"

// Format and Version identify project files (the "format" and "version" keys).
const (
	Format  = "voltex.project"
	Version = 1
)

// MaxFileSize bounds the project files [Load] reads.
const MaxFileSize = 16 << 20

// Problem is one problem found in a project file ("file:line:col: path: message").
type Problem = diag.Problem

// Error lists the problems of a project file that cannot be used.
type Error = diag.Error

// Pos is where a declaration starts in its file (1-based line and byte column).
type Pos struct{ Line, Col int }

// Project is a parsed project file: the game's component declarations, with the Go types built
// from them.
type Project struct {
	// File is the path the project was read from (as given to Load or Parse).
	File       string
	Enums      []*Enum      // named enums, in file order
	Structs    []*Struct    // named structs, in file order
	Components []*Component // in file order, which is registration order
}

// Enum is an integer type whose values have names.
type Enum struct {
	Name        string
	Description string
	Values      []ecs.EnumValue
	// Inline enums are declared in a field ("type": "enum"); Name is then made from the owner's
	// and the field's names (EnemyMood), which is what gen calls the Go type.
	Inline bool
	Pos    Pos
}

// Struct is a named group of fields, used as the type of fields (nested structs).
type Struct struct {
	Name        string
	Description string
	Fields      []*Field
	// Inline structs are declared in a field ("type": "struct"); Name is made like an inline
	// Enum's.
	Inline bool
	// Type is the Go struct type built from the fields; Default its default value.
	Type    reflect.Type
	Default reflect.Value
	Pos     Pos
}

// Component is one declared component.
type Component struct {
	Name        string
	Description string
	FormerNames []string
	Storage     ecs.Storage
	// EditorOnly components are saved in scenes and left out of game exports; Transient ones are
	// never written to a file.
	EditorOnly, Transient bool
	Fields                []*Field
	// Type is the Go struct type built from the fields (reflect.StructOf); Default is its default
	// value (every field's default), a value of Type.
	Type    reflect.Type
	Default any
	Pos     Pos
}

// Field is one field of a component or struct.
type Field struct {
	Name        string // the JSON name, as scene files write it
	GoName      string // the exported Go name (max_speed and maxSpeed are both MaxSpeed; default is Default_)
	FormerNames []string
	Description string // the tooltip
	Type        *Type
	Hints       ecs.Hints
	// DefaultJSON is the "default" value as written ("" when the field has none); the decoded
	// default is part of the owner's Default.
	DefaultJSON string
	Pos         Pos
}

// Kind is the kind of a declared type.
type Kind uint8

// The kinds of declared types and the Go types they are stored as.
const (
	Bool       Kind = iota + 1 // bool
	Int                        // int32
	Float                      // float32
	String                     // string
	Asset                      // string naming an asset
	Vec2                       // mgl32.Vec2
	Vec3                       // mgl32.Vec3
	Vec4                       // mgl32.Vec4
	Color                      // mgl32.Vec4: linear RGBA, each channel 0..1
	Entity                     // ecs.Entity: a reference to another entity
	EnumKind                   // int32 with named values
	Array                      // [Len]Elem
	List                       // []Elem
	StructKind                 // a nested struct
)

var kindNames = [...]string{Bool: "bool", Int: "int", Float: "float", String: "string", Asset: "asset", Vec2: "vec2",
	Vec3: "vec3", Vec4: "vec4", Color: "color", Entity: "entity", EnumKind: "enum", Array: "array", List: "list",
	StructKind: "struct"}

// String returns the kind's name in project files ("vec3").
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Type is a declared field type.
type Type struct {
	Kind   Kind
	Len    int     // Array
	Elem   *Type   // Array, List
	Enum   *Enum   // EnumKind
	Struct *Struct // StructKind
	// Go is the Go type values are stored as.
	Go reflect.Type
}

// Component returns the declaration named name, or nil.
func (p *Project) Component(name string) *Component {
	for _, c := range p.Components {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Find returns the project file that applies to files in folder dir: dir's voltex.project.json,
// else the nearest one in the folders above it (the way go finds go.mod); "" when there is none.
// The path is relative to the working folder when dir is relative and the file is inside the
// working folder (so messages name it the way the user named the scene), absolute otherwise.
func Find(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(abs, FileName)
		st, err := os.Stat(p)
		switch {
		case err == nil && !st.IsDir():
			if !filepath.IsAbs(dir) {
				if wd, err := os.Getwd(); err == nil {
					if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
						return rel, nil
					}
				}
			}
			return p, nil
		case err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission):
			return "", err
		}
		up := filepath.Dir(abs)
		if up == abs {
			return "", nil
		}
		abs = up
	}
}

// FindFor returns the project file that applies to the scene (or other file) at path: see Find.
func FindFor(path string) (string, error) { return Find(filepath.Dir(path)) }

// Load reads and parses the project file at path (see Parse). Problems are reported under path.
func Load(path string) (*Project, error) {
	// The project file is found, not named: a named pipe or a device in its place is refused
	// before it is opened (opening a pipe that nothing writes would block).
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{Problems: []Problem{{File: path, Msg: fmt.Sprintf("not a regular file (%s)", describeMode(st.Mode()))}}}
	}
	if st.Size() > MaxFileSize {
		return nil, &Error{Problems: []Problem{{File: path, Line: 1, Col: 1,
			Msg: fmt.Sprintf("the project file is larger than the limit of %s", words.Bytes(MaxFileSize))}}}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	return Read(f, path)
}

// Read reads a project file from r as a stream, within MaxFileSize; file names it in problems.
// Like Parse, it stops at the first declaration past a counted limit (MaxComponents …), so what
// follows is never read.
func Read(r io.Reader, file string) (*Project, error) {
	return parse(jsonpos.NewDecoder(r, jsonLimits), file)
}

// describeMode names the type of a file that is not a regular file.
func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return m.Type().String()
}
