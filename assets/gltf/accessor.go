package gltf

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Component types.
const (
	compByte   = 5120
	compUByte  = 5121
	compShort  = 5122
	compUShort = 5123
	compUInt   = 5125
	compFloat  = 5126
)

func compSize(ct int) int64 {
	switch ct {
	case compByte, compUByte:
		return 1
	case compShort, compUShort:
		return 2
	case compUInt, compFloat:
		return 4
	}
	return 0
}

var typeComps = map[string]int{"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}

// strided is a run of count elements of elem bytes, stride bytes apart, in data (checked).
type strided struct {
	data          []byte
	count, stride int64
}

func (s strided) at(i int64) []byte { return s.data[i*s.stride:] }

// span checks that count elements of elem bytes, stride apart from offset, fit in view v, and
// returns them; at and name say where in the file for messages.
func (im *importer) span(v int, offset, count, elem, stride int64, at string) (strided, error) {
	if err := index(v, len(im.doc.BufferViews), at, "bufferView"); err != nil {
		return strided{}, err
	}
	bv := im.doc.BufferViews[v]
	data := im.view(v)
	if stride == 0 {
		stride = elem
	}
	if stride < elem {
		return strided{}, fmt.Errorf("%s: bufferView %d: byteStride %d is smaller than an element (%d bytes)", at, v, stride, elem)
	}
	n := int64(len(data))
	if offset < 0 || offset > n {
		return strided{}, fmt.Errorf("%s: byteOffset %d is outside bufferView %d (%d bytes, in buffer %d)", at, offset, v, n, bv.Buffer)
	}
	if count > 0 {
		// count is bounded by the limits (at most a few times 10^7) and stride by 252, so this
		// cannot overflow.
		need := stride*(count-1) + elem
		if need > n-offset {
			return strided{}, fmt.Errorf("%s: %d elements of %d bytes, %d apart, from byte %d need %d bytes; bufferView %d (buffer %d) has %d",
				at, count, elem, stride, offset, offset+need, v, bv.Buffer, n)
		}
	}
	return strided{data: data[offset:], count: count, stride: stride}, nil
}

// accessorHead checks accessor a's declaration and its count against maxCount.
func (im *importer) accessorHead(a int, at string, maxCount int64, what string) (accessorJSON, int, error) {
	if err := index(a, len(im.doc.Accessors), at, "accessor"); err != nil {
		return accessorJSON{}, 0, err
	}
	acc := im.doc.Accessors[a]
	at = fmt.Sprintf("%s: accessor %d", at, a)
	nc, ok := typeComps[acc.Type]
	if !ok {
		return acc, 0, fmt.Errorf("%s: type %q is not a glTF accessor type", at, acc.Type)
	}
	if compSize(acc.ComponentType) == 0 {
		return acc, 0, fmt.Errorf("%s: componentType %d is not one of 5120..5126", at, acc.ComponentType)
	}
	if acc.Count < 1 {
		return acc, 0, fmt.Errorf("%s: count %d, must be at least 1", at, acc.Count)
	}
	if acc.Count > maxCount {
		return acc, 0, fmt.Errorf("%s: count %d would take the model past the limit of %s", at, acc.Count, what)
	}
	return acc, nc, nil
}

// floats reads accessor a as Count × nc floats (normalized integers scaled; every integer with
// normInts), after checking that its type is one of types and that Count is at most maxCount.
func (im *importer) floats(a int, at string, maxCount int64, what string, normInts bool, types ...string) ([]float32, int, error) {
	acc, nc, err := im.accessorHead(a, at, maxCount, what)
	if err != nil {
		return nil, 0, err
	}
	acc.Normalized = acc.Normalized || normInts
	ok := false
	for _, t := range types {
		ok = ok || acc.Type == t
	}
	if !ok {
		return nil, 0, fmt.Errorf("%s: accessor %d: type %s, expected %v", at, a, acc.Type, types)
	}
	at = fmt.Sprintf("%s: accessor %d", at, a)
	cs := compSize(acc.ComponentType)
	elem := cs * int64(nc)
	// Every extent is checked before the output is allocated.
	var base, is, vs strided
	if acc.BufferView != nil {
		if base, err = im.span(*acc.BufferView, acc.ByteOffset, acc.Count, elem, im.stride(*acc.BufferView), at); err != nil {
			return nil, 0, err
		}
	} else if acc.Sparse == nil {
		return nil, 0, fmt.Errorf("%s: no bufferView and no sparse values", at)
	}
	sp := acc.Sparse
	if sp != nil {
		at := at + ": sparse"
		if sp.Count < 1 || sp.Count > acc.Count {
			return nil, 0, fmt.Errorf("%s.count: %d, must be within 1..%d", at, sp.Count, acc.Count)
		}
		ics := compSize(sp.Indices.ComponentType)
		if sp.Indices.ComponentType != compUByte && sp.Indices.ComponentType != compUShort && sp.Indices.ComponentType != compUInt {
			return nil, 0, fmt.Errorf("%s.indices.componentType: %d, must be 5121, 5123 or 5125", at, sp.Indices.ComponentType)
		}
		if is, err = im.span(sp.Indices.BufferView, sp.Indices.ByteOffset, sp.Count, ics, ics, at+".indices"); err != nil {
			return nil, 0, err
		}
		if vs, err = im.span(sp.Values.BufferView, sp.Values.ByteOffset, sp.Count, elem, elem, at+".values"); err != nil {
			return nil, 0, err
		}
	}
	out := make([]float32, acc.Count*int64(nc))
	if base.data != nil {
		for i := range acc.Count {
			readElem(out[i*int64(nc):(i+1)*int64(nc)], base.at(i), acc.ComponentType, acc.Normalized)
		}
	}
	if sp != nil {
		at := at + ": sparse"
		for i := range sp.Count {
			k := int64(readUint(is.at(i), sp.Indices.ComponentType))
			if k >= acc.Count {
				return nil, 0, fmt.Errorf("%s.indices[%d]: %d is past the accessor's %d elements", at, i, k, acc.Count)
			}
			readElem(out[k*int64(nc):(k+1)*int64(nc)], vs.at(i), acc.ComponentType, acc.Normalized)
		}
	}
	return out, nc, nil
}

func (im *importer) stride(v int) int64 {
	if v < 0 || v >= len(im.doc.BufferViews) {
		return 0
	}
	return im.doc.BufferViews[v].ByteStride
}

// indices reads an index accessor, each index below nVerts.
func (im *importer) indices(a int, at string, maxCount int64, nVerts int) ([]uint32, error) {
	acc, _, err := im.accessorHead(a, at, maxCount, "triangles (Limits.MaxTriangles)")
	if err != nil {
		return nil, err
	}
	at = fmt.Sprintf("%s: accessor %d", at, a)
	if acc.Type != "SCALAR" {
		return nil, fmt.Errorf("%s: indices of type %s, must be SCALAR", at, acc.Type)
	}
	ct := acc.ComponentType
	if ct != compUByte && ct != compUShort && ct != compUInt {
		return nil, fmt.Errorf("%s: indices of componentType %d, must be 5121, 5123 or 5125", at, ct)
	}
	if acc.BufferView == nil || acc.Sparse != nil {
		// Sparse or absent index data is allowed by the spec in theory and made by no exporter.
		return nil, fmt.Errorf("%s: indices must come from a bufferView, without sparse", at)
	}
	cs := compSize(ct)
	s, err := im.span(*acc.BufferView, acc.ByteOffset, acc.Count, cs, im.stride(*acc.BufferView), at)
	if err != nil {
		return nil, err
	}
	out := make([]uint32, acc.Count)
	for i := range acc.Count {
		v := readUint(s.at(i), ct)
		if int64(v) >= int64(nVerts) {
			return nil, fmt.Errorf("%s: index %d is %d, past the %d vertices", at, i, v, nVerts)
		}
		out[i] = v
	}
	return out, nil
}

func readUint(b []byte, ct int) uint32 {
	switch ct {
	case compUByte:
		return uint32(b[0])
	case compUShort:
		return uint32(binary.LittleEndian.Uint16(b))
	}
	return binary.LittleEndian.Uint32(b)
}

// readElem decodes len(dst) components of type ct from b.
func readElem(dst []float32, b []byte, ct int, norm bool) {
	for j := range dst {
		switch ct {
		case compFloat:
			f := math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				f = 0 // a NaN would poison bounds and normals
			}
			dst[j] = f
		case compByte:
			v := float32(int8(b[j]))
			if norm {
				v = max(v/127, -1)
			}
			dst[j] = v
		case compUByte:
			v := float32(b[j])
			if norm {
				v /= 255
			}
			dst[j] = v
		case compShort:
			v := float32(int16(binary.LittleEndian.Uint16(b[2*j:])))
			if norm {
				v = max(v/32767, -1)
			}
			dst[j] = v
		case compUShort:
			v := float32(binary.LittleEndian.Uint16(b[2*j:]))
			if norm {
				v /= 65535
			}
			dst[j] = v
		case compUInt:
			v := float32(binary.LittleEndian.Uint32(b[4*j:]))
			if norm {
				v /= math.MaxUint32
			}
			dst[j] = v
		}
	}
}
