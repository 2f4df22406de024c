package editor

import (
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/inspector"
)

// The document implements the inspector's real interfaces and what each panel needs of it (editor/doc cannot import
// the inspector, which links giu, so the check is here); the adapters only forward to whichever document is open.
var (
	_ inspector.Editor      = (*doc.Document)(nil)
	_ inspector.Names       = (*doc.Document)(nil)
	_ inspector.Editor      = inspEditor{}
	_ inspector.Expressions = inspEditor{}
	_ inspector.Names       = inspNames{}
	_ inspector.IDs         = inspNames{}
	_ inspector.Overrides   = inspOverrides{}
	_ hierarchyDoc          = (*doc.Document)(nil)
	_ viewportDoc           = (*doc.Document)(nil)
	_ inspectorDoc          = inspected{}
)
