package serialize

import (
	"github.com/voltex-editor/voltex/internal/assetref"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
)

// Problem is one finding in a file: an error, or a warning such as an
// unknown component that was kept verbatim. Its String method formats it as
// "file:line:col: path: message", where path is the JSON path of the
// offending value (entities[12].components.Transform.scale[2]).
type Problem = diag.Problem

// Error is returned when a file cannot be loaded: every problem found (up to
// [Limits].MaxProblems), one per line. Use errors.As to get at the list.
type Error = diag.Error

// ErrAssetMissing is what LoadOptions.CheckAsset wraps when no file (or
// built-in mesh) is behind a well-formed asset reference: a warning, or an
// error with Strict. It is assets.ErrMissing.
var ErrAssetMissing = assetref.ErrMissing
