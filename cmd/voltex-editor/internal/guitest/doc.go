// Package guitest is the GUI end-to-end harness: it starts a private Xvfb display on a free display number,
// launches the real voltex-editor binary on it, finds its window with xdotool, drives it with xdotool keys and
// clicks, closes it the way a window manager does (WM_DELETE_WINDOW), takes screenshots and offers pixel
// assertions. It reads the editor's probe file (VOLTEX_PROBE, types in editor/probe) to learn where the panels
// are, what the editor shows and how many frames and viewport renders happened.
//
// # Waiting: conditions, never clocks
//
// GUI tests must hold on a loaded 2-core machine, where one editor frame can take a second. So a test never sleeps
// to let something happen and never asserts how much happens in a given time (a frame rate, "changed within
// 0.5 s"); it waits for a condition, with a deadline so generous that only a real failure reaches it:
//
//   - Input methods (Key, Type, Move, Click, DoubleClick, Drag, Focus, Resize) return once the editor has received
//     and handled the input (the probe's InputPending is 0; ImGui hands fast input to frames one event at a time,
//     so typed text takes about two frames a character) and built one more frame (Sync). No sleeps between them.
//     Their deadline only runs while the editor builds no frames, so slow frames are never a failure.
//   - DragOnto(x0, y0, button, target) drags to a target it asks the probe for after every step (a hierarchy row
//     moves when a row above it opens under a hovering drag, which ImGui does after 0.7 s): prefer it to Drag
//     when the drop target is found from the probe.
//   - WaitProbe(timeout, what, cond) waits until the probe satisfies cond: a state changed, a counter advanced
//     (Frames, ViewportRenders, UndoDepth, Entities…). This is the normal way to wait for an effect.
//   - WaitFrames(n) waits for n more editor frames, or until the editor is idle: "a few frames later it still …".
//   - Presented(p) / ScreenshotOf(p) / ScreenshotNow() wait until the screen shows probe p's state (or the current
//     one), then capture it: use them instead of a sleep before a screenshot.
//   - Settle() waits until the editor is idle (all input handled, nothing animating, screen up to date); use it
//     before "nothing changes" checks and idle measurements. It never returns in play mode.
//   - WaitScreen(timeout, what, cond) takes screenshots until cond holds on one: "it animates" is "a later
//     screenshot differs from this one", not "N pixels changed in 0.5 s".
//   - WaitFor(t, timeout, what, cond) polls anything else (a file written by the editor).
//
// Every deadline goes through Timeout(d) = max(d, MinWait) × $VOLTEX_TIMEOUT_SCALE (default 1; `STRESS=1 make
// test` sets 2), so a short d in a test is a floor, never a race. To assert that something does NOT happen, first
// Sync or Settle (so the editor has seen the input), then check the probe once.
//
// Each test owns its Display (its own Xvfb, without key auto-repeat, which a stalled xdotool would trigger), so GUI
// tests call t.Parallel.
//
// It only ends processes it started, by PID, also when a test fails (t.Cleanup). It needs the Debian packages
// xvfb, xdotool and imagemagick (scripts/install-deps.sh installs them); when they are missing the tests fail with a
// message saying so — they never skip silently. May import: the standard library and editor/probe.
package guitest
