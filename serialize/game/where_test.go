package game

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Every value and key of a game component maps back to where it starts in the file, whatever
// the layout: the one-line spacing `voltex-editor export` writes, compact, pretty-printed,
// re-escaped strings, non-ASCII text; checked against a second parse of the whole file.
func TestWhereMapsEveryValue(t *testing.T) {
	comps := []string{
		`{ "hp": 10, "target": 1, "route": [{ "at": [1, 2, 3], "wait": 0.5 }], "tags": [], "o": {} }`,
		`{"hp":10,"target":1,"name":"a\"b\\c","u":"\u0041\u00e9 ünï","n":null,"b":[true,false]}`,
		"{\n\t\"hp\" :\n  10 ,\"deep\": [[[ 1 ] , {\"x\" : { \"y\" : [ ] } } ]],\r\n \"s\": \"x\\ny\" }",
		`{}`,
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ws := []string{"", " ", "  ", "\n", "\n    ", "\t"}
	for range 50 { // random layouts of a component
		var b strings.Builder
		sp := func() { b.WriteString(ws[rng.IntN(len(ws))]) }
		b.WriteString("{")
		for k := range 1 + rng.IntN(4) {
			if k > 0 {
				sp()
				b.WriteString(",")
			}
			sp()
			b.WriteString(`"f` + string(rune('a'+k)) + `"`)
			sp()
			b.WriteString(":")
			sp()
			b.WriteString([]string{`1`, `"é\u00e9"`, `[1, [2,3], {"z" : -1.5e3}]`, `{ }`, `true`}[rng.IntN(5)])
			sp()
		}
		b.WriteString("}")
		comps = append(comps, b.String())
	}
	var src strings.Builder
	src.WriteString(`{"format": "voltex.export", "version": 1, "entities": [`)
	for i, c := range comps {
		if i > 0 {
			src.WriteString(",\n")
		}
		src.WriteString(`{"name": "é", "world": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1], "components": {"Transform": {}, "Game": ` + c + `, "Other": {"a": 1}}}`)
	}
	src.WriteString("]}")
	s, err := LoadWith(strings.NewReader(src.String()), "e.json", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := jsonpos.Parse([]byte(src.String()), jsonpos.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if s.File != "e.json" {
		t.Fatalf("File %q", s.File)
	}
	for i := range comps {
		for _, name := range []string{"Game", "Other"} {
			orig := whole.Get("entities").Index(i).Get("components").Get(name)
			kept, err := jsonpos.Parse(s.Entities[i].Components[name], jsonpos.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var walk func(o, k *jsonpos.Value, path string)
			walk = func(o, k *jsonpos.Value, path string) {
				check := func(op, kp jsonpos.Pos, what string) {
					if kp.Line != 1 {
						t.Fatalf("kept JSON of %s is not on one line", path)
					}
					if l, c := s.Where(i, name, kp.Col-1); l != op.Line || c != op.Col {
						t.Errorf("entities[%d].%s %s%s: Where gives %d:%d, the file has %v\n%s", i, name, what, path, l, c, op, comps[i])
					}
				}
				check(o.Pos(), k.Pos(), "value ")
				for j := range o.Len() {
					if o.Kind() == jsonpos.Object {
						check(o.Index(j).KeyPos(), k.Index(j).KeyPos(), "key ")
					}
					walk(o.Index(j), k.Index(j), path+"/"+o.Index(j).Key())
				}
			}
			walk(orig, &kept, "")
		}
	}
	// Unknown positions are 0, 0, never a guess or a panic.
	for _, c := range []struct {
		i    int
		name string
		off  int
	}{{-1, "Game", 0}, {len(comps), "Game", 0}, {0, "Nope", 0}, {0, "Transform", 0}, {0, "Game", -1}, {0, "Game", 1 << 20}} {
		if l, col := s.Where(c.i, c.name, c.off); l != 0 || col != 0 {
			t.Errorf("Where(%d, %q, %d) = %d:%d, want 0:0", c.i, c.name, c.off, l, col)
		}
	}
	built := &Scene{Entities: []Entity{{Components: map[string][]byte{"Game": []byte(`{}`)}}}}
	if l, c := built.Where(0, "Game", 0); l != 0 || c != 0 {
		t.Errorf("a Scene built in code: %d:%d", l, c)
	}
	copied := &Scene{Entities: []Entity{s.Entities[3]}} // an entity moved to a scene without the table
	if l, c := copied.Where(0, "Game", 0); l != 0 || c != 0 {
		t.Errorf("an entity of another scene: %d:%d", l, c)
	}
}
