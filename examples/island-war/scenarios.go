// Package islandwar holds the Island War scenario files attu ships, so that
// a game of one finds its scenario again on any machine that runs attu:
// the files themselves are the documented examples of this folder, embedded
// as they are.
package islandwar

import _ "embed"

// Ridge42 is the invented scenario ridge-42-invented.yaml, byte for byte.
//
//go:embed ridge-42-invented.yaml
var Ridge42 []byte
