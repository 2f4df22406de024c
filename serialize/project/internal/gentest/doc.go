// Package gentest is what `voltex-editor gen` writes for serialize/project/testdata/game.project.json
// (components_gen.go), checked in so that the module compiles the generated code: TestGenerateGolden
// checks that the file is what project.Generate writes, TestGeneratedTypesAgree that a world with
// these types accepts the project file. Regenerate it with
// `go test ./serialize/project -run Generate -update`.
package gentest
