// Package orders reads order files: the one YAML schema every kind of orders
// uses, mailed by players and written inline in rules cases (DESIGN 3.0).
//
// # Basics
//
// [Parse] decodes a file strictly and reports every mistake it finds at
// once, each with its line and column, in words a player can act on. A file
// that decodes becomes [adjudicator.Orders] through [File.Orders]; the
// adjudicator then judges legality and reports [adjudicator.Problem]s, which
// [File.Locate] and [File.Problems] map back to the lines of the file.
//
// Decoding is separate from judging: this package checks the shape of a file
// (known fields, the right kinds of values, hex numbers that are four
// digits), never whether a move is legal.
//
// [DecodeStrict] is the strict decoder behind Parse, exported for other YAML
// inputs that want the same errors (rules cases use it).
//
// # Caveats
//
// Some YAML syntax errors are reported by the YAML library on a line near the
// mistake rather than on it (an unclosed "[" is reported where it opened).
package orders
