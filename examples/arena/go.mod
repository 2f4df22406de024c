module example.com/arena

go 1.26

require (
	github.com/go-gl/mathgl v1.2.0
	github.com/voltex-editor/voltex v0.0.0
)

require (
	github.com/AllenDang/cimgui-go v1.3.2-0.20250409185506-6b2ff1aa26b5 // indirect
	github.com/AllenDang/giu v0.14.1 // indirect
	github.com/AllenDang/go-findfont v0.0.0-20200702051237-9f180485aeb8 // indirect
	github.com/faiface/mainthread v0.0.0-20171120011319-8b78f0a41ae3 // indirect
	github.com/fsnotify/fsnotify v1.10.1 // indirect
	github.com/go-gl/gl v0.0.0-20231021071112-07e5d0ea2e71 // indirect
	github.com/gucio321/glm-go v0.0.0-20241029220517-e1b5a3e011c8 // indirect
	github.com/mazznoer/csscolorparser v0.1.6 // indirect
	github.com/napsy/go-css v1.0.0 // indirect
	github.com/pkg/browser v0.0.0-20210911075715-681adbf594b8 // indirect
	github.com/sahilm/fuzzy v0.1.1 // indirect
	golang.design/x/hotkey v0.4.1 // indirect
	golang.design/x/mainthread v0.3.0 // indirect
	golang.org/x/image v0.27.0 // indirect
	golang.org/x/sys v0.25.0 // indirect
	gopkg.in/eapache/queue.v1 v1.1.0 // indirect
)

replace github.com/voltex-editor/voltex => ../..
