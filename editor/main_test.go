package editor

import (
	"testing"

	"github.com/voltex-editor/voltex/internal/statedir"
)

// The editor's tests keep their session journals in a state folder of their own.
func TestMain(m *testing.M) { statedir.Main(m) }
