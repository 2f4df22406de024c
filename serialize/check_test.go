package serialize

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/assetref"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// inPieces makes validation read every scene in n pieces (0: never in pieces) until the test ends.
func inPieces(t testing.TB, n int) {
	oldMin, oldN := checkInPiecesMin, checkPieces
	t.Cleanup(func() { checkInPiecesMin, checkPieces = oldMin, oldN })
	checkInPiecesMin, checkPieces = 0, func() int { return n }
	if n == 0 {
		checkInPiecesMin = math.MaxInt64
	}
}

// validated is what validate says of src: the summary, the warnings and the problems, as text.
func validated(t testing.TB, src []byte, opts LoadOptions) string {
	t.Helper()
	opts.File = "t.json"
	v, err := ValidateInput(context.Background(), NewInput(bytes.NewReader(src), "t.json"), opts)
	var w []string
	for _, p := range v.Warnings {
		w = append(w, p.String())
	}
	return fmt.Sprintf("summary: %s\nwarnings:\n%s\nproblems:\n%s", v.Summary, strings.Join(w, "\n"), problemsText(err))
}

// cubeGrid is a saved cube grid of nx×ny×nz cubes (under a group when group is set), as the editor
// writes it.
func cubeGrid(t testing.TB, nx, ny, nz int, group string) []byte {
	return savedGrid(t, scene.GridParams{Count: [3]int{nx, ny, nz}, Spacing: mgl32.Vec3{1.5, 1.5, 1.5},
		ColorFrom: [4]float32{1, 0, 0, 1}, ColorTo: [4]float32{0, 0, 1, 1}, Mesh: scene.MeshCube, Group: group}, "Cubes")
}

// indented is a scene file laid out as the editor lays it out, whose entities are the given
// objects (one line each), with head's members before them and tail's after.
func indented(head string, entities []string, tail string) []byte {
	var b strings.Builder
	b.WriteString("{\n" + head + "  \"entities\": [\n")
	for i, e := range entities {
		b.WriteString("    " + e)
		if i < len(entities)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  ]" + tail + "\n}\n")
	return []byte(b.String())
}

const v2Head = "  \"format\": \"voltex.scene\",\n  \"version\": 2,\n  \"name\": \"T\",\n"

// numbered is n entities made by f(id).
func numbered(n int, f func(id int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = f(i + 1)
	}
	return out
}

// replaceNth replaces the nth (0-based) occurrence of old in src with with.
func replaceNth(t testing.TB, src []byte, old, with string, nth int) []byte {
	t.Helper()
	at := 0
	for range nth + 1 {
		i := bytes.Index(src[at:], []byte(old))
		if i < 0 {
			t.Fatalf("no occurrence %d of %q", nth, old)
		}
		at += i + len(old)
	}
	at -= len(old)
	return append(append(append([]byte{}, src[:at]...), with...), src[at+len(old):]...)
}

// pieceCases are files valid and broken in every way validate reports, and where the pieces' borders
// fall: the files are split at the editor's layout, and a check in pieces must give what a load gives.
func pieceCases(t testing.TB) map[string]struct {
	src   []byte
	opts  LoadOptions
	valid bool // checked in pieces (valid, and nothing in it needs a load)
} {
	grid := cubeGrid(t, 10, 10, 3, "")
	group := cubeGrid(t, 10, 10, 3, "Group")
	kinds := func(id int) string {
		ref := (id*7)%200 + 1
		return fmt.Sprintf(`{"id": %d, "name": "e%d", "components": {"Kinds": {"ref": %d, "refs": [%d], "s": "x"}, "Transform": {"position": [%d, 0, 0]}}}`, id, id, ref, id, id)
	}
	chain := func(id int) string { // each the child of the one before, scaled 10×: the product overflows at 39
		parent := ""
		if id > 1 {
			parent = fmt.Sprintf(`"parent": %d, `, id-1)
		}
		return fmt.Sprintf(`{"id": %d, %s"components": {"Transform": {"scale": [10, 10, 10]}}}`, id, parent)
	}
	short := func(n int) []string { return numbered(n, chain) }
	lines := string(grid)
	withWorld := LoadOptions{CheckWorldMatrices: true}
	type tc = struct {
		src   []byte
		opts  LoadOptions
		valid bool
	}
	last := bytes.Count(grid, []byte(`"id": `)) - 1
	firstID := string(grid[bytes.Index(grid, []byte(`"id": `))+6:])
	firstID = firstID[:strings.IndexByte(firstID, ',')]
	return map[string]tc{
		"grid":                   {grid, withWorld, true},
		"grid under a group":     {group, withWorld, true},
		"references":             {indented(v2Head, numbered(200, kinds), ""), LoadOptions{NewWorld: testWorld, CheckWorldMatrices: true}, true},
		"a chain of 20":          {indented(v2Head, short(20), ""), withWorld, true},
		"a chain of 35":          {indented(v2Head, short(35), ""), withWorld, false}, // finite, but over the bound: loaded
		"a chain that overflows": {indented(v2Head, short(60), ""), withWorld, false},
		"overflow unchecked":     {indented(v2Head, short(60), ""), LoadOptions{}, true},
		"selection and camera":   {indented(v2Head+"  \"editor\": {\"camera\": {\"yaw\": 3}, \"selection\": [3, 5]},\n", short(9), ""), withWorld, true},
		"selection of none":      {indented(v2Head+"  \"editor\": {\"selection\": [3, 500]},\n", short(9), ""), withWorld, false},
		"editor after":           {indented(v2Head, short(9), ",\n  \"editor\": {\"selection\": [4]}"), withWorld, true},
		"unknown key after":      {indented(v2Head, short(9), ",\n  \"what\": 1"), withWorld, false},
		"broken after":           {indented(v2Head, short(9), ",\n  \"editor\": {"), withWorld, false},
		"entities first":         {indented("", short(9), ",\n  \"format\": \"voltex.scene\", \"version\": 2"), withWorld, false},
		"version 1":              {indented(strings.Replace(v2Head, "2", "1", 1), short(9), ""), withWorld, true},
		"empty":                  {indented(v2Head, nil, ""), withWorld, true},
		"duplicate id":           {replaceNth(t, grid, `"id": `, `"id": `+firstID+`, "x": `, last), withWorld, false},
		"missing parent":         {replaceNth(t, grid, `"order": `, `"parent": 12345, "order": `, last-1), withWorld, false},
		"own parent":             {indented(v2Head, append(short(20), `{"id": 77, "parent": 77}`), ""), withWorld, false},
		"cycle":                  {indented(v2Head, append(short(20), `{"id": 77, "parent": 78}`, `{"id": 78, "parent": 77}`), ""), withWorld, false},
		"dangling reference":     {indented(v2Head, append(numbered(200, kinds), `{"id": 999, "components": {"Kinds": {"ref": 4242}}}`), ""), LoadOptions{NewWorld: testWorld}, false},
		"unknown component":      {replaceNth(t, grid, `"Color": `, `"Mystery": {}, "Color": `, last), withWorld, false},
		"misspelt component":     {replaceNth(t, grid, `"Color": `, `"Colour": `, last), withWorld, false},
		"mesh without transform": {replaceNth(t, grid, `"Transform": `, `"Spin": `, last), withWorld, false},
		"bad value":              {replaceNth(t, grid, `"rgba": [`, `"rgba": [7, `, last), withWorld, false},
		"broken JSON":            {replaceNth(t, grid, `},`, `}`, last-2), withWorld, false},
		"truncated":              {grid[:len(grid)*2/3], withWorld, false},
		"missing asset":          {replaceNth(t, grid, `"builtin:cube"`, `"cube.obj"`, last), LoadOptions{CheckAsset: func(string) error { return assetref.ErrMissing }}, false},
		"strict unknown":         {replaceNth(t, grid, `"Color": `, `"Mystery": {}, "Color": `, 3), LoadOptions{Strict: true}, false},
		"conflicts":              {indented(v2Head+"  \"editor\": {\"conflicts\": [{\"path\": \"a\", \"base\": \"\", \"ours\": \"\", \"theirs\": \"\"}]},\n", short(9), ""), withWorld, false},
		"prefab instance":        {indented(v2Head, append(short(9), `{"id": 50, "prefab": "p.json"}`), ""), withWorld, false},
		"override record":        {indented(v2Head, append(short(9), `{"id": 50, "instance": 1, "source": 2}`), ""), withWorld, false},
		"over the entity limit":  {grid, LoadOptions{Limits: Limits{MaxEntities: 250}}, false},
		"at the entity limit":    {grid, LoadOptions{Limits: Limits{MaxEntities: 300}}, true},
		"over the memory limit":  {grid, LoadOptions{Limits: Limits{MaxWorldBytes: 60_000}}, false},
		"over the value limit":   {replaceNth(t, grid, `"rgba": [`, `"rgba": [`+strings.Repeat("1, ", 300), last), LoadOptions{Limits: Limits{MaxEntityValues: 200}}, false},
		"over the depth limit":   {replaceNth(t, grid, `"rgba": [`, `"rgba": [[[[[[`, last), LoadOptions{Limits: Limits{MaxDepth: 6}}, false},
		"over the size limit":    {grid, LoadOptions{Limits: Limits{MaxFileSize: 1000}}, false},
		"over the problem limit": {[]byte(strings.ReplaceAll(lines, `"rgba": [1`, `"rgba": [2`)), LoadOptions{Limits: Limits{MaxProblems: 5}}, false},
		// Nested objects on lines of the entities' indentation are not taken for entities.
		"false borders": {[]byte(strings.ReplaceAll(string(indented(v2Head, short(20), "")), `"components": {`, "\"components\":\n    {")), withWorld, true},
		"one line":      {[]byte(strings.ReplaceAll(string(indented(v2Head, short(20), "")), "\n", " ")), withWorld, true},
	}
}

// TestCheckInPiecesAgreesWithLoad: validate says of every file, read in any number of pieces, what it
// says when it loads the file (summary, warnings, problems and their positions), and it reads the
// valid ones in pieces.
func TestCheckInPiecesAgreesWithLoad(t *testing.T) {
	cases := pieceCases(t)
	for name, tc := range cases {
		inPieces(t, 0)
		want := validated(t, tc.src, tc.opts)
		if valid := strings.HasSuffix(want, "warnings:\n\nproblems:\n<nil>"); tc.valid && !valid {
			t.Errorf("%s: the load says\n%s\nthe case says valid=%v", name, want, tc.valid)
		}
		for _, n := range []int{1, 2, 3, 7} {
			inPieces(t, n)
			if got := validated(t, tc.src, tc.opts); got != want {
				t.Errorf("%s in %d pieces:\n%s\nloaded:\n%s", name, n, got, want)
			}
			opts := tc.opts
			opts.RefuseConflicts = true
			in := NewInput(bytes.NewReader(tc.src), "t.json")
			if _, _, ok := checkInPieces(context.Background(), in, opts); ok != tc.valid {
				t.Errorf("%s in %d pieces: checked in pieces %v, want %v", name, n, ok, tc.valid)
			}
		}
	}
}

// TestSplitFindsEntities: a file the editor wrote is split near equal shares at its entities, and the
// pieces together read every entity once.
func TestSplitFindsEntities(t *testing.T) {
	src := cubeGrid(t, 10, 10, 3, "")
	open := int64(bytes.Index(src, []byte(`"entities": [`)) + len(`"entities": `))
	for _, n := range []int{1, 2, 3, 7} {
		inPieces(t, n)
		p := &pieces{ra: bytes.NewReader(src), size: int64(len(src))}
		starts := p.split(open)
		if len(starts) != n {
			t.Fatalf("%d pieces: split at %v", n, starts)
		}
		for _, s := range starts[1:] {
			if src[s] != '{' || !bytes.HasSuffix(src[:s], []byte("},\n    ")) {
				t.Errorf("%d pieces: a piece starts at %q", n, src[s-8:s+8])
			}
		}
		in := NewInput(bytes.NewReader(src), "t.json")
		if name, count, ok := checkInPieces(context.Background(), in, LoadOptions{CheckWorldMatrices: true}); !ok || name != "Cubes" || count != 300 {
			t.Errorf("%d pieces: %q, %d entities, ok %v", n, name, count, ok)
		}
	}
}

// TestPieceEndsAtItsBorder: a piece reads up to the next piece's first entity, and fails (the file is
// loaded) when the border it was given is not an entity's start.
func TestPieceEndsAtItsBorder(t *testing.T) {
	src := cubeGrid(t, 10, 10, 3, "")
	open := int64(bytes.Index(src, []byte(`"entities": [`)) + len(`"entities": `))
	at := int64(bytes.Index(src, []byte(`"Color"`))) // within the first entity
	for range 2 {
		at += int64(bytes.Index(src[at+1:], []byte("},\n    {"))) + 1
	}
	border := at + int64(len("},\n    ")) // the third entity's '{'

	nested := border + int64(bytes.Index(src[border:], []byte(`"Color": {`))+len(`"Color": `))
	for _, tc := range []struct {
		end  int64
		want bool
	}{{border, true}, {nested, false}, {0, true}} {
		r := &sceneReader{ctx: context.Background(), lim: DefaultLimits().resolved(), probs: &diag.List{}, version: 2, versionKnown: true}
		lim := r.lim
		b := newBinder(scene.NewWorld())
		b.check = &checkRecs{}
		b.probs, b.ds.probs, b.ds.path = r.probs, r.probs, &r.path
		r.entity = b.entity
		pc := &piece{start: open, end: tc.end, r: r, b: b,
			d: jsonpos.NewDecoderAt(bytes.NewReader(src[open:]), lim.json(), jsonpos.Pos{Line: 1, Col: 1}, open, "{")}
		var stop atomic.Bool
		if got := pc.check(true, &stop); got != tc.want {
			t.Errorf("end %d: %v, want %v (%d entities)", tc.end, got, tc.want, len(b.check.ids))
		}
		if tc.want && tc.end == border && len(b.check.ids) != 2 {
			t.Errorf("read %d entities before the border, want 2", len(b.check.ids))
		}
	}
}

// TestCheckInPiecesAsksOnceAboutAnAsset: the asset check is asked once about each reference, by the
// pieces together and the load after them.
func TestCheckInPiecesAsksOnceAboutAnAsset(t *testing.T) {
	src := bytes.ReplaceAll(cubeGrid(t, 10, 10, 3, ""), []byte(`"builtin:cube"`), []byte(`"cube.obj"`))
	for _, missing := range []bool{false, true} {
		inPieces(t, 3)
		asked := map[string]int{}
		opts := LoadOptions{CheckAsset: func(ref string) error {
			asked[ref]++ // askOnce calls it from one goroutine at a time
			if missing {
				return fmt.Errorf("%w: %s", assetref.ErrMissing, ref)
			}
			return nil
		}}
		got := validated(t, src, opts)
		if len(asked) != 1 || asked["cube.obj"] != 1 {
			t.Errorf("missing %v: asked %v\n%s", missing, asked, got)
		}
		if missing != strings.Contains(got, "warning: ") {
			t.Errorf("missing %v: %s", missing, got)
		}
	}
}

// FuzzCheckInPieces: whatever the file, validate says in pieces what it says when it loads it.
func FuzzCheckInPieces(f *testing.F) {
	for _, p := range []string{"testdata/solar.json", "testdata/empty.json", "testdata/legacy-v0.json", "testdata/broken.json", "testdata/cubes.json"} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	for _, tc := range pieceCases(f) {
		if len(tc.src) < 20_000 {
			f.Add(tc.src)
		}
	}
	f.Add(indented(v2Head, []string{`{"id": 1}`, `{"id": 2, "parent": 1}`, `{"id": 3, "components": {"Kinds": {"ref": 2}}}`}, ""))
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := LoadOptions{NewWorld: testWorld, Limits: Limits{MaxDepth: 16, MaxEntities: 200, MaxProblems: 20}, CheckWorldMatrices: true}
		inPieces(t, 0)
		want := validated(t, data, opts)
		inPieces(t, 3)
		if got := validated(t, data, opts); got != want {
			t.Fatalf("in pieces:\n%s\nloaded:\n%s", got, want)
		}
	})
}
