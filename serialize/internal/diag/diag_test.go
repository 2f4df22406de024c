package diag

import (
	"errors"
	"testing"
)

func TestProblemString(t *testing.T) {
	for _, tc := range []struct {
		p    Problem
		want string
	}{
		{Problem{File: "a.json", Line: 3, Col: 7, Path: "entities[0].id", Msg: "bad"}, "a.json:3:7: entities[0].id: bad"},
		{Problem{File: "a.json", Msg: "empty"}, "a.json: empty"},
		{Problem{Line: 1, Col: 2, Msg: "m", Warning: true}, "1:2: warning: m"},
		{Problem{Msg: "m", Path: "x"}, "x: m"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("got %q want %q", got, tc.want)
		}
	}
}

func TestListLimit(t *testing.T) {
	l := List{File: "f", Max: 2}
	l.Warnf(1, 1, "", "w")
	if l.Err() != nil || l.HasErrors() {
		t.Fatal("warnings alone are not an error")
	}
	for i := range 5 {
		l.Errorf(i+1, 1, "p", "e%d", i)
	}
	if !l.Full() || l.Dropped != 3 || len(l.Problems) != 3 {
		t.Fatalf("full=%v dropped=%d kept=%d", l.Full(), l.Dropped, len(l.Problems))
	}
	var e *Error
	if !errors.As(l.Err(), &e) {
		t.Fatal("Err is not *Error")
	}
	want := "f:1:1: warning: w\nf:1:1: p: e0\nf:2:1: p: e1\n… and 3 more problems"
	if e.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", e.Error(), want)
	}
	if len(l.Warnings()) != 1 {
		t.Error("Warnings")
	}
}

func TestPath(t *testing.T) {
	var p Path
	m0 := p.Key("entities")
	p.Index(12)
	m := p.Key("components")
	p.Key("Transform")
	p.Key("scale")
	p.Index(2)
	if got := p.String(); got != "entities[12].components.Transform.scale[2]" {
		t.Errorf("got %s", got)
	}
	p.Truncate(m)
	p.Key("my comp")
	p.Key("9lives")
	if got := p.String(); got != `entities[12]["my comp"]["9lives"]` {
		t.Errorf("got %s", got)
	}
	p.Truncate(m0)
	if p.String() != "" {
		t.Error("truncate to start")
	}
}

func TestLimit(t *testing.T) {
	if Limit(0, 5) != 5 || Limit(-1, 5) != 0 || Limit(7, 5) != 7 {
		t.Error("Limit")
	}
}

func TestMore(t *testing.T) {
	if got := (&Error{Dropped: 1}).More(); got != "… and 1 more problem" {
		t.Error(got)
	}
	if got := (&Error{Dropped: 9900}).More(); got != "… and 9,900 more problems" {
		t.Error(got)
	}
}
