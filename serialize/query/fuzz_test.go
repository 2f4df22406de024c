package query

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/voltex-editor/voltex/ecs"
)

// FuzzQuery: no input makes Parse, Eval, ParseEdit or Apply panic; every refusal is an *Error with
// a column inside the input (or just after it).
func FuzzQuery(f *testing.F) {
	for _, s := range []string{
		`Unit.team=Red Health.current<50 !Spin name~"Orc*" parent:"Wave 2"`,
		`(Spin or Frozen) and not Unit.alive=true`,
		`Transform.scale=[2,2,2] | Unit.home.y>=1`,
		`parent:(Unit.level>5 && name!~"*r*")`,
		`Unit.target="Orc Chief" Unit.target!=none id>3`,
		`Transform.position.y+=1`,
		`Transform.scale*=2`,
		`Unit.speed=max(x, rand(0, 10)) * -2`,
		`Unit.home=[x+1, (x), 3/x]`,
		`name="a \"quoted\" \\ name"`,
		`Unit.team=Blue`,
		`((((Spin`,
		`!!!!!`,
		`Unit.tag~"[*"`,
		"name~\"\xff\"",
	} {
		f.Add(s)
	}
	w, es := testScene(f)
	ents := []ecs.Entity{es["Orc Grunt"], es["Orc Chief"], es["Elf Archer"], es["Tree"]}
	checkErr := func(t *testing.T, src string, err error) {
		var qe *Error
		if !errors.As(err, &qe) {
			t.Fatalf("%q: %v is not an *Error", src, err)
		}
		if n := utf8.RuneCountInString(src); qe.Col < 1 || qe.Col > n+1 {
			t.Fatalf("%q: column %d outside 1..%d: %v", src, qe.Col, n+1, err)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2000 {
			return
		}
		q, err := Parse(w, src)
		if err != nil {
			checkErr(t, src, err)
		} else if r := q.Eval(w); r.Len() != len(r.Entities()) {
			t.Fatalf("%q: Len %d, %d entities", src, r.Len(), len(r.Entities()))
		}
		e, err := ParseEdit(w, src)
		if err != nil {
			checkErr(t, src, err)
			return
		}
		_, _ = e.Apply(w, ents, 1) // errors are the values' (a result out of range): fine
	})
}
