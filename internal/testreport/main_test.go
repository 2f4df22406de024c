package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestReportPrintsFailuresAndCollectsSkips(t *testing.T) {
	in, err := os.ReadFile("testdata/stream.json")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	res, err := Report(bytes.NewReader(in), &out)
	if err != nil {
		t.Fatal(err)
	}
	want := []Skip{
		{"example.com/a", "TestSkip", "a_test.go:4: ../shared is absent"},
		{"example.com/a", "TestSub/x", "a_test.go:5: sub reason / line2"},
		{"example.com/c", "TestP", "c_test.go:9: needs a display"},
	}
	if len(res.Skips) != len(want) {
		t.Fatalf("skips %+v, want %+v", res.Skips, want)
	}
	for i := range want {
		if res.Skips[i] != want[i] {
			t.Errorf("skip %d = %+v, want %+v", i, res.Skips[i], want[i])
		}
	}
	if got := strings.Join(res.Failed, ","); got != "example.com/b,example.com/a TestFail,example.com/a" {
		t.Errorf("failed = %s", got)
	}
	text := out.String()
	for _, s := range []string{
		"b.go:2:12: undefined: x\n", "FAIL\texample.com/b [build failed]\n", // the build error
		"a_test.go:6: boom\n", "--- FAIL: TestFail", "FAIL\texample.com/a\t0.007s\n", // the failed test, its package
		"ok  \texample.com/c\t1.500s\n", "?   \texample.com/d\t[no test files]\n", // packages that passed or had no tests
		"not json\n", // anything else passes through
	} {
		if !strings.Contains(text, s) {
			t.Errorf("output lacks %q:\n%s", s, text)
		}
	}
	for _, s := range []string{"hello", "=== RUN   TestA", "PASS\n", "no shared", "needs a display"} {
		if strings.Contains(text, s) {
			t.Errorf("output has %q, which only -v shows:\n%s", s, text)
		}
	}
}

func TestSummarySortsAndDropsRepeats(t *testing.T) {
	var out bytes.Buffer
	Summary(&out, []Skip{{"p/b", "TestB", "r"}, {"p/a", "TestA", "r"}, {"p/b", "TestB", "r"}})
	if got, want := out.String(), "  p/a TestA: r\n  p/b TestB: r\n"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}
