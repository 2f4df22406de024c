package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json), plus the build events of `go test -json`.
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
}

// Skip is a test that was skipped and the reason it gave.
type Skip struct {
	Package, Test, Reason string
}

// Result is what a stream reported.
type Result struct {
	Skips  []Skip
	Failed []string // "package" or "package TestName"
}

// Report reads a `go test -json` stream from r, writes the readable form to w as it goes, and returns the skips
// and failures it saw.
func Report(r io.Reader, w io.Writer) (Result, error) {
	var res Result
	testOut := map[string][]string{} // "pkg\x00test" → output lines
	pkgOut := map[string][]string{}  // package-level output lines
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		var ev event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			// Not an event (e.g. a message printed by go itself): pass it through.
			fmt.Fprintln(w, sc.Text())
			continue
		}
		key := ev.Package + "\x00" + ev.Test
		switch ev.Action {
		case "build-output":
			fmt.Fprint(w, ev.Output)
		case "output":
			if ev.Test == "" {
				pkgOut[ev.Package] = append(pkgOut[ev.Package], ev.Output)
			} else {
				testOut[key] = append(testOut[key], ev.Output)
			}
		case "skip":
			if ev.Test == "" {
				// A package without tests: go test prints "?   pkg [no test files]".
				flush(w, pkgOut[ev.Package], isPackageLine)
			} else {
				res.Skips = append(res.Skips, Skip{ev.Package, ev.Test, reason(testOut[key])})
			}
			delete(testOut, key)
		case "pass":
			if ev.Test == "" {
				flush(w, pkgOut[ev.Package], isPackageLine)
				delete(pkgOut, ev.Package)
			}
			delete(testOut, key)
		case "fail":
			if ev.Test == "" {
				// Everything the package printed outside a test (panics, timeouts, TestMain output) and its line.
				flush(w, pkgOut[ev.Package], func(s string) bool { return s != "FAIL\n" })
				delete(pkgOut, ev.Package)
				res.Failed = append(res.Failed, ev.Package)
			} else {
				flush(w, testOut[key], nil)
				res.Failed = append(res.Failed, ev.Package+" "+ev.Test)
			}
			delete(testOut, key)
		}
	}
	if err := sc.Err(); err != nil {
		return res, err
	}
	return res, nil
}

// isPackageLine keeps the summary line of a package ("ok  pkg 1.2s", "?  pkg [no test files]").
func isPackageLine(s string) bool {
	return strings.HasPrefix(s, "ok ") || strings.HasPrefix(s, "ok\t") || strings.HasPrefix(s, "?")
}

func flush(w io.Writer, lines []string, keep func(string) bool) {
	for _, l := range lines {
		if keep == nil || keep(l) {
			fmt.Fprint(w, l)
		}
	}
}

// reason is what a skipped test printed, without go test's own framing lines, on one line.
func reason(lines []string) string {
	var parts []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " / ")
}

// Summary writes the skipped tests, sorted and without repeats, one per line.
func Summary(w io.Writer, skips []Skip) {
	sort.Slice(skips, func(i, j int) bool {
		if skips[i].Package != skips[j].Package {
			return skips[i].Package < skips[j].Package
		}
		return skips[i].Test < skips[j].Test
	})
	var last Skip
	for _, s := range skips {
		if s == last {
			continue
		}
		last = s
		fmt.Fprintf(w, "  %s %s: %s\n", s.Package, s.Test, s.Reason)
	}
}

func main() {
	skipsFile := flag.String("skips", "", "append the skipped tests (package\\ttest\\treason lines) to this file instead of printing them")
	flag.Parse()
	res, err := Report(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(1)
	}
	if *skipsFile != "" {
		f, err := os.OpenFile(*skipsFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err == nil {
			for _, s := range res.Skips {
				fmt.Fprintf(f, "%s\t%s\t%s\n", s.Package, s.Test, s.Reason)
			}
			err = f.Close()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(1)
		}
	} else if len(res.Skips) > 0 {
		fmt.Printf("skipped %d tests:\n", len(res.Skips))
		Summary(os.Stdout, res.Skips)
	}
	if len(res.Failed) > 0 {
		fmt.Printf("failed: %s\n", strings.Join(res.Failed, ", "))
		os.Exit(1)
	}
}
