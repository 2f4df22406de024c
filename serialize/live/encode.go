package live

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// encoder turns delta parts into JSON lines on a connection's writer goroutine. It reads only the
// batch (copies made in Frame) and the component table, never the world.
type encoder struct {
	buf []byte
}

func (en *encoder) batch(b *batch) []byte {
	buf := en.buf[:0]
	buf = append(buf, `{"op":"delta","seq":`...)
	buf = strconv.AppendUint(buf, b.d.Seq, 10)
	buf = append(buf, `,"frame":`...)
	buf = strconv.AppendUint(buf, b.d.Frame, 10)
	buf = append(buf, `,"updates":`...)
	buf = strconv.AppendUint(buf, b.d.Updates, 10)
	buf = append(buf, `,"paused":`...)
	buf = strconv.AppendBool(buf, b.d.Paused)
	buf = append(buf, `,"entities":[`...)
	var errs []string
	for i, be := range b.ents {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"e":`...)
		buf = strconv.AppendUint(buf, be.e, 10)
		if be.parent != 0 {
			buf = append(buf, `,"parent":`...)
			buf = strconv.AppendUint(buf, be.parent, 10)
		}
		buf = append(buf, `,"has":[`...)
		for j, id := range b.ids[be.has0:be.has1] {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, b.comps[id].quoted...)
		}
		buf = append(buf, ']')
		errs = errs[:0]
		if be.sent1 > be.has1 {
			buf = append(buf, `,"c":{`...)
			first := true
			for _, id := range b.ids[be.has1:be.sent1] {
				m := &b.comps[id]
				at := len(buf)
				if !first {
					buf = append(buf, ',')
				}
				buf = append(buf, m.quoted...)
				buf = append(buf, ':')
				if m.info.IsTag {
					buf = append(buf, "{}"...)
					first = false
					continue
				}
				col := &b.cols[b.colOf[id]-1]
				v := col.vals.Value(col.next)
				col.next++
				var err error
				if buf, err = m.enc.Append(buf, v); err != nil {
					buf = buf[:at]
					errs = append(errs, err.Error())
					continue
				}
				first = false
			}
			buf = append(buf, '}')
		}
		if len(errs) > 0 {
			e, _ := json.Marshal(errs)
			buf = append(buf, `,"errors":`...)
			buf = append(buf, e...)
		}
		buf = append(buf, '}')
	}
	buf = append(buf, ']')
	if b.d.End {
		buf = append(buf, `,"removed":[`...)
		for i, h := range b.removed {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendUint(buf, h, 10)
		}
		buf = append(buf, `],"end":true`...)
	}
	buf = append(buf, "}\n"...)
	en.buf = buf
	return buf
}

// setPath returns the JSON object js with the value at path (JSON names and indexes:
// "position[0]", "a.b", "points[2].x") replaced by the JSON value val.
func setPath(js []byte, path string, val json.RawMessage) (string, error) {
	root, err := decodeNumbers(js)
	if err != nil {
		return "", err
	}
	v, err := decodeNumbers(val)
	if err != nil {
		return "", fmt.Errorf("value: %v", err)
	}
	segs, err := splitPath(path)
	if err != nil {
		return "", err
	}
	var set func(cur any, segs []pathSeg) (any, error)
	set = func(cur any, segs []pathSeg) (any, error) {
		if len(segs) == 0 {
			return v, nil
		}
		s := segs[0]
		if s.key != "" {
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: %s is not in an object", path, s.key)
			}
			old, ok := m[s.key]
			if !ok {
				return nil, fmt.Errorf("%s: no field %q", path, s.key)
			}
			nv, err := set(old, segs[1:])
			m[s.key] = nv
			return m, err
		}
		a, ok := cur.([]any)
		if !ok || s.index >= len(a) {
			return nil, fmt.Errorf("%s: no item %d", path, s.index)
		}
		nv, err := set(a[s.index], segs[1:])
		a[s.index] = nv
		return a, err
	}
	out, err := set(root, segs)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(out)
	return string(b), err
}

func decodeNumbers(js []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("one JSON value expected")
	}
	return v, nil
}

type pathSeg struct {
	key   string
	index int
}

// splitPath splits "a.b[2].c" into its keys and indexes.
func splitPath(path string) ([]pathSeg, error) {
	var segs []pathSeg
	bad := fmt.Errorf("bad field path %q", clip(path))
	for _, part := range strings.Split(path, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key == "" && (len(segs) == 0 || rest == "") {
			return nil, bad
		}
		if key != "" {
			segs = append(segs, pathSeg{key: key})
		}
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			n, err := strconv.Atoi(num)
			if !ok || err != nil || n < 0 || n > 1<<20 {
				return nil, bad
			}
			segs = append(segs, pathSeg{index: n})
			rest = after
			if rest != "" {
				if rest[0] != '[' {
					return nil, bad
				}
				rest = rest[1:]
			}
		}
	}
	return segs, nil
}
