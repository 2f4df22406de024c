package prefabnest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Names are the files of the nest, the scene first: each holds ten instances of the next, and
// the last ten plain entities.
var Names = []string{"level.json", "a.json", "b.json", "c.json", "d.json", "e.json", "f.json", "g.json"}

// What the files flatten to (the instances' own entities included): 10 + 100 + … + 10^8 for the
// scene, a tenth of that less ten for a.json.
const (
	LevelEntities = 111_111_110
	AEntities     = 11_111_110
)

// Chain is how a refusal names the nest from a.json down.
const Chain = "a.json ×10 b.json ×10 c.json ×10 d.json ×10 e.json ×10 f.json ×10 g.json, of 10 entities"

// Files returns the nest by file name. In each file the first "prefab" value is at line 3,
// column 38.
func Files() map[string]string {
	files := make(map[string]string, len(Names))
	for k, name := range Names {
		next := ""
		if k+1 < len(Names) {
			next = Names[k+1]
		}
		files[name] = File(next)
	}
	return files
}

// File returns a scene of ten instances of prefab, or of ten plain entities if prefab is "".
func File(prefab string) string {
	var b strings.Builder
	b.WriteString("{ \"format\": \"voltex.scene\", \"version\": 2,\n  \"entities\": [\n")
	for i := 1; i <= 10; i++ {
		if i > 1 {
			b.WriteString(",\n")
		}
		if prefab != "" {
			fmt.Fprintf(&b, `    { "id": %d, "order": %d, "prefab": %q }`, i, i, prefab)
		} else {
			fmt.Fprintf(&b, `    { "id": %d, "order": %d, "name": "leaf %d" }`, i, i, i)
		}
	}
	b.WriteString("\n  ] }\n")
	return b.String()
}

// Write writes the nest into dir.
func Write(dir string) error {
	for name, text := range Files() {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Mallocs returns the number of heap allocations f makes (in one run: f may change state), for
// tests that check that a refusal expanded nothing.
func Mallocs(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.Mallocs - m0.Mallocs
}
