package program

import (
	"testing"

	"github.com/voltex-editor/voltex/internal/statedir"
)

// The program's tests open scenes (and so start session journals) in a state folder of their own.
func TestMain(m *testing.M) { statedir.Main(m) }
