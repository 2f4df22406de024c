package project

import (
	"fmt"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// The counts a project file is refused over as soon as it passes them, while it is read: a file
// listing 300,000 components is refused at the 257th, a few kilobytes into it.
const (
	MaxComponents = ecs.MaxComponents // components (a world holds at most this many types)
	MaxEnums      = 4096              // named enums
	MaxStructs    = 4096              // named structs
	MaxEnumValues = 1024              // values of one enum
)

// jsonLimits bound the JSON of a project file: every value outside the declaration lists counts
// against MaxValues, so a small file of "[[],[],…" cannot take gigabytes.
var jsonLimits = jsonpos.Limits{MaxBytes: MaxFileSize, MaxDepth: 64, MaxString: 1 << 16, MaxValues: 1 << 20}

// errLimit stops reading at a counted limit; the problem is in the reader's list.
type errLimit struct{}

func (errLimit) Error() string { return "over a limit" }

// treeReader reads a project file into a tree as a stream, counting the declarations and the
// fields and values of named declarations as it goes. It builds the containers of those lists
// itself and reads everything else with the decoder (within jsonLimits).
type treeReader struct {
	d     *jsonpos.Decoder
	probs *diag.List
	path  diag.Path
}

// read reads the whole file. A syntax error or a limit is reported in r.probs (and returned).
func (r *treeReader) read() (jsonpos.Value, error) {
	v, err := r.object(func(key string) (int, string, func() (jsonpos.Value, error)) {
		switch key {
		case "components":
			return MaxComponents, fmt.Sprintf("more than %d components: a world holds at most %d component types", MaxComponents, MaxComponents), r.fieldsDecl
		case "structs":
			return MaxStructs, fmt.Sprintf("more than %d named structs; at most %d", MaxStructs, MaxStructs), r.fieldsDecl
		case "enums":
			return MaxEnums, fmt.Sprintf("more than %d named enums; at most %d", MaxEnums, MaxEnums), r.enumDecl
		}
		return 0, "", nil
	})
	if err == nil {
		err = r.d.Finish()
	}
	if se, ok := err.(*jsonpos.SyntaxError); ok {
		r.probs.Errorf(se.Pos.Line, se.Pos.Col, "", "%s", se.Msg)
	}
	return v, err
}

// fieldsDecl reads a component or struct: its "fields" are counted.
func (r *treeReader) fieldsDecl() (jsonpos.Value, error) {
	return r.object(func(key string) (int, string, func() (jsonpos.Value, error)) {
		if key == "fields" {
			return MaxFields, fmt.Sprintf("more than %d fields; at most %d", MaxFields, MaxFields), r.d.Value
		}
		return 0, "", nil
	})
}

// enumDecl reads a named enum: its "values" are counted.
func (r *treeReader) enumDecl() (jsonpos.Value, error) {
	return r.object(func(key string) (int, string, func() (jsonpos.Value, error)) {
		if key == "values" {
			return MaxEnumValues, fmt.Sprintf("more than %d values; an enum has at most %d", MaxEnumValues, MaxEnumValues), r.d.Value
		}
		return 0, "", nil
	})
}

// object reads the next value; when it is an object, the members that list says are lists
// (their limit, the problem past it, and how to read an item) are read as counted lists.
func (r *treeReader) object(list func(key string) (limit int, over string, item func() (jsonpos.Value, error))) (jsonpos.Value, error) {
	if k, _, err := r.d.Peek(); err != nil || k != jsonpos.Object {
		return r.d.Value()
	}
	pos, err := r.d.EnterObject()
	if err != nil {
		return jsonpos.Value{}, err
	}
	obj := jsonpos.NewObject()
	obj.SetPos(pos)
	for {
		key, keyPos, ok, err := r.d.NextMember()
		if err != nil || !ok {
			return obj, err
		}
		name := string(key)
		mark := r.path.Key(name)
		var v jsonpos.Value
		if limit, over, item := list(name); item != nil {
			v, err = r.list(limit, over, item)
		} else {
			v, err = r.d.Value()
		}
		r.path.Truncate(mark)
		if err != nil {
			return obj, err
		}
		obj.AppendMember(key, keyPos, v)
	}
}

// list reads the next value; when it is an array, its items are read with item and counted, and
// reading stops with a problem at the first item past limit.
func (r *treeReader) list(limit int, over string, item func() (jsonpos.Value, error)) (jsonpos.Value, error) {
	if k, _, err := r.d.Peek(); err != nil || k != jsonpos.Array {
		return r.d.Value()
	}
	pos, err := r.d.EnterArray()
	if err != nil {
		return jsonpos.Value{}, err
	}
	var items []jsonpos.Value
	for i := 0; ; i++ {
		ok, err := r.d.NextItem()
		if err != nil || !ok {
			arr := jsonpos.NewArray(items...)
			arr.SetPos(pos)
			return arr, err
		}
		mark := r.path.Index(i)
		if i == limit {
			_, at, err := r.d.Peek()
			if err != nil {
				return jsonpos.Value{}, err
			}
			r.probs.Errorf(at.Line, at.Col, r.path.String(), "%s", over)
			return jsonpos.Value{}, errLimit{}
		}
		v, err := item()
		r.path.Truncate(mark)
		if err != nil {
			return jsonpos.Value{}, err
		}
		items = append(items, v)
	}
}
