package editor

import (
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/inspector"
)

// The document implements the inspector's real interfaces (editor/doc cannot import the inspector, which links
// giu, so the check is here): docEditor and docNames only forward to whichever document is open.
var (
	_ inspector.Editor = (*doc.Document)(nil)
	_ inspector.Names  = (*doc.Document)(nil)
	_ inspector.Editor = (*docEditor)(nil)
	_ inspector.Names  = docNames{}
)
