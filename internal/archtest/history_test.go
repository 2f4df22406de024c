package archtest

import (
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// issueNumber matches a citation of an issue tracker by number in text: the word issue (or issues, any case),
// then a number, maybe after spaces and a #. A link to another project's tracker (".../issues/NNN") passes.
var issueNumber = regexp.MustCompile(`(?i)\bissues?\s*#?\d`)

// issueIdent matches an identifier named after an issue number (TestIssue12, issue_15).
var issueIdent = regexp.MustCompile(`(?i)issue_?\d`)

// goIssueRefs lists, as "file:line:col: ...", the comments and string literals of the Go source src (the file
// name) that cite an issue by number, and the identifiers named after one.
func goIssueRefs(name string, src []byte) []string {
	var refs []string
	fset := token.NewFileSet()
	file := fset.AddFile(name, -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return refs
		}
		re := issueNumber
		switch tok {
		case token.COMMENT, token.STRING, token.CHAR:
		case token.IDENT:
			re = issueIdent
		default:
			continue
		}
		for _, loc := range re.FindAllStringIndex(lit, -1) {
			p := fset.Position(pos + token.Pos(loc[0]))
			refs = append(refs, fmt.Sprintf("%s:%d:%d: cites an issue: %q", name, p.Line, p.Column, excerpt(lit, loc)))
		}
	}
}

// mdIssueRefs lists, as "file:line:col: ...", the places of the markdown text src (the file name) that cite an
// issue by number.
func mdIssueRefs(name string, src []byte) []string {
	var refs []string
	for i, line := range strings.Split(string(src), "\n") {
		for _, loc := range issueNumber.FindAllStringIndex(line, -1) {
			refs = append(refs, fmt.Sprintf("%s:%d:%d: cites an issue: %q", name, i+1, loc[0]+1, excerpt(line, loc)))
		}
	}
	return refs
}

// excerpt returns the match at loc in s with a few words around it, on one line.
func excerpt(s string, loc []int) string {
	from, to := max(loc[0]-30, 0), min(loc[1]+30, len(s))
	for from > 0 && !isRuneStart(s[from]) {
		from--
	}
	for to < len(s) && !isRuneStart(s[to]) {
		to++
	}
	return strings.Join(strings.Fields(s[from:to]), " ")
}

func isRuneStart(b byte) bool { return b&0xc0 != 0x80 }

// TestNoIssueNumbers: no Go source (comments, strings, names) and no markdown document of the module cites an
// issue tracker by number. Code and docs say what is and why; a number means nothing to a reader of the
// repository, which holds no tracker.
func TestNoIssueNumbers(t *testing.T) {
	root, err := filepath.Abs(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	var goFiles, mdFiles int
	err = walkSources(root, func(p string) error {
		var check func(string, []byte) []string
		switch {
		case strings.HasSuffix(p, ".go"):
			check, goFiles = goIssueRefs, goFiles+1
		case strings.HasSuffix(p, ".md"):
			check, mdFiles = mdIssueRefs, mdFiles+1
		default:
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		for _, ref := range check(filepath.ToSlash(rel), src) {
			t.Error(ref)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if goFiles < 300 || mdFiles < 5 {
		t.Fatalf("checked %d Go files and %d markdown files: too few to be believed", goFiles, mdFiles)
	}
}

// TestIssueCheckCatchesCitations proves the check can fail: each way code and docs have cited an issue, and
// text that names no issue number passes. The fixtures spell the word as ISS so that this file passes itself.
func TestIssueCheckCatchesCitations(t *testing.T) {
	word := strings.NewReplacer("CISS", "Issue", "ISS", "issue")
	goSrc := word.Replace(`package x

// CISS 12.9 in the editor: an unsafe path is refused.
func TestCISS12(t *testing.T) {} // the move came before the press (ISS 12 item 5)
/* ISS 15's "updating all instances" target */
var s = "see ISS #25"
var issue_7 = 1

// Not citations: a link to another tracker (https://github.com/golang/go/issues/12345), an issue's cause,
// "issued 3 times", tissue 4, the id #25 of an entity.
var ok = "issues/12345"
`)
	got := goIssueRefs("x_test.go", []byte(goSrc))
	var where []string
	for _, g := range got {
		t.Log(g)
		where = append(where, strings.SplitN(g, ": ", 2)[0])
	}
	want := "[x_test.go:3:4 x_test.go:4:10 x_test.go:4:70 x_test.go:5:4 x_test.go:6:14 x_test.go:7:5]"
	if fmt.Sprint(where) != want {
		t.Errorf("Go: reported %v, want %v", where, want)
	}

	mdSrc := word.Replace("# Title\n\nThe old code took 2 s (ISS 16 item 4).\nSee CISSs 12 and 15.\n" +
		"Report bugs at https://example.com/tracker/issues/3; an issue's fix.\n")
	got = mdIssueRefs("README.md", []byte(mdSrc))
	where = where[:0]
	for _, g := range got {
		t.Log(g)
		where = append(where, strings.SplitN(g, ": ", 2)[0])
	}
	if want := "[README.md:3:24 README.md:4:5]"; fmt.Sprint(where) != want {
		t.Errorf("markdown: reported %v, want %v", where, want)
	}
}
