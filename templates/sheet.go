package templates

import _ "embed"

//go:embed page/sheetfile.js
var sheetFileSource string

// sheetFileJS is the script every order sheet shares, compacted.
var sheetFileJS = CompactScript(sheetFileSource)

// SheetPage is an order sheet packed as PackedPage packs a page, its
// script js preceded by the part every system's sheet shares: how the
// order file, and the token typed into the page, leave it by copy,
// download or mail (sheetFile, page/sheetfile.js), written once so that
// the two systems' sheets cannot drift apart where a player's token is
// at stake.
func SheetPage(title, css string, markup []byte, js string) []byte {
	return PackedPage(title, css, markup, sheetFileJS+js)
}
