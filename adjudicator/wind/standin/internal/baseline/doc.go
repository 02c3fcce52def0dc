// Package baseline is the stand-in as it played before it counted what a
// landing zone holds: the decisions of package standin at that time, kept
// unchanged so that standin's TestStrength can pit the stand-in against
// it and tell whether a change plays better. The server never uses it.
package baseline
