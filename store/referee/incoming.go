package referee

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/attu-pbem/attu/orders"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// Message is an incoming mail as the service reads it: the mail package
// fills it from MIME, tests write it by hand.
type Message struct {
	From string // the envelope sender's address
	// To holds every recipient's address; a game's own (attu+GAME@host)
	// routes the mail to it, as does a tag in the Subject ([attu GAME]).
	To        []string
	Subject   string
	MessageID string
	InReplyTo string
	Orders    []byte // the orders file found in the mail (a .yaml attachment or YAML in the body), if any
	Text      string // the plain-text body, where commands and their token are read outside quoted lines
	// Automatic marks mail sent by a machine (RFC 3834), recorded and never
	// answered. Unauthenticated says why From is not believed to name the
	// author, which makes the message a stranger's whatever its token.
	// Skipped are the parts not read, named when nothing was found.
	Automatic       bool
	Unauthenticated string
	Skipped         []Skipped

	// over is set on a command carried out past its side's reply budget:
	// what goes instead of its answers (the note to slow down, or none).
	over *[]store.Mail
	// proven is set on a command that carries its side's token: its
	// answer may repeat the sender's words.
	proven bool
}

// answers are the mails that answer in: ms, or what goes instead past the
// side's budget. A nil in (the command line) takes ms.
func (in *Message) answers(ms ...store.Mail) []store.Mail {
	if in == nil || in.over == nil {
		return ms
	}
	return *in.over
}

// Skipped is a part of a mail that was not read: one attu cannot decode,
// or one that holds no orders file (a zip, an encrypted file, a document).
type Skipped struct {
	Part      string // its number, "2" or "1.2"
	Type      string // its media type
	Name      string // its file name, when it has one
	Undecoded bool   // it could not be decoded; otherwise it was set aside
}

// ref is the message's key in the ledger: its Message-ID and the hash of
// what it asks (the orders file, or the subject and body). A message
// without a Message-ID is known by that hash alone.
func (m *Message) ref() store.MailRef {
	content := m.Orders
	if content == nil {
		content = []byte(m.Subject + "\n" + m.Text)
	}
	id := strings.TrimSpace(m.MessageID)
	if id == "" {
		sum := sha256.Sum256(content)
		id = "<" + hex.EncodeToString(sum[:16]) + "@no-message-id.attu>"
	}
	return store.NewMailRef(id, content)
}

// Handle is the one entry point for an incoming message: it routes,
// authenticates, judges and, in one transaction, records the message in the
// ledger and applies it with everything it sends (see the package
// documentation). A message already in the ledger is ignored, so handing it
// over again after a crash does nothing. The error is for the operator's
// log only: the message was not recorded and may be handed over again.
func (s *Service) Handle(m *Message, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
	ref := m.ref()
	lg := s.log.With("message_id", ref.MessageID)
	err := s.handle(m, ref, now.UTC())
	if errors.Is(err, store.ErrProcessed) {
		lg.Info("already processed")
		return nil
	}
	if err != nil {
		lg.Error("handling a message", "err", err)
	}
	return err
}

func (s *Service) handle(m *Message, ref store.MailRef, now time.Time) error {
	if _, done, err := s.db.Processed(ref); err != nil {
		return err
	} else if done {
		return store.ErrProcessed
	}
	if s.own(m.From) || m.Automatic || bareAddress(m.From) == "" {
		// Never answer our own mail, or a machine's: a loop.
		_, err := s.db.Refuse(ref, "", "ignored: automatic mail", nil)
		return err
	}
	if m.Unauthenticated != "" {
		return s.stranger(ref, m, now, "sender not authenticated")
	}
	id, err := s.gameOf(m)
	if err != nil {
		return err
	}
	if id == "" {
		return s.stranger(ref, m, now, "no game named")
	}
	g, err := s.db.Game(id)
	if errors.Is(err, store.ErrNoGame) {
		return s.stranger(ref, m, now, "no such game")
	}
	if err != nil {
		return err
	}
	if len(sidesOf(g, m.From)) == 0 {
		return s.stranger(ref, m, now, "sender plays no side")
	}
	if _, err := s.SystemOf(g); err != nil {
		// Never played by another system's rules: the players are told,
		// within the quotas of answers to their address, and the game
		// is left as it is.
		s.log.Warn("mail for a game of a system not hosted", "game", g.ID, "system", g.SystemName(), "err", err)
		a := s.refusedWhy(g, m, templates.RefusedSubject, templates.Notice{Kind: "why-unhosted", Note: g.SystemName()})
		return s.unproven(g, ref, m, "refused: the rules of "+g.SystemName()+" are not hosted", a)
	}
	if m.Orders != nil {
		return s.ordersMail(g, ref, m, now)
	}
	return s.commandMail(g, ref, m, now)
}

// gameOf returns the game m is for (route) or, for a command to the
// bare address from someone who plays exactly one game that is not over,
// that game; "" when none.
func (s *Service) gameOf(m *Message) (string, error) {
	if id := s.route(m); id != "" || m.Orders != nil {
		return id, nil
	}
	return s.onlyGameOf(m.From)
}

// onlyGameOf returns the game that address plays in, when it plays in
// exactly one that is not over; "" otherwise.
func (s *Service) onlyGameOf(address string) (string, error) {
	ids, err := s.db.Games()
	if err != nil {
		return "", err
	}
	found := ""
	for _, id := range ids {
		g, err := s.db.Game(id)
		if err != nil || g.Status == store.Ended || len(sidesOf(g, address)) == 0 {
			continue // a game that cannot be read is the operator's to mend, not this mail's
		}
		if found != "" {
			return "", nil
		}
		found = id
	}
	return found, nil
}

// own reports whether address is the service's own, with or without a
// game's tag.
func (s *Service) own(address string) bool {
	mine := bareAddress(s.cfg.Address)
	bare, _, ok := splitPlus(address)
	return ok && mail.SameAddress(bare, mine)
}

// splitPlus splits an address into the address without its +tag, and
// the tag.
func splitPlus(address string) (bare, tag string, ok bool) {
	local, domain, ok := strings.Cut(bareAddress(address), "@")
	if !ok {
		return "", "", false
	}
	base, tag, _ := strings.Cut(local, "+")
	return base + "@" + domain, tag, true
}

// subjectTag is the mail package's game tag (mail.GameIDPattern), which
// commands set aside from a subject.
var subjectTag = regexp.MustCompile(`(?i)\[attu\s+(` + mail.GameIDPattern + `)\]`)

// route returns the game a message is for: the tag of a recipient's
// plus-address, the subject's tag, or the orders file's game.
func (s *Service) route(m *Message) string {
	mine := bareAddress(s.cfg.Address)
	for _, to := range m.To {
		bare, id, ok := splitPlus(to)
		if !ok || mine != "" && !mail.SameAddress(bare, mine) {
			continue
		}
		if id = strings.ToLower(id); mail.ValidGameID(id) {
			return id
		}
	}
	if id, ok := mail.GameFromSubject(m.Subject); ok {
		return id
	}
	if m.Orders != nil {
		if env, ok := orders.ReadEnvelope(m.Orders); ok && mail.ValidGameID(env.Game) {
			return env.Game
		}
	}
	return ""
}

// stranger answers a message that names no game its sender plays in with
// the generic answer, within Config.AnswerEvery and Config.Strangers,
// else silence; either way the message goes into the ledger.
func (s *Service) stranger(ref store.MailRef, m *Message, now time.Time, why string) error {
	key := bareAddress(m.From)
	answer := key != "" && s.answers.Allow(key, now) && s.strangers.Allow("", now)
	var out []store.Mail
	if answer {
		out = append(out, s.genericMail(m))
	}
	if _, err := s.db.Refuse(ref, "", "refused: "+why, out); err != nil {
		return err
	}
	s.log.Info("refused a message", "message_id", ref.MessageID, "why", why, "answered", answer)
	return nil
}

// unauthenticated answers a mail from a registered address of game g
// that does not authenticate, saying which check failed and where the
// token is, within the quotas on unproven answers (budget), at the
// registered address only, so a forger learns nothing. A file that names
// no player's side gets the generic answer.
func (s *Service) unauthenticated(g *store.Game, ref store.MailRef, m *Message, why string) error {
	var out []store.Mail
	if r, ok := s.tokenProblem(g, m); ok {
		out = append(out, s.answerMail(g, m, "refused", r.Subject(), r.Text()))
	} else {
		out = append(out, s.genericMail(m))
	}
	return s.unproven(g, ref, m, "refused: "+why, out...)
}

// emptyToken is a token line with nothing on it.
var emptyToken = regexp.MustCompile(`(?im)^[ \t-]*\{?[ \t]*token[ \t]*:[ \t]*(#.*)?$`)

// tokenProblem says why m, from a registered address of g, does not
// authenticate; false when its orders file names no player's side.
func (s *Service) tokenProblem(g *store.Game, m *Message) (templates.TokenRefused, bool) {
	r := templates.TokenRefused{Game: g.ID, About: m.Subject, Sides: sidesOf(g, m.From), Mail: m.Orders == nil}
	mine := r.Sides
	var token string
	text := m.Text
	if m.Orders != nil {
		env, _ := orders.ReadEnvelope(m.Orders)
		side, err := adjudicator.ParseSide(env.Side)
		if err != nil || (side != adjudicator.US && side != adjudicator.JP) {
			return r, false
		}
		if !registered(g, side, m.From) {
			r.Problem, r.FileSide = templates.TokenOtherFile, side
			return r, true
		}
		token, text, mine = env.Token, string(m.Orders), []adjudicator.Side{side}
	} else {
		var name string
		name, _, token = parseCommand(m.Subject, m.Text)
		if lookupCommand(name) != nil {
			r.Command = name // a word of attu's, not the sender's
		}
	}
	switch {
	case token == "" && emptyToken.MatchString(text):
		r.Problem = templates.TokenEmpty
	case token == "":
		r.Problem = templates.TokenMissing
	case strings.Contains(token, "PASTE-YOUR-TOKEN"):
		r.Problem = templates.TokenUnfilled
	default:
		r.Problem = templates.TokenWrong
		for _, side := range sides {
			if !slices.Contains(mine, side) && g.CheckToken(side, token) {
				r.Problem, r.Other = templates.TokenOtherSide, side
			}
		}
	}
	return r, true
}

// unreadableMail answers a file from a registered address of g that is
// not even YAML, so that its token cannot be read: it says where the
// first mistake is, quoting neither the file's lines nor the parser's
// words about them (which repeat the file), and only a few words of the
// subject, since anybody may have sent it.
func (s *Service) unreadableMail(g *store.Game, m *Message, ps []store.Problem) store.Mail {
	n := templates.Notice{Kind: "why-not-yaml"}
	if len(ps) > 0 && ps[0].Line > 0 {
		n.Note = fmt.Sprintf("line %d, column %d", ps[0].Line, max(ps[0].Col, 1))
	}
	return s.answerMail(g, m, "refused", templates.RefusedSubject, refused(g.ID, templates.Glimpse(m.Subject), n, nil, nil).Text())
}

// genericMail is the answer that tells nothing: the same for every reason.
func (s *Service) genericMail(m *Message) store.Mail {
	g := templates.Generic{Example: GameAddress(s.cfg.Address, "GAME")}
	return bounded(reply(store.Mail{MessageID: s.messageID(nil, "refused"), From: bareAddress(s.cfg.Address),
		To: []string{bareAddress(m.From)}, Subject: g.Subject(), Text: g.Text(), Class: store.ClassAnswer}, m))
}

// answer records a message from an authenticated player that changes no
// game and queues its answers, within the reply budget (budget).
func (s *Service) answer(g *store.Game, ref store.MailRef, outcome string, mails ...store.Mail) error {
	return s.answerWithin(g, ref, true, outcome, mails)
}

// unproven records a message from a player's address of g that does not
// carry the side's token, and that changes nothing, and queues its
// answers within the quotas on such answers (budget); past them, none.
func (s *Service) unproven(g *store.Game, ref store.MailRef, m *Message, outcome string, mails ...store.Mail) error {
	err := s.answerWithin(g, ref, false, outcome, mails)
	s.log.Info("refused a message", "message_id", ref.MessageID, "game", g.ID, "why", outcome)
	return err
}

func (s *Service) answerWithin(g *store.Game, ref store.MailRef, proven bool, outcome string, mails []store.Mail) error {
	if len(mails) > 0 && len(mails[0].To) > 0 {
		ok, note, err := s.budget(s.db.Spend, g, mails[0].To[0], proven)
		if err != nil {
			return err
		}
		if !ok {
			outcome += " (not answered: too many mails)"
			mails = note
		}
	}
	_, err := s.db.Refuse(ref, g.ID, outcome, mails)
	return err
}

// Windows of the quotas on the answers to players' addresses (Config).
const (
	answersWindow    = 24 * time.Hour
	allAnswersWindow = time.Hour
	repliesWindow    = time.Hour
)

// budget counts one answer to address, a player of g, to a mail that
// carries the side's token when proven, with spend (store.DB.Spend, or
// store.Txn.Spend inside a transaction). A proven mail is answered within
// Config.Replies an hour, and past it gets the note to slow down once an
// hour. Any other is answered within Config.Answers a day for the game
// and address, and Config.AllAnswers an hour for all together, and past
// either gets nothing. It reports whether the answer may go, and if not
// what goes instead.
func (s *Service) budget(spend func(...store.Quota) (bool, error), g *store.Game, address string, proven bool) (bool, []store.Mail, error) {
	to := bareAddress(address)
	key := g.ID + " " + mail.AddressKey(to)
	qs := append(s.unprovenQuota(g.ID, to), s.allUnproven())
	if proven {
		qs = []store.Quota{{Key: "replies " + key, Limit: s.cfg.Replies, Window: repliesWindow}}
	}
	if ok, err := spend(qs...); ok || err != nil {
		return ok, nil, err
	}
	s.log.Info("reply budget spent", "game", g.ID, "token", proven)
	if !proven {
		return false, nil, nil
	}
	if ok, err := spend(store.Quota{Key: "slowed " + key, Limit: 1, Window: repliesWindow}); !ok || err != nil {
		return false, nil, err
	}
	n := templates.SlowDown{Game: g.ID, Limit: s.cfg.Replies, Window: "an hour"}
	m := s.newMail(g, "slowdown", to, n.Subject(), n.Text())
	m.Class = store.ClassAnswer
	return false, []store.Mail{m}, nil
}

// unprovenQuota is the quota on the answers to address, a player of game
// id, to mail without the side's token (Config.Answers).
func (s *Service) unprovenQuota(id, address string) []store.Quota {
	return []store.Quota{{Key: "unproven " + id + " " + mail.AddressKey(bareAddress(address)), Limit: s.cfg.Answers, Window: answersWindow}}
}

// allUnproven is the quota on those answers to all players together
// (Config.AllAnswers).
func (s *Service) allUnproven() store.Quota {
	return store.Quota{Key: "unproven", Limit: s.cfg.AllAnswers, Window: allAnswersWindow}
}

// PlayerAnswer counts one answer the mail daemon gives itself, to a mail
// the service never reads (too large, HTML only), when address plays a
// side of a game that is not over: such a mail proves no token either, so
// the answer is held to the quotas of every answer to a player's address
// without it (budget), in each game the address plays. It reports whether
// the address plays one, and if so whether the answer may go; a stranger's
// is the daemon's to limit.
func (s *Service) PlayerAnswer(address string) (player, ok bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids, err := s.db.Games()
	if err != nil {
		return false, false, err
	}
	var qs []store.Quota
	for _, id := range ids {
		g, err := s.db.Game(id)
		if err != nil || g.Status == store.Ended || len(sidesOf(g, address)) == 0 {
			continue // a game that cannot be read is the operator's to mend
		}
		qs = append(qs, s.unprovenQuota(id, address)...)
	}
	if len(qs) == 0 {
		return false, false, nil
	}
	ok, err = s.db.Spend(append(qs, s.allUnproven())...)
	return true, ok, err
}

// SetAside tells the umpire of the game a mail given up on was for (as
// Handle would have found it from its sender and subject) that the
// mail was set aside after tries attempts, when the sender plays a side
// there: that player may be waiting for an answer. A mail that names no
// game, or comes from an address that plays none, is the operator's
// alone (attu status lists it), so that a stranger's mail sends nothing.
func (s *Service) SetAside(f store.FailedMail, tries int, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
	id, err := s.gameOf(&Message{From: f.From, Subject: f.Subject})
	if err != nil || id == "" {
		return err
	}
	_, err = s.transact(id, nil, func(t *store.Txn) error {
		g := t.Game()
		sides := sidesOf(&g, f.From)
		if len(sides) == 0 || sides[0] == adjudicator.Umpire {
			return nil
		}
		note := fmt.Sprintf("subject %q", f.Subject)
		if f.MessageID != "" {
			note += ", Message-ID " + f.MessageID
		}
		n := templates.Notice{Kind: "mail-set-aside", Side: sides[0], Missed: tries, Note: note}
		s.notify(t, &g, adjudicator.Umpire, templates.PlayerNotice{Game: g.ID, Reader: adjudicator.Umpire, Notice: n})
		return nil
	})
	if errors.Is(err, store.ErrNoGame) {
		return nil
	}
	return err
}
