package editor

import (
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// ImGui draws only the characters its font atlas was built with; any other is drawn as '?'. giu builds the atlas
// from the strings its own widgets register, and from Latin-1 when none are, but the editor draws with imgui
// directly: so the editor chooses the characters itself. glyphRanges are the blocks loaded at start (the editor's
// texts, every message of the packages it shows, and the letters of most European file and entity names);
// registerText adds, at run time, the characters of names and messages outside them.
var glyphRanges = [][2]rune{
	{0x0020, 0x007E}, // Basic Latin
	{0x00A0, 0x024F}, // Latin-1 Supplement, Latin Extended-A and -B
	{0x0370, 0x03FF}, // Greek
	{0x0400, 0x04FF}, // Cyrillic
	{0x2000, 0x206F}, // General Punctuation: – — ‘ ’ “ ” • …
	{0x20A0, 0x20CF}, // Currency Symbols
	{0x2100, 0x214F}, // Letterlike Symbols
	{0x2190, 0x21FF}, // Arrows
	{0x2200, 0x22FF}, // Mathematical Operators
	{0x2500, 0x257F}, // Box Drawing
	{0x25A0, 0x25FF}, // Geometric Shapes
	{0xFFFD, 0xFFFD}, // the replacement character (invalid UTF-8 in a file name or message)
}

// uiRunes are the characters beyond ASCII that the editor's own texts use (TestUIRunesAreLoaded keeps this list
// in step with the string literals of the sources). The test probe reports those the loaded font lacks.
const uiRunes = "°±·×π–—…→∞≤≥\uFFFD"

// inGlyphRanges reports whether r is in the ranges loaded at start.
func inGlyphRanges(r rune) bool {
	for _, rg := range glyphRanges {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// glyphRangeText is every character of glyphRanges, for giu's font atlas.
func glyphRangeText() string {
	var b strings.Builder
	for _, rg := range glyphRanges {
		for r := rg[0]; r <= rg[1]; r++ {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// loadGlyphs asks giu's font atlas for the glyph ranges; call it once the master window exists (the atlas is
// rebuilt before the next frame).
func loadGlyphs() {
	g.Context.FontAtlas.PreRegisterString(glyphRangeText())
}

// registerText makes sure the font atlas has the characters of s (a name or message about to be shown), and
// returns s. Text within the loaded ranges costs one pass over its bytes; a new character rebuilds the atlas
// before the next frame.
func registerText(s string) string {
	for i := range len(s) {
		if s[i] >= 0x80 {
			for _, r := range s[i:] {
				if !inGlyphRanges(r) && g.Context != nil {
					g.Context.FontAtlas.PreRegisterString(s)
					return s
				}
			}
			return s
		}
	}
	return s
}

// missingGlyphs returns the characters of uiRunes that the current font cannot draw. Call it during a frame.
func missingGlyphs() string {
	f := imgui.CurrentFont()
	if f == nil || f.CData == nil {
		return ""
	}
	var miss []rune
	for _, r := range uiRunes {
		if gl := f.FindGlyphNoFallback(imgui.Wchar(r)); gl == nil || gl.CData == nil {
			miss = append(miss, r)
		}
	}
	return string(miss)
}
