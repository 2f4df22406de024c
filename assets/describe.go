package assets

import (
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
	return b.String(), nil
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
