package assets

import (
	"bytes"
	"fmt"
	"github.com/voltex-editor/voltex/internal/words"
	"io"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
)

// DescribeOBJ loads the OBJ file at path with the default limits and describes it in one
// line, for `voltex-editor validate model.obj`:
//
//	vertices 8, triangles 12, bounds [-0.5 -0.5 -0.5] .. [0.5 0.5 0.5] (faces 6, texcoords 0, normals 0, mesh vertices 8)
//
// "vertices" counts v statements and "triangles" the triangles after fan triangulation; "mesh
// vertices" counts the distinct v/vt/vn corners the GPU mesh holds. On failure it returns the
// errors, one "file:line:col: message" per line.
func DescribeOBJ(path string) (string, error) {
	m, st, err := loadOBJ(path, Limits{})
	if err != nil {
		return "", err
	}
	return describe(m, st), nil
}

// DescribeOBJFrom is [DescribeOBJ] for a model read from r (standard input, a pipe), named name in
// its problems. It reads r once, up to the default size limit: longer (or endless) input is refused
// with an error at the limit. A NUL byte (binary input) stops the reading at once: the model is
// reported as not text there.
func DescribeOBJFrom(name string, r io.Reader) (string, error) {
	lim := Limits{}.WithDefaults()
	var buf bytes.Buffer
	lr := io.LimitReader(r, lim.MaxFileBytes+1)
	for {
		buf.Grow(64 << 10)
		free := buf.AvailableBuffer()
		n, err := lr.Read(free[:cap(free)])
		buf.Write(free[:n])
		if bytes.IndexByte(free[:n], 0) >= 0 {
			break // parseOBJ reports where
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", &ParseError{File: name, Msg: err.Error(), Err: err}
		}
	}
	if int64(buf.Len()) > lim.MaxFileBytes {
		return "", ParseErrors{&ParseError{File: name, Msg: fmt.Sprintf("input is larger than the limit of %s", words.Bytes(lim.MaxFileBytes)), Err: ErrLimit}}
	}
	m, st, err := parseOBJ(name, buf.Bytes(), lim)
	if err != nil {
		return "", err
	}
	return describe(m, st), nil
}

// LooksLikeOBJ reports whether prefix, the first bytes of a file, looks like Wavefront OBJ text
// rather than JSON: after an optional UTF-8 byte order mark and blank space, a comment or an OBJ
// statement keyword (v, vt, vn, f, o, g, s, usemtl, mtllib, …) followed by a blank.
func LooksLikeOBJ(prefix []byte) bool {
	prefix = bytes.TrimPrefix(prefix, []byte{0xEF, 0xBB, 0xBF})
	prefix = bytes.TrimLeft(prefix, " \t\r\n\v\f")
	if len(prefix) == 0 {
		return false
	}
	if prefix[0] == '#' {
		return true
	}
	end := bytes.IndexAny(prefix, " \t\r\n")
	if end <= 0 {
		return false
	}
	switch string(prefix[:end]) {
	case "v", "vt", "vn", "vp", "f", "l", "p", "o", "g", "s", "usemtl", "mtllib":
		return true
	}
	return false
}

func describe(m *Mesh, st objStats) string {
	var b strings.Builder
	b.WriteString("vertices ")
	b.WriteString(strconv.Itoa(st.Positions))
	b.WriteString(", triangles ")
	b.WriteString(strconv.Itoa(m.TriangleCount()))
	b.WriteString(", bounds ")
	writeVec(&b, m.Min)
	b.WriteString(" .. ")
	writeVec(&b, m.Max)
	b.WriteString(" (faces ")
	b.WriteString(strconv.Itoa(st.Faces))
	b.WriteString(", texcoords ")
	b.WriteString(strconv.Itoa(st.TexCoords))
	b.WriteString(", normals ")
	b.WriteString(strconv.Itoa(st.Normals))
	b.WriteString(", mesh vertices ")
	b.WriteString(strconv.Itoa(m.VertexCount()))
	b.WriteString(")")
	return b.String()
}

func writeVec(b *strings.Builder, v mgl32.Vec3) {
	b.WriteByte('[')
	for i, c := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatFloat(float64(c), 'g', -1, 32))
	}
	b.WriteByte(']')
}
