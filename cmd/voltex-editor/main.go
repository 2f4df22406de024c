package main

import "github.com/voltex-editor/voltex/program"

func main() { program.Main(program.Game{}) }
