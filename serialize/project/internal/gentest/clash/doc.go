// Package clash is what `voltex-editor gen` writes for serialize/project/testdata/clash.project.json
// (components_gen.go): names that would collide in Go (a component Register, a field Default, an enum
// E's value A beside an enum EA), checked in so that the module compiles them. TestGenerateGolden checks
// that the file is what project.Generate writes; regenerate it with
// `go test ./serialize/project -run Generate -update`.
package clash
