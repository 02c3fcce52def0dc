package mail

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusOrders is the orders file the corpus mails carry.
const corpusOrders = `game: g1
side: us
turn: 3
wait: actions
token: 7f3a-secret
actions:
  - move: 1/17-A
    path: [2716, 2717]   # Engineer Hill
`

const own = "attu@attu.test"

// want is what Extract must find in a corpus mail; empty fields are
// checked to be empty too.
type want struct {
	err        error // the sentinel errors.Is must match; nil for none
	from       string
	subject    string
	id         string
	command    string
	orders     string
	ordersFile string
	text       string
	htmlOnly   bool
	auto       bool
	skipped    int // parts that could not be decoded
}

// The corpus in testdata/corpus: every kind of mail a stranger or a mail
// system can send, and what the daemon must learn from each.
var corpus = map[string]want{
	"yaml-attachment.eml": {from: "us@example.org", subject: "Turn 3 orders", id: "orders-3@example.org",
		orders: corpusOrders, ordersFile: "us-turn3.yaml", text: "Here are my orders."},
	"inline-yml-part.eml": {from: "us@example.org", subject: "[attu g1] orders", id: "inline-1@example.org",
		orders: corpusOrders, ordersFile: "orders.YML", text: "see attached"},
	"body-orders.eml": {from: "us@example.org", subject: "orders", id: "body-1@example.org",
		orders: strings.TrimSuffix(corpusOrders, "\n") + "\n", text: strings.TrimSuffix(corpusOrders, "\n")},
	"body-orders-flowed.eml": {from: "us@example.org", subject: "Re: [attu g1] Turn 2 report", id: "flowed-1@example.org",
		orders: strings.Replace(corpusOrders, "   # Engineer Hill", "", 1) +
			"# a long comment that the mail client wrapped at seventy-two columns because the line was long\n",
		text: strings.Replace(corpusOrders, "   # Engineer Hill", "", 1) +
			"# a long comment that the mail client wrapped at seventy-two columns because the line was long"},
	"quoted-reply.eml": {from: "jp@example.org", subject: "Re: [attu g1] Turn 2 report", id: "quoted-1@example.org",
		command: "status", text: "status please"},
	"no-yaml.eml": {from: "newcomer@example.org", subject: "How do I play?", id: "noyaml-1@example.org",
		text: "Hello, I would like to join a game. How does this work?"},
	// The syntax is the orders package's to judge: the text is handed over.
	"yaml-syntax-error.eml": {from: "us@example.org", subject: "orders", id: "syntax-1@example.org",
		orders: "game: g1\nside: us\nactions:\n  - move: 1/17-A\n   path: [2716, 2717\n", ordersFile: "orders.yaml", text: "attached"},
	"html-only.eml":        {from: "us@example.org", subject: "orders", id: "html-1@example.org", htmlOnly: true},
	"html-alternative.eml": {from: "us@example.org", subject: "status", id: "alt-1@example.org", command: "status", text: "Thanks!"},
	"many-parts.eml":       {err: ErrTooManyParts, from: "us@example.org", subject: "orders", id: "many-1@example.org"},
	"deep-nesting.eml":     {err: ErrTooDeep, from: "us@example.org", subject: "orders", id: "deep-1@example.org"},
	"unknown-encoding.eml": {from: "us@example.org", subject: "orders", id: "enc-1@example.org",
		orders: corpusOrders, ordersFile: "us.yaml", skipped: 1},
	// The body's charset is unknown and it is not UTF-8: skipped. The
	// orders file's charset is unknown too, but it is UTF-8: kept.
	"unknown-charset.eml": {from: "us@example.org", subject: "orders", id: "cs-1@example.org",
		orders: strings.TrimSuffix(corpusOrders, "\n"), ordersFile: "orders.yaml", skipped: 1},
	"auto-submitted.eml": {from: "us@example.org", subject: "Out of office: [attu g1] Turn 3 report", id: "ooo-1@example.org",
		text: "I am away until Monday.", auto: true},
	"vacation-x-autoreply.eml": {from: "jp@example.org", subject: "Away", id: "xauto-1@example.org", text: "Away.", auto: true},
	"bounce.eml": {from: "MAILER-DAEMON@mx.example.org", subject: "Undelivered Mail Returned to Sender", id: "bounce-1@mx.example.org",
		text: "I'm sorry to have to inform you that your message could not be delivered.", auto: true, skipped: 1},
	"mailing-list.eml": {from: "someone@example.net", subject: "[wargames] anyone for Attu?", id: "list-1@example.net",
		command: "status", text: "status", auto: true},
	"own-address.eml": {from: "attu+g1@attu.test", subject: "[attu g1] Turn 3 report", id: "g1.3.us@attu.test",
		text: "report", auto: true},
	"empty.eml":     {err: ErrMalformed},
	"no-header.eml": {err: ErrMalformed},
	"garbage.eml":   {err: ErrMalformed},
	"subject-latin1-encoded.eml": {from: "andre@example.org", subject: "Re: [attu g1] état du jeu", id: "latin1-1@example.org",
		command: "status", text: "status\n\nMerci, à bientôt."},
	"subject-raw-8bit.eml": {from: "andre@example.org", subject: "Re: [attu g1] état", id: "raw8-1@example.org",
		command: "help", text: "help"},
	"latin1-body-orders.eml": {from: "andre@example.org", subject: "ordres", id: "l1body-1@example.org",
		orders: "game: g2\nside: jp\n# Baie de Holtz à l'aube\n", text: "game: g2\nside: jp\n# Baie de Holtz à l'aube"},
	"two-yaml.eml": {err: ErrManyOrders, from: "us@example.org", subject: "orders", id: "two-1@example.org"},
	"subject-command.eml": {from: "umpire@example.org", subject: "Re: [attu g7] extend 48h", id: "cmd-1@example.org",
		command: "extend"},
	"broken-base64.eml": {from: "us@example.org", subject: "orders", id: "b64-1@example.org", text: "attached", skipped: 1},
	// Cut off in its last part: the orders before the cut stand.
	"truncated-multipart.eml": {from: "us@example.org", subject: "orders", id: "trunc-1@example.org",
		orders: corpusOrders, ordersFile: "us.yaml", skipped: 2},
}

func TestExtractCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.eml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, ok := corpus[filepath.Base(f)]; !ok {
			t.Errorf("%s has no expectation", f)
		}
	}
	for name, w := range corpus {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata/corpus", name))
			if err != nil {
				t.Fatal(err)
			}
			m, err := Extract(bytes.NewReader(raw), Limits{})
			checkExtract(t, m, err, w)
		})
	}
}

func checkExtract(t *testing.T, m *Message, err error, w want) {
	t.Helper()
	if !errors.Is(err, w.err) || (err != nil && w.err == nil) {
		t.Fatalf("error %v, want %v", err, w.err)
	}
	var le *LimitError
	if errors.As(err, &le) && !strings.Contains(le.Error(), ":") {
		t.Errorf("limit error %q does not say what to do", le)
	}
	if m == nil {
		if w.from != "" {
			t.Fatalf("no message, want one from %s", w.from)
		}
		return
	}
	auto, why := IsAutomatic(m, own)
	got := want{err: w.err, from: m.From, subject: m.Subject, id: m.MessageID,
		command: m.Command, orders: m.Orders, ordersFile: m.OrdersFile, text: m.Text,
		htmlOnly: m.HTMLOnly, auto: auto, skipped: len(m.Skipped)}
	if fmt.Sprint(got) != fmt.Sprint(w) {
		t.Errorf("got\n%s\nwant\n%s\n(automatic: %s; skipped: %v)", show(got), show(w), why, m.Skipped)
	}
}

func show(w want) string {
	return fmt.Sprintf("from %q subject %q id %q command %q\norders %q from %q\ntext %q\nhtml only %v automatic %v skipped %d",
		w.from, w.subject, w.id, w.command, w.orders, w.ordersFile, w.text, w.htmlOnly, w.auto, w.skipped)
}

// bigMail is a mail with a yaml attachment of n bytes after its text.
func bigMail(n int) []byte {
	var b bytes.Buffer
	b.WriteString("From: Player <us@example.org>\r\nTo: attu+g1@attu.test\r\nSubject: orders and a photo\r\n" +
		"Message-ID: <big-1@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n" +
		"--B\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n" +
		"--B\r\nContent-Type: application/yaml\r\nContent-Disposition: attachment; filename=\"us.yaml\"\r\n\r\n")
	b.WriteString("game: g1\r\n")
	line := "# " + strings.Repeat("x", 76) + "\r\n"
	for b.Len() < n {
		b.WriteString(line)
	}
	b.WriteString("\r\n--B--\r\n")
	return b.Bytes()
}

// Limits too large to keep as files: a 10 MB mail, a huge header, an
// orders file beyond its cap. The header is still read, to answer.
func TestExtractLimits(t *testing.T) {
	header := want{from: "us@example.org", subject: "orders and a photo", id: "big-1@example.org"}
	tooLarge := header
	tooLarge.err = ErrTooLarge
	m, err := Extract(bytes.NewReader(bigMail(10<<20)), Limits{})
	checkExtract(t, m, err, tooLarge)

	ordersTooLarge := header
	ordersTooLarge.err = ErrOrdersTooLarge
	m, err = Extract(bytes.NewReader(bigMail(300<<10)), Limits{})
	checkExtract(t, m, err, ordersTooLarge)

	// Just under the orders limit is fine.
	m, err = Extract(bytes.NewReader(bigMail(200<<10)), Limits{})
	if err != nil || !strings.HasPrefix(m.Orders, "game: g1\n#") || m.OrdersFile != "us.yaml" {
		t.Errorf("200 KiB of orders: %v, %d bytes", err, len(m.Orders))
	}

	long := "From: us@example.org\r\nMessage-ID: <hdr-1@example.org>\r\nSubject: orders\r\n" +
		strings.Repeat("Received: from somewhere by somewhere else with a long line of text\r\n", 2000) + "\r\nbody\r\n"
	m, err = Extract(strings.NewReader(long), Limits{})
	checkExtract(t, m, err, want{err: ErrHeaderTooLarge, from: "us@example.org", subject: "orders", id: "hdr-1@example.org"})

	// A nested part's header counts too.
	nested := "From: us@example.org\r\nMessage-ID: <hdr-2@example.org>\r\nSubject: orders\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n" +
		"--B\r\n" + strings.Repeat("X-Filler: 0123456789012345678901234567890123456789\r\n", 2000) + "Content-Type: text/plain\r\n\r\nhi\r\n--B--\r\n"
	m, err = Extract(strings.NewReader(nested), Limits{})
	checkExtract(t, m, err, want{err: ErrHeaderTooLarge, from: "us@example.org", subject: "orders", id: "hdr-2@example.org"})

	// Smaller limits are the caller's to set.
	raw, _ := os.ReadFile("testdata/corpus/yaml-attachment.eml")
	_, err = Extract(bytes.NewReader(raw), Limits{MaxOrdersBytes: 64})
	if le := (*LimitError)(nil); !errors.As(err, &le) || le.Err != ErrOrdersTooLarge || le.Limit != 64 {
		t.Errorf("64-byte orders limit: %v", err)
	}
	_, err = Extract(bytes.NewReader(raw), Limits{MaxParts: 2})
	if !errors.Is(err, ErrTooManyParts) {
		t.Errorf("2-part limit on a 3-part mail: %v", err)
	}
	if _, err = Extract(bytes.NewReader(raw), Limits{MaxDepth: 1}); err != nil {
		t.Errorf("depth limit 1 on a mail one level deep: %v", err)
	}
}

// The user-facing message of each limit names the limit and what to do.
func TestLimitErrorMessages(t *testing.T) {
	for _, e := range []*LimitError{
		{Err: ErrTooLarge, Limit: 4 << 20}, {Err: ErrTooManyParts, Limit: 64}, {Err: ErrTooDeep, Limit: 8},
		{Err: ErrHeaderTooLarge, Limit: 64 << 10}, {Err: ErrOrdersTooLarge, Limit: 256 << 10}, {Err: ErrManyOrders, Limit: 1, Names: []string{"a.yaml", "b.yaml"}},
	} {
		msg := e.Error()
		if strings.HasPrefix(msg, "mail:") || !strings.Contains(msg, ": ") {
			t.Errorf("%v: %q is not for a player", e.Err, msg)
		}
		if e.Err != ErrManyOrders && !strings.Contains(msg, size(e.Limit)) && !strings.Contains(msg, fmt.Sprint(e.Limit)) {
			t.Errorf("%q does not give the limit %d", msg, e.Limit)
		}
	}
	if got := (&LimitError{Err: ErrTooLarge, Limit: 4 << 20}).Error(); !strings.Contains(got, "4 MiB") {
		t.Errorf("%q", got)
	}
}

// A mail with two orders files is refused naming both, as the mail names
// them; names the sender chose are cut short, and past three counted.
func TestManyOrdersNamesThem(t *testing.T) {
	raw, err := os.ReadFile("testdata/corpus/two-yaml.eml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Extract(bytes.NewReader(raw), Limits{})
	var le *LimitError
	if !errors.As(err, &le) || le.Err != ErrManyOrders {
		t.Fatalf("two orders files: %v", err)
	}
	if got, want := le.Error(), `the mail carries 2 orders files (.yaml), "a.yaml" and "b.yml": attach one orders file per mail`; got != want {
		t.Errorf("%q\nwant %q", got, want)
	}
	long := strings.Repeat("é", 5000) + ".yaml"
	msg := (&LimitError{Err: ErrManyOrders, Limit: 1, Names: []string{long, "", "c.yaml", "d.yaml", "e.yaml"}}).Error()
	if len(msg) > 300 || !strings.Contains(msg, "5 orders files") || !strings.Contains(msg, "one without a name") || !strings.Contains(msg, "and 2 more") {
		t.Errorf("%d bytes: %q", len(msg), msg)
	}
}

// Commands are found at the start of the subject after prefixes and tags,
// or on the first line of the body; orders take precedence.
func TestCommands(t *testing.T) {
	for _, tc := range []struct {
		subject, body string
		cmd           string
	}{
		{"status", "", "status"},
		{"Re: RE: Fwd: [attu g1] Status?", "", "status"},
		{"[attu g1] Re: resend", "", "resend"},
		{"AW: [attu g1] replace us new@example.org", "", "replace"},
		{"Turn 3", "template\nthanks", "template"},
		{"Turn 3", "\n\n  concede now\n", "concede"},
		{"Turn 3", "I concede", ""},
		{"statusreport", "", ""},
		{"help", "game: g1\nside: us\n", ""}, // orders, not a command
		// A command that changes the game carries the sender's token.
		{"Re: [attu g1] Turn 3 report", "concede\ntoken: 7f3a\n", "concede"},
		{"Re: [attu g1] Turn 3 report", "absent 3d\ngame: g1\ntoken: 7f3a\n", "absent"},
		{"Turn 3", "status: ready\n", ""}, // a YAML key
	} {
		raw := fmt.Sprintf("From: us@example.org\r\nSubject: %s\r\n\r\n%s", tc.subject, strings.ReplaceAll(tc.body, "\n", "\r\n"))
		m, err := Extract(strings.NewReader(raw), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if tc.cmd != "" && m.Orders != "" {
			t.Errorf("subject %q body %q: orders %q beside the command", tc.subject, tc.body, m.Orders)
		}
		if m.Command != tc.cmd {
			t.Errorf("subject %q body %q: command %q, want %q", tc.subject, tc.body, m.Command, tc.cmd)
		}
	}
}

// The body's reply clutter goes; the player's text stays.
func TestCleanBody(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"status\n\nOn Tue, 11 May 1943, attu <attu@attu.test> wrote:\n> report\n> more\n", "status"},
		{"> quoted first\n\nstatus", "status"},
		{"game: g1\n-- \nsig", "game: g1"},
		{"game: g1\n--\nsig", "game: g1"},
		{"game: g1\n---\nside: us", "game: g1\n---\nside: us"}, // a YAML document marker is not a signature
		{"help\n\n-----Original Message-----\nFrom: attu", "help"},
		{"a\n  > not a quote\nb", "a\n  > not a quote\nb"},
		{"a\nOn x wrote:\n> q\n\nb\nOn y\nz wrote:\n> q2\nc\n\n", "a\n\nb\nc"},
		{strings.Repeat("\n", 1000) + strings.Repeat(">\n", 1000) + "status", "status"},
	} {
		if got := cleanBody(tc.in); got != tc.out {
			t.Errorf("cleanBody(%q) = %q, want %q", tc.in, got, tc.out)
		}
	}
	if got := unflow("a long \nline\n stuffed\n-- \nsig", false); got != "a long line\nstuffed\n-- \nsig" {
		t.Errorf("unflow: %q", got)
	}
	if got := unflow("a long \nline", true); got != "a longline" {
		t.Errorf("unflow with DelSp: %q", got)
	}
}

// A mail written with bare CRs (old Mac mailers) or with mixed line ends
// reads as one written with CRLF.
func TestExtractLineEnds(t *testing.T) {
	crlf := "From: <us@example.org>\r\nTo: <attu+g1@attu.test>\r\nSubject: status\r\nMessage-ID: <cr-1@example.org>\r\n\r\nstatus\r\nplease\r\n"
	want, err := Extract(strings.NewReader(crlf), Limits{})
	if err != nil || want.From != "us@example.org" || want.Command != "status" {
		t.Fatalf("%+v %v", want, err)
	}
	for name, raw := range map[string]string{
		"bare CR": strings.ReplaceAll(crlf, "\r\n", "\r"),
		"bare LF": strings.ReplaceAll(crlf, "\r\n", "\n"),
		"mixed":   strings.Replace(strings.Replace(crlf, "\r\n", "\r", 2), "\r\n", "\n", 2),
		// A CRLF converted to CRLF once more: one line end, not two.
		"CR CR LF":       strings.ReplaceAll(crlf, "\r\n", "\r\r\n"),
		"CR CR LF mixed": strings.Replace(strings.Replace(crlf, "\r\n", "\r\r\n", 3), "\r\n", "\n", 2),
	} {
		m, err := Extract(strings.NewReader(raw), Limits{})
		if err != nil || fmt.Sprint(*m) != fmt.Sprint(*want) {
			t.Errorf("%s: %+v %v", name, m, err)
		}
	}
	for in, want := range map[string]string{
		"a\rb\nc\r\n\r\rd\n": "a\r\nb\r\nc\r\n\r\n\r\nd\r\n",
		"a\r\r\nb\r\r\r\n\r": "a\r\nb\r\n\r\n",
		"a\r\r\r":            "a\r\n\r\n\r\n",
		"a\r\nb":             "a\r\nb",
	} {
		if got := string(NormalizeLineEnds([]byte(in))); got != want {
			t.Errorf("NormalizeLineEnds(%q) = %q, want %q", in, got, want)
		}
	}
}
