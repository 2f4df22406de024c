// Package archtest holds architecture tests: every package of the module has a row in the table of
// docs/architecture.md and imports only what its row allows (the table is the one statement of the architecture,
// so it cannot drift from the code); no library changes process-wide runtime settings (main decides those); and
// the pure core of the editor (ecs, the scene model, serialize, assets, the viewport's camera and picking math, the
// inspector's field model, the editor's document model) does not link cgo, OpenGL, GLFW or giu, so that it builds
// anywhere, tests without a display, and a game can import it; and no test reads the example scenes (scenes/,
// examples/arena/scenes/), which users edit: tests use copies in their testdata/; and every package has its package
// comment in its doc.go, where a reader looks for it. It has no non-test code.
package archtest
