package gltf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/internal/words"
)

// Limits bound what Import accepts, so that a hostile file cannot exhaust memory or time. A zero
// (or negative) field means its default. docs/limits.md states the memory the defaults allow.
type Limits struct {
	// MaxBytes bounds all the bytes read: the file, its external buffers and its images.
	// Default 128 MiB (the OBJ reader's file limit).
	MaxBytes int64
	// MaxVertices bounds the vertices of all primitives together (a mesh counted once).
	// Default 2,000,000.
	MaxVertices int
	// MaxTriangles bounds the triangles of all primitives together. Default 4,000,000.
	MaxTriangles int
	// MaxImageSide bounds an image's width and height, in pixels. Default 16,384.
	MaxImageSide int
	// MaxJSONBytes bounds the JSON text (a .gltf file, a .glb's JSON chunk). Default 32 MiB.
	MaxJSONBytes int64
	// MaxObjects bounds the JSON objects and arrays, counted before the JSON is decoded: each
	// decodes to a few hundred bytes at most, whatever the few bytes of its text. Default 1,000,000.
	MaxObjects int
}

// Default limits (see [Limits]).
const (
	DefaultMaxBytes     = 128 << 20
	DefaultMaxVertices  = 2_000_000
	DefaultMaxTriangles = 4_000_000
	DefaultMaxImageSide = 16_384
	DefaultMaxJSONBytes = 32 << 20
	DefaultMaxObjects   = 1_000_000
)

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxVertices <= 0 {
		l.MaxVertices = DefaultMaxVertices
	}
	if l.MaxTriangles <= 0 {
		l.MaxTriangles = DefaultMaxTriangles
	}
	if l.MaxImageSide <= 0 {
		l.MaxImageSide = DefaultMaxImageSide
	}
	if l.MaxJSONBytes <= 0 {
		l.MaxJSONBytes = DefaultMaxJSONBytes
	}
	if l.MaxObjects <= 0 {
		l.MaxObjects = DefaultMaxObjects
	}
	return l
}

// supported are the extensions this package reads.
var supported = map[string]bool{
	"KHR_lights_punctual":             true,
	"KHR_texture_transform":           true,
	"KHR_materials_emissive_strength": true,
	"KHR_mesh_quantization":           true,
}

// glb chunk types and header.
const (
	glbMagic     = 0x46546C67 // "glTF"
	glbChunkJSON = 0x4E4F534A
	glbChunkBIN  = 0x004E4942
)

// Import reads the .gltf or .glb file at path (told apart by its first bytes). External buffers
// and images are read from path's folder and must stay inside it.
func Import(path string, lim Limits) (*Model, error) {
	lim = lim.withDefaults()
	data, err := readFile(path, lim.MaxBytes)
	if err != nil {
		return nil, err
	}
	m, err := decode(data, filepath.Dir(path), lim)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Decode reads a .gltf or .glb file held in data. External URIs are resolved in dir; with dir ""
// a file that names one is refused. Errors do not name a file.
func Decode(data []byte, dir string, lim Limits) (*Model, error) {
	lim = lim.withDefaults()
	if int64(len(data)) > lim.MaxBytes {
		return nil, fmt.Errorf("%s is over the limit of %s (Limits.MaxBytes)", words.Bytes(int64(len(data))), words.Bytes(lim.MaxBytes))
	}
	return decode(data, dir, lim)
}

// readFile reads a regular file of at most limit bytes, refusing a bigger one before reading it.
func readFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, st.Mode().Type())
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %s is over the limit of %s (Limits.MaxBytes)", path, words.Bytes(st.Size()), words.Bytes(limit))
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s grew past the limit of %s (Limits.MaxBytes) while read", path, words.Bytes(limit))
	}
	return data, nil
}

// importer holds one import's state.
type importer struct {
	doc     document
	dir     string
	lim     Limits
	bin     []byte // the .glb's BIN chunk; nil for .gltf or a .glb without one
	glb     bool
	budget  int64 // bytes that may still be read
	buffers [][]byte
	verts   int
	tris    int
	m       *Model
	// moreWarnings counts the warnings past maxWarnings.
	moreWarnings int
}

// maxWarnings bounds the warnings listed; the rest are counted in a last one.
const maxWarnings = 100

func (im *importer) warn(format string, args ...any) {
	if len(im.m.Warnings) < maxWarnings {
		im.m.Warnings = append(im.m.Warnings, fmt.Sprintf(format, args...))
		return
	}
	im.moreWarnings++
}

func decode(data []byte, dir string, lim Limits) (*Model, error) {
	im := &importer{dir: dir, lim: lim, budget: lim.MaxBytes - int64(len(data)), m: &Model{Scene: -1}}
	jsonText := data
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == glbMagic {
		var err error
		if jsonText, im.bin, err = splitGLB(data); err != nil {
			return nil, err
		}
		im.glb = true
	}
	if n := int64(len(jsonText)); n > lim.MaxJSONBytes {
		return nil, fmt.Errorf("JSON of %s is over the limit of %s (Limits.MaxJSONBytes)", words.Bytes(n), words.Bytes(lim.MaxJSONBytes))
	}
	if err := countObjects(jsonText, lim.MaxObjects); err != nil {
		return nil, err
	}
	if err := unmarshal(jsonText, &im.doc); err != nil {
		return nil, err
	}
	if err := im.run(); err != nil {
		return nil, err
	}
	if im.moreWarnings > 0 {
		im.m.Warnings = append(im.m.Warnings, fmt.Sprintf("… and %s", words.Count(im.moreWarnings, "more warning", "more warnings")))
	}
	return im.m, nil
}

// splitGLB checks a .glb's header and chunks and returns its JSON and BIN chunks.
func splitGLB(data []byte) (jsonText, bin []byte, err error) {
	if len(data) < 12 {
		return nil, nil, fmt.Errorf("glb: header truncated (%d bytes of 12)", len(data))
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != 2 {
		return nil, nil, fmt.Errorf("glb: version %d, only glTF 2 is read", v)
	}
	total := int64(binary.LittleEndian.Uint32(data[8:]))
	if total > int64(len(data)) {
		return nil, nil, fmt.Errorf("glb: header says %d bytes, the file has %d (truncated)", total, len(data))
	}
	data = data[:total]
	off := int64(12)
	for i := 0; off < total; i++ {
		if total-off < 8 {
			return nil, nil, fmt.Errorf("glb: chunk %d at byte %d: header truncated", i, off)
		}
		n := int64(binary.LittleEndian.Uint32(data[off:]))
		typ := binary.LittleEndian.Uint32(data[off+4:])
		if n > total-off-8 {
			return nil, nil, fmt.Errorf("glb: chunk %d at byte %d: length %d runs past the end of the file (%d bytes)", i, off, n, total)
		}
		body := data[off+8 : off+8+n]
		switch {
		case i == 0 && typ != glbChunkJSON:
			return nil, nil, fmt.Errorf("glb: the first chunk is not JSON (type 0x%08X)", typ)
		case i == 0:
			jsonText = body
		case i == 1 && typ == glbChunkBIN:
			bin = body
		}
		off += 8 + n
	}
	if jsonText == nil {
		return nil, nil, errors.New("glb: no JSON chunk")
	}
	return jsonText, bin, nil
}

// countObjects refuses a JSON text with more than limit objects and arrays, before it is decoded.
func countObjects(text []byte, limit int) error {
	n, inString := 0, false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && (c == '{' || c == '['):
			if n++; n > limit {
				l, col := lineCol(text, int64(i))
				return fmt.Errorf("%d:%d: more than %s objects and arrays (Limits.MaxObjects)", l, col, words.Thousands(int64(limit)))
			}
		}
	}
	return nil
}

// unmarshal decodes the JSON, with line:col for syntax and type errors.
func unmarshal(text []byte, doc *document) error {
	err := json.Unmarshal(text, doc)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syn):
		l, c := lineCol(text, syn.Offset-1) // Offset is just past the bad byte
		return fmt.Errorf("%d:%d: JSON: %v", l, c, syn)
	case errors.As(err, &typ):
		l, c := lineCol(text, typ.Offset-1)
		return fmt.Errorf("%d:%d: %s: %s where %s belongs", l, c, typ.Field, typ.Value, typ.Type)
	}
	return fmt.Errorf("JSON: %w", err)
}

func lineCol(text []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(text)))
	before := text[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func (im *importer) run() error {
	d := &im.doc
	if d.Asset == nil {
		return errors.New("asset: missing (every glTF file has asset.version)")
	}
	if !strings.HasPrefix(d.Asset.Version, "2.") {
		return fmt.Errorf("asset.version: %q, only glTF 2.x is read", d.Asset.Version)
	}
	for i, e := range d.ExtensionsRequired {
		if !supported[e] {
			return fmt.Errorf("extensionsRequired[%d]: extension %s is required and not supported (supported: KHR_lights_punctual, KHR_texture_transform, KHR_materials_emissive_strength, KHR_mesh_quantization)", i, e)
		}
	}
	for _, e := range d.ExtensionsUsed {
		if !supported[e] {
			im.warn("extension %s is not supported: ignored", e)
		}
	}
	if err := im.loadBuffers(); err != nil {
		return err
	}
	for i, v := range d.BufferViews {
		if err := im.checkView(i, v); err != nil {
			return err
		}
	}
	steps := []func() error{im.loadImages, im.loadSamplers, im.loadTextures, im.loadMaterials,
		im.loadCameras, im.loadLights, im.loadMeshes, im.loadNodes, im.loadScenes}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// take charges n bytes against the read budget.
func (im *importer) take(n int64, what string) error {
	if n > im.budget {
		return fmt.Errorf("%s: %s would take the bytes read past the limit of %s (Limits.MaxBytes)", what, words.Bytes(n), words.Bytes(im.lim.MaxBytes))
	}
	im.budget -= n
	return nil
}

func (im *importer) loadBuffers() error {
	im.buffers = make([][]byte, len(im.doc.Buffers))
	for i, b := range im.doc.Buffers {
		at := fmt.Sprintf("buffers[%d]", i)
		if b.ByteLength < 1 {
			return fmt.Errorf("%s.byteLength: %d, must be at least 1", at, b.ByteLength)
		}
		var data []byte
		switch {
		case b.URI == nil && i == 0 && im.glb:
			if im.bin == nil {
				return fmt.Errorf("%s: no uri and the .glb has no BIN chunk", at)
			}
			data = im.bin
		case b.URI == nil:
			return fmt.Errorf("%s: no uri (only the first buffer of a .glb may have none)", at)
		default:
			var err error
			if data, err = im.readURI(*b.URI, at+".uri"); err != nil {
				return err
			}
		}
		if int64(len(data)) < b.ByteLength {
			return fmt.Errorf("%s: byteLength is %d, the data has only %d bytes", at, b.ByteLength, len(data))
		}
		im.buffers[i] = data[:b.ByteLength]
	}
	return nil
}

// readURI returns the bytes of a data: URI (base64) or of a file in the model's folder.
func (im *importer) readURI(uri, at string) ([]byte, error) {
	if rest, ok := strings.CutPrefix(uri, "data:"); ok {
		meta, payload, ok := strings.Cut(rest, ",")
		if !ok || !strings.HasSuffix(meta, ";base64") {
			return nil, fmt.Errorf("%s: a data: URI must be base64 (data:…;base64,…)", at)
		}
		if err := im.take(int64(base64.StdEncoding.DecodedLen(len(payload))), at); err != nil {
			return nil, err
		}
		data, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			return nil, fmt.Errorf("%s: bad base64: %v", at, err)
		}
		return data, nil
	}
	ref, err := url.PathUnescape(uri)
	if err != nil {
		return nil, fmt.Errorf("%s: %q is not a URI: %v", at, uri, err)
	}
	if im.dir == "" {
		return nil, fmt.Errorf("%s: external file %q, and the model has no folder", at, ref)
	}
	p, err := assets.ResolvePath(im.dir, ref)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	data, err := readFile(p, im.budget)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	im.budget -= int64(len(data))
	return data, nil
}

func (im *importer) checkView(i int, v bufferViewJSON) error {
	at := fmt.Sprintf("bufferViews[%d]", i)
	if v.Buffer < 0 || v.Buffer >= len(im.buffers) {
		return fmt.Errorf("%s.buffer: buffer %d does not exist (%s)", at, v.Buffer, words.Count(len(im.buffers), "buffer", "buffers"))
	}
	n := int64(len(im.buffers[v.Buffer]))
	if v.ByteOffset < 0 || v.ByteLength < 1 || v.ByteOffset > n || v.ByteLength > n-v.ByteOffset {
		return fmt.Errorf("%s: bytes %d..%d are outside buffer %d (%d bytes)", at, v.ByteOffset, v.ByteOffset+v.ByteLength, v.Buffer, n)
	}
	if v.ByteStride != 0 && (v.ByteStride < 4 || v.ByteStride > 252) {
		return fmt.Errorf("%s.byteStride: %d, must be within 4..252", at, v.ByteStride)
	}
	return nil
}

// view returns the bytes of buffer view i (checked by checkView).
func (im *importer) view(i int) []byte {
	v := im.doc.BufferViews[i]
	return im.buffers[v.Buffer][v.ByteOffset : v.ByteOffset+v.ByteLength]
}

// index checks an index into a list of n things named what.
func index(i, n int, at, what string) error {
	if i < 0 || i >= n {
		return fmt.Errorf("%s: %s %d does not exist (%s)", at, what, i, words.Count(n, what, what+"s"))
	}
	return nil
}
