package game

import (
	"bytes"
	"strconv"
	"testing"
)

// exportText returns an export of n entities as `voltex-editor export` writes them: each with a
// Transform and two game components (canonical one-line JSON), a quarter of them pretty-printed
// over several lines as a person might edit them.
func exportText(n int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"format\": \"voltex.export\",\n  \"version\": 1,\n  \"name\": \"Bench\",\n  \"meshes\": [\"builtin:cube\"],\n  \"entities\": [")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    {\n      \"name\": \"Unit ")
		b.WriteString(strconv.Itoa(i))
		b.WriteString("\",\n      \"parent\": -1,\n      \"mesh\": 0,\n      \"world\": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],\n      \"components\": {\n")
		b.WriteString("        \"Transform\": { \"position\": [1, 2, 3], \"rotation\": [0, 0, 0], \"scale\": [1, 1, 1] },\n")
		if i%4 == 3 {
			b.WriteString("        \"Enemy\": {\n          \"target\": 0,\n          \"team\": 2,\n          \"speed\": 2.5,\n          \"route\": [[1, 2, 3], [4, 5, 6]]\n        },\n")
		} else {
			b.WriteString("        \"Enemy\": { \"target\": 0, \"team\": 2, \"speed\": 2.5, \"route\": [[1, 2, 3], [4, 5, 6]] },\n")
		}
		b.WriteString("        \"Health\": { \"current\": 75, \"max\": 100, \"name\": \"Grunt\" }\n      }\n    }")
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes()
}

// BenchmarkLoadExport loads a 10k-entity export with game components (the game loader's hot path:
// parse, check, keep each component as compact JSON).
func BenchmarkLoadExport(b *testing.B) {
	const n = 10_000
	data := exportText(n)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := Load(bytes.NewReader(data))
		if err != nil || len(s.Entities) != n {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
}
