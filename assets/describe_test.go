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
