package editor

import (
	"slices"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// paletteTitle is the command palette's window title (and its probe panel name).
const paletteTitle = "Command Palette"

// fuzzyScore scores how well query matches label as a case-insensitive subsequence (spaces in the query only
// separate words); ok is false when some character of the query is not found in order. A higher score is a better
// match: characters that follow each other, that start a word, or that start the label count more, skipped
// characters count against it, and so does the rest of a longer label, so "save" ranks Save before Save As...
// before Save Selection as Prefab.... The best of all the ways the query's characters can be placed is taken.
func fuzzyScore(query, label string) (score int, ok bool) {
	q := strings.ToLower(strings.ReplaceAll(query, " ", ""))
	l := strings.ToLower(label)
	if q == "" {
		return 0, true
	}
	const none = -1 << 30
	// best[j] is the best score of the query so far with its last character at l[j].
	best, next := make([]int, len(l)), make([]int, len(l))
	for qi := range len(q) {
		for j := range l {
			next[j] = none
			if l[j] != q[qi] {
				continue
			}
			bonus := 1
			if j == 0 || !isWordByte(l[j-1]) {
				bonus += 6
			}
			if qi == 0 {
				if j == 0 {
					bonus += 4
				}
				next[j] = bonus - min(j, 3) // where the match starts matters little past the first words
				continue
			}
			for k := range j {
				if best[k] == none {
					continue
				}
				s := best[k] + bonus
				if k == j-1 {
					s += 8
				} else {
					s -= j - k - 1
				}
				next[j] = max(next[j], s)
			}
		}
		best, next = next, best
	}
	score = none
	for j, s := range best {
		if s != none {
			score = max(score, s-(len(l)-j-1)/4)
		}
	}
	return score, score != none
}

func isWordByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// paletteMatches returns the indices into acts of the actions whose labels query matches, best first (ties: the
// shorter label first, then the table's order; an empty query lists all in the table's order). The palette's own
// entry is left out.
func paletteMatches(acts []action, query string) []int {
	type hit struct{ i, score int }
	var hits []hit
	for i := range acts {
		if acts[i].label == paletteLabel {
			continue
		}
		if s, ok := fuzzyScore(query, acts[i].label); ok {
			hits = append(hits, hit{i, s})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		if strings.TrimSpace(query) == "" { // everything, in the table's (the menus') order
			return 0
		}
		if a.score != b.score {
			return b.score - a.score
		}
		return len(acts[a.i].label) - len(acts[b.i].label)
	})
	out := make([]int, len(hits))
	for k, h := range hits {
		out[k] = h.i
	}
	return out
}

// paletteLabel is the palette's action label (the palette does not list itself).
const paletteLabel = "Command Palette..."

// palette is the command palette: every action of the table, fuzzy-searched by label, with its shortcut. Up and
// Down move the highlight, Enter runs the highlighted action (if enabled), Escape or a click elsewhere closes it.
type palette struct {
	cmds    commands
	probe   *prober
	open    bool
	opened  bool // the window was built at least once since it was opened (it takes the keyboard then)
	query   string
	current int  // index into the matches of the highlighted row
	scroll  bool // the highlight moved: scroll the list to it
}

var _ g.Widget = (*palette)(nil)

// toggle opens the palette empty, or closes it.
func (p *palette) toggle() {
	p.open = !p.open
	p.query, p.current, p.opened = "", 0, false
}

// move moves the highlight by d rows within n matches, wrapping around.
func (p *palette) move(d, n int) {
	if n == 0 {
		p.current = 0
		return
	}
	p.current = ((p.current+d)%n + n) % n
	p.scroll = true
}

// Build draws the palette at the top of the window, over the panels.
func (p *palette) Build() {
	if !p.open {
		p.probe.forget(paletteTitle)
		return
	}
	vp := imgui.MainViewport()
	w := min(float32(560), vp.WorkSize().X-40)
	imgui.SetNextWindowPosV(imgui.Vec2{X: vp.WorkPos().X + vp.WorkSize().X/2, Y: vp.WorkPos().Y + 40}, imgui.CondAlways, imgui.Vec2{X: 0.5})
	imgui.SetNextWindowSize(imgui.Vec2{X: w})
	flags := imgui.WindowFlagsNoTitleBar | imgui.WindowFlagsNoResize | imgui.WindowFlagsNoMove | imgui.WindowFlagsNoSavedSettings |
		imgui.WindowFlagsAlwaysAutoResize | imgui.WindowFlagsNoDocking
	if !p.opened {
		imgui.SetNextWindowFocus()
	}
	run := -1
	if imgui.BeginV(paletteTitle+"###palette", nil, flags) {
		p.probe.panel(paletteTitle)
		if !p.opened {
			imgui.SetKeyboardFocusHere()
		}
		imgui.SetNextItemWidth(-1)
		before := p.query
		imgui.InputTextWithHint("##palettequery", "Type a command", &p.query, 0, nil)
		if p.query != before {
			p.current = 0
		}
		matches := paletteMatches(actions, p.query)
		switch {
		case imgui.IsKeyPressedBool(imgui.KeyDownArrow):
			p.move(1, len(matches))
		case imgui.IsKeyPressedBool(imgui.KeyUpArrow):
			p.move(-1, len(matches))
		}
		p.current = min(p.current, max(0, len(matches)-1))
		if p.opened && (imgui.IsKeyPressedBool(imgui.KeyEnter) || imgui.IsKeyPressedBool(imgui.KeyKeypadEnter)) && len(matches) > 0 {
			run = matches[p.current]
		}
		if imgui.IsKeyPressedBool(imgui.KeyEscape) || p.opened && !imgui.IsWindowFocusedV(imgui.FocusedFlagsRootAndChildWindows) {
			p.open = false
		}
		if clicked := p.buildList(matches); clicked >= 0 {
			run = clicked
		}
	}
	imgui.End()
	p.opened = true
	if run >= 0 {
		ac := &actions[run]
		if ac.isEnabled(p.cmds) {
			p.open = false
			runAction(p.cmds, ac)
		}
	}
	if !p.open {
		p.probe.forget(paletteTitle)
	}
}

// paletteRows is how many matches the palette shows before it scrolls.
const paletteRows = 14

// buildList draws the matches, each with its menu and shortcut; it returns the action clicked, -1 for none.
func (p *palette) buildList(matches []int) int {
	clicked := -1
	rowH := imgui.TextLineHeightWithSpacing()
	h := rowH * float32(min(max(len(matches), 1), paletteRows))
	if !imgui.BeginChildStrV("##palettelist", imgui.Vec2{Y: h + 4}, 0, 0) {
		imgui.EndChild()
		return -1
	}
	if len(matches) == 0 {
		textDisabled("No command matches")
	}
	right := imgui.ContentRegionAvail().X
	for k, i := range matches {
		ac := &actions[i]
		enabled := ac.isEnabled(p.cmds)
		if !enabled {
			imgui.BeginDisabled()
		}
		label := ac.label
		if ac.menu != "" {
			label = ac.menu + ": " + ac.label
		}
		if imgui.SelectableBoolV(label+"##pal"+ac.label, k == p.current, 0, imgui.Vec2{}) {
			clicked = i
		}
		if k == p.current && p.scroll {
			imgui.SetScrollHereYV(0.5)
			p.scroll = false
		}
		if s := ac.allShortcutText(); s != "" {
			imgui.SameLineV(right-imgui.CalcTextSize(s).X, 0)
			textDisabled(s)
		}
		if !enabled {
			imgui.EndDisabled()
		}
	}
	imgui.EndChild()
	return clicked
}
