package pngfile

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/voltex-editor/voltex/internal/atomicfile"
)

// Write encodes img as PNG and writes it to path atomically ([atomicfile.ReplaceFile]): whatever happens, path holds
// the old or the new image, never a part of one. The folder must exist.
func Write(path string, img image.Image) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.ReplaceFile(path, buf.Bytes())
}

// Read decodes the PNG image in the file at path; errors name the file.
func Read(path string) (image.Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return img, nil
}
