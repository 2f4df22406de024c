package assets

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// MaxMTLBytes bounds a .mtl file: material libraries are text of a few kilobytes.
const MaxMTLBytes = 4 << 20

// OBJMaterial is the material an OBJ file's faces use, as its .mtl library describes it: what a
// scene.Material takes from it (the diffuse colour as the base colour, the diffuse map as the base
// colour texture).
type OBJMaterial struct {
	Name string
	// Diffuse is Kd (white when the material gives none), Alpha is d (or 1 − Tr; 1 without either).
	Diffuse [3]float32
	Alpha   float32
	// DiffuseMap is map_Kd as a reference relative to the scene's folder ("" for none): the file
	// named relative to the .mtl's folder, checked to stay in the scene's folder.
	DiffuseMap string
}

// ReadOBJMaterial reads the material the OBJ file at the reference ref (inside the scene folder
// root) uses: the first material its faces name with usemtl (else the library's first), from the
// first library its mtllib names. ok is false when the OBJ names no library or the library has
// no such material. The OBJ (within lim.MaxFileBytes), the library (within MaxMTLBytes) and the
// diffuse map must stay in the scene folder, as every reference must ([ResolvePath]); an error
// says which file and what is wrong.
func ReadOBJMaterial(root, ref string, lim Limits) (m OBJMaterial, ok bool, err error) {
	lim = lim.WithDefaults()
	objPath, err := ResolvePath(root, ref)
	if err != nil {
		return m, false, err
	}
	data, err := readLimited(objPath, lim.MaxFileBytes)
	if err != nil {
		return m, false, err
	}
	lib, use := "", ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && (lib == "" || use == "") {
		kw, rest := statement(sc.Text())
		switch {
		case kw == "mtllib" && lib == "":
			lib = rest
		case kw == "usemtl" && use == "":
			use = rest
		}
	}
	if lib == "" {
		return m, false, nil
	}
	c, _, _ := SplitRef(ref)
	libRef, err := NormalizeRef(path.Join(path.Dir(strings.ReplaceAll(c, `\`, "/")), strings.ReplaceAll(lib, `\`, "/")))
	if err != nil {
		return m, false, fmt.Errorf("%s: mtllib %q: %w", objPath, lib, err)
	}
	libPath, err := ResolvePath(root, libRef)
	if err != nil {
		return m, false, fmt.Errorf("%s: mtllib %q: %w", objPath, lib, err)
	}
	text, err := readLimited(libPath, MaxMTLBytes)
	if err != nil {
		return m, false, err
	}
	m, ok, err = parseMTL(libPath, text, use)
	if err != nil || !ok || m.DiffuseMap == "" {
		return m, ok, err
	}
	mapRef, err := NormalizeRef(path.Join(path.Dir(libRef), strings.ReplaceAll(m.DiffuseMap, `\`, "/")))
	if err == nil {
		_, err = ResolvePath(root, mapRef)
	}
	if err != nil {
		return m, false, fmt.Errorf("%s: map_Kd %q: %w", libPath, m.DiffuseMap, err)
	}
	m.DiffuseMap = mapRef
	return m, true, nil
}

// statement splits an OBJ or MTL line into its keyword and the rest (comments removed, spaces
// trimmed).
func statement(line string) (kw, rest string) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return "", ""
	}
	return f[0], strings.Join(f[1:], " ")
}

// parseMTL finds material name (the first one when name is "") in a library's text. DiffuseMap is
// map_Kd as written (its last word: options such as -s come before it).
func parseMTL(file string, text []byte, name string) (OBJMaterial, bool, error) {
	var m OBJMaterial
	found := false
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		kw, rest := statement(sc.Text())
		if kw == "newmtl" {
			if found {
				break
			}
			if name == "" || rest == name {
				found = true
				m = OBJMaterial{Name: rest, Diffuse: [3]float32{1, 1, 1}, Alpha: 1}
			}
			continue
		}
		if !found {
			continue
		}
		switch kw {
		case "Kd":
			f := strings.Fields(rest)
			if len(f) < 3 {
				return m, false, fmt.Errorf("%s:%d: Kd needs three numbers", file, line)
			}
			for i := range 3 {
				x, err := strconv.ParseFloat(f[i], 32)
				if err != nil || x != x {
					return m, false, fmt.Errorf("%s:%d: Kd: %q is not a number", file, line, f[i])
				}
				m.Diffuse[i] = float32(min(max(x, 0), 1))
			}
		case "d", "Tr":
			x, err := strconv.ParseFloat(strings.TrimSpace(rest), 32)
			if err != nil || x != x {
				return m, false, fmt.Errorf("%s:%d: %s: %q is not a number", file, line, kw, rest)
			}
			if kw == "Tr" {
				x = 1 - x
			}
			m.Alpha = float32(min(max(x, 0), 1))
		case "map_Kd":
			if f := strings.Fields(rest); len(f) > 0 {
				m.DiffuseMap = f[len(f)-1]
			}
		}
	}
	return m, found, sc.Err()
}
