package assets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestReadOBJMaterial: the material an OBJ's faces use comes from its .mtl: Kd as the colour, d or
// Tr as alpha, map_Kd (after its options) as a reference relative to the scene folder; without a
// usemtl, the library's first material; without a library, none.
func TestReadOBJMaterial(t *testing.T) {
	tri := "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
	dir := writeTree(t, map[string]string{
		"models/ship.obj":       "mtllib mats/ship.mtl # the library\n" + tri + "usemtl Hull\nf 1 2 3\n",
		"models/mats/ship.mtl":  "newmtl Deck\nKd 0 0 1\n\nnewmtl Hull\nKd 0.5 0.25 2\nd 0.75\nmap_Kd -s 1 1 1 ../tex/hull.png\n",
		"models/tex/hull.png":   "png",
		"models/first.obj":      "mtllib mats/ship.mtl\n" + tri + "f 1 2 3\n",
		"models/none.obj":       tri + "f 1 2 3\n",
		"models/tr.obj":         "mtllib tr.mtl\nusemtl Glass\n" + tri,
		"models/tr.mtl":         "newmtl Glass\nTr 0.25\n",
		"models/missing.obj":    "mtllib tr.mtl\nusemtl Steel\n" + tri,
		"models/escape.obj":     "mtllib ../../outside.mtl\n" + tri,
		"models/escapemap.obj":  "mtllib escapemap.mtl\n" + tri,
		"models/escapemap.mtl":  "newmtl M\nmap_Kd ../../../etc/passwd\n",
		"models/badkd.obj":      "mtllib badkd.mtl\n" + tri,
		"models/badkd.mtl":      "newmtl M\nKd 1 x 1\n",
		"models/mats/unused.md": "",
	})
	m, ok, err := ReadOBJMaterial(dir, "models/ship.obj", Limits{})
	if err != nil || !ok || m != (OBJMaterial{Name: "Hull", Diffuse: [3]float32{0.5, 0.25, 1}, Alpha: 0.75, DiffuseMap: "models/tex/hull.png"}) {
		t.Errorf("ship: %+v %v %v", m, ok, err)
	}
	if m, ok, err := ReadOBJMaterial(dir, "models/first.obj", Limits{}); err != nil || !ok || m.Name != "Deck" || m.Diffuse != [3]float32{0, 0, 1} {
		t.Errorf("first: %+v %v %v", m, ok, err)
	}
	if _, ok, err := ReadOBJMaterial(dir, "models/none.obj", Limits{}); err != nil || ok {
		t.Errorf("none: %v %v", ok, err)
	}
	if m, ok, err := ReadOBJMaterial(dir, "models/tr.obj", Limits{}); err != nil || !ok || m.Alpha != 0.75 || m.Diffuse != [3]float32{1, 1, 1} {
		t.Errorf("Tr: %+v %v %v", m, ok, err)
	}
	if _, ok, err := ReadOBJMaterial(dir, "models/missing.obj", Limits{}); err != nil || ok {
		t.Errorf("a material the library lacks: %v %v", ok, err)
	}
	for ref, want := range map[string]string{
		"models/escape.obj":    `mtllib "../../outside.mtl"`,
		"models/escapemap.obj": `map_Kd "../../../etc/passwd"`,
		"models/badkd.obj":     `badkd.mtl:2: Kd: "x" is not a number`,
		"../x.obj":             "climbs out",
	} {
		_, _, err := ReadOBJMaterial(dir, ref, Limits{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", ref, err, want)
		}
		if strings.Contains(want, "..") && !errors.Is(err, ErrUnsafePath) {
			t.Errorf("%s: %v is not ErrUnsafePath", ref, err)
		}
	}
}
