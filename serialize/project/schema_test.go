package project

import (
	"os"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// TestJSONSchema keeps docs/schema/voltex.project.schema.json in step with the parser: the keys the schema
// allows for each object are the keys the parser reads, and the built-in type names are the same.
func TestJSONSchema(t *testing.T) {
	data, err := os.ReadFile("../../docs/schema/voltex.project.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := jsonpos.Parse(data, jsonpos.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Get("properties").Get("format").Get("const").IsStr(Format) {
		t.Error("wrong format const")
	}
	keys := func(v *jsonpos.Value) []string {
		var out []string
		for i := range v.Len() {
			out = append(out, v.Index(i).Key())
		}
		slices.Sort(out)
		return out
	}
	defs := s.Get("$defs")
	for what, c := range map[string]struct {
		props *jsonpos.Value
		want  []string
	}{
		"top level":    {s.Get("properties"), topKeys},
		"enum":         {defs.Get("enum").Get("properties"), enumKeys},
		"enum value":   {defs.Get("enumValues").Get("items").Get("oneOf").Index(1).Get("properties"), enumValueKeys},
		"struct":       {defs.Get("struct").Get("properties"), structKeys},
		"component":    {defs.Get("component").Get("properties"), componentKeys},
		"field":        {defs.Get("field").Get("properties"), fieldKeys},
		"element type": {defs.Get("elementType").Get("oneOf").Index(1).Get("properties"), elemKeys},
	} {
		want := slices.Sorted(slices.Values(c.want))
		if got := keys(c.props); !slices.Equal(got, want) {
			t.Errorf("%s: the schema has %v, the parser reads %v", what, got, want)
		}
	}
	// The counted limits.
	for what, c := range map[string]struct {
		list *jsonpos.Value
		want int
	}{
		"components":           {s.Get("properties").Get("components"), MaxComponents},
		"enums":                {s.Get("properties").Get("enums"), MaxEnums},
		"structs":              {s.Get("properties").Get("structs"), MaxStructs},
		"enum values":          {defs.Get("enumValues"), MaxEnumValues},
		"a struct's fields":    {defs.Get("struct").Get("properties").Get("fields"), MaxFields},
		"a component's fields": {defs.Get("component").Get("properties").Get("fields"), MaxFields},
	} {
		var got int64
		if m := c.list.Get("maxItems"); m != nil {
			got, _ = m.Int()
		}
		if got != int64(c.want) {
			t.Errorf("%s: the schema's maxItems is %d, the parser's limit %d", what, got, c.want)
		}
	}
	var types []string
	enum := defs.Get("type").Get("anyOf").Index(0).Get("enum")
	for i := range enum.Len() {
		types = append(types, enum.Index(i).Str())
	}
	slices.Sort(types)
	var want []string
	for k := range builtinKinds {
		want = append(want, k)
	}
	slices.Sort(want)
	if !slices.Equal(types, want) {
		t.Errorf("built-in types: the schema has %v, the parser %v", types, want)
	}
}
