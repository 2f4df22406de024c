package main

import (
	"bytes"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestHelpExitsZero(t *testing.T) {
	for _, flag := range []string{"--help", "-h", "-help"} {
		code, out, _ := runCLI(flag)
		if code != 0 || !strings.Contains(out, "usage:") || !strings.Contains(out, "-size") {
			t.Errorf("%s: code %d, stdout %q", flag, code, out)
		}
	}
}

func TestUnknownFlagExitsTwo(t *testing.T) {
	code, out, errOut := runCLI("--no-such-flag")
	if code != 2 || out != "" || !strings.Contains(errOut, "no-such-flag") || !strings.Contains(errOut, "usage:") {
		t.Errorf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestMissingSceneExitsOne(t *testing.T) {
	code, _, errOut := runCLI("/nonexistent/scene.json")
	if code != 1 || !strings.Contains(errOut, "/nonexistent/scene.json") {
		t.Errorf("code %d, stderr %q", code, errOut)
	}
}

func TestBadSizeExitsTwo(t *testing.T) {
	for _, s := range []string{"big", "10x10", "100x", "x100"} {
		if code, _, _ := runCLI("--size", s); code != 2 {
			t.Errorf("--size %s: code %d, want 2", s, code)
		}
	}
}
