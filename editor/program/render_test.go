package program

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// render --size states the range it refuses, and caps the image to what the memory budget allows
// (16384x16384 took 5.4 GB; about 20 bytes per pixel).
func TestRenderSizeRange(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.png")
	for size, want := range map[string]string{
		"16384x16384": "16384x16384 is out of range: each side must be within 64..8192",
		"32x100":      "32x100 is out of range: each side must be within 64..8192",
		"8192x8192":   "8192x8192 is 67,108,864 pixels, more than the limit of 33,554,432 (8192x4096",
		"big":         `"big" is not a size like 1600x1000`,
	} {
		code, _, stderr := runCLI("render", "testdata/cubes.json", "-o", out, "--size", size)
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("--size %s: code %d %q", size, code, stderr)
		}
	}
}

// Read-only targets are refused by every subcommand that writes (fmt -w, export -o, grid -o,
// render -o) with a message naming the file, which stays as it was.
func TestWritersRefuseReadOnly(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "s.json")
	os.WriteFile(scene, []byte(`{"format": "voltex.scene", "version": 2, "entities": [{"id": 5}]}`), 0o444)
	os.Chmod(scene, 0o444)
	ro := filepath.Join(dir, "ro.out")
	os.WriteFile(ro, []byte("keep"), 0o444)
	os.Chmod(ro, 0o444)
	for _, args := range [][]string{
		{"fmt", "-w", scene},
		{"export", "testdata/solar.json", "-o", ro},
		{"grid", "--nx", "2", "--nz", "2", "-o", ro},
		{"render", "testdata/cubes.json", "-o", ro, "--size", "64x64"},
	} {
		code, _, stderr := runCLI(args...)
		target := args[len(args)-1]
		if args[0] == "render" {
			target = ro
		}
		if code != 1 || !strings.Contains(stderr, target+" is read-only (-r--r--r--)") {
			t.Errorf("%s: code %d %q", args[0], code, stderr)
		}
	}
	if b, _ := os.ReadFile(ro); string(b) != "keep" {
		t.Errorf("the read-only file changed: %q", b)
	}
}
