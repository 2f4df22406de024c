package serialize

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReplaceFileKeepsNoBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.png")
	for _, content := range []string{"first", "second"} {
		if err := ReplaceFile(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Fatalf("file holds %q, want %q", got, content)
		}
	}
	if _, err := os.Stat(path + ".bak"); err == nil {
		t.Fatal("ReplaceFile left a .bak")
	}
	if err := WriteFile(path, []byte("third")); err != nil {
		t.Fatal(err)
	}
	if bak, _ := os.ReadFile(path + ".bak"); string(bak) != "second" {
		t.Fatalf("WriteFile's backup holds %q, want second", bak)
	}
}
