// Package prefabnest writes a prefab nest: scene files that each hold ten instances of the next, so
// that eight files of a few hundred bytes flatten to more than 10^8 entities. It is for the tests
// of every reader that must refuse such a nest before expanding it. Pure Go; may import: the
// standard library.
package prefabnest
