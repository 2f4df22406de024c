package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

const suiteDir = "../../../../shared/testdata/jsontestsuite"

func suiteFiles(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join(suiteDir, "*.json"))
	if len(files) == 0 {
		t.Skip("../shared/testdata/jsontestsuite is absent (clone outside the project setup)")
	}
	return files
}

var testLimits = Limits{MaxDepth: 64, MaxString: 1 << 20, MaxBytes: 1 << 20}

// parseStream parses data through a reader that returns one byte at a time,
// so every refill path of the decoder is taken.
func parseStream(data []byte, lim Limits) (Value, error) {
	d := NewDecoder(iotest.OneByteReader(bytes.NewReader(data)), lim)
	v, err := d.Value()
	if err != nil {
		return Value{}, err
	}
	return v, d.Finish()
}

func TestJSONTestSuite(t *testing.T) {
	for _, f := range suiteFiles(t) {
		name := filepath.Base(f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v1, err1 := Parse(data, testLimits)
		v2, err2 := parseStream(data, testLimits)
		if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
			t.Errorf("%s: in-memory and streaming parses disagree: %v vs %v", name, err1, err2)
		}
		if err1 == nil && !Equal(&v1, &v2) {
			t.Errorf("%s: in-memory and streaming trees differ", name)
		}
		switch name[0] {
		case 'y':
			if err1 != nil {
				t.Errorf("%s: valid JSON rejected: %v", name, err1)
			}
		case 'n':
			var se *SyntaxError
			if err1 == nil {
				t.Errorf("%s: invalid JSON accepted", name)
			} else if !errors.As(err1, &se) || !se.Pos.IsValid() {
				t.Errorf("%s: error without a position: %v", name, err1)
			}
		}
	}
}

func TestErrorPositions(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "1:1: unexpected end of input, expected a value"},
		{"{\n  \"a\": [1, 2,,]\n}", "2:14: unexpected ',', expected a value"},
		{"[1, 2", "1:6: unexpected end of input, expected ',' or ']'"},
		{"{\"a\" 1}", "1:6: unexpected '1', expected ':' after the key"},
		{"[01]", "1:2: invalid number: leading zero"},
		{"[1.]", "1:4: invalid number: expected a digit after '.'"},
		{"[1e+]", "1:5: invalid number: expected a digit in the exponent"},
		{"[-]", "1:3: invalid number: expected a digit"},
		{"[1x]", "1:3: unexpected 'x' after a number"},
		{"[tru]", "1:5: invalid literal, expected 'true'"},
		{"[truex]", "1:6: unexpected 'x' after 'true'"},
		{"\"abc", "1:1: unterminated string (reached the end of input)"},
		{"\"a\tb\"", "1:3: control character U+0009 in string (escape it)"},
		{"\"a\\x\"", "1:3: invalid escape sequence \\x"},
		{"\"\\ud800\"", "1:2: invalid \\u escape: high surrogate U+D800 without a low surrogate"},
		{"\"\\udc00\"", "1:2: invalid \\u escape: lone low surrogate U+DC00"},
		{"\"\\u12\"", "1:2: invalid \\u escape (needs four hex digits)"},
		{"\"\xff\"", "1:2: invalid UTF-8 (byte 0xFF) in string"},
		{"\"\xe2\x82\"", "1:2: invalid UTF-8 (byte 0xE2) in string"},
		{"{} x", "1:4: unexpected 'x' after the end of the JSON value"},
		{"[[[[1]]]]", "1:4: nesting is deeper than the limit of 3 levels"},
		{"\xef\xbb\xbf[1,]", "1:7: unexpected ']', expected a value"},
		{"\xef\xbb\xbf", "1:4: unexpected end of input, expected a value"},
		{"\xff\xfe[\x00]\x00", "1:1: input is UTF-16 (it starts with a UTF-16 byte order mark); JSON files must be UTF-8"},
		{"[\"x\",\r\n \"y\" 2]", "2:6: unexpected '2', expected ',' or ']'"},
	} {
		lim := Limits{MaxDepth: 3}
		for _, mode := range []string{"bytes", "stream"} {
			var err error
			if mode == "bytes" {
				_, err = Parse([]byte(tc.in), lim)
			} else {
				_, err = parseStream([]byte(tc.in), lim)
			}
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s %q:\n got %v\nwant %s", mode, tc.in, err, tc.want)
			}
		}
	}
}

func TestLimits(t *testing.T) {
	long := `["` + strings.Repeat("x", 101) + `"]`
	if _, err := Parse([]byte(long), Limits{MaxString: 100}); err == nil || !strings.Contains(err.Error(), "1:2: string is longer than the limit of 100 bytes") {
		t.Errorf("long string: %v", err)
	}
	if _, err := Parse([]byte(long), Limits{MaxString: 101}); err != nil {
		t.Errorf("string at the limit: %v", err)
	}
	num := "[" + strings.Repeat("1", 101) + "]"
	if _, err := Parse([]byte(num), Limits{MaxString: 100}); err == nil || !strings.Contains(err.Error(), "number is longer than the limit") {
		t.Errorf("long number: %v", err)
	}
	// The size limit stops a reader of unknown size after MaxBytes, without
	// reading the rest.
	r := &countingReader{r: strings.NewReader("[" + strings.Repeat("1,", 1<<20) + "1]")}
	_, err := NewDecoder(r, Limits{MaxBytes: 1000}).Value()
	var se *SyntaxError
	if !errors.As(err, &se) || !se.Limit || !strings.Contains(se.Msg, "larger than the limit of 1,000 bytes") {
		t.Errorf("size limit: %v", err)
	}
	if r.n > 1000+2*defaultBufSize {
		t.Errorf("read %d bytes of input past a 1000-byte limit", r.n)
	}
	if _, err := Parse([]byte("[1, 2]"), Limits{MaxBytes: 5}); err == nil || !strings.Contains(err.Error(), "larger than the limit of 5 bytes") {
		t.Errorf("in-memory size limit: %v", err)
	}
	// 100,000 nested arrays fail at the depth limit, not with a stack overflow.
	deep := strings.Repeat("[", 100000)
	if _, err := parseStream([]byte(deep), Limits{MaxDepth: 64}); err == nil || !strings.Contains(err.Error(), "1:65: nesting is deeper") {
		t.Errorf("deep nesting: %v", err)
	}
}

type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestValuePositionsAndAccess(t *testing.T) {
	src := "{\n  \"a\": [1, -2.5e3, \"x\\n\\u00e9\\ud83d\\ude00\"],\n  \"b\": {\"c\": null, \"d\": true}\n}"
	v, err := Parse([]byte(src), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	a := v.Get("a")
	if a.Pos() != (Pos{2, 8}) || a.KeyPos() != (Pos{2, 3}) || a.Len() != 3 {
		t.Fatalf("a: pos %v key %v len %d", a.Pos(), a.KeyPos(), a.Len())
	}
	if f, err := a.Index(1).Float(64); err != nil || f != -2500 || a.Index(1).Pos() != (Pos{2, 12}) {
		t.Errorf("a[1] = %v, %v at %v", f, err, a.Index(1).Pos())
	}
	if s := a.Index(2).Str(); s != "x\né😀" {
		t.Errorf("a[2] = %q", s)
	}
	if c := v.Get("b").Get("c"); c.Kind() != Null || c.Pos() != (Pos{3, 14}) {
		t.Errorf("b.c: %v at %v", c.Kind(), c.Pos())
	}
	if !v.Get("b").Get("d").Bool() || v.Get("zz") != nil || a.Get("a") != nil {
		t.Error("Get/Bool")
	}
	if got := string(AppendInline(nil, &v)); got != `{ "a": [1, -2.5e3, "x\né😀"], "b": { "c": null, "d": true } }` {
		t.Errorf("inline: %s", got)
	}
}

func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		lit  string
		bits int
		want float64
		err  error
	}{
		{"0", 64, 0, nil}, {"-0", 64, 0, nil}, {"123456", 32, 123456, nil}, {"0.1", 32, float64(float32(0.1)), nil},
		{"1e39", 32, 0, ErrRange}, {"1e39", 64, 1e39, nil}, {"1e400", 64, 0, ErrRange}, {"-1e400", 64, 0, ErrRange},
		{"1e-400", 64, 0, nil}, {"16777217", 32, 16777216, nil},
	} {
		v := numberLit(tc.lit)
		got, err := v.Float(tc.bits)
		if err != tc.err || got != tc.want {
			t.Errorf("Float(%s, %d) = %v, %v; want %v, %v", tc.lit, tc.bits, got, err, tc.want, tc.err)
		}
	}
	for _, tc := range []struct {
		lit  string
		want int64
		err  error
	}{
		{"42", 42, nil}, {"-7", -7, nil}, {"2.0", 2, nil}, {"1e3", 1000, nil}, {"1.5", 0, ErrNotInteger},
		{"9223372036854775807", 1<<63 - 1, nil}, {"9223372036854775808", 0, ErrRange}, {"1e30", 0, ErrRange},
	} {
		v := numberLit(tc.lit)
		got, err := v.Int()
		if err != tc.err || got != tc.want {
			t.Errorf("Int(%s) = %v, %v; want %v, %v", tc.lit, got, err, tc.want, tc.err)
		}
	}
	for _, tc := range []struct {
		f    float64
		bits int
		want string
	}{
		{0, 32, "0"}, {1, 32, "1"}, {-45, 32, "-45"}, {999999, 32, "999999"}, {1e6, 32, "1e+06"},
		{float64(float32(0.1)), 32, "0.1"}, {0.1, 64, "0.1"}, {1.5e-7, 64, "1.5e-07"}, {math.Copysign(0, -1), 32, "-0"}, // negative zero keeps its sign, so it round-trips
	} {
		if got := string(AppendFloat(nil, tc.f, tc.bits)); got != tc.want {
			t.Errorf("AppendFloat(%v, %d) = %s, want %s", tc.f, tc.bits, got, tc.want)
		}
	}
	negZero := numberLit("-0")
	f, _ := negZero.Float(64)
	if got := string(AppendFloat(nil, f, 64)); got != "-0" {
		t.Errorf("negative zero written as %s", got)
	}
}

func TestAppendString(t *testing.T) {
	got := string(AppendString(nil, "a\"b\\c\n\x01é\xff"))
	want := `"a\"b\\c\n\u0001é` + "\uFFFD" + `"`
	if got != want {
		t.Errorf("got %s want %s", got, want)
	}
	var back string
	if err := json.Unmarshal([]byte(got), &back); err != nil || back != "a\"b\\c\n\x01é\uFFFD" {
		t.Errorf("round trip through encoding/json: %q, %v", back, err)
	}
}

func TestStreamingAPI(t *testing.T) {
	src := `{"format": "x", "list": [ {"id": 1}, {"id": 2} , [] ], "tail": 3}`
	d := NewDecoder(iotest.OneByteReader(strings.NewReader(src)), Limits{MaxDepth: 3})
	if _, err := d.EnterObject(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		key, pos, ok, err := d.NextMember()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, string(key)+"@"+pos.String())
		if string(key) != "list" {
			if err := d.Skip(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := d.EnterArray(); err != nil {
			t.Fatal(err)
		}
		for {
			more, err := d.NextItem()
			if err != nil {
				t.Fatal(err)
			}
			if !more {
				break
			}
			k, p, _ := d.Peek()
			v, err := d.Value()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, k.String()+"@"+p.String()+"="+string(AppendInline(nil, &v)))
			d.ResetArena()
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	want := "format@1:2 list@1:17 object@1:27={ \"id\": 1 } object@1:38={ \"id\": 2 } array@1:50=[] tail@1:56"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	// Entering a container past the depth limit fails at its bracket.
	d = NewDecoder(strings.NewReader(`[[1]]`), Limits{MaxDepth: 1})
	if _, err := d.EnterArray(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NextItem(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.EnterArray(); err == nil || err.Error() != "1:2: nesting is deeper than the limit of 1 levels" {
		t.Errorf("depth: %v", err)
	}
}

func TestMutation(t *testing.T) {
	v, err := Parse([]byte(`{"a": 1, "b": [2], "a": 3}`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	v.Set("c", NewArray(NewNumber(0.5, 32), NewString("s"), NewBool(true), NewNull()))
	v.Set("b", NewObject())
	if !v.Delete("a") || v.Delete("zz") {
		t.Error("Delete")
	}
	if got := string(AppendInline(nil, &v)); got != `{ "b": {}, "c": [0.5, "s", true, null] }` {
		t.Errorf("got %s", got)
	}
	if v.Get("b").KeyPos() != (Pos{1, 10}) {
		t.Errorf("replaced member lost its key position: %v", v.Get("b").KeyPos())
	}
	c := v.Clone()
	if !Equal(&c, &v) {
		t.Error("clone differs")
	}
	c.Get("c").Index(0).text()[0] = '9'
	if Equal(&c, &v) {
		t.Error("clone shares memory")
	}
}

// AppendMember keeps a repeated key (Set replaces it) and the key's position.
func TestAppendMember(t *testing.T) {
	v := NewObject()
	key := []byte("a")
	v.AppendMember(key, Pos{2, 3}, NewNumber(1, 64))
	v.AppendMember(key, Pos{4, 5}, NewNumber(2, 64))
	key[0] = 'z' // the member keeps its own copy
	if got := string(AppendInline(nil, &v)); got != `{ "a": 1, "a": 2 }` {
		t.Errorf("got %s", got)
	}
	if v.Index(1).KeyPos() != (Pos{4, 5}) || NewKeyIndex(&v).First(1) != 0 {
		t.Errorf("key position %v", v.Index(1).KeyPos())
	}
}

func TestSkipAndValueLimit(t *testing.T) {
	// Skip checks syntax without building a tree, so MaxValues does not apply.
	big := "[" + strings.Repeat("[1, {\"a\": \"b\"}], ", 1000) + "0] x"
	d := NewDecoder(strings.NewReader(big), Limits{MaxValues: 10, MaxDepth: 4})
	if err := d.Skip(); err != nil {
		t.Fatal(err)
	}
	if err := d.Finish(); err == nil || !strings.Contains(err.Error(), "unexpected 'x'") {
		t.Errorf("Finish after Skip: %v", err)
	}
	if len(d.vals) != 0 || len(d.bytes) != 0 {
		t.Errorf("Skip left %d values and %d bytes in the arenas", len(d.vals), len(d.bytes))
	}
	for _, bad := range []string{"[1, 2,]", "[[[[[1]]]]]", `{"a" 1}`, `[1, "x`} {
		if err := NewDecoder(strings.NewReader(bad), Limits{MaxDepth: 4}).Skip(); err == nil {
			t.Errorf("Skip accepted %s", bad)
		}
	}
	_, err := Parse([]byte(big[:len(big)-2]), Limits{MaxValues: 10})
	if err == nil || !strings.Contains(err.Error(), "1:40: more than the limit of 10 values") {
		t.Errorf("value limit: %v", err)
	}
	// The arena limit counts since the last ResetArena.
	d = NewDecoder(strings.NewReader("[1, 2, 3] [4, 5, 6]"), Limits{MaxValues: 4})
	for range 2 {
		if _, err := d.Value(); err != nil {
			t.Fatal(err)
		}
		d.ResetArena()
	}
}

// SkipCapture returns a value's raw text whatever the reads look like, and a decoder over it
// reports the positions of the original input.
func TestSkipCapture(t *testing.T) {
	src := "{\"a\": 1,\n  \"big\": [1, {\"x\": \"y\\n\"},\n   [true]  , \"é\"]  ,\n \"z\": 2}"
	want := "[1, {\"x\": \"y\\n\"},\n   [true]  , \"é\"]"
	for _, r := range []func() *Decoder{
		func() *Decoder { return NewDecoder(iotest.OneByteReader(strings.NewReader(src)), testLimits) },
		func() *Decoder { return NewDecoder(strings.NewReader(src), testLimits) },
		func() *Decoder { return NewBytesDecoder([]byte(src), testLimits) },
	} {
		d := r()
		toSecondMember(t, d)
		raw, start, off, err := d.SkipCapture([]byte("prefix:"), 0)
		if err != nil || string(raw) != "prefix:"+want || start != (Pos{2, 10}) || off != int64(strings.Index(src, "[1")) {
			t.Fatalf("got %q %v %d %v", raw, start, off, err)
		}
		key, kp, ok, err := d.NextMember()
		if string(key) != "z" || kp != (Pos{4, 2}) || !ok || err != nil {
			t.Fatalf("after the capture: %q %v %v %v", key, kp, ok, err)
		}
		// A decoder over the capture reports the original positions.
		d2 := NewBytesDecoderAt(raw[len("prefix:"):], testLimits, start, off)
		v, err := d2.Value()
		if err != nil {
			t.Fatal(err)
		}
		if p := v.Index(2).Pos(); p != (Pos{3, 4}) {
			t.Fatalf("position of the third item: %v", p)
		}
		if p := v.Index(1).Index(0).Pos(); p != (Pos{2, 20}) {
			t.Fatalf("position of x's value: %v", p)
		}
	}
	d := NewDecoder(strings.NewReader(`[1, 2, 3, 4, 5]`), testLimits)
	if _, _, _, err := d.SkipCapture(nil, 6); err == nil || !strings.Contains(err.Error(), "limit of 6 bytes") {
		t.Fatalf("over the capture limit: %v", err)
	}
}

// AppendFloat's fast path for 32-bit floats with at most three decimals writes what strconv's
// shortest 'g' form writes. A sample of every float32 where the path can apply (0.001 ≤ |f| < 8192),
// and the decimals of a grid (k/1000); the whole range (386 million values, 16 million of them on the
// fast path) was compared once, with no difference.
func TestAppendFloat32FastPathIsStrconv(t *testing.T) {
	var got, want []byte
	check := func(f float32) {
		got = AppendFloat(got[:0], float64(f), 32)
		want = strconv.AppendFloat(want[:0], float64(f), 'g', -1, 32)
		if f == float32(math.Trunc(float64(f))) && math.Abs(float64(f)) < 1e6 {
			want = strconv.AppendInt(want[:0], int64(f), 10)
		}
		if string(got) != string(want) {
			t.Fatalf("%v (bits %#x): AppendFloat wrote %s, strconv %s", f, math.Float32bits(f), got, want)
		}
	}
	fast := 0
	for u := math.Float32bits(0.0009); u <= math.Float32bits(8300); u += 97 {
		for _, sign := range []uint32{0, 1 << 31} {
			check(math.Float32frombits(u | sign))
		}
	}
	for k := -8_300_000; k <= 8_300_000; k += 7 {
		f := float32(float64(k) / 1000)
		if _, ok := appendShortFloat32(nil, f); ok {
			fast++
		}
		check(f)
	}
	if fast < 1_000_000 {
		t.Fatalf("only %d of the grid's decimals took the fast path", fast)
	}
}

// parseFloat's fast path for short numbers reads what strconv reads, in 32 and 64 bits: every literal
// of up to 7 digits with up to 7 of them after the point is in reach (a sample of them, and the
// decimals a grid writes), negative zero included.
func TestParseFloatFastPathIsStrconv(t *testing.T) {
	check := func(s string) {
		for _, bits := range []int{32, 64} {
			got, err := parseFloat([]byte(s), bits)
			want, werr := strconv.ParseFloat(s, bits)
			if err != nil || werr != nil || math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s in %d bits: %v (%v), strconv %v (%v)", s, bits, got, err, want, werr)
			}
		}
	}
	for _, s := range []string{"0", "-0", "-0.0", "0.5", "66.75", "-54.75", "1.5", "9999999", "0.1", "0.3", "0.7",
		"1234567", "123456.7", "1.234567", "0.0000001", "-0.000001", "16777217", "3.4028235", "0.33333334"} {
		check(s)
	}
	for n := 0; n < 10_000_000; n += 101 {
		for frac := range 8 {
			digits := strconv.Itoa(n)
			digits = strings.Repeat("0", max(0, frac+1-len(digits))) + digits
			s := digits
			if frac > 0 {
				s = digits[:len(digits)-frac] + "." + digits[len(digits)-frac:]
			}
			check(s)
			check("-" + s)
		}
	}
}

// TestDecoderAtReadsAPiece: a decoder started at an item inside open containers reads the items from
// there with the positions, offsets and depths of the whole input, and the decoder of the whole input
// resumes after the piece.
func TestDecoderAtReadsAPiece(t *testing.T) {
	src := "{\"a\": 1, \"items\": [\n  {\"x\": [1]},\n  {\"x\": [2]},\n  {\"x\": [[3]]}\n], \"z\": true}"
	at := int64(strings.Index(src, `{"x": [2]}`))
	d := NewDecoderAt(strings.NewReader(src[at:]), Limits{MaxDepth: 4}, Pos{3, 3}, at, "{[")
	var got []string
	for {
		more, err := d.NextItem()
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
		v, err := d.Value()
		if err != nil && !strings.Contains(err.Error(), "4:10: nesting is deeper than the limit of 4 levels") {
			t.Fatal(err)
		}
		if err != nil {
			got = append(got, err.Error())
			break
		}
		got = append(got, v.Pos().String()+"@"+strconv.FormatInt(d.Offset(), 10))
	}
	if want := []string{"3:3@" + strconv.Itoa(int(at)+10), "4:10: nesting is deeper than the limit of 4 levels"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// The whole input's decoder, moved past the array, reads on.
	whole := NewDecoder(strings.NewReader(src), testLimits)
	if key := toSecondMember(t, whole); key != "items" {
		t.Fatal(key)
	}
	end := int64(strings.Index(src, "], ")) + 1
	whole.Resume(strings.NewReader(src[end:]), Pos{5, 2}, end)
	key, kp, ok, err := whole.NextMember()
	if string(key) != "z" || kp != (Pos{5, 4}) || !ok || err != nil {
		t.Fatalf("after resuming: %q %v %v %v", key, kp, ok, err)
	}
	if p := whole.Pos(); p != (Pos{5, 8}) {
		t.Fatalf("Pos after the key: %v", p)
	}
}

// toSecondMember enters the object d starts with, reads its first member and the key of the second,
// and returns that key.
func toSecondMember(t *testing.T, d *Decoder) string {
	t.Helper()
	if _, err := d.EnterObject(); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := d.NextMember(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Value(); err != nil {
		t.Fatal(err)
	}
	key, _, _, err := d.NextMember()
	if err != nil {
		t.Fatal(err)
	}
	return string(key)
}

// Values kept (Keep) stay as they were while more are parsed, in the same arena and in a swapped one,
// and the limits count from each Keep as from ResetArena.
func TestKeepAndSwapArena(t *testing.T) {
	d := NewDecoder(strings.NewReader(`[["a","b","x","y"],["c","d","z","w"],[1,2,3,4,5,6],["e"]]`), Limits{MaxValues: 5})
	d.SwapArena(NewArena(64, 16))
	if _, err := d.EnterArray(); err != nil {
		t.Fatal(err)
	}
	var kept []Value
	for {
		more, err := d.NextItem()
		if err != nil || !more {
			t.Fatalf("%v %v", more, err)
		}
		v, err := d.Value()
		if err != nil {
			if !strings.Contains(err.Error(), "more than the limit of 5 values") || len(kept) != 2 {
				t.Fatalf("after %d arrays: %v", len(kept), err)
			}
			break
		}
		kept = append(kept, v)
		if d.Used(1<<20, 3) || !d.Used(1<<20, 4) {
			t.Fatal("Used does not count the four strings' values")
		}
		d.Keep()
		if len(kept) == 1 {
			if prev := d.SwapArena(NewArena(64, 16)); cap(prev.vals) != 16 {
				t.Fatal("SwapArena did not give back the arena before")
			}
		}
	}
	if kept[0].Index(1).Str() != "b" || kept[0].Index(3).Str() != "y" || kept[1].Index(0).Str() != "c" {
		t.Fatal("kept values changed")
	}
}

// numberLit is a Number value with literal lit.
func numberLit(lit string) Value {
	v := Value{kind: Number}
	v.setText([]byte(lit))
	return v
}
