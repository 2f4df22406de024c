// Command generate writes the typed query and map files of package ecs (query_gen.go and
// map_gen.go) for 1 to 6 components, and with them their tests (query_gen_test.go and
// map_gen_test.go), so that every generated type is exercised. Run it with `go generate` in the ecs
// directory; a test checks that the committed files are up to date.
package main
