package jsonpos

import (
	"testing"
)

// A value read with a Cursor and committed leaves the Decoder where Value leaves it: at the same offset, and
// with the positions of what follows the same.
func TestCursorCommitKeepsPositions(t *testing.T) {
	src := "[\n  {\"id\": 12, \"name\": \"a\",\r\n \"v\":\t[1.5, -0, 2e3], \"on\": true},\n  {\"id\": 13}, {\"x\": false}\n]"
	read := func(cursor bool) (Pos, int64, int64) {
		d := NewBytesDecoder([]byte(src), Limits{})
		if _, err := d.EnterArray(); err != nil {
			t.Fatal(err)
		}
		if more, err := d.NextItem(); !more || err != nil {
			t.Fatal(more, err)
		}
		if cursor {
			c, ok := d.Cursor(1 << 10)
			if !ok || !readObject(&c) {
				t.Fatal("the cursor did not read the first item")
			}
			d.Commit(&c)
		} else if _, err := d.Value(); err != nil {
			t.Fatal(err)
		}
		if more, err := d.NextItem(); !more || err != nil {
			t.Fatal(more, err)
		}
		v, err := d.Value()
		if err != nil {
			t.Fatal(err)
		}
		id, _ := v.Get("id").Int()
		return v.Pos(), d.Offset(), id
	}
	wantPos, wantOff, wantID := read(false)
	if pos, off, id := read(true); pos != wantPos || off != wantOff || id != wantID {
		t.Errorf("after the cursor: item at %v, offset %d, id %d; after Value: %v, %d, %d", pos, off, id, wantPos, wantOff, wantID)
	}
}

// readObject reads an object with c, its values in their inline form.
func readObject(c *Cursor) bool {
	if !c.Open('{') {
		return false
	}
	for first := true; ; first = false {
		_, more, ok := c.Member(first)
		if !ok || !more {
			return ok
		}
		if _, ok := c.Inline(); !ok {
			return false
		}
	}
}

// A cursor reads only the plainest JSON, and within the limits; anything else it leaves to Value (or to its caller,
// which reads what follows a value).
func TestCursorRefuses(t *testing.T) {
	for _, tc := range []struct {
		src string
		lim Limits
	}{
		{`"a\"b"`, Limits{}}, {`"é"`, Limits{}}, {"\"a\tb\"", Limits{}}, {`"abc"`, Limits{MaxString: 2}},
		{"01", Limits{}}, {"1.", Limits{}}, {"-", Limits{}}, {"1e", Limits{}}, {"12345", Limits{MaxString: 4}},
		{"tru", Limits{}}, {"nul", Limits{}}, {`"open`, Limits{}},
	} {
		d := NewBytesDecoder([]byte(tc.src+" "), tc.lim)
		c, ok := d.Cursor(64)
		if _, read := c.Inline(); ok && read && c.ws() == 0 { // "01": a number, 0, and then what no value may be followed by

			t.Errorf("%q with %+v: read", tc.src, tc.lim)
		}
	}
	d := NewBytesDecoder([]byte(`{"a": [[1]]}`), Limits{MaxDepth: 2})
	c, ok := d.Cursor(64)
	if !ok || !c.Open('{') {
		t.Fatal("no cursor at the object")
	}
	if more, ok := c.Next('}', true); !more || !ok {
		t.Fatal("no member")
	}
	if _, ok := c.Key(); !ok || !c.Open('[') {
		t.Fatal("no second level")
	}
	if c.Open('[') {
		t.Error("opened a third level under MaxDepth 2")
	}
}

// Inline takes a value exactly as AppendInline writes it, and nothing else.
func TestCursorInline(t *testing.T) {
	for _, src := range []string{
		`{ "a": 1, "b": [1, -2.5e3, "x"], "c": { "d": true, "e": null }, "f": {}, "g": [] }`, `[]`, `{}`, `"s"`,
		`[[1], [2, 3]]`, `false`,
	} {
		v, err := Parse([]byte(src), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if canon := string(AppendInline(nil, &v)); canon != src {
			t.Fatalf("%s is written inline as %s", src, canon)
		}
		c := NewCursor([]byte(src+","), Limits{})
		if got, ok := c.Inline(); !ok || string(got) != src {
			t.Errorf("Inline of %s: %q, %v", src, got, ok)
		}
	}
	for _, src := range []string{
		`{"a": 1}`, `{ "a":1 }`, `{ "a": 1}`, `{ "a": 1 ,"b": 2 }`, `{ }`, `[ 1]`, `[1,2]`, `[1 ]`, `[1,  2]`,
		`{ "a\n": 1 }`, `{ "a": "é" }`, `nul`, `[01]`, `{ "a": [1, 2 ] }`,
	} {
		c := NewCursor([]byte(src+","), Limits{})
		if got, ok := c.Inline(); ok && c.Peek() == ',' {
			t.Errorf("Inline took %s (as %q)", src, got)
		}
	}
}
