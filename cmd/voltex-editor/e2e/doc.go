// Package e2e holds the GUI end-to-end tests: each starts a private Xvfb, launches the real voltex-editor binary,
// drives it with xdotool and checks screenshots by pixels (see package guitest). They run in `make test`.
// Screenshots of failing tests are written to testdata/failed/.
package e2e
