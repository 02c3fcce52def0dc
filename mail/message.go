package mail

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	// Registers the charsets beyond UTF-8 and US-ASCII with go-message, so
	// an ISO-8859-1 or Shift-JIS part is decoded instead of skipped.
	_ "github.com/emersion/go-message/charset"
	mmail "github.com/emersion/go-message/mail"
)

// Message is what attu needs of one incoming mail: who wrote it to whom,
// how it threads, whether it is automatic, and the orders or command it
// carries. Message-IDs are kept without angle brackets.
type Message struct {
	From   string // the author's address (From); the first one when several
	Sender string // the Sender address, when the header is present

	// FromFields counts the From fields and Authors the mailboxes they
	// name together. RFC 5322 section 3.6.2 lets a mail have several
	// authors (and a Sender); a mail from a player has one field with
	// one mailbox, and From alone cannot say which of several wrote it.
	FromFields, Authors int
	Auth                Verdict  // the verdict on the author, set by Authenticate; its zero value believes nobody
	fromProblem         string   // why a From field does not parse, for Authenticate; empty when all do
	authResults         []string // the Authentication-Results fields (RFC 8601), topmost first, for Authenticate

	// ReturnPath is the Return-Path address the delivering server added,
	// without brackets; NullReturnPath is set when it was "<>" (a bounce,
	// RFC 5321 section 4.5.5).
	ReturnPath     string
	NullReturnPath bool

	To          []string // addresses of To
	Cc          []string // addresses of Cc
	DeliveredTo []string // addresses of every Delivered-To, topmost first

	Subject    string // decoded
	MessageID  string
	InReplyTo  string   // the first Message-ID of In-Reply-To
	References []string // oldest first, as written

	AutoSubmitted string   // Auto-Submitted (RFC 3834 section 5), as written
	Precedence    string   // Precedence, as written
	ListID        string   // List-Id (RFC 2919), as written
	AutoReply     []string // vendor auto-reply markers present: X-Autoreply, X-Autorespond, X-Auto-Response-Suppress
	ContentType   string   // media type of the whole mail, e.g. multipart/report for a bounce

	// Orders is the orders text, CRLF turned into LF and a byte-order mark
	// removed: a .yaml or .yml file (attached or inline), else the
	// plain-text body when it holds the envelope of an orders file (a line
	// starting with "game:", "side:", "turn:" or "wait:") and does not
	// start with a command word.
	Orders     string
	OrdersFile string // the name of the file Orders came from; empty when they came from the body

	// Command is a command word (lower case), from the subject or, failing
	// that, the first line of the body. It is set only when the mail
	// carries no orders: orders take precedence.
	Command string

	// Text is the plain-text body without quoted lines (">"), the
	// attribution line before them and the signature (after "-- ").
	Text     string
	HTMLOnly bool // set when the mail has an HTML body and no plain-text one, so nothing in its body was read

	// Skipped lists parts that could not be decoded (unknown transfer
	// encoding, unknown charset that is not UTF-8 either, broken base64,
	// truncated multipart) and those set aside unread (ErrNotRead: a
	// zipped or encrypted file, any attachment that is no .yaml file);
	// every other part was still read.
	Skipped []PartError
}

// Limits bound what Extract reads of a mail; a zero field takes the
// default of DefaultLimits.
type Limits struct {
	MaxBytes       int64 // the whole mail as received
	MaxParts       int   // MIME parts, the whole mail counting as one
	MaxDepth       int   // levels of nested multiparts below the top
	MaxHeaderBytes int64 // each header block, the top one and each part's
	MaxOrdersBytes int64 // the orders text
}

// DefaultLimits are generous for orders by mail (a whole orders file is a
// few KiB) and small enough that a hostile mail costs little.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:       4 << 20,
		MaxParts:       64,
		MaxDepth:       8,
		MaxHeaderBytes: 64 << 10,
		MaxOrdersBytes: 256 << 10,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	l.MaxBytes = positive(l.MaxBytes, d.MaxBytes)
	l.MaxParts = positive(l.MaxParts, d.MaxParts)
	l.MaxDepth = positive(l.MaxDepth, d.MaxDepth)
	l.MaxHeaderBytes = positive(l.MaxHeaderBytes, d.MaxHeaderBytes)
	l.MaxOrdersBytes = positive(l.MaxOrdersBytes, d.MaxOrdersBytes)
	return l
}

// positive is v when it is above zero, else def: a setting left at zero
// (or set below it) takes its default.
func positive[T int | int64 | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// DefaultCommands are the command words of the game service, players'
// and umpire's, tournaments' included: Extract finds them, and every mail
// that carries one is logged with its command.
func DefaultCommands() []string {
	return []string{"help", "status", "resend", "template", "log", "concede",
		"absent", "takeback", "agree", "go",
		"extend", "pause", "resume", "force", "rollback", "replace", "end", "reveal",
		"standings", "digest", "next", "json", "sheet", "copies"}
}

// Extract reads one mail (RFC 5322, MIME per RFC 2045-2049) within lim,
// whose zero fields take DefaultLimits, and returns what attu needs of it.
//
// A mail beyond a limit returns a *LimitError, whose message is for the
// player; the Message returned with it still holds the header fields, so
// the caller can answer (nil only when the header itself is unreadable).
// A mail whose header cannot be read at all returns ErrMalformed. Parts
// that cannot be decoded are listed in Message.Skipped and do not stop the
// others from being read.
func Extract(raw io.Reader, lim Limits) (*Message, error) {
	lim = lim.withDefaults()
	commands := DefaultCommands()

	data, err := io.ReadAll(io.LimitReader(raw, lim.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("mail: reading message: %w", err)
	}
	tooLarge := int64(len(data)) > lim.MaxBytes
	data = NormalizeLineEnds(data)
	var limitErr error
	hlen := headerLength(data)
	switch {
	case tooLarge:
		limitErr = &LimitError{Err: ErrTooLarge, Limit: lim.MaxBytes}
	case int64(hlen) > lim.MaxHeaderBytes:
		limitErr = &LimitError{Err: ErrHeaderTooLarge, Limit: lim.MaxHeaderBytes}
	}
	if limitErr != nil {
		// Only the header is read, for the reply: the body is what is
		// too large or cannot be trusted to be where it seems.
		data = data[:hlen]
	}

	e, rootErr := message.ReadWithOptions(bytes.NewReader(data), &message.ReadOptions{MaxHeaderBytes: -1})
	if e == nil || e.Header.Len() == 0 || (rootErr != nil && !message.IsUnknownCharset(rootErr) && !message.IsUnknownEncoding(rootErr)) {
		if limitErr != nil {
			return nil, limitErr
		}
		return nil, fmt.Errorf("%w: %v", ErrMalformed, cmp.Or(rootErr, errors.New("no header")))
	}
	m := &Message{}
	readHeader(m, mmail.Header{Header: e.Header})
	if limitErr != nil {
		return m, limitErr
	}

	b := bodyWalk{lim: lim}
	walkErr := e.Walk(func(path []int, p *message.Entity, perr error) error {
		if path == nil {
			perr = rootErr
		}
		return b.part(path, p, perr)
	})
	if le := (*LimitError)(nil); errors.As(walkErr, &le) {
		return m, walkErr
	} else if walkErr != nil {
		// A broken multipart (a missing closing boundary, a torn part
		// header) ends the walk; what was read before it stands.
		m.Skipped = append(m.Skipped, PartError{Part: partName(b.last), Err: walkErr})
	}
	m.Skipped = append(m.Skipped, b.skipped...)

	if len(b.orders) > 1 {
		le := &LimitError{Err: ErrManyOrders, Limit: 1}
		for _, o := range b.orders {
			le.Names = append(le.Names, o.name)
		}
		return m, le
	}
	if b.text != nil {
		m.Text = cleanBody(*b.text)
	}
	m.HTMLOnly = b.text == nil && b.html
	bodyCommand := commandIn(firstLine(m.Text), commands)
	switch {
	case len(b.orders) == 1:
		m.Orders, m.OrdersFile = b.orders[0].text, b.orders[0].name
	case bodyCommand == "" && hasEnvelope(m.Text):
		if int64(len(m.Text)+1) > lim.MaxOrdersBytes {
			return m, &LimitError{Err: ErrOrdersTooLarge, Limit: lim.MaxOrdersBytes}
		}
		m.Orders = m.Text + "\n"
	}
	if m.Orders == "" {
		// The subject's command word (after reply prefixes and the game
		// tag) comes before the body's.
		m.Command = cmp.Or(commandIn(SubjectText(m.Subject), commands), bodyCommand)
	}
	return m, nil
}

// NormalizeLineEnds returns data with every line ending in CRLF (RFC 5322
// section 2.1), whatever the sender's mail program wrote: CRLF, a bare LF
// (Unix), a bare CR (old Mac mailers), or CRs before an LF (CR CR LF, a
// CRLF converted once too often), each one line end, so that no form
// ends the header early or runs it into one long line, and the author
// is answered. data itself is returned when it needs no change.
func NormalizeLineEnds(data []byte) []byte {
	cr, lf, crlf := []byte("\r"), []byte("\n"), []byte("\r\n")
	n := bytes.Count(data, crlf)
	if n == bytes.Count(data, cr) && n == bytes.Count(data, lf) {
		return data
	}
	out := make([]byte, 0, len(data)+bytes.Count(data, lf)+bytes.Count(data, cr))
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\r':
			j := i
			for j < len(data) && data[j] == '\r' {
				j++
			}
			if j < len(data) && data[j] == '\n' {
				out = append(out, crlf...) // CRs before an LF: one line end
			} else {
				out = append(out, bytes.Repeat(crlf, j-i)...) // each bare CR one
				j--
			}
			i = j
		case '\n':
			out = append(out, crlf...)
		default:
			out = append(out, data[i])
		}
	}
	return out
}

// headerLength returns the length of the header block of a raw mail
// whose lines end in CRLF, the blank line that ends it included; the
// whole length when there is none.
func headerLength(data []byte) int {
	if bytes.HasPrefix(data, []byte("\r\n")) {
		return 2
	}
	if i := bytes.Index(data, []byte("\n\r\n")); i >= 0 {
		return i + 3
	}
	return len(data)
}

func readHeader(m *Message, h mmail.Header) {
	readFrom(m, h.Values("From"))
	m.Sender = firstAddress(h, "Sender")
	m.authResults = h.Values("Authentication-Results")
	m.To = addresses(h, "To")
	m.Cc = addresses(h, "Cc")
	for _, v := range h.Values("Delivered-To") {
		if a := looseAddress(v); a != "" {
			m.DeliveredTo = append(m.DeliveredTo, a)
		}
	}
	if rp := strings.TrimSpace(h.Get("Return-Path")); rp != "" || h.Has("Return-Path") {
		m.ReturnPath = looseAddress(rp)
		m.NullReturnPath = m.ReturnPath == ""
	}

	subject, err := h.Subject()
	if err != nil {
		subject = h.Get("Subject")
	}
	m.Subject = validText(subject)

	if id, err := h.MessageID(); err == nil && id != "" {
		m.MessageID = validText(id)
	} else {
		m.MessageID = bareID(h.Get("Message-Id"))
	}
	if ids, err := h.MsgIDList("In-Reply-To"); err == nil && len(ids) > 0 {
		m.InReplyTo = validText(ids[0])
	} else {
		m.InReplyTo = bareID(h.Get("In-Reply-To"))
	}
	if ids, err := h.MsgIDList("References"); err == nil {
		for _, id := range ids {
			m.References = append(m.References, validText(id))
		}
	}

	m.AutoSubmitted = validText(strings.TrimSpace(h.Get("Auto-Submitted")))
	m.Precedence = validText(strings.TrimSpace(h.Get("Precedence")))
	m.ListID = validText(strings.TrimSpace(h.Get("List-Id")))
	for _, k := range []string{"X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress"} {
		if h.Has(k) {
			m.AutoReply = append(m.AutoReply, k)
		}
	}
	ct, _, _ := h.ContentType()
	m.ContentType = validText(ct)
}

// readFrom sets the author fields of m from the values of its From
// fields. A field that does not parse (RFC 5322 section 3.6.2) names no
// mailbox: m.Authors counts none for it and m.fromProblem says why, so
// the mail is from no player; m.From still gets the first address found
// in it loosely, the one to answer.
func readFrom(m *Message, fields []string) {
	m.FromFields = len(fields)
	for _, v := range fields {
		l, err := parseAddressList(v)
		if err != nil {
			if m.fromProblem == "" {
				m.fromProblem = err.Error()
			}
			l = looseAddresses(v, true)
		} else {
			m.Authors += len(l)
		}
		if m.From == "" && len(l) > 0 {
			m.From = validText(l[0])
		}
	}
}

// firstAddress returns the first address of an address header. A header
// that does not parse as RFC 5322 still gives the part that looks like an
// address, because a reply is better than none.
func firstAddress(h mmail.Header, key string) string {
	if a := addresses(h, key); len(a) > 0 {
		return a[0]
	}
	return ""
}

// addresses returns the addresses of the fields named key, found loosely
// in a field that does not parse.
func addresses(h mmail.Header, key string) []string {
	var out []string
	for _, v := range h.Values(key) {
		l, err := parseAddressList(v)
		if err != nil {
			l = looseAddresses(v, false)
		}
		for _, a := range l {
			out = append(out, validText(a))
		}
	}
	return out
}

// looseAddresses finds the addresses in a field that does not parse:
// with brackets, those written in angle brackets when there are any (bare
// CRs an MTA turned into spaces make a whole header one From line, whose
// first bracketed address is the author's, if anyone's); else what looks
// like an address between commas.
func looseAddresses(v string, brackets bool) []string {
	var out []string
	for rest := v; brackets; {
		i := strings.IndexByte(rest, '<')
		j := strings.IndexByte(rest[max(i, 0):], '>')
		if i < 0 || j < 0 {
			break
		}
		if a := looseAddress(rest[i : i+j+1]); a != "" {
			out = append(out, a)
		}
		rest = rest[i+j+1:]
	}
	if len(out) > 0 {
		return out
	}
	for _, a := range strings.Split(v, ",") {
		if a = looseAddress(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// looseAddress finds an address in "Name <a@b>", "<a@b>" or "a@b"; it
// returns "" when there is none.
func looseAddress(v string) string {
	v = strings.TrimSpace(v)
	if l, err := parseAddressList(v); err == nil && len(l) == 1 {
		return validText(l[0])
	}
	if i := strings.LastIndexByte(v, '<'); i >= 0 {
		v = v[i+1:]
		if j := strings.IndexByte(v, '>'); j >= 0 {
			v = v[:j]
		}
	}
	v = strings.TrimSpace(v)
	if !strings.Contains(v, "@") || strings.ContainsAny(v, " \t<>,;\"") || !utf8.ValidString(v) {
		return ""
	}
	return v
}

// Bounds on what a reply copies from the mail it answers. A msg-id
// cannot be folded (RFC 5322 section 3.6.4) and no line may exceed 998
// octets (section 2.1.1): a longer Message-ID is left out of the reply's
// In-Reply-To and References, which only break that mail's thread. The
// subject and the count of References are cut so that a header stays
// small however the mail answered was written.
const (
	maxReplyID      = 250
	maxReplyRefs    = 20
	maxReplySubject = 200 // runes
)

// ReplyIDs returns the In-Reply-To and References a reply may carry:
// Message-IDs without brackets, none longer than maxReplyID, the last
// maxReplyRefs References. An id is copied only when it is printable
// ASCII, as RFC 5322 section 3.6.4 writes a msg-id: one with other bytes
// would go out as an encoded word, which no mail program threads by.
func ReplyIDs(inReplyTo string, refs []string) (string, []string) {
	ok := func(id string) bool {
		if id == "" || len(id) > maxReplyID {
			return false
		}
		for i := 0; i < len(id); i++ {
			if c := id[i]; c <= ' ' || c > '~' || c == '<' || c == '>' {
				return false
			}
		}
		return true
	}
	if inReplyTo = bareID(inReplyTo); !ok(inReplyTo) {
		inReplyTo = ""
	}
	var out []string
	for _, r := range refs {
		if r = bareID(r); ok(r) {
			out = append(out, r)
		}
	}
	if len(out) > maxReplyRefs {
		out = out[len(out)-maxReplyRefs:]
	}
	return inReplyTo, out
}

// ReplySubject returns a subject cut to maxReplySubject runes, its line
// ends and control characters turned into spaces, so that the header
// folds into lines well under 998 octets.
func ReplySubject(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if utf8.RuneCountInString(s) > maxReplySubject {
		s = string([]rune(s)[:maxReplySubject-1]) + "…"
	}
	return s
}

func bareID(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.IndexByte(v, '<'); i >= 0 {
		v = v[i+1:]
		if j := strings.IndexByte(v, '>'); j >= 0 {
			v = v[:j]
		}
	} else if f := strings.Fields(v); len(f) > 0 {
		v = f[0]
	}
	return validText(strings.TrimSpace(v))
}

// validText returns s as valid UTF-8. Raw 8-bit header text that is not
// UTF-8 is nearly always Latin-1 (or its Windows superset), so it is read
// as Latin-1 rather than thrown away.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

type ordersPart struct{ name, text string }

// bodyWalk collects, part by part, what Extract needs of a mail's body.
type bodyWalk struct {
	lim     Limits
	parts   int
	last    []int
	orders  []ordersPart
	text    *string
	html    bool
	skipped []PartError
	// mt and name are the media type and file name of the part being
	// read, for skip.
	mt, name string
}

func (b *bodyWalk) part(path []int, p *message.Entity, perr error) error {
	b.last = path
	b.parts++
	if b.parts > b.lim.MaxParts {
		return &LimitError{Err: ErrTooManyParts, Limit: int64(b.lim.MaxParts)}
	}
	if len(path) > b.lim.MaxDepth {
		return &LimitError{Err: ErrTooDeep, Limit: int64(b.lim.MaxDepth)}
	}
	if path != nil && headerSize(p.Header) > b.lim.MaxHeaderBytes {
		return &LimitError{Err: ErrHeaderTooLarge, Limit: b.lim.MaxHeaderBytes}
	}
	mt, params, err := p.Header.ContentType()
	if err != nil || mt == "" {
		mt = "text/plain" // RFC 2045 section 5.2
	}
	if strings.HasPrefix(mt, "multipart/") {
		return nil
	}
	disp, dparams, _ := p.Header.ContentDisposition()
	name := validText(cmp.Or(dparams["filename"], params["name"]))
	b.mt, b.name = validText(mt), name
	if perr != nil && message.IsUnknownEncoding(perr) {
		return b.skip(path, perr)
	}
	unknownCharset := perr != nil && message.IsUnknownCharset(perr)

	switch {
	case isOrdersFile(name, mt):
		text, err := readText(p.Body, b.lim.MaxOrdersBytes, unknownCharset)
		if errors.Is(err, ErrOrdersTooLarge) {
			return &LimitError{Err: ErrOrdersTooLarge, Limit: b.lim.MaxOrdersBytes}
		} else if err != nil {
			return b.skip(path, err)
		}
		b.orders = append(b.orders, ordersPart{name: name, text: text})
	case mt == "text/plain" && name == "" && disp != "attachment" && b.text == nil:
		text, err := readText(p.Body, b.lim.MaxBytes, unknownCharset)
		if err != nil {
			return b.skip(path, err)
		}
		if strings.EqualFold(params["format"], "flowed") {
			text = unflow(text, strings.EqualFold(params["delsp"], "yes"))
		}
		b.text = &text
	case mt == "text/html" && disp != "attachment":
		b.html = true
	case name != "" || disp == "attachment" || !strings.HasPrefix(mt, "text/"):
		// Not read, but named in a reply when the mail turns out to hold no
		// orders: a zipped or encrypted file is often meant as one.
		return b.skip(path, ErrNotRead)
	}
	return nil
}

// skip lists the part at path as skipped for err; the walk goes on.
func (b *bodyWalk) skip(path []int, err error) error {
	b.skipped = append(b.skipped, PartError{Part: partName(path), Type: b.mt, Name: b.name, Err: err})
	return nil
}

// partName names a part as IMAP does (RFC 3501 section 6.4.5): "1.2" for
// the second part of the first part; the body of a single-part mail is "1".
func partName(path []int) string {
	if len(path) == 0 {
		return "1"
	}
	s := make([]string, len(path))
	for i, n := range path {
		s[i] = strconv.Itoa(n + 1)
	}
	return strings.Join(s, ".")
}

func headerSize(h message.Header) int64 {
	var n int64
	f := h.Fields()
	for f.Next() {
		n += int64(len(f.Key()) + len(f.Value()) + 4)
	}
	return n
}

var yamlTypes = []string{"application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"}

func isOrdersFile(name, mediaType string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml") || slices.Contains(yamlTypes, mediaType)
}

// readText reads a decoded text part up to max bytes. A part in an
// unknown charset is kept when it is valid UTF-8 anyway (an orders file
// is mostly ASCII) and skipped otherwise.
func readText(r io.Reader, max int64, unknownCharset bool) (string, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return "", err
	}
	if int64(len(data)) > max {
		return "", ErrOrdersTooLarge
	}
	if unknownCharset && !utf8.Valid(data) {
		return "", ErrCharset
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	return strings.ToValidUTF8(s, "\uFFFD"), nil
}

// unflow undoes format=flowed (RFC 3676 section 4): a line ending in a
// space continues on the next, and a leading space was added for transport.
func unflow(s string, delsp bool) string {
	var b strings.Builder
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimPrefix(l, " ") // section 4.4, space-stuffing
		soft := strings.HasSuffix(l, " ") && l != "-- "
		if soft && delsp {
			l = l[:len(l)-1]
		}
		b.WriteString(l)
		if !soft && i < len(lines)-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// cleanBody drops what a reply adds around the player's own text: quoted
// lines, the attribution line that introduces them, an Outlook-style
// original message, and the signature.
func cleanBody(s string) string {
	var keep []string
	last := -1 // index in keep of the last line that is not blank
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimRight(l, " \t\r")
		if t == "--" || strings.EqualFold(strings.Trim(t, " -"), "original message") {
			break // RFC 3676 section 4.3: "-- " starts the signature
		}
		if strings.HasPrefix(l, ">") {
			keep, last = dropAttribution(keep, last)
			continue
		}
		keep = append(keep, l)
		if strings.TrimSpace(l) != "" {
			last = len(keep) - 1
		}
	}
	keep = keep[:last+1]
	for len(keep) > 0 && strings.TrimSpace(keep[0]) == "" {
		keep = keep[1:]
	}
	return strings.Join(keep, "\n")
}

// dropAttribution removes the "On ..., X wrote:" line (maybe wrapped on
// two lines) that a mail client puts above a quote; last is the index of
// the last line that is not blank, and the new one is returned. Each
// line is looked at a bounded number of times, so a mail of many quotes
// costs linear time.
func dropAttribution(keep []string, last int) ([]string, int) {
	if last < 0 || !strings.HasSuffix(strings.ToLower(strings.TrimSpace(keep[last])), "wrote:") {
		return keep, last
	}
	n := last
	if !strings.HasPrefix(keep[n], "On ") && n > 0 && strings.HasPrefix(keep[n-1], "On ") {
		n--
	}
	keep = keep[:n]
	last = n - 1
	for last >= 0 && strings.TrimSpace(keep[last]) == "" {
		last--
	}
	return keep, last
}

// hasEnvelope tells whether a body holds orders: every orders file starts
// with its envelope (game, side, turn, wait), a mapping at the left margin. A token
// line alone does not count: a command that changes the game carries one.
func hasEnvelope(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		for _, k := range []string{"game", "side", "turn", "wait"} {
			if rest, ok := strings.CutPrefix(l, k); ok && strings.HasPrefix(strings.TrimLeft(rest, " \t"), ":") {
				return true
			}
		}
	}
	return false
}

func firstLine(text string) string {
	for l := range strings.SplitSeq(text, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

// commandIn returns the command word that starts a line. A word ending in
// a colon is a YAML key, not a command.
func commandIn(line string, commands []string) string {
	f := strings.Fields(line)
	if len(f) == 0 || strings.HasSuffix(f[0], ":") {
		return ""
	}
	if w := strings.ToLower(strings.TrimRight(f[0], ".!?,;")); slices.Contains(commands, w) {
		return w
	}
	return ""
}
