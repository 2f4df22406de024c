package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestUpToDate fails when the committed ecs/*_gen.go files differ from what the generator writes:
// run `go generate ./ecs` after changing the templates.
func TestUpToDate(t *testing.T) {
	for file, want := range generate() {
		got, err := os.ReadFile(filepath.Join("..", "..", file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("ecs/%s is stale: run go generate ./ecs", file)
		}
	}
}
