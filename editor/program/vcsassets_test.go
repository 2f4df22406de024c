package program

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Merge and diff read their sides with the asset path rule that validate,
// export and the editor apply. merge refuses an input with an unsafe mesh or prefab path
// (file:line:col, exit 2, nothing written); diff compares and warns.
func TestDiffAndMergeCheckAssetPaths(t *testing.T) {
	for _, ref := range []string{"/etc/passwd", "../../x.obj", `C:\x.obj`, ""} {
		bad := sceneWithMesh(t, ref)
		good := sceneWithMesh(t, "builtin:cube")
		dir := filepath.Dir(bad)
		out := filepath.Join(dir, "out.json")
		code, _, stderr := runCLI("merge", good, good, bad, "-o", out)
		if code != 2 || !strings.Contains(stderr, bad+":2:46: entities[0].components.Mesh.asset: ") {
			t.Errorf("merge %q: code %d\n%s", ref, code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("merge %q: %s was written", ref, out)
		}
		code, stdout, stderr := runCLI("diff", good, bad)
		if code != 1 || !strings.Contains(stderr, bad+":2:46: warning: entities[0].components.Mesh.asset: ") || !strings.Contains(stdout, "Mesh.asset") {
			t.Errorf("diff %q: code %d\n%s%s", ref, code, stdout, stderr)
		}
	}
	// A prefab path that leaves the folder.
	dir := writeFiles(t, map[string]string{"base.json": vcsBase, "p.json": `{"format": "voltex.scene", "version": 2, "entities": [
 {"id": 1, "prefab": "../../level.json", "components": {}}]}`})
	code, _, stderr := runCLI("merge", filepath.Join(dir, "base.json"), filepath.Join(dir, "base.json"), filepath.Join(dir, "p.json"), "-o", filepath.Join(dir, "out.json"))
	if code != 2 || !strings.Contains(stderr, "p.json:2:22: entities[0].prefab: prefab path \"../../level.json\" refused") {
		t.Errorf("merge prefab: code %d\n%s", code, stderr)
	}
}
