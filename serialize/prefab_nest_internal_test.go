package serialize

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The shape scan counts what the reader reads, whatever a chunk of input ends on: strings with
// brackets, quotes and escapes, "prefab" keys deeper than an entity's, records, a second
// "entities" key inside a component, keys after the entities, keys written with escapes and a
// prefab path written in escapes past 8 KiB (missed, either lets a nest past the count).
func TestShapeScanAgreesWithTheReader(t *testing.T) {
	texts := []string{
		`{ "name": "a \"}{[" , "entities": [
  { "id": 1, "name": "x\\\" } ] {", "prefab": "props/tree.json", "components": { "Note": { "prefab": "no.json", "entities": [ {}, {} ] } } },
  { "id": 2, "parent": 1, "order": 2, "components": { "Transform": { "position": [1, 2, 3] } } },
  { "id": 3, "prefab": "props\/tree.json" },
  { "id": 4, "prefab": "b.json" },
  { "id": 3965524272391396, "instance": 1, "source": 7, "components": { "Color": {} } },
  { "id": 263392251706675, "instance": 1, "source": 8, "removed": true } ],
  "format": "voltex.scene", "version": 2 }`,
		`{ "entities": [], "format": "voltex.scene", "version": 2 }`,
		`{ "format": "voltex.scene", "version": 2, "entities": [ { "id": 1, "prefab": "a.json" } ] }`,
		// Keys written with escapes are the keys they decode to.
		`{ "format": "voltex.scene", "version": 2, "entit\u0069es": [ { "id": 1, "pref\u0061b": "a.json" },
  { "id": 2, "pr\u0065fab": "a.json" }, { "id": 3965524272391396, "inst\u0061nce": 1, "source": 7 } ] }`,
		// A prefab path of a few bytes written in many escapes.
		`{ "format": "voltex.scene", "version": 2, "entities": [ { "id": 1, "prefab": "` +
			strings.Repeat(`\u002e\u002f`, 1000) + `a.json" } ] }`,
	}
	for _, name := range []string{"testdata/solar-v1.json", "testdata/legacy-v0.migrated.json", "testdata/cubes.json"} {
		data, err := os.ReadFile(filepath.FromSlash(name))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
	}
	for k, text := range texts {
		raw, err := ReadRaw(context.Background(), bytes.NewReader([]byte(text)), LoadOptions{Lossy: true})
		if err != nil {
			t.Fatalf("text %d: %v", k, err)
		}
		var want prefabShape
		for _, e := range raw.Entities {
			if e.IsRecord() {
				continue
			}
			want.own++
			if e.Prefab != "" {
				p, _ := checkPrefabPath(e.Prefab)
				if i := slices.IndexFunc(want.uses, func(u prefabUse) bool { return u.path == p }); i >= 0 {
					want.uses[i].n++
				} else {
					want.uses = append(want.uses, prefabUse{path: p, n: 1})
				}
			}
		}
		for _, chunk := range []int{1, 7, 1 << 16} {
			var got prefabShape
			sc := shapeScan{sh: &got, index: map[string]int{}}
			for b := []byte(text); len(b) > 0; {
				n := min(chunk, len(b))
				if !sc.feed(b[:n]) {
					break
				}
				b = b[n:]
			}
			slices.SortFunc(got.uses, func(a, b prefabUse) int { return cmpStr(a.path, b.path) })
			slices.SortFunc(want.uses, func(a, b prefabUse) int { return cmpStr(a.path, b.path) })
			if got.own != want.own || !slices.Equal(got.uses, want.uses) {
				t.Errorf("text %d in chunks of %d: %+v, want %+v", k, chunk, got, want)
			}
		}
	}
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
