package program

import (
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
		code, _, stderr := runCLI("render", repoFile("scenes/cubes.json"), "-o", out, "--size", size)
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("--size %s: code %d %q", size, code, stderr)
		}
	}
}
