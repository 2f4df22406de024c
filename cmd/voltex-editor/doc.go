// Command voltex-editor is the Voltex Editor: a desktop visual editor for ECS scenes.
//
// Usage:
//
//	voltex-editor [flags] [SCENE.json]     open the editor (on SCENE, or on a new scene)
//	voltex-editor validate FILE...         check scenes, exports and OBJ models
//	voltex-editor export IN.json -o OUT.json
//	voltex-editor grid --nx 20 --ny 1 --nz 20 --spacing 1.5 -o FILE.json
//	voltex-editor fmt [-w] [-l] FILE...
//	voltex-editor render SCENE.json -o OUT.png [--size 1280x720]
//
// Run `voltex-editor --help` or `voltex-editor COMMAND --help` for the flags. This package only parses the command
// line and wires the other packages together; it may import all of them.
package main
