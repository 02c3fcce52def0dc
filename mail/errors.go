package mail

import (
	"errors"
	"fmt"
	"strings"
)

// Errors of the package. A *LimitError wraps one of the first six; the
// DKIM errors come from VerifyDKIM.
var (
	ErrTooLarge       = errors.New("mail: message too large")          // the whole mail is larger than Limits.MaxBytes
	ErrTooManyParts   = errors.New("mail: too many MIME parts")        // the mail has more MIME parts than Limits.MaxParts
	ErrTooDeep        = errors.New("mail: MIME parts nested too deep") // MIME parts are nested deeper than Limits.MaxDepth
	ErrHeaderTooLarge = errors.New("mail: header too large")           // a header block is larger than Limits.MaxHeaderBytes
	ErrOrdersTooLarge = errors.New("mail: orders file too large")      // the orders are larger than Limits.MaxOrdersBytes
	ErrManyOrders     = errors.New("mail: more than one orders file")  // more than one orders file is attached

	ErrMalformed = errors.New("mail: malformed message") // the top header cannot be read, not even whom to answer
	// ErrNotRead: a part was decoded but is no orders file or body text
	// attu reads (a zipped or encrypted file, a picture, a .txt
	// attachment); Message.Skipped lists it so that a reply can name it.
	ErrNotRead = errors.New("mail: not an orders file, not read")
	// ErrCharset: a text part is in an unknown charset, and not UTF-8.
	ErrCharset = errors.New("mail: unknown charset, and the text is not UTF-8")

	// ErrDKIMNone: the mail has no DKIM signature of its author's domain.
	ErrDKIMNone = errors.New("mail: no DKIM signature for the author's domain")
	ErrDKIMFail = errors.New("mail: DKIM signature does not verify") // a signature of the author's domain does not verify
	ErrDKIMTemp = errors.New("mail: DKIM key lookup failed for now") // the signing key could not be looked up now (DNS)

	// ErrInsecure: a configuration asks for plaintext to a server that is
	// not on the loopback interface.
	ErrInsecure = errors.New("mail: plaintext is allowed only to a loopback server")
	ErrTimeout  = errors.New("mail: network operation timed out") // a network operation took longer than its timeout
	// ErrNoBody: Incoming.Fetch was called after the handler returned.
	ErrNoBody = errors.New("mail: message fetched outside its handler")

	errAddress     = errors.New("mail: not an RFC 5322 address list")                 // an address field does not parse
	errAuthResults = errors.New("mail: not an RFC 8601 Authentication-Results field") // an Authentication-Results field does not parse

	errClosed = errors.New("mail: imap: connection closed by the server") // the server closed the connection; Run reconnects
)

// LimitError is the user-facing error of a mail that exceeds one of the
// Limits. Its message says which limit and what to do; errors.Is matches
// the sentinel of that limit.
type LimitError struct {
	Err   error // ErrTooLarge, ErrTooManyParts, ErrTooDeep, ErrHeaderTooLarge, ErrOrdersTooLarge or ErrManyOrders
	Limit int64 // the limit in force
	// Names, for ErrManyOrders, are the orders files' names as the mail
	// gives them ("" for one without a name), in the mail's order.
	Names []string
}

func (e *LimitError) Error() string {
	switch e.Err {
	case ErrTooLarge:
		return fmt.Sprintf("the mail is larger than %s: send the orders file alone, without pictures or other attachments", size(e.Limit))
	case ErrTooManyParts:
		return fmt.Sprintf("the mail has more than %d parts: send the orders file alone, without other attachments", e.Limit)
	case ErrTooDeep:
		return fmt.Sprintf("the mail nests parts more than %d levels deep: send a new mail with the orders file attached, instead of forwarding", e.Limit)
	case ErrHeaderTooLarge:
		return fmt.Sprintf("a header of the mail is larger than %s: send a new mail rather than a long forwarded thread", size(e.Limit))
	case ErrOrdersTooLarge:
		return fmt.Sprintf("the orders file is larger than %s: remove long comments or split the orders", size(e.Limit))
	case ErrManyOrders:
		return fmt.Sprintf("the mail carries %d orders files (.yaml), %s: attach one orders file per mail", len(e.Names), fileList(e.Names))
	}
	return e.Err.Error()
}

func (e *LimitError) Unwrap() error { return e.Err }

// fileList names files for a reply: each name quoted, cut to
// maxQuotedName runes since the sender chose it, at most maxQuotedNames of
// them and a count of the rest.
func fileList(names []string) string {
	var q []string
	for i, n := range names {
		if i == maxQuotedNames {
			q = append(q, fmt.Sprintf("%d more", len(names)-i))
			break
		}
		if n == "" {
			q = append(q, "one without a name")
			continue
		}
		if r := []rune(n); len(r) > maxQuotedName {
			n = string(r[:maxQuotedName-1]) + "…"
		}
		q = append(q, fmt.Sprintf("%q", n))
	}
	switch len(q) {
	case 0:
		return "more than one"
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// How much of the names of the files a mail carries a reply quotes.
const (
	maxQuotedNames = 3
	maxQuotedName  = 40 // runes
)

// size renders a byte count for people.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// PartError names a MIME part that could not be decoded and was skipped;
// the rest of the mail is still read.
type PartError struct {
	Part string // the part's number as IMAP writes it: "1", "2.1"
	Type string // its media type, like application/zip; empty when unknown
	Name string // its file name, when it has one
	Err  error
}

func (e PartError) Error() string { return fmt.Sprintf("part %s: %v", e.Part, e.Err) }
