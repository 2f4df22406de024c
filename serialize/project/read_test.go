package project

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// genReader yields head, then n items (item(i), one a line, separated by commas), then tail,
// counting the bytes read.
type genReader struct {
	head, tail string
	item       func(i int) string
	n, i       int
	buf        []byte
	read       int64
}

func (g *genReader) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		switch {
		case g.head != "":
			g.buf, g.head = []byte(g.head+"\n"), ""
		case g.i < g.n:
			sep := ",\n"
			if g.i == g.n-1 {
				sep = "\n"
			}
			g.buf = []byte(g.item(g.i) + sep)
			g.i++
		case g.tail != "":
			g.buf, g.tail = []byte(g.tail), ""
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	g.read += int64(n)
	return n, nil
}

// countCases are files that list far more of something than a project file may; each item is on
// a line of its own (the file's line 2 is item 0).
var countCases = []struct {
	name       string
	head, tail string
	item       func(i int) string
	n          int
	want       string
}{
	{"components", `{"format": "voltex.project", "version": 1, "components": [`, `]}`,
		func(i int) string { return fmt.Sprintf(`{"name": "C%d"}`, i) }, 300_000,
		"p.json:258:1: components[256]: more than 256 components: a world holds at most 256 component types"},
	{"enums", `{"format": "voltex.project", "version": 1, "enums": [`, `]}`,
		func(i int) string { return fmt.Sprintf(`{"name": "E%d", "values": ["A"]}`, i) }, 300_000,
		"p.json:4098:1: enums[4096]: more than 4096 named enums; at most 4096"},
	{"structs", `{"format": "voltex.project", "version": 1, "structs": [`, `]}`,
		func(i int) string { return fmt.Sprintf(`{"name": "S%d", "fields": []}`, i) }, 300_000,
		"p.json:4098:1: structs[4096]: more than 4096 named structs; at most 4096"},
	{"enum values", `{"format": "voltex.project", "version": 1, "enums": [{"name": "E", "values": [`, `]}]}`,
		func(i int) string { return fmt.Sprintf(`"V%d"`, i) }, 1_000_000,
		"p.json:1026:1: enums[0].values[1024]: more than 1024 values; an enum has at most 1024"},
	{"fields", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [`, `]}]}`,
		func(i int) string { return fmt.Sprintf(`{"name": "f%d", "type": "int"}`, i) }, 500_000,
		"p.json:258:1: components[0].fields[256]: more than 256 fields; at most 256"},
}

// A file that lists more components, enums, structs, enum values or fields than the limits is
// refused at the first item past the limit: the rest is never read.
func TestCountsStopTheReading(t *testing.T) {
	for _, c := range countCases {
		t.Run(c.name, func(t *testing.T) {
			g := &genReader{head: c.head, tail: c.tail, item: c.item, n: c.n}
			_, err := Read(g, "p.json")
			if err == nil || err.Error() != c.want {
				t.Fatalf("error:\n%v\nwant:\n%s", err, c.want)
			}
			// The decoder reads ahead at most a buffer (64 KiB) past the item that passes the limit.
			if g.read > 512<<10 {
				t.Fatalf("read %d bytes of the file", g.read)
			}
		})
	}
}

// Parse of a file held in memory stops at the limit too: refusing 300,000 components (7 MB)
// allocates little, where building them all took hundreds of megabytes.
func TestCountsStopTheParse(t *testing.T) {
	c := countCases[0]
	var b strings.Builder
	g := &genReader{head: c.head, tail: c.tail, item: c.item, n: c.n}
	if _, err := io.Copy(&b, g); err != nil {
		t.Fatal(err)
	}
	data := []byte(b.String())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse(data, "p.json")
	runtime.ReadMemStats(&after)
	if err == nil || err.Error() != c.want {
		t.Fatalf("error:\n%v\nwant:\n%s", err, c.want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Fatalf("refusing %d bytes of components allocated %d bytes", len(data), alloc)
	}
}
