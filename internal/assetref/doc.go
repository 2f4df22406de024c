// Package assetref decides which asset references (a Mesh's "asset", and every string field
// with the asset hint) are well formed: "builtin:NAME", or a path relative to the scene's folder
// that stays inside it. It is the one owner of that rule for the editor (assets), the scene
// loader and exporter (serialize) and the game loader (serialize/game), so a reference refused
// in one place is refused in all. It looks only at the spelling; whether the file exists, and
// where symlinks lead, is package assets' business.
package assetref
