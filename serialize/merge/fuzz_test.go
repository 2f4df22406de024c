package merge

import (
	"bytes"
	"context"
	"testing"

	"github.com/voltex-editor/voltex/serialize"
)

// FuzzMerge: for any three inputs the reader accepts, Merge and Diff do not panic, and the merged
// scene reads back (unique ids, existing parents without cycles, existing reference targets), so
// a conflict never leaves a broken file. Seeds: the table tests' base and a few edits of it.
func FuzzMerge(f *testing.F) {
	base := []byte(baseScene)
	edited := func(es ...func(*serialize.RawScene)) []byte {
		s := apply(f, es...)
		var b bytes.Buffer
		if err := serialize.WriteRaw(context.Background(), &b, s); err != nil {
			f.Fatal(err)
		}
		return b.Bytes()
	}
	f.Add(base, edited(setComp(2, "Color", `{ "rgba": [0, 1, 0, 1] }`), del(5)), edited(rename(5, "x"), move(1, 4, 2)))
	f.Add(base, edited(move(1, 4, 2)), edited(move(4, 2, 1)))
	f.Add(base, edited(del(2), del(5)), edited(setComp(3, "Follow", `{ "target": 5, "others": [2] }`)))
	f.Add([]byte(`{"format": "voltex.scene", "version": 1, "entities": [{"id": 1}, {"id": 2, "parent": 1}]}`),
		[]byte(`{"format": "voltex.scene", "version": 2, "entities": [{"id": 2}]}`), []byte(`{"entities": []}`))
	f.Fuzz(func(t *testing.T, b, o, th []byte) {
		read := func(data []byte) *serialize.RawScene {
			s, err := serialize.ReadRaw(context.Background(), bytes.NewReader(data),
				serialize.LoadOptions{NewWorld: testWorld, Limits: serialize.Limits{MaxEntities: 1000}})
			if err != nil {
				return nil
			}
			return s
		}
		bs, os, ts := read(b), read(o), read(th)
		if bs == nil || os == nil || ts == nil {
			return
		}
		_ = Diff(bs, os)
		res := Merge(bs, os, ts)
		if res.Unmergeable != "" {
			return // refused: the prefabs would be needed
		}
		var out bytes.Buffer
		if err := serialize.WriteRaw(context.Background(), &out, res.Scene); err != nil {
			return // a value JSON cannot hold: the inputs had none, so only order keys could (never from inputs)
		}
		if _, err := serialize.ReadRaw(context.Background(), bytes.NewReader(out.Bytes()), serialize.LoadOptions{NewWorld: testWorld}); err != nil {
			t.Fatalf("the merge of readable scenes does not read back: %v\n%s", err, out.Bytes())
		}
	})
}
