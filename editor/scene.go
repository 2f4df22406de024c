package editor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// peekSceneName reads a scene file's "name"; a file without one is named after its file name.
func peekSceneName(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cannot open scene: %w", err)
	}
	var head struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", fmt.Errorf("%s: not a scene file: %v", path, err)
	}
	if head.Name == "" {
		head.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return head.Name, nil
}
