// Package pngfile writes and reads PNG images: the one place that does, for the render command's output, the GUI
// tests' screenshots and the golden images of the renderer and inspector tests.
package pngfile
