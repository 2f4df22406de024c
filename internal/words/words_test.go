package words_test

import (
	"fmt"
	"testing"

	"github.com/voltex-editor/voltex/internal/words"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 meshes"}, {1, "1 mesh"}, {2, "2 meshes"}, {-1, "-1 mesh"}, {100000, "100000 meshes"}} {
		if got := words.Count(c.n, "mesh", "meshes"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func ExampleCount() {
	fmt.Println(words.Count(1, "entity", "entities"))
	fmt.Println(words.Count(3, "entity", "entities"))
	// Output:
	// 1 entity
	// 3 entities
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 9900: "9,900", 1234567: "1,234,567", -45000: "-45,000"} {
		if got := words.Thousands(n); got != want {
			t.Errorf("%d: %q", n, got)
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{1 << 30: "1 GiB", 3 << 29: "1536 MiB", 1000: "1,000 bytes", 16 << 20: "16 MiB", 64 << 10: "64 KiB", 1500: "1,500 bytes"} {
		if got := words.Bytes(n); got != want {
			t.Errorf("%d: %q", n, got)
		}
	}
}
