// Package glibcfix supplies __isoc23_sscanf, the one glibc ≥ 2.38 symbol that the prebuilt cimgui-go archive
// references but Debian 12's glibc 2.36 lacks. Every binary and test binary that links giu imports it for its side
// effect:
//
//	import _ "github.com/voltex-editor/voltex/internal/glibcfix"
//
// It contains only this cgo shim and may import nothing else.
package glibcfix
