package assetref

import (
	"errors"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	ok := map[string]string{
		"a.obj":                   "a.obj",
		"./a.obj":                 "a.obj",
		"models/a.obj":            "models/a.obj",
		`models\a.obj`:            "models/a.obj",
		"models//x/../a.obj":      "models/a.obj",
		"..a.obj":                 "..a.obj",
		"builtin:cube":            "builtin:cube",
		"builtin:nope":            "builtin:nope", // existence is checked elsewhere
		"dir/../dir/sub/./m.obj/": "dir/sub/m.obj",
	}
	for in, want := range ok {
		got, err := Check(in)
		if err != nil || got != want {
			t.Errorf("Check(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	unsafe := []string{"../a.obj", "..", "a/../../a.obj", `..\a.obj`, "/etc/passwd", `\\server\share\a.obj`,
		`C:\models\a.obj`, "c:a.obj", "/", "models/../../../x.obj", "../../etc/passwd",
		"http://example.com/a.obj", "file:///etc/passwd", "https:a.obj", "data:text/plain,x", "svn+ssh://h/a.obj"}
	for _, in := range unsafe {
		if _, err := Check(in); !errors.Is(err, ErrUnsafe) {
			t.Errorf("Check(%q) err = %v, want ErrUnsafe", in, err)
		}
	}
	for _, in := range []string{"", ".", "a\x00.obj", strings.Repeat("a", MaxLen+1), "x/..", "builtin:../x", "builtin:", "builtin:a/b", "builtin:x y"} {
		if _, err := Check(in); err == nil || errors.Is(err, ErrUnsafe) {
			t.Errorf("Check(%q) err = %v, want a plain refusal", in, err)
		}
	}
}

// TestModelParts: a reference to a part of a glTF file is checked as its file's reference, the part
// kept as written; a "#" in any other reference is part of the file name.
func TestModelParts(t *testing.T) {
	for in, want := range map[string]string{
		"models/ship.glb#mesh/Hull/0":    "models/ship.glb#mesh/Hull/0",
		`.\models\ship.GLB#image/2`:      "models/ship.GLB#image/2",
		"a.gltf#mesh/a/../b/0":           "a.gltf#mesh/a/../b/0", // the part is a name, not a path
		"notes#1.obj":                    "notes#1.obj",
		"dir/./tex#2.png":                "dir/tex#2.png",
		"m.glb#mesh/x#y/0":               "m.glb#mesh/x#y/0",
		"models/../ship.gltf#image/0":    "ship.gltf#image/0",
		"models/x.glb.obj#mesh/a/0":      "models/x.glb.obj#mesh/a/0",
		"deep/er/../model.gltf#mesh/3/1": "deep/model.gltf#mesh/3/1",
	} {
		if got, err := Check(in); err != nil || got != want {
			t.Errorf("Check(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Check("../ship.glb#mesh/a/0"); !errors.Is(err, ErrUnsafe) {
		t.Errorf("an unsafe model path with a part: %v", err)
	}
	if _, err := Check("ship.glb#"); err == nil || !strings.Contains(err.Error(), "names nothing") {
		t.Errorf("an empty part: %v", err)
	}
	if f, p, ok := Split("a/b.glb#image/0"); !ok || f != "a/b.glb" || p != "image/0" {
		t.Errorf("Split = %q %q %v", f, p, ok)
	}
	if _, _, ok := Split("a#b.png"); ok {
		t.Error("a png has no parts")
	}
}
