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
