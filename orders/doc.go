// Package orders holds what every game system's files share: the strict
// YAML reader behind each system's order and scenario files, its typed
// mistakes at line and column ([Error], [Errors], [Pos]), and [Redact],
// which takes the token out of a file before it is shown or logged.
//
// # Basics
//
// [ParseDocument] reads one YAML document of at most a given size and
// refuses what YAML itself allows but a player never means (aliases, tabs,
// several documents, invalid UTF-8). [DecodeStrict] and [DecodeStrictIn]
// fill a Go value from it, refusing unknown keys with the valid ones and the
// closest match ([Closest]), so that every mistake names its place and what
// to write instead. A system's own package (orders/wind for War in the
// Wind) decodes its schema with them and judges nothing: legality is the
// rules' business.
//
// # Where to start for a new system
//
// Write the system's schema as Go structs with yaml tags, read the file with
// ParseDocument, decode its parts with DecodeStrictIn, and collect every
// Error before answering, up to [MaxErrors].
package orders
