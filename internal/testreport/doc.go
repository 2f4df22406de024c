// Command testreport turns `go test -json` into what a person wants to read from `make test`: one line per package
// (as plain `go test` prints), the full output of every failed test and build error, and at the end the skipped
// tests with the reason each gave, so nothing skips unnoticed.
//
//	go test -json ./... | go run ./internal/testreport [-skips FILE]
//
// With -skips it appends one line per skipped test (package, test and reason, tab-separated) to FILE instead of
// printing them, so that scripts/test.sh can print one summary for all its steps. It exits 1 if the input was not
// a `go test -json` stream or reported a failure. Standard library only.
package main
