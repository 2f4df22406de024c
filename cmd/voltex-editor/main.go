package main

import "github.com/voltex-editor/voltex/editor/program"

func main() { program.Main(program.Game{}) }
