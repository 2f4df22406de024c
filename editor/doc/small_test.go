package doc

import (
	"os"
	"testing"

	"github.com/voltex-editor/voltex/serialize"
)

// The test scene is canonical, so saving it unchanged gives its bytes back.
func TestSmallSceneIsCanonical(t *testing.T) {
	src, err := os.ReadFile("testdata/small.json")
	must(t, err)
	out, err := serialize.Format(src, "small.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(src) {
		os.WriteFile("testdata/small.json", out, 0o644)
		t.Fatalf("testdata/small.json was not canonical; rewritten:\n%s", out)
	}
}
