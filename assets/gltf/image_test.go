package gltf

import (
	"errors"
	"os"
	"testing"

	"github.com/voltex-editor/voltex/assets"
)

// TestRegistryImage: the registry decodes an image file of the scene folder and an image part of a model
// ("Cube.gltf#image/0"), refuses a path out of the folder, and names a missing part.
func TestRegistryImage(t *testing.T) {
	const dir = "../../../shared/testdata/gltf/Cube/glTF"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s is absent: %v", dir, err)
	}
	reg := assets.NewRegistry(dir, assets.Limits{})
	for _, ref := range []string{"Cube_BaseColor.png", "Cube.gltf#image/0"} {
		img, err := reg.Image(ref)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if img.Width <= 0 || len(img.Pix) != 4*img.Width*img.Height || img.Ref != ref {
			t.Errorf("%s: %d×%d, %d bytes, ref %q", ref, img.Width, img.Height, len(img.Pix), img.Ref)
		}
	}
	if _, err := reg.Image("../Cube/glTF/Cube_BaseColor.png"); !errors.Is(err, assets.ErrUnsafePath) {
		t.Errorf("a path climbing out of the folder: %v, want ErrUnsafePath", err)
	}
	if _, err := reg.Image("Cube.gltf#image/7"); err == nil {
		t.Error("image/7 of a model holding 2 images: no error")
	}
}
