// Command voltex-editor is the Voltex Editor: a desktop visual editor for ECS scenes.
//
// Usage:
//
//	voltex-editor [flags] [SCENE.json]     open the editor (on SCENE, or on a new scene)
//	voltex-editor validate [--strict] FILE...   check scenes, exports, project files and OBJ models
//	voltex-editor export IN.json -o OUT.json
//	voltex-editor grid --nx 20 --ny 1 --nz 20 --spacing 1.5 -o FILE.json
//	voltex-editor fmt [-w] [-l] FILE|DIR...
//	voltex-editor gen [-o FILE.go] [-pkg NAME] [PROJECT]   Go types for a project file's components
//	voltex-editor render SCENE.json -o OUT.png [--size 1280x720]
//
// Scenes use the components declared in the project file next to them (voltex.project.json, or the
// nearest one in a folder above), besides the built-in ones. Run `voltex-editor --help` or
// `voltex-editor COMMAND --help` for the flags. This package only parses the command line and wires
// the other packages together; it may import all of them.
package main
