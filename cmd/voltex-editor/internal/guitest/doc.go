// Package guitest is the GUI end-to-end harness: it starts a private Xvfb display on a free display number,
// launches the real voltex-editor binary on it, finds its window with xdotool, drives it with xdotool keys and
// clicks, closes it the way a window manager does (WM_DELETE_WINDOW), takes screenshots and offers pixel
// assertions. It reads the editor's probe file (VOLTEX_PROBE) to learn where the panels are and how many
// viewport renders happened.
//
// It only ends processes it started, by PID, also when a test fails (t.Cleanup). It needs the Debian packages
// xvfb, xdotool and imagemagick (scripts/install-deps.sh installs them); when they are missing the tests fail with a
// message saying so — they never skip silently. May import: the standard library only.
package guitest
