package glrender

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// drawerFiles are the drawing part's files: what a new way to draw a mesh changes.
var drawerFiles = []string{"drawer.go", "upload.go", "pull.go", "flat.go", "shaders.go", "program.go", "material.go", "light.go"}

// cacheNames are the picture cache's types: the drawing part names none of them.
var cacheNames = map[string]bool{
	"pictureCache": true, "picture": true, "pictureKey": true, "keptPicture": true, "keptPictures": true,
	"patchScratch": true, "subRange": true, "listState": true, "listSet": true, "chunkState": true, "targets": true,
	"Renderer": true, "DrawOptions": true, "Pacer": true,
}

// cacheNamesIn returns the cache's names that the Go source src uses.
func cacheNamesIn(t *testing.T, file string, src any) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && cacheNames[id.Name] {
			found = append(found, id.Name)
		}
		return true
	})
	return found
}

// TestDrawerKnowsNoPictures: the drawing part (programs, uniforms, uploads, draw calls) names nothing of the
// picture cache — kept pictures, patches, budgets — so that a new way to draw a mesh changes it alone.
func TestDrawerKnowsNoPictures(t *testing.T) {
	for _, file := range drawerFiles {
		if names := cacheNamesIn(t, file, nil); len(names) > 0 {
			t.Errorf("%s names the picture cache's %v", file, names)
		}
	}
	if names := cacheNamesIn(t, "x.go", "package p\nfunc f(p *picture, o viewport.DrawOptions) {}\n"); len(names) != 2 {
		t.Errorf("the check found %v in a file naming picture and DrawOptions", names)
	}
}
