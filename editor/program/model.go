package program

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/voltex-editor/voltex/assets/gltf"
	"github.com/voltex-editor/voltex/internal/words"
)

// modelReport is what `model --json` prints: the importer's counts and warnings.
type modelReport struct {
	Nodes      int      `json:"nodes"`
	Meshes     int      `json:"meshes"`
	Primitives int      `json:"primitives"`
	Vertices   int      `json:"vertices"`
	Triangles  int      `json:"triangles"`
	Materials  int      `json:"materials"`
	Textures   int      `json:"textures"`
	Lights     int      `json:"lights"`
	Cameras    int      `json:"cameras"`
	Warnings   []string `json:"warnings"`
}

func runModel(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("model", "[--json] FILE", "Imports a glTF 2.0 model (.gltf or .glb) and prints what it holds: nodes, meshes, primitives,\n"+
		"vertices and triangles (each mesh counted once, however many nodes use it), materials, textures,\n"+
		"lights and cameras, then any warnings (what was skipped). A file that cannot be imported is refused\n"+
		"on stderr with what is wrong and where (its JSON path, accessor, buffer view, buffer). Exit 0 if it\n"+
		"imports, 1 if not.")
	asJSON := fs.Bool("json", false, "print one JSON object: {\"nodes\", \"meshes\", \"primitives\", \"vertices\", \"triangles\", \"materials\", \"textures\", \"lights\", \"cameras\", \"warnings\"}")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(fs, stderr, fmt.Sprintf("voltex-editor model: one model file, got %d arguments", fs.NArg()))
	}
	path := fs.Arg(0)
	m, err := gltf.Import(path, gltf.Limits{})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	c := m.Counts()
	if *asJSON {
		r := modelReport{c.Nodes, c.Meshes, c.Primitives, c.Vertices, c.Triangles, c.Materials, c.Textures, c.Lights, c.Cameras, m.Warnings}
		if r.Warnings == nil {
			r.Warnings = []string{}
		}
		b, _ := json.MarshalIndent(r, "", "  ")
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	fmt.Fprintf(stdout, "%s: %s, %s, %s, %s, %s, %s, %s, %s, %s\n", path,
		words.Count(c.Nodes, "node", "nodes"), words.Count(c.Meshes, "mesh", "meshes"),
		words.Count(c.Primitives, "primitive", "primitives"), words.Count(c.Vertices, "vertex", "vertices"),
		words.Count(c.Triangles, "triangle", "triangles"), words.Count(c.Materials, "material", "materials"),
		words.Count(c.Textures, "texture", "textures"), words.Count(c.Lights, "light", "lights"),
		words.Count(c.Cameras, "camera", "cameras"))
	for _, w := range m.Warnings {
		fmt.Fprintf(stdout, "%s: warning: %s\n", path, w)
	}
	return 0
}
