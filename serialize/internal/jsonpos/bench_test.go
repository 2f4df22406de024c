package jsonpos

import (
	"bytes"
	"fmt"
	"testing"
)

// entitiesJSON is an array of n entities as a saved cube grid has them, indented as the editor writes them.
func entitiesJSON(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `    {
      "id": %d,
      "name": "Cube %d,%d,%d",
      "order": %d,
      "components": {
        "Color": { "rgba": [0.5474748, 0.5158249, 0.5393939, 1] },
        "Mesh": { "asset": "builtin:cube" },
        "Transform": { "position": [-42.75, %d.25, 60.75], "rotation": [0, 0, 0], "scale": [1, 1, 1] }
      }
    }`, 344954346+i*7919, i%100, i/100%100, i/10000, i, i%100)
	}
	b.WriteString("\n]\n")
	return b.Bytes()
}

// BenchmarkParseEntities parses the items of an entities array one at a time into a reused arena, as a scene's
// load does: MB/s and ns per entity.
func BenchmarkParseEntities(b *testing.B) {
	const n = 20_000
	data := entitiesJSON(n)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		d := NewBytesDecoder(data, Limits{})
		if _, err := d.EnterArray(); err != nil {
			b.Fatal(err)
		}
		for {
			more, err := d.NextItem()
			if err != nil {
				b.Fatal(err)
			}
			if !more {
				break
			}
			if _, err := d.Value(); err != nil {
				b.Fatal(err)
			}
			d.ResetArena()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
}
