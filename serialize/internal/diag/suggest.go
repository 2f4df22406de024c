package diag

import "strings"

// Closest returns the candidate that name is most likely a misspelling of, or "" if none is close:
// the same word in another case, or within an edit distance (insertions, deletions, substitutions
// and swaps of neighbours) of 1 for names of 5 to 7 letters and 2 for longer ones; shorter names
// only match by case or by one swap, so that short, different words ("Skin", "Spin") are not taken
// for each other. Ties go to the earlier candidate. Closest decides whether an unknown name is an
// error; [DidYouMean] only words a message and also takes one edit in short names.
func Closest(name string, candidates []string) string { return closest(name, candidates, true) }

func closest(name string, candidates []string, strict bool) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if c == name || c == "" {
			continue
		}
		if strings.EqualFold(c, name) {
			return c
		}
		limit := 0
		switch n := max(len(name), len(c)); {
		case n >= 8:
			limit = 2
		case n >= 5:
			limit = 1
		}
		d := editDistance(name, c, max(limit, 1))
		if d == 1 && limit == 0 && strict && !isSwap(name, c) {
			continue
		}
		if d <= max(limit, 1) && d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// isSwap reports whether b is a with two neighbouring bytes swapped.
func isSwap(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// editDistance is the optimal-string-alignment distance between a and b (bytes), or limit+1 when it
// is known to exceed limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	if len(a) > 64 || len(b) > 64 {
		return limit + 1
	}
	// Three rows of the dynamic-programming table.
	var rows [3][65]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// Suggest returns the candidate name is most likely a misspelling of, or "". Unlike [Closest] it
// also suggests short names one edit away ("maxx" → "max"), since it only words a message.
func Suggest(name string, candidates []string) string { return closest(name, candidates, false) }

// DidYouMean returns ` (did you mean "X"?)` for [Suggest]'s candidate, or "".
func DidYouMean(name string, candidates []string) string {
	if c := Suggest(name, candidates); c != "" {
		return ` (did you mean "` + c + `"?)`
	}
	return ""
}
