package editor

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestUIRunesAreLoaded: every character beyond ASCII in a string literal of the module's code (the editor's texts
// and the messages of the packages whose errors it shows) is in the glyph ranges the font atlas loads, and in
// uiRunes, which the editor checks against the font at start (a rune it lacks, such as "…", is drawn as '?').
func TestUIRunesAreLoaded(t *testing.T) {
	used := map[rune][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "bin" || (strings.HasPrefix(n, ".") && n != "..") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, r := range s {
				if r > 0x7e {
					used[r] = append(used[r], fset.Position(lit.Pos()).String())
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(used) == 0 {
		t.Fatal("found no characters beyond ASCII in the sources: the scan is broken (the editor's texts use \"…\")")
	}
	var runes []rune
	for r := range used {
		runes = append(runes, r)
	}
	sort.Slice(runes, func(i, j int) bool { return runes[i] < runes[j] })
	for _, r := range runes {
		if !inGlyphRanges(r) {
			t.Errorf("%q (U+%04X, used at %s) is not in glyphRanges: it would be drawn as '?'", r, r, used[r][0])
		}
		if !strings.ContainsRune(uiRunes, r) {
			t.Errorf("%q (U+%04X, used at %s) is missing from uiRunes", r, r, used[r][0])
		}
	}
	t.Logf("characters beyond ASCII in the sources: %s", string(runes))
}

func TestGlyphRangeText(t *testing.T) {
	s := glyphRangeText()
	for _, r := range "Aé…—°→Ωж" {
		if !strings.ContainsRune(s, r) {
			t.Errorf("glyph ranges lack %q", r)
		}
	}
	if strings.ContainsRune(s, '中') {
		t.Error("CJK is loaded at start (it is registered when a name uses it)")
	}
}

// nextBlink follows ImGui's caret: on for 0.8 s of every 1.2 s, and on for 0.3 s more after input (anim < 0).
func TestNextBlink(t *testing.T) {
	for _, c := range []struct {
		anim float32
		want float64 // seconds
	}{{-0.3, 1.1}, {0, 0.8}, {0.5, 0.3}, {0.8, 0.4}, {1.0, 0.2}, {1.3, 0.7}, {2.3, 0.1}} {
		got := nextBlink(c.anim)
		want := time.Duration((c.want + 0.01) * float64(time.Second))
		if d := got - want; d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("nextBlink(%v) = %v, want %v", c.anim, got, want)
		}
	}
}
