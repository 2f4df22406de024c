package pngfile_test

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/internal/pngfile"
)

func TestWriteReadRoundTrip(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.SetRGBA(1, 1, color.RGBA{R: 200, G: 10, B: 30, A: 255})
	path := filepath.Join(t.TempDir(), "a.png")
	if err := pngfile.Write(path, img); err != nil {
		t.Fatal(err)
	}
	got, err := pngfile.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != img.Bounds() || color.RGBAModel.Convert(got.At(1, 1)) != img.At(1, 1) {
		t.Fatalf("read back %v, pixel %v", got.Bounds(), got.At(1, 1))
	}
	// Replacing keeps no temporary files or backups beside it.
	if err := pngfile.Write(path, img); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Fatalf("files beside the image: %v", ents)
	}
}

func TestErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.png")
	if err := os.WriteFile(bad, []byte("not a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pngfile.Read(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("reading a broken file: %v", err)
	}
	if err := pngfile.Write(filepath.Join(dir, "no", "such", "folder.png"), image.NewRGBA(image.Rect(0, 0, 1, 1))); err == nil {
		t.Fatal("wrote into a missing folder")
	}
	if err := pngfile.Write(filepath.Join(dir, "empty.png"), image.NewRGBA(image.Rectangle{})); err == nil ||
		!strings.Contains(err.Error(), "empty.png") {
		t.Fatalf("an empty image: %v", err)
	}
}
