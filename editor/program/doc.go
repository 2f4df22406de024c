// Package program is the whole voltex-editor program as a library: the editor window and every
// subcommand (validate, export, grid, fmt, gen, render). The stock binary (cmd/voltex-editor) is
//
//	func main() { program.Main(program.Game{}) }
//
// and a game module gets the same program with its own components and play-mode systems by
// filling in a [Game]. Importing this package also links the shim that lets the prebuilt Dear
// ImGui archive link against Debian 12's glibc, so such a main builds from any module.
//
// Scenes use the components declared in the project file that applies to them
// (voltex.project.json next to the scene or in a folder above; see package serialize/project)
// besides the built-in ones and the game's Go components.
package program
