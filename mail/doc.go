// Package mail is attu's connection to one ordinary mailbox (DESIGN 6): the
// IMAP inbox watched with IDLE and a polling fallback, MIME parsing of
// incoming orders (a .yaml attachment or YAML in the plain-text body),
// SMTP sending from the store's outbox with retries, and loop protection
// (RFC 3834 automatic mail, rate limits, size caps).
//
// It imports nothing else of attu: cmd/attu wires it to the store and the
// rules. The package is not written yet; the mail daemon and the demo that
// needs it come with it.
package mail
