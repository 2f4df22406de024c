package query

import (
	"strings"
	"unicode/utf8"
)

// glob is a pattern: * stands for any run of characters, ? for one; \* \? and \\ stand for
// themselves.
type glob struct {
	pat   []rune // the pattern, wildcards as starRune and anyRune
	lit   string // the pattern when it has no wildcards
	fold  bool   // case is ignored
	wilds bool
}

// Wildcards are kept as runes no text holds (invalid code points in the pattern only).
const (
	starRune = -1
	anyRune  = -2
)

func newGlob(p string, fold bool) glob {
	if fold {
		p = strings.ToLower(p)
	}
	g := glob{fold: fold}
	rs := []rune(p)
	var lit strings.Builder
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\' && i+1 < len(rs) && (rs[i+1] == '*' || rs[i+1] == '?' || rs[i+1] == '\\'):
			i++
			g.pat = append(g.pat, rs[i])
			lit.WriteRune(rs[i])
		case r == '*':
			if len(g.pat) == 0 || g.pat[len(g.pat)-1] != starRune {
				g.pat = append(g.pat, starRune)
			}
			g.wilds = true
		case r == '?':
			g.pat = append(g.pat, anyRune)
			g.wilds = true
		default:
			g.pat = append(g.pat, r)
			lit.WriteRune(r)
		}
	}
	g.lit = lit.String()
	return g
}

// match reports whether the whole of s matches, in time linear in len(s) times the pattern's.
func (g *glob) match(s string) bool {
	if g.fold {
		s = lowerFast(s)
	}
	if !g.wilds {
		return s == g.lit
	}
	p := g.pat
	pi, si := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		r, n := utf8.DecodeRuneInString(s[si:])
		switch {
		case pi < len(p) && (p[pi] == anyRune || p[pi] == r):
			pi++
			si += n
		case pi < len(p) && p[pi] == starRune:
			starP, starS = pi, si
			pi++
		case starP >= 0:
			_, m := utf8.DecodeRuneInString(s[starS:])
			starS += m
			si = starS
			pi = starP + 1
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == starRune {
		pi++
	}
	return pi == len(p)
}

// lowerFast lowers s, without allocating when it has no upper case ASCII and no other script.
func lowerFast(s string) string {
	for i := range len(s) {
		c := s[i]
		if c >= 0x80 || 'A' <= c && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}
