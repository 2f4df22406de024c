package merge

import (
	"bytes"
	"strings"
	"testing"
)

// paint is a Material with the given base colour, roughness and texture image.
func paint(rgba, roughness, image string) string {
	return `{ "baseColor": ` + rgba + `, "baseColorTexture": { "image": "` + image + `", "uv": 0, "wrapS": 0, "wrapT": 0, "magFilter": 0, "minFilter": 0, "mipmaps": 0, "offset": [0, 0], "scale": [1, 1], "rotation": 0 }, "metallic": 0, "roughness": ` + roughness + ` }`
}

const spot = `{ "kind": 2, "color": [1, 1, 1], "intensity": 5, "range": 0, "innerCone": 10, "outerCone": 30 }`

// TestMergeMaterialsAndLights: two sides changing different fields of one Material (its colour,
// and its roughness and texture) merge field by field into a scene that loads; changing the same
// field two ways is a conflict on that field; a Light added on one side is kept; diff names the
// fields.
func TestMergeMaterialsAndLights(t *testing.T) {
	base := apply(t, setComp(2, "Material", paint("[1, 1, 1, 1]", "1", "")))
	ours := apply(t, setComp(2, "Material", paint("[1, 0, 0, 1]", "1", "")))
	theirs := apply(t, setComp(2, "Material", paint("[1, 1, 1, 1]", "0.25", "wood.png")), setComp(3, "Light", spot))
	res := Merge(base, ours, theirs)
	if len(res.Conflicts) != 0 {
		t.Fatalf("conflicts %+v", res.Conflicts)
	}
	text := write(t, res.Scene)
	if p := validate(t, text); p != "" {
		t.Fatalf("merged scene does not load: %s\n%s", p, text)
	}
	want := write(t, apply(t, setComp(2, "Material", paint("[1, 0, 0, 1]", "0.25", "wood.png")), setComp(3, "Light", spot)))
	if text != want {
		t.Errorf("merged:\n%s\nwant:\n%s", text, want)
	}

	both := Merge(base, ours, apply(t, setComp(2, "Material", paint("[0, 0, 1, 1]", "1", ""))))
	if len(both.Conflicts) != 1 || both.Conflicts[0].Path != "components.Material.baseColor" {
		t.Errorf("conflicts %+v, want one on Material.baseColor", both.Conflicts)
	}

	var diff bytes.Buffer
	if err := WriteText(&diff, base, theirs, Diff(base, theirs)); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{`Material.roughness: 1 → 0.25`, `Material.baseColorTexture.image: "" → "wood.png"`, `+ Light { "kind": 2,`} {
		if !strings.Contains(diff.String(), line) {
			t.Errorf("diff lacks %s:\n%s", line, diff.String())
		}
	}
}
