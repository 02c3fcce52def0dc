package referee

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"strings"
	"sync"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// Defaults of a game's timing and of the service's limits.
const (
	// DefaultDeadline is the time allowed for each wait.
	DefaultDeadline = 72 * time.Hour
	// DefaultReminder is how long before a deadline the awaited player is
	// reminded.
	DefaultReminder = 24 * time.Hour
	// DefaultAbsence is the longest a player may move their deadlines
	// with "absent" unless the game says otherwise.
	DefaultAbsence = 14 * 24 * time.Hour
	// DefaultTakeback is how long a takeback request waits for the
	// opponent's "agree" before it lapses.
	DefaultTakeback = 24 * time.Hour
	// DefaultAnswerEvery is how often a stranger gets the generic answer.
	DefaultAnswerEvery = time.Hour
	// DefaultStrangers is how many generic answers all strangers
	// together get per hour, whatever addresses they write from.
	DefaultStrangers = 20
	// DefaultReplies is how many answers one side of a game gets per
	// hour to its commands and refused mails, before one "slow down"
	// note and silence.
	DefaultReplies = 30
	// DefaultTokenAnswers is how many answers per hour a player's
	// address gets to mails whose token fails.
	DefaultTokenAnswers = 3
)

// Config is what the service needs besides the database.
type Config struct {
	// Address is the mailbox every game is played through, like
	// attu@example.org; game G is addressed as attu+G@example.org.
	// Mails from it are never answered.
	Address string
	// Logger receives the service's log; nil discards it. Tokens are
	// never logged.
	Logger *slog.Logger
	// AnswerEvery limits the generic answer to mail that names no game
	// the sender plays in: at most one per sender in this period (zero:
	// DefaultAnswerEvery). The count is kept in memory.
	AnswerEvery time.Duration
	// Strangers caps the generic answers to all strangers together per
	// hour (zero: DefaultStrangers), so that mail from ever new addresses
	// cannot turn the service into a source of backscatter.
	Strangers int
	// Replies caps the answers to one side's commands and refused mails
	// per hour in each game (zero: DefaultReplies); past it the side gets
	// one note to slow down, and its mails are recorded, not carried
	// out, until the pace drops. Reports are not counted.
	Replies int
	// TokenAnswers caps the answers per hour to mails from a player's
	// address whose token fails (zero: DefaultTokenAnswers).
	TokenAnswers int
	// Takeback is how long a takeback request stays open (zero:
	// DefaultTakeback).
	Takeback time.Duration
	// DB names the database file in the commands the final report quotes
	// ("attu export -db FILE"); empty for attu.db.
	DB string
	// Hook, when set, follows the games: told of each end, asked for the
	// standings, run after each Tick (see Hook).
	Hook Hook
}

// Service is the game service: games and players, the one entry
// point for incoming mail (Handle), the waits and their deadlines (Tick),
// the players' and the umpire's commands. Everything it does to a game is
// one store transaction with the mails it sends; it keeps nothing a caller
// must remember. It is safe for concurrent use.
type Service struct {
	db  *store.DB
	cfg Config
	log *slog.Logger

	mu sync.Mutex
	// answers limits the generic answer to strangers (Config.AnswerEvery),
	// each sender, and strangers all of them together
	// (Config.Strangers).
	answers, strangers *mail.Limiter
	// replies limits the answers to each side of each game
	// (Config.Replies), slowed the notes that say so to one an hour,
	// tokens the answers to mails whose token fails (Config.TokenAnswers).
	// All are kept in memory: a restart forgets them, which costs at most
	// one more hour's worth.
	replies, slowed, tokens *mail.Limiter
	// now is the time of the mail Handle is handling, for the limits.
	now time.Time
	// botting is set while the stand-in plays its steps (botPlays).
	botting bool
}

// New returns the service of the games in db.
func New(db *store.DB, cfg Config) *Service {
	if cfg.AnswerEvery == 0 {
		cfg.AnswerEvery = DefaultAnswerEvery
	}
	if cfg.Takeback == 0 {
		cfg.Takeback = DefaultTakeback
	}
	if cfg.DB == "" {
		cfg.DB = "attu.db"
	}
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	if cfg.Strangers <= 0 {
		cfg.Strangers = DefaultStrangers
	}
	if cfg.Replies <= 0 {
		cfg.Replies = DefaultReplies
	}
	if cfg.TokenAnswers <= 0 {
		cfg.TokenAnswers = DefaultTokenAnswers
	}
	return &Service{db: db, cfg: cfg, log: lg.With("pkg", "referee"),
		answers: mail.NewLimiter(1, cfg.AnswerEvery), strangers: mail.NewLimiter(cfg.Strangers, time.Hour),
		replies: mail.NewLimiter(cfg.Replies, time.Hour), slowed: mail.NewLimiter(1, time.Hour),
		tokens: mail.NewLimiter(cfg.TokenAnswers, time.Hour)}
}

// DB returns the service's database.
func (s *Service) DB() *store.DB { return s.db }

// record is the service's own record of a game, kept in store.Game.Service
// and written in the same transactions as the game.
type record struct {
	// Name is the game's human-readable name.
	Name string `json:"name"`
	// Mailbox is the address the game is played through (Config.Address
	// when it was created).
	Mailbox string `json:"mailbox"`
	// Deadlines overrides the game's deadline for some kinds of wait.
	Deadlines map[adjudicator.WaitKind]time.Duration `json:"deadlines,omitempty"`
	// Settle is how long an orders file is held before it is applied
	// (zero: applied at once).
	Settle time.Duration `json:"settle,omitempty"`
	// Absence is the longest a player may move their deadlines.
	Absence time.Duration `json:"absence,omitempty"`
	// Reminded: the awaited player was reminded of the current deadline.
	Reminded bool `json:"reminded,omitempty"`
	// NoDefault: the deadline passed at a wait that has no default orders,
	// and the umpire was told.
	NoDefault bool `json:"no_default,omitempty"`
	// Late counts each side's missed deadlines.
	Late map[adjudicator.Side]int `json:"late,omitempty"`
	// Absent is until when each side is away.
	Absent map[adjudicator.Side]time.Time `json:"absent,omitempty"`
	// Held is the orders file waiting out the settle window.
	Held *held `json:"held,omitempty"`
	// Takeback is an open takeback request.
	Takeback *takeback `json:"takeback,omitempty"`
	// Remaining is, while the game is paused, the time that was left
	// before the deadline.
	Remaining time.Duration `json:"remaining,omitempty"`
	// Notices are what happened besides the rules since the last reports
	// (commands, missed deadlines), shown in the next ones to those who
	// may read them.
	Notices []notice `json:"notices,omitempty"`
	// Result says how the game ended.
	Result string `json:"result,omitempty"`
	// Bots are the sides the server's stand-in plays (standin.go).
	Bots []adjudicator.Side `json:"bots,omitempty"`
	// LateStandIn: when a deadline passes, the stand-in writes the
	// late side's orders instead of the default orders.
	LateStandIn bool `json:"late_stand_in,omitempty"`
}

// held is an orders file held for the settle window: already judged
// legal, in the ledger as "held", applied at Due unless a newer file
// from the same side replaces it.
type held struct {
	Side      adjudicator.Side `json:"side"`
	Raw       []byte           `json:"raw"` // token redacted
	MessageID string           `json:"message_id"`
	Content   string           `json:"content"` // the ledger's content hash
	Received  time.Time        `json:"received"`
	Due       time.Time        `json:"due"`
}

func (h *held) ref() store.MailRef {
	return store.MailRef{MessageID: h.MessageID, ContentHash: h.Content}
}

// takeback is a player's request to undo the last step.
type takeback struct {
	By adjudicator.Side `json:"by"`
	// Undo is the orders entry to undo; the request lapses when it is no
	// longer the last step in force.
	Undo    uint64    `json:"undo"`
	Expires time.Time `json:"expires"`
}

// GameName returns the longer name g was created with ("" when none, or
// when its record cannot be read).
func GameName(g store.Game) string {
	if r, err := loadRecord(g); err == nil {
		return r.Name
	}
	return ""
}

func loadRecord(g store.Game) (*record, error) {
	r := new(record)
	if len(g.Service) > 0 {
		if err := json.Unmarshal(g.Service, r); err != nil {
			return nil, fmt.Errorf("referee: game %s: the service record: %w", g.ID, err)
		}
	}
	if r.Late == nil {
		r.Late = map[adjudicator.Side]int{}
	}
	if r.Absent == nil {
		r.Absent = map[adjudicator.Side]time.Time{}
	}
	return r, nil
}

func (r *record) save(t *store.Txn) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	t.SetService(b)
	return nil
}

// notice adds a line to the next reports of every side.
func (r *record) notice(n templates.Notice) {
	r.Notices = append(r.Notices, notice{Text: n.Text()})
}

// allowance is the time a side has to answer a wait of kind k.
func (r *record) allowance(g *store.Game, k adjudicator.WaitKind) time.Duration {
	if d, ok := r.Deadlines[k]; ok && d > 0 {
		return d
	}
	if g.Options.Deadline > 0 {
		return g.Options.Deadline
	}
	return DefaultDeadline
}

// deadline is when the wait w, beginning at now, must be answered: the
// wait's allowance counted from now, or from the end of the awaited
// side's absence.
func (r *record) deadline(g *store.Game, w adjudicator.Wait, now time.Time) time.Time {
	if !w.Open() {
		return time.Time{}
	}
	from := now
	if until := r.Absent[w.Side]; until.After(from) {
		from = until
	}
	return from.Add(r.allowance(g, w.Kind)).UTC()
}

// reminder is how long before the deadline the awaited side is reminded.
func reminder(g *store.Game) time.Duration {
	if g.Options.Reminder > 0 {
		return g.Options.Reminder
	}
	return DefaultReminder
}

// sides are the players' sides, in the order reports are written.
var sides = []adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.Umpire}

// sideName is a side as a report names it.
func sideName(s adjudicator.Side) string {
	switch s {
	case adjudicator.US:
		return "U.S."
	case adjudicator.JP:
		return "Japanese"
	case adjudicator.Umpire:
		return "umpire"
	}
	return "server"
}

// sameAddress compares two mail addresses, display names aside, ignoring
// case.
func sameAddress(a, b string) bool {
	a, b = bareAddress(a), bareAddress(b)
	return a != "" && strings.EqualFold(a, b)
}

// bareAddress returns the address of "Name <addr>", or s trimmed.
func bareAddress(s string) string {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "<\"") {
		if a, err := netmail.ParseAddress(s); err == nil {
			return a.Address
		}
	}
	return s
}

// sidesOf returns the sides registered with address in g.
func sidesOf(g *store.Game, address string) []adjudicator.Side {
	var out []adjudicator.Side
	for _, side := range sides {
		if p, ok := g.Player(side); ok && sameAddress(p.Address, address) {
			out = append(out, side)
		}
	}
	return out
}

// mailbox is the address game g is played through: the service's, or
// the one recorded when the game was created (for the command line,
// which runs without the daemon's configuration).
func (s *Service) mailbox(g *store.Game) string {
	if a := bareAddress(s.cfg.Address); a != "" || g == nil {
		return a
	}
	var r struct {
		Mailbox string `json:"mailbox"`
	}
	json.Unmarshal(g.Service, &r)
	return r.Mailbox
}

// gameAddress is game g's own address (GameAddress).
func (s *Service) gameAddress(g *store.Game) string { return GameAddress(s.mailbox(g), g.ID) }

// GameAddress is the address of game id played through mailbox: the
// mailbox plus-addressed with the game's id, attu+ID@host, whatever tag
// the mailbox's address carried; empty when mailbox is no address.
func GameAddress(mailbox, id string) string {
	local, domain, ok := strings.Cut(mailbox, "@")
	if !ok {
		return ""
	}
	local, _, _ = strings.Cut(local, "+")
	return local + "+" + id + "@" + domain
}

// messageID returns a fresh Message-ID for a mail of the given kind about
// game g (nil for none).
func (s *Service) messageID(g *store.Game, kind string) string {
	var b [8]byte
	rand.Read(b[:])
	id, host := "x", "attu.invalid"
	if g != nil {
		id = g.ID
	}
	if _, d, ok := strings.Cut(s.mailbox(g), "@"); ok && d != "" {
		host = d
	}
	return fmt.Sprintf("<attu.%s.%s.%s@%s>", id, kind, hex.EncodeToString(b[:]), host)
}

// tag is the subject tag of a game.
func tag(id string) string { return "[attu " + id + "]" }

// newMail is a mail from game g to address.
func (s *Service) newMail(g *store.Game, kind, to, subject, text string) store.Mail {
	return store.Mail{MessageID: s.messageID(g, kind), From: s.gameAddress(g), To: []string{to},
		Subject: tag(g.ID) + " " + subject, Text: text}
}

// toSide is a mail from game g to a side's registered address; false when
// the side has no player.
func (s *Service) toSide(g *store.Game, side adjudicator.Side, kind, subject, text string) (store.Mail, bool) {
	p, ok := g.Player(side)
	if !ok || p.Address == "" {
		return store.Mail{}, false
	}
	return s.newMail(g, kind, p.Address, subject, text), true
}

// reply makes m an answer to the incoming message in.
func reply(m store.Mail, in *Message) store.Mail {
	if in == nil || in.MessageID == "" {
		return m
	}
	m.InReplyTo = in.MessageID
	if in.InReplyTo != "" {
		m.References = append(m.References, in.InReplyTo)
	}
	m.References = append(m.References, in.MessageID)
	return m
}

// refusedMail answers an authenticated player's file that is not
// applied, quoting the lines of the file at fault.
func (s *Service) refusedMail(g *store.Game, in *Message, ps []store.Problem) store.Mail {
	return bounded(reply(s.newMail(g, "refused", bareAddress(in.From), templates.RefusedSubject,
		refused(g.ID, in.Subject, templates.Notice{}, ps, in.Orders).Text()), in))
}

// refusedWhy answers an authenticated player's file that is not applied
// for a reason that lies at no line.
func (s *Service) refusedWhy(g *store.Game, in *Message, subject string, n templates.Notice) store.Mail {
	return bounded(reply(s.newMail(g, "refused", bareAddress(in.From), subject,
		refused(g.ID, in.Subject, n, nil, nil).Text()), in))
}

// heldMail tells a player their file waits for the settle window.
func (s *Service) heldMail(g *store.Game, in *Message, h templates.Held) store.Mail {
	return bounded(reply(s.newMail(g, "held", bareAddress(in.From), h.Subject(), h.Text()), in))
}

// answerMail answers in with a text of the given subject.
func (s *Service) answerMail(g *store.Game, in *Message, subject, text string) store.Mail {
	return bounded(reply(s.newMail(g, "answer", bareAddress(in.From), subject, text), in))
}

// bounded keeps a reply that is not a report within templates.MaxReply,
// its attachments and text together, whatever words of the sender's it
// repeats.
func bounded(m store.Mail) store.Mail {
	room := templates.MaxReply - len(m.Subject)
	for _, a := range m.Attachments {
		room -= len(a.Data) + len(a.Name) + len(a.Type)
	}
	m.Text = templates.Bounded(m.Text, max(room, 1024))
	return m
}
