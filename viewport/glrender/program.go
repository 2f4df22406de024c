package glrender

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// glslHeader starts every shader.
const glslHeader = "#version 410 core\n"

// program is a linked GL program with its uniform locations by name.
type program struct {
	id       uint32
	uniforms map[string]int32
	pass     uint64 // the drawer's pass whose uniforms it has (mesh programs: passState.serial)
}

// newProgram compiles and links a vertex and fragment shader (each prefixed
// with the GLSL header and defines) and looks up the named uniforms.
func newProgram(name, vs, fs string, defines []string, uniforms ...string) (*program, error) {
	var head strings.Builder
	head.WriteString(glslHeader)
	for _, d := range defines {
		fmt.Fprintf(&head, "#define %s\n", d)
	}
	v, err := compileShader(name+" vertex shader", gl.VERTEX_SHADER, head.String()+vs)
	if err != nil {
		return nil, err
	}
	defer gl.DeleteShader(v)
	f, err := compileShader(name+" fragment shader", gl.FRAGMENT_SHADER, head.String()+fs)
	if err != nil {
		return nil, err
	}
	defer gl.DeleteShader(f)
	id := gl.CreateProgram()
	gl.AttachShader(id, v)
	gl.AttachShader(id, f)
	gl.LinkProgram(id)
	var ok int32
	gl.GetProgramiv(id, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		log := programLog(id)
		gl.DeleteProgram(id)
		return nil, fmt.Errorf("glrender: linking %s failed: %s", name, log)
	}
	p := &program{id: id, uniforms: make(map[string]int32, len(uniforms))}
	for _, u := range uniforms {
		p.uniforms[u] = gl.GetUniformLocation(id, gl.Str(u+"\x00"))
	}
	return p, nil
}

// loc returns the location of uniform u (it panics for a name newProgram was
// not given: a programming error in this package).
func (p *program) loc(u string) int32 {
	l, ok := p.uniforms[u]
	if !ok {
		panic("glrender: uniform " + u + " was not listed in newProgram")
	}
	return l
}

func (p *program) delete() {
	if p != nil && p.id != 0 {
		gl.DeleteProgram(p.id)
		p.id = 0
	}
}

func compileShader(name string, kind uint32, src string) (uint32, error) {
	s := gl.CreateShader(kind)
	cs, free := gl.Strs(src + "\x00")
	gl.ShaderSource(s, 1, cs, nil)
	free()
	gl.CompileShader(s)
	var ok int32
	gl.GetShaderiv(s, gl.COMPILE_STATUS, &ok)
	if ok == gl.FALSE {
		var n int32
		gl.GetShaderiv(s, gl.INFO_LOG_LENGTH, &n)
		log := make([]byte, n+1)
		gl.GetShaderInfoLog(s, n, nil, &log[0])
		gl.DeleteShader(s)
		return 0, fmt.Errorf("glrender: compiling %s failed: %s", name, strings.TrimRight(string(log), "\x00\n"))
	}
	return s, nil
}

func programLog(id uint32) string {
	var n int32
	gl.GetProgramiv(id, gl.INFO_LOG_LENGTH, &n)
	log := make([]byte, n+1)
	gl.GetProgramInfoLog(id, n, nil, &log[0])
	return strings.TrimRight(string(log), "\x00\n")
}
