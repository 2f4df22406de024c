package doc

import (
	"flag"
	"os"
	"testing"

	"github.com/voltex-editor/voltex/serialize"
)

var update = flag.Bool("update", false, "rewrite testdata/small.json in canonical form")

// The test scene is canonical, so saving it unchanged gives its bytes back (the tests compare saves with it). A
// hand edit that is not canonical fails here; `go test ./editor/doc -run SmallScene -update` formats it.
func TestSmallSceneIsCanonical(t *testing.T) {
	const path = "testdata/small.json"
	src, err := os.ReadFile(path)
	must(t, err)
	out, err := serialize.Format(src, "small.json")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		must(t, os.WriteFile(path, out, 0o644))
		return
	}
	if string(out) != string(src) {
		t.Fatalf("%s is not canonical (run go test ./editor/doc -run SmallScene -update to format it); canonical:\n%s", path, out)
	}
}
