package assets

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestDescribeOBJGolden compares DescribeOBJ of every shared model with testdata/describe.golden
// (run with -update to rewrite it after an intended change).
func TestDescribeOBJGolden(t *testing.T) {
	dir := sharedOBJDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.obj"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no models in %s: %v", dir, err)
	}
	var b strings.Builder
	for _, f := range files {
		desc, err := DescribeOBJ(f)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(filepath.Base(f) + ": " + desc + "\n")
	}
	golden := filepath.Join("testdata", "describe.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run DescribeOBJGolden -update to create it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("DescribeOBJ output differs from %s (rerun with -update if intended):\n got:\n%s\nwant:\n%s", golden, b.String(), want)
	}
}

func TestDescribeOBJErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.obj")
	writeFile(t, path, "v 0 0 0\nv 1 nan 0\nf 1 2 3\nf 0 1 1\n")
	_, err := DescribeOBJ(path)
	want := path + ":2:5: bad number \"nan\"\n" + path + ":3:5: vertex index 2 out of range (1 defined so far)\n" +
		path + ":4:3: vertex index 0 is invalid (OBJ indices start at 1; negative ones count back from the last)"
	if err == nil || err.Error() != want {
		t.Errorf("err =\n%v\nwant\n%s", err, want)
	}
	if _, err := DescribeOBJ(filepath.Join(t.TempDir(), "missing.obj")); err == nil {
		t.Error("missing file described")
	}
}

// OBJ text is told from JSON by its first bytes (for models piped into validate).
func TestLooksLikeOBJ(t *testing.T) {
	for s, want := range map[string]bool{
		"# Blender\nv 0 0 0": true, "\ufeff\r\nv 1 2 3": true, "  vt 0 0\n": true, "f 1 2 3": true, "o Cube\n": true,
		"mtllib x.mtl\n": true, "usemtl a\n": true, "g\n": true,
		`{"format": "voltex.scene"}`: false, "[1]": false, "": false, "   ": false, "null ": false, "vertex 1": false, "v": false,
		"\xff\xfe#\x00": false,
	} {
		if got := LooksLikeOBJ([]byte(s)); got != want {
			t.Errorf("LooksLikeOBJ(%q) = %v, want %v", s, got, want)
		}
	}
}
