package jsonpos

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks, for any input, that the in-memory and streaming parsers
// agree, that everything accepted is valid JSON to encoding/json, that
// anything encoding/json accepts is rejected only for a documented extra
// strictness, and that accepted values survive a write/parse round trip.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `[1, 2.5e-3, "x"]`, `{"a": {"b": [true, false, null]}}`, `"\ud83d\ude00"`, `-0`, "\xef\xbb\xbf[]", `[1,]`, `{"a" 1}`} {
		f.Add([]byte(s))
	}
	if files, err := os.ReadDir(suiteDir); err == nil {
		for _, e := range files {
			if data, err := os.ReadFile(suiteDir + "/" + e.Name()); err == nil && len(data) < 4096 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{MaxDepth: 32, MaxString: 4096}
		v, err := Parse(data, lim)
		v2, err2 := parseStream(data, lim)
		if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("in-memory and streaming disagree: %v vs %v", err, err2)
		}
		stdOK := json.Valid(data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || !se.Pos.IsValid() {
				t.Fatalf("error without position: %v", err)
			}
			if stdOK && !se.Limit && utf8.Valid(data) && !hasSurrogateEscape(data) && !hasBOM(data) {
				t.Fatalf("rejected valid JSON: %v", err)
			}
			return
		}
		if !stdOK && !hasBOM(data) {
			t.Fatalf("accepted invalid JSON")
		}
		if !Equal(&v, &v2) {
			t.Fatal("in-memory and streaming trees differ")
		}
		out := AppendInline(nil, &v)
		back, err := Parse(out, Limits{})
		if err != nil || !Equal(&v, &back) {
			t.Fatalf("round trip through %s: %v", out, err)
		}
	})
}

func hasBOM(b []byte) bool { return len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF }

func hasSurrogateEscape(b []byte) bool {
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '\\' && b[i+1] == 'u' && (b[i+2] == 'd' || b[i+2] == 'D') {
			return true
		}
	}
	return false
}
