package merge

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	a := apply(t)
	b := apply(t, sceneName("S2"), rename(2, "Alpha"), move(3, 4, 0.5), setComp(2, "Transform", `{ "position": [1, 2, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] }`),
		setComp(5, "Color", `{ "rgba": [0, 1, 0, 1] }`), delComp(4, "Spin"), setComp(3, "Nested", `{ "inner": { "x": 1, "y": 5 }, "tags": ["a"] }`),
		del(1), move(2, 0, 3), move(3, 4, 0.5), add(77, "Lamp", 4, 3, "Color", `{ "rgba": [1, 1, 1, 1] }`))
	changes := Diff(a, b)
	var text bytes.Buffer
	if err := WriteText(&text, a, b, changes); err != nil {
		t.Fatal(err)
	}
	want := `scene name: "S" → "S2"
- entity 1 "Root"
~ entity 2 "Alpha"
    name: "A" → "Alpha"
    parent: 1 "Root" → (root)
    order: 1 → 3
    Transform.position: [1, 0, 0] → [1, 2, 0]
~ entity 3 "B"
    parent: 1 "Root" → 4 "C"
    order: 2 → 0.5
    Nested.inner.y: 2 → 5
~ entity 4 "C"
    - Spin { "axis": [0, 1, 0], "speed": 45 }
~ entity 5 "D"
    + Color { "rgba": [0, 1, 0, 1] }
+ entity 77 "Lamp" under 4 "C": Color
`
	if text.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), want)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, changes); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Changes []struct {
			Op     string
			Entity int64
			Path   string
			From   json.RawMessage
			To     json.RawMessage
		}
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("%v\n%s", err, js.String())
	}
	if len(back.Changes) != len(changes) {
		t.Fatalf("%d JSON changes for %d", len(back.Changes), len(changes))
	}
	c := back.Changes[5]
	if c.Op != "change" || c.Entity != 2 || c.Path != "components.Transform.position" || string(c.From) != "[1,0,0]" || string(c.To) != "[1,2,0]" {
		t.Errorf("JSON change %+v (from %s to %s)\n%s", c, c.From, c.To, js.String())
	}
	if !strings.Contains(js.String(), "\n  {\"op\":\"remove\",\"entity\":1,\"name\":\"Root\"},\n") {
		t.Errorf("JSON:\n%s", js.String())
	}
	if d := Diff(a, apply(t)); len(d) != 0 {
		t.Errorf("no change: %v", d)
	}
}
