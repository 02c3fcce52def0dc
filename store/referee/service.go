package referee

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// Defaults of a game's timing (NewGame) and of the service's limits
// (Config), used where they are zero.
const (
	DefaultDeadline    = 72 * time.Hour
	DefaultReminder    = 24 * time.Hour
	DefaultAbsence     = 14 * 24 * time.Hour
	DefaultTakeback    = 24 * time.Hour
	DefaultAnswerEvery = time.Hour
	DefaultStrangers   = 20
	DefaultAnswers     = 5
	DefaultAllAnswers  = 30
	DefaultReplies     = 30
)

// Config is what the service needs besides the database.
type Config struct {
	// Address is the mailbox every game is played through, like
	// attu@example.org; game G is addressed as attu+G@example.org.
	// Mails from it are never answered.
	Address string
	Logger  *slog.Logger // receives the service's log (never a token); nil discards it
	// System is the game system the service creates new games by when
	// NewGame names none (cmd/attu passes War in the Wind's,
	// templates/wind.Rules); New panics without one. Others are the other
	// systems it hosts: each stored game is played by the system its
	// record names (store.Game.SystemName), and a game of a system the
	// service hosts none of is never played (ErrUnhosted).
	System System
	Others []System
	// AnswerEvery limits the generic answer to mail that names no game
	// the sender plays in to one per sender in this period, Strangers to
	// so many an hour for all strangers together, so that mail from ever
	// new addresses cannot make the service a source of backscatter.
	AnswerEvery time.Duration
	Strangers   int
	// Answers caps the answers to mail from a player's address that
	// does not carry the side's token (a command anybody may give, the
	// refusal of a missing or wrong token) at so many in any 24 hours for
	// each game and address, AllAnswers at so many in any hour for every
	// game and address together: whoever forges a player's From draws
	// little from attu. Past either such mail gets no answer. Replies
	// caps the answers to mail that carries the token at so many in any
	// hour for each game and address; past it the player gets one note to
	// slow down, and the commands are still carried out, unanswered. All
	// three are counted in the database (store.Quota): a restart resets
	// none.
	Answers    int
	AllAnswers int
	Replies    int
	Takeback   time.Duration // how long a takeback request waits for the opponent's "agree"
	DB         string        // the database file the final report's commands name; empty: attu.db
	Hook       Hook          // when set, follows the games (see Hook)
}

// Service is the game service (see the package documentation). Everything
// it does to a game is one store transaction with the mails it sends. It
// is safe for concurrent use.
type Service struct {
	db      *store.DB
	cfg     Config
	sys     System            // the default for new games
	systems map[string]System // every system hosted, by name
	log     *slog.Logger

	mu sync.Mutex
	// The limits of Config on the answers to strangers, kept in memory
	// (a stranger's address is anybody's, and a restart costs at most
	// one more hour's worth); those on the answers to players' addresses
	// are quotas of the database (budget).
	answers, strangers *mail.Limiter
	now                time.Time // the time of the mail Handle is handling
}

// New returns the service of the games in db.
func New(db *store.DB, cfg Config) *Service {
	cfg.AnswerEvery = cmp.Or(cfg.AnswerEvery, DefaultAnswerEvery)
	cfg.Takeback = cmp.Or(cfg.Takeback, DefaultTakeback)
	cfg.DB = cmp.Or(cfg.DB, "attu.db")
	lg := cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler))
	if cfg.Strangers <= 0 {
		cfg.Strangers = DefaultStrangers
	}
	if cfg.Answers <= 0 {
		cfg.Answers = DefaultAnswers
	}
	if cfg.AllAnswers <= 0 {
		cfg.AllAnswers = DefaultAllAnswers
	}
	if cfg.Replies <= 0 {
		cfg.Replies = DefaultReplies
	}
	if cfg.System == nil {
		panic("referee: a service needs its game system (Config.System)")
	}
	systems := map[string]System{}
	for _, sys := range append([]System{cfg.System}, cfg.Others...) {
		if _, dup := systems[sys.System()]; dup || sys.System() == "" {
			panic(fmt.Sprintf("referee: system %q hosted twice or unnamed", sys.System()))
		}
		systems[sys.System()] = sys
	}
	return &Service{db: db, cfg: cfg, sys: cfg.System, systems: systems, log: lg.With("pkg", "referee"),
		answers: mail.NewLimiter(1, cfg.AnswerEvery), strangers: mail.NewLimiter(cfg.Strangers, time.Hour)}
}

// DB returns the service's database.
func (s *Service) DB() *store.DB { return s.db }

// record is the service's own record of a game, kept in store.Game.Service
// and written in the same transactions as the game.
type record struct {
	// botting and accepted are the state of one transaction, never
	// stored, passed down with the record: the stand-in is playing its
	// steps (botPlays), and the acceptance of the player's file is held
	// meanwhile (step).
	botting  bool
	accepted *pendingAccept

	// Name, Deadlines, Settle, Absence and LateStandIn are NewGame's.
	Name string `json:"name"`
	// Mailbox is the address the game is played through (Config.Address
	// when it was created).
	Mailbox   string                                 `json:"mailbox"`
	Deadlines map[adjudicator.WaitKind]time.Duration `json:"deadlines,omitempty"`
	Settle    time.Duration                          `json:"settle,omitempty"`
	Absence   time.Duration                          `json:"absence,omitempty"`
	Reminded  bool                                   `json:"reminded,omitempty"`   // of the current deadline
	NoDefault bool                                   `json:"no_default,omitempty"` // the umpire was told of a deadline without default orders
	Late      map[adjudicator.Side]int               `json:"late,omitempty"`       // missed deadlines
	Absent    map[adjudicator.Side]time.Time         `json:"absent,omitempty"`     // away until
	Held      *held                                  `json:"held,omitempty"`       // the file waiting out the settle window
	Takeback  *takeback                              `json:"takeback,omitempty"`   // an open request
	Remaining time.Duration                          `json:"remaining,omitempty"`  // left before the deadline, while paused
	// Notices are what happened besides the rules since the last reports
	// (commands, missed deadlines), shown in the next ones to those who
	// may read them.
	Notices     []notice           `json:"notices,omitempty"`
	Result      string             `json:"result,omitempty"` // how the game ended
	Bots        []adjudicator.Side `json:"bots,omitempty"`   // the sides the stand-in plays (standin.go)
	LateStandIn bool               `json:"late_stand_in,omitempty"`
	// What each side was mailed (economy.go): the entry its last report
	// showed, what its last picture showed, the notices it has not read
	// yet, whether it asked for report.json; the umpire's mail mode, and
	// the turn of its last report and the time of its last digest.
	Reported map[adjudicator.Side]uint64   `json:"reported,omitempty"`
	Pictured map[adjudicator.Side]string   `json:"pictured,omitempty"`
	Unread   map[adjudicator.Side][]string `json:"unread,omitempty"`
	JSON     map[adjudicator.Side]bool     `json:"json,omitempty"`
	// NoSheet are the players who asked for no order sheet ("sheet off"
	// or attu new's option); absent, as in records written before it, is
	// a sheet with every report that asks for orders.
	NoSheet    map[adjudicator.Side]bool `json:"no_sheet,omitempty"`
	Copies     string                    `json:"copies,omitempty"`
	UmpireTurn int                       `json:"umpire_turn,omitempty"`
	DigestAt   time.Time                 `json:"digest_at,omitempty"`
}

// held is an orders file judged legal and held for the settle window,
// applied at Due unless a newer file from the same side replaces it.
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
	By      adjudicator.Side `json:"by"`
	Undo    uint64           `json:"undo"` // the orders entry to undo, while it is the last step in force
	Expires time.Time        `json:"expires"`
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

// SideName is a side as a report names it: "U.S.", "Japanese", "umpire".
func SideName(s adjudicator.Side) string {
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

// sameAddress compares two mail addresses, display names aside, as
// mail.SameAddress does.
func sameAddress(a, b string) bool {
	return mail.SameAddress(bareAddress(a), bareAddress(b))
}

// bareAddress returns the address of "Name <addr>", or s trimmed.
func bareAddress(s string) string {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "<\"(") {
		if a, err := mail.ParseMailbox(s); err == nil {
			return a
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
	if r, err := loadRecord(*g); err == nil {
		return r.Mailbox
	}
	return ""
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

// words are a mail's subject and text: templates.PlayerNotice, UmpireNotice...
type words interface {
	Subject() string
	Text() string
}

// notify queues a notice from game g to side's player, when the side has
// one.
func (s *Service) notify(t *store.Txn, g *store.Game, side adjudicator.Side, n words) {
	if m, ok := s.toSide(g, side, "notice", n.Subject(), n.Text()); ok {
		t.Queue(m)
	}
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
	return s.answerMail(g, in, "refused", templates.RefusedSubject, refused(g.ID, in.Subject, templates.Notice{}, ps, in.Orders).Text())
}

// refusedWhy answers an authenticated player's file that is not applied
// for a reason that lies at no line.
func (s *Service) refusedWhy(g *store.Game, in *Message, subject string, n templates.Notice) store.Mail {
	return s.answerMail(g, in, "refused", subject, refused(g.ID, in.Subject, n, nil, nil).Text())
}

// answerMail answers in with a mail of the given kind, within
// templates.MaxReply. Such an answer goes after the reports when the
// sending quota holds mail back (store.ClassAnswer), but for the word
// that held orders were received, which acknowledges them as an
// acceptance does.
func (s *Service) answerMail(g *store.Game, in *Message, kind, subject, text string) store.Mail {
	m := s.newMail(g, kind, bareAddress(in.From), subject, text)
	if kind != "held" {
		m.Class = store.ClassAnswer
	}
	return bounded(reply(m, in))
}

// bounded keeps a reply that is not a report within templates.MaxReply, its
// attachments and text together, whatever words of the sender's it repeats.
func bounded(m store.Mail) store.Mail {
	room := templates.MaxReply - len(m.Subject)
	for _, a := range m.Attachments {
		room -= len(a.Data) + len(a.Name) + len(a.Type)
	}
	m.Text = templates.Bounded(m.Text, max(room, 1024))
	return m
}
