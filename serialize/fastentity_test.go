package serialize

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/internal/assetref"
)

// fastValues are values of the fields of the test components, each one the straight read takes or one it must
// leave to the tree (a problem, a warning, or JSON it does not read): for every key, what may stand there ("":
// the key is left out).
var fastValues = map[string][]string{
	"id":     {"1", "", "17", "123456789012345678", "0", "-3", "2.0", "1e2", `"7"`, "12345678901234567890", "18446744073709552617", "null"},
	"name":   {`"Cube 1,2"`, `""`, `"a\"b"`, `"\u00e9t\u00e9"`, `"été"`, `"tab\there"`, "\"bad \xff\"", `5`, `"` + strings.Repeat("n", 70) + `"`},
	"order":  {"0", "3", "-0", "0.5", "1e3", "-2.25E-2", "1e400", `"1"`, "01", "1.", "-", "true"},
	"parent": {"1", "2", "999", "0", "-1"},
	"position": {"[1, 2, 3]", "[0.1,-0.2,3e1]", "[1, 2]", "[1, 2, 3, 4]", "[1e39, 0, 0]", `[1, "2", 3]`, "[]",
		"[1 , 2 , 3 ]", "{}", "[1,2,3,]"},
	"rgba":  {"[0.1, 0.2, 0.3, 1]", "[0, 0, 0, 0]", "[1.5, 0, 0, 1]", "[-0.1, 0, 0, 1]", "[1, 1, 1, 1e0]"},
	"asset": {`"builtin:cube"`, `"builtin:sphere"`, `""`, `"../x.obj"`, `"models/none.obj"`, `"/abs.obj"`},
	"b":     {"true", "false", `"true"`, "tru", "1", "falsey"},
	"i8":    {"127", "-128", "128", "-129", "1.0", "7"},
	"i":     {"0", "-5", "9223372036854775807", "1e3", "42"},
	"u16":   {"65535", "65536", "-1", "3"},
	"u64":   {"123", "18446744073709551615", "-1", "123456789012345678"},
	"f64":   {"1e308", "1e309", "-0.0", "2.5", "3"},
	"s":     {`"x"`, `"\n"`, `"` + strings.Repeat("s", 80) + `"`, `"ü"`, "1"},
	"arr":   {"[1, 2]", "[1]", "[1, 2, 3]", "[2147483648, 0]", "[-1, -2]"},
	"a":     {"1.5", "-2", `"a"`},
	"v":     {"[1, 2, 3]", "[11, 0, 0]", "[-10, 10, 0]", "[0, 0, -10.5]"},
	"speed": {"45", "-1.5", "0"},
	"axis":  {"[0, 1, 0]", "[1, 0, 0]"},
}

// fastSpace is whitespace between tokens, the editor's and others.
var fastSpace = []string{" ", "", "\t", "\r\n ", "  "}

// fastScene writes n random entities in the editor's layout (an item a line), most of them plain; each key
// and value comes from fastValues, the first of a list most often. Names are short but with long 1, numbers
// with long 2.
// In three scenes of four one value of one entity is not the first of its list and all else is plain, so that
// whether that one value loads decides whether the scene does.
func fastScene(rng *rand.Rand, n, long int) []byte { //nolint:gocyclo // a branch for each kind of odd entity
	odd := []float64{0, 0.005, 0.02, 0.1}[rng.IntN(4)] // how often a key or a value is not the plainest
	rare := func(p float64) bool { return rng.Float64() < p*odd }
	oneAt, oneKey := -1, ""
	if rng.IntN(4) > 0 {
		odd, oneAt = 0, rng.IntN(n)
		keys := slices.Sorted(maps.Keys(fastValues))
		oneKey = keys[rng.IntN(len(keys))]
	}
	i := 0 // the entity being written
	pick := func(key string) string {
		vs := fastValues[key]
		if i == oneAt && key == oneKey {
			return vs[1+rng.IntN(len(vs)-1)]
		}
		if rng.Float64() >= odd {
			switch key { // plain, of any length
			case "name":
				if long != 1 {
					return fmt.Sprintf(`"Cube %d,%d"`, rng.IntN(10), rng.IntN(10))
				}
				return fmt.Sprintf(`"Cube %d,%d"`, rng.IntN(1e6), rng.IntN(1e3))
			case "position":
				num := func() string {
					if long != 2 || rng.IntN(2) == 0 {
						return fmt.Sprint(rng.IntN(100))
					}
					return strconv.FormatFloat(rng.Float64()*200-100, 'g', -1, 64)
				}
				return "[" + num() + ", " + num() + ", " + num() + "]"
			}
			return vs[0]
		}
		return vs[rng.IntN(len(vs))]
	}
	var b strings.Builder
	b.WriteString("{\n  \"format\": \"voltex.scene\",\n  \"version\": 2,\n  \"entities\": [\n")
	for ; i < n; i++ {
		sp := func() string {
			if !rare(1) {
				return " "
			}
			return fastSpace[rng.IntN(len(fastSpace))]
		}
		var members []string
		member := func(key, val string) { members = append(members, fmt.Sprintf("%q:%s%s", key, sp(), val)) }
		obj := func(ms []string) string { return "{" + sp() + strings.Join(ms, ","+sp()) + sp() + "}" }
		if !rare(0.5) {
			id := fmt.Sprint(i + 1)
			if rare(1) || i == oneAt && oneKey == "id" {
				id = pick("id")
			}
			if id != "" {
				member("id", id)
			}
		}
		if rng.IntN(4) > 0 {
			member("name", pick("name"))
		}
		if rare(1) && i > 0 || i == oneAt && oneKey == "parent" {
			member("parent", pick("parent"))
		}
		if rng.IntN(3) > 0 || i == oneAt && oneKey == "order" {
			member("order", pick("order"))
		}
		var comps []string
		comp := func(name string, fields ...string) {
			var fs []string
			for _, f := range fields {
				if !rare(1) || i == oneAt && f == oneKey {
					fs = append(fs, fmt.Sprintf("%q:%s%s", f, sp(), pick(f)))
				}
			}
			comps = append(comps, fmt.Sprintf("%q:%s%s", name, sp(), obj(fs)))
		}
		if !rare(1) {
			comp("Transform", "position")
		}
		if rng.IntN(3) > 0 || i == oneAt {
			comp("Color", "rgba")
		}
		if rng.IntN(3) > 0 || i == oneAt {
			comp("Mesh", "asset")
		}
		if rng.IntN(4) == 0 || i == oneAt {
			comp("Spin", "axis", "speed")
		}
		if rng.IntN(4) == 0 || i == oneAt {
			comp("Kinds", "b", "i8", "i", "u16", "u64", "f64", "s", "arr", "v")
		}
		switch rng.IntN(max(int(3/(odd+0.01)), 6)) {
		case 0:
			comps = append(comps, `"Nope": {}`)
		case 1:
			comps = append(comps, `"Color": {}`)
		case 2:
			comps = append(comps, `"Kinds": {"nested": {"a": 1}}`)
		case 3:
			comps = append(comps, `"Kinds": {"sl": [1, 2]}`)
		case 4:
			comps = append(comps, `"Kinds": {"b": true, "b": false}`)
		case 5:
			comps = append(comps, `"Kinds": {"bogus": 1}`)
		case 6:
			comps = append(comps, `"Name": { "value": "x" }`) // may not be stored
		case 7:
			comps = append(comps, `"Spin": 5`)
		}
		if !rare(1) {
			member("components", obj(comps))
		}
		switch rng.IntN(max(int(4/(odd+0.01)), 3)) {
		case 0:
			member("id", "5")
		case 1:
			member("prefab", `"p.json"`)
		case 2:
			member("extra", "1")
		}
		rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		b.WriteString("    " + obj(members))
		if i < n-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  ]\n}\n")
	return []byte(b.String())
}

// A load in pieces that reads entities straight from the input gives what a load in turn gives (which reads
// every entity into a tree), for random scenes of plain entities and of every value the straight read leaves
// to the tree; and it does read most entities of the scenes that load straight.
func TestFastEntitiesAgreeWithTheTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	checkAsset := func(ref string) error {
		if strings.HasPrefix(ref, "models/") {
			return fmt.Errorf("%w: %s", assetref.ErrMissing, ref)
		}
		return nil
	}
	opts := LoadOptions{NewWorld: testWorld}
	fast, loads := int64(0), 0
	rounds := 1500
	if testing.Short() || raceEnabled { // the plain run tries them all
		rounds = 300
	}
	for round := range rounds {
		n := 1 + rng.IntN(40)
		if round%10 == 0 {
			n = 1 // the first entity is read by the front alone
		}
		long := rng.IntN(3)
		opts.Limits, opts.CheckAsset = Limits{}, nil
		if rng.IntN(2) == 0 { // the first use of each asset is read into a tree (its check may warn)
			opts.CheckAsset = checkAsset
		}
		if rng.IntN(8) == 0 { // limits an entity may be near or over
			switch rng.IntN(5) {
			case 0:
				opts.Limits.MaxEntityValues = 5 + rng.IntN(40)
			case 1:
				opts.Limits.MaxEntityBytes = 20 + rng.IntN(300)
			case 2:
				opts.Limits.MaxString = 12 + rng.IntN(4) // the header's "voltex.scene" fits
				long = 1 + rng.IntN(2)
			case 3:
				opts.Limits.MaxDepth = 3 + rng.IntN(4)
			case 4:
				opts.Limits.MaxWorldBytes = int64(1000 + rng.IntN(20000))
			}
		}
		src := fastScene(rng, n, long)
		if rng.IntN(10) == 0 { // version 1 (its entities migrated)
			src = bytes.Replace(src, []byte(`"version": 2`), []byte(`"version": 1`), 1)
		}
		loadIn(t, 0, 0)
		want := loaded(t, src, opts)
		loadIn(t, 2, 1+rng.IntN(5))
		beforeLoads, beforeFast := loadedInPieces.Load(), readFast.Load()
		if got := loaded(t, src, opts); got != want {
			t.Fatalf("round %d, in pieces:\n%s\nin turn:\n%s\nscene:\n%s", round, got, want, src)
		}
		if loadedInPieces.Load() > beforeLoads {
			loads++
			fast += readFast.Load() - beforeFast
		}
	}
	if loads < rounds/20 || fast < int64(loads) {
		t.Errorf("%d of %d scenes loaded in pieces, %d entities of them read straight", loads, rounds, fast)
	}
	t.Logf("%d of %d scenes loaded in pieces, %d entities of them read straight", loads, rounds, fast)
}

// FuzzFastEntities: whatever the bytes, a load in pieces that reads entities straight from the input gives what a
// load in turn gives. The seeds are scenes of TestFastEntitiesAgreeWithTheTree's kind.
func FuzzFastEntities(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 12 {
		f.Add(fastScene(rng, 1+i*3, i%3))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		opts := LoadOptions{NewWorld: testWorld}
		loadIn(t, 0, 0)
		want := loaded(t, src, opts)
		loadIn(t, 2, 3)
		if got := loaded(t, src, opts); got != want {
			t.Fatalf("in pieces:\n%s\nin turn:\n%s", got, want)
		}
	})
}

// A raw read (diff and merge) that reads entities straight from the input gives what one that reads every entity
// into a tree gives, for the scenes of TestFastEntitiesAgreeWithTheTree (whose components are mostly in their
// inline form, some not), lossy or not; and it does read most entities of the scenes that read without a problem.
func TestRawFastAgreesWithTheTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	raw := func(src []byte, opts LoadOptions) string {
		s, err := ReadRaw(context.Background(), bytes.NewReader(src), opts)
		if err != nil {
			return "problems:\n" + problemsText(err)
		}
		var out bytes.Buffer
		if err := WriteRaw(context.Background(), &out, s); err != nil {
			t.Fatal(err)
		}
		for _, p := range s.Warnings {
			out.WriteString(p.String() + "\n")
		}
		return out.String()
	}
	defer func(old bool) { fastEntities = old }(fastEntities)
	rounds := 1000
	if testing.Short() || raceEnabled {
		rounds = 250
	}
	clean, fast := 0, int64(0)
	for round := range rounds {
		long := rng.IntN(3)
		opts := LoadOptions{File: "t.json", NewWorld: testWorld, Lossy: rng.IntN(4) == 0}
		if rng.IntN(8) == 0 {
			switch rng.IntN(3) {
			case 0:
				opts.Limits.MaxEntityValues = 5 + rng.IntN(40)
			case 1:
				opts.Limits.MaxString = 12 + rng.IntN(4)
				long = 1 + rng.IntN(2)
			case 2:
				opts.Limits.MaxDepth = 3 + rng.IntN(4)
			}
		}
		src := fastScene(rng, 1+rng.IntN(30), long)
		if rng.IntN(10) == 0 {
			src = bytes.Replace(src, []byte(`"version": 2`), []byte(`"version": 1`), 1)
		}
		fastEntities = false
		want := raw(src, opts)
		fastEntities = true
		before := readFast.Load()
		if got := raw(src, opts); got != want {
			t.Fatalf("round %d, read straight:\n%s\ninto trees:\n%s\nscene:\n%s", round, got, want, src)
		}
		if !strings.HasPrefix(want, "problems:") {
			clean++
			fast += readFast.Load() - before
		}
	}
	if clean < rounds/10 || fast < int64(clean) {
		t.Errorf("%d of %d scenes read without a problem, %d entities of them read straight", clean, rounds, fast)
	}
	t.Logf("%d of %d scenes read without a problem, %d entities of them read straight", clean, rounds, fast)
}
