package components

// The arena's components are declared in ../voltex.project.json, which the stock editor reads; this
// package is the same types in Go, for the game and the arena's own editor. Regenerate it after
// editing the project file:
//
//go:generate go run github.com/voltex-editor/voltex/cmd/voltex-editor gen -pkg components -o components_gen.go ../voltex.project.json
