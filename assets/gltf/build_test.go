package gltf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"
)

// doc is a glTF document under construction in a test.
type doc map[string]any

// bin collects a test model's buffer.
type bin struct{ b []byte }

// add appends data (little-endian, padded to 4 bytes) and returns a buffer view over it.
func (b *bin) add(data any) map[string]any {
	var w bytes.Buffer
	if err := binary.Write(&w, binary.LittleEndian, data); err != nil {
		panic(err)
	}
	off := len(b.b)
	b.b = append(b.b, w.Bytes()...)
	for len(b.b)%4 != 0 {
		b.b = append(b.b, 0)
	}
	return map[string]any{"buffer": 0, "byteOffset": off, "byteLength": w.Len()}
}

func dataURI(b []byte) string {
	return "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b)
}

// square is a model of one mesh: a unit square in the XY plane drawn as a fan of 4 vertices
// (accessor 0 positions, 1 indices, 2 normalized ubyte VEC3 colours), in one node.
func square() doc {
	var b bin
	views := []any{
		b.add([]float32{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}),
		b.add([]uint16{0, 1, 2, 3}),
		b.add([]uint8{255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0, 255, 255, 255, 0}),
	}
	views[2].(map[string]any)["byteStride"] = 4
	return doc{
		"asset":       map[string]any{"version": "2.0"},
		"buffers":     []any{map[string]any{"uri": dataURI(b.b), "byteLength": len(b.b)}},
		"bufferViews": views,
		"accessors": []any{
			map[string]any{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
			map[string]any{"bufferView": 1, "componentType": 5123, "count": 4, "type": "SCALAR"},
			map[string]any{"bufferView": 2, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC3"},
		},
		"meshes": []any{map[string]any{"primitives": []any{map[string]any{
			"attributes": map[string]any{"POSITION": 0, "COLOR_0": 2}, "indices": 1, "mode": 6}}}},
		"nodes":  []any{map[string]any{"mesh": 0}},
		"scenes": []any{map[string]any{"nodes": []any{0}}},
		"scene":  0,
	}
}

// get walks a path of keys and indices in d.
func (d doc) get(path ...any) map[string]any {
	var cur any = map[string]any(d)
	for _, k := range path {
		switch k := k.(type) {
		case string:
			cur = cur.(map[string]any)[k]
		case int:
			cur = cur.([]any)[k]
		}
	}
	return cur.(map[string]any)
}

func (d doc) bytes(t testing.TB) []byte {
	t.Helper()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// glb wraps a JSON text and a BIN chunk into a .glb.
func glb(jsonText, binChunk []byte) []byte {
	for len(jsonText)%4 != 0 {
		jsonText = append(jsonText, ' ')
	}
	for len(binChunk)%4 != 0 {
		binChunk = append(binChunk, 0)
	}
	var w bytes.Buffer
	total := 12 + 8 + len(jsonText)
	if binChunk != nil {
		total += 8 + len(binChunk)
	}
	// A bytes.Buffer grows or panics: its writes return no error worth checking.
	_ = binary.Write(&w, binary.LittleEndian, []uint32{glbMagic, 2, uint32(total), uint32(len(jsonText)), glbChunkJSON})
	w.Write(jsonText)
	if binChunk != nil {
		_ = binary.Write(&w, binary.LittleEndian, []uint32{uint32(len(binChunk)), glbChunkBIN})
		w.Write(binChunk)
	}
	return w.Bytes()
}
