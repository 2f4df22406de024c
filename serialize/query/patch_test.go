package query

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/serialize"
)

// patchScene edits src (a scene file's text) with edit on the entities q matches, as `voltex-editor set` does.
func patchScene(t *testing.T, src, q, edit string) ([]byte, error) {
	t.Helper()
	s, err := serialize.Load(context.Background(), strings.NewReader(src), serialize.LoadOptions{File: "s.json"})
	if err != nil {
		t.Fatal(err)
	}
	qq, err := Parse(s.World, q)
	if err != nil {
		t.Fatal(err)
	}
	e, err := ParseEdit(s.World, edit)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := e.Apply(s.World, qq.Eval(s.World).Entities(), 1)
	if err != nil {
		t.Fatal(err)
	}
	vals, err := e.Texts(s.World, changes)
	if err != nil {
		t.Fatal(err)
	}
	return Patch([]byte(src), "s.json", vals)
}

// TestPatchKeepsEveryOtherByte: whatever the file's layout (a component over several lines, CRLF, literals such
// as 1.0 and 1e0, text before the value on its line, a byte order mark), only the edited values' text changes.
func TestPatchKeepsEveryOtherByte(t *testing.T) {
	src := "\ufeff{\"format\": \"voltex.scene\", \"version\": 2, \"entities\": [{\"id\": 7, \"name\": \"Ünïcødé \\\"q\\\"\", \"components\": {\"Spin\": {\"axis\": [0, 1.0, 0], \"speed\": 1e1}}},\r\n" +
		"  {\"id\": 8, \"name\": \"B\", \"components\": {\r\n    \"Transform\": {\r\n      \"position\": [ 1.50 ,\r\n 2 , 3 ],\r\n" +
		"      \"rotation\": [0, 0, 0], \"scale\": [1, 1, 1] },\r\n    \"Spin\": { \"speed\": 5 } } }]}\r\n"
	cases := []struct{ q, edit, want string }{
		{"Spin", "Spin.speed*=2", strings.Replace(strings.Replace(src, "1e1", "20", 1), `"speed": 5`, `"speed": 10`, 1)},
		{"Transform", "Transform.position+=[1, 0, 0]", strings.Replace(src, "1.50", "2.5", 1)},
		{"Transform", "Transform.position.y=x", src},
		{"id=7", `name="Ren\"amed"`, strings.Replace(src, `"Ünïcødé \"q\""`, `"Ren\"amed"`, 1)},
		{"id=7", "Spin.axis.y=-1", strings.Replace(src, "1.0", "-1", 1)},
	}
	for _, c := range cases {
		got, err := patchScene(t, src, c.q, c.edit)
		if err != nil {
			t.Errorf("%s: %v", c.edit, err)
			continue
		}
		if !bytes.Equal(got, []byte(c.want)) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.edit, got, c.want)
		}
	}
	if _, err := patchScene(t, src, "id=8", "Spin.axis.y+=1"); err == nil || !strings.Contains(err.Error(), "entity 8: Spin.axis.y is not written in the file") {
		t.Errorf("a default left out: %v", err)
	}
}
