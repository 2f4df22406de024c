package doc

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchPrefab10 is a 10-entity prefab (a body with nine parts) whose colours depend on shade.
func benchPrefab10(shade string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{ "format": "voltex.scene", "version": 2, "name": "Enemy", "entities": [
  { "id": 1, "name": "Body", "order": 1, "components": { "Color": { "rgba": [%s, 0.2, 0.2, 1] }, "Mesh": { "asset": "builtin:cube" }, "Transform": {} } }`, shade)
	for i := range 9 {
		fmt.Fprintf(&b, `,
  { "id": %d, "name": "Part %d", "parent": 1, "order": %d, "components": { "Color": { "rgba": [0.2, %s, 0.2, 1] }, "Mesh": { "asset": "builtin:sphere" }, "Transform": { "position": [%d, 1, %d], "scale": [0.3, 0.3, 0.3] } } }`,
			i+2, i, i+1, shade, i%3-1, i/3-1)
	}
	b.WriteString("\n] }\n")
	return b.String()
}

// BenchmarkPrefabsChanged10kInstances is the editor's side of the target "updating all instances after a prefab
// edit ≤ 100 ms": a scene of 10,000 instances of a 10-entity prefab open in a Document, the prefab file changed on
// disk (every entity's colour), Prefabs.Changed (reload, update in place, reindex). The file write is not
// timed.
func BenchmarkPrefabsChanged10kInstances(b *testing.B) {
	dir := b.TempDir()
	prefab := filepath.Join(dir, "enemy.json")
	must(b, os.WriteFile(prefab, []byte(benchPrefab10("0.5")), 0o644))
	var sc strings.Builder
	sc.WriteString(`{ "format": "voltex.scene", "version": 2, "name": "Army", "entities": [`)
	for i := range 10_000 {
		if i > 0 {
			sc.WriteString(",\n")
		}
		fmt.Fprintf(&sc, `{ "id": %d, "name": "Enemy %d", "order": %d, "prefab": "enemy.json", "components": { "Transform": { "position": [%d, 0, %d] } } }`,
			i+1, i, i+1, 3*(i%100), 3*(i/100))
	}
	sc.WriteString("] }")
	must(b, os.WriteFile(filepath.Join(dir, "army.json"), []byte(sc.String()), 0o644))
	d, err := Open(context.Background(), filepath.Join(dir, "army.json"), testOpts, nil)
	must(b, err)
	if d.Len() != 110_000 {
		b.Fatalf("%d entities", d.Len())
	}
	versions := [2]string{benchPrefab10("0.5"), benchPrefab10("0.9")}
	var total time.Duration
	i := 0
	for b.Loop() {
		i++
		b.StopTimer()
		must(b, os.WriteFile(prefab, []byte(versions[i%2]), 0o644))
		b.StartTimer()
		t0 := time.Now()
		if rep := d.Prefabs().Changed(context.Background(), prefab); rep.Instances != 10_000 {
			b.Fatalf("%+v", rep)
		}
		total += time.Since(t0)
	}
	reportMS(b, total, i)
	b.ReportMetric(0, "ns/op")
}
