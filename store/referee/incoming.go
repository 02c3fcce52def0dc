package referee

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// Message is an incoming mail as the service reads it, whatever carried
// it: the mail package fills it from MIME, tests write it by
// hand.
type Message struct {
	// From is the envelope sender's address.
	From string
	// To holds every recipient's address; a game's own address
	// (attu+GAME@host) routes the mail to it.
	To []string
	// Subject may carry a game's tag ([attu GAME]) and a command word.
	Subject   string
	MessageID string
	InReplyTo string
	// Orders is the orders file found in the mail (a .yaml attachment or
	// YAML in the plain-text body), nil when there is none.
	Orders []byte
	// Text is the plain-text body, where commands and their token are
	// read; lines quoted with ">" are ignored.
	Text string
	// Automatic marks mail sent by a machine (RFC 3834: Auto-Submitted,
	// Precedence: bulk, a null return path), which is recorded and never
	// answered.
	Automatic bool
	// Unauthenticated says why From is not believed to name the author
	// (several authors, or a required check failed); empty when it is.
	// Such a message is a stranger's, whatever its From and token.
	Unauthenticated string
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

// Handle is the one entry point for an incoming message. It routes the
// message to its game (the game's address among the recipients, the tag
// in the subject, or the game named in the orders file), authenticates
// its sender and token, judges it and, in one transaction, records it in
// the ledger and applies it with everything it sends. A message already
// in the ledger (by Message-ID, or Message-ID and content) is ignored, so
// handing the same message over again after a crash does nothing.
//
// A message that names no game its sender plays in gets one generic
// answer, at most once per Config.AnswerEvery for each sender; a sender
// who plays in the game but whose token or side does not match gets the
// same answer. Neither says anything about the game, not even whether it
// exists.
//
// The error is for the operator's log only: the message was not recorded
// and may be handed over again. Nothing needs to be remembered otherwise.
func (s *Service) Handle(m *Message, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
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
	id := s.route(m)
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
	if m.Orders != nil {
		return s.ordersMail(g, ref, m, now)
	}
	return s.commandMail(g, ref, m, now)
}

// own reports whether address is the service's own, with or without a
// game's tag.
func (s *Service) own(address string) bool {
	mine := bareAddress(s.cfg.Address)
	if mine == "" {
		return false
	}
	local, domain, ok := strings.Cut(bareAddress(address), "@")
	if !ok {
		return false
	}
	base, _, _ := strings.Cut(local, "+")
	return strings.EqualFold(base+"@"+domain, mine)
}

// The syntax of game ids is the mail package's (mail.GameIDPattern), so
// that the service and the mail package route mail alike.
var (
	gameID     = regexp.MustCompile(`^` + mail.GameIDPattern + `$`)
	subjectTag = regexp.MustCompile(`(?i)\[attu\s+(` + mail.GameIDPattern + `)\]`)
)

// route returns the game a message is for: the tag of a recipient's
// plus-address, the subject's tag, or the orders file's game.
func (s *Service) route(m *Message) string {
	mine := bareAddress(s.cfg.Address)
	mineLocal, mineDomain, _ := strings.Cut(mine, "@")
	for _, to := range m.To {
		local, domain, ok := strings.Cut(bareAddress(to), "@")
		if !ok {
			continue
		}
		base, id, plus := strings.Cut(local, "+")
		if !plus || mine != "" && !(strings.EqualFold(base, mineLocal) && strings.EqualFold(domain, mineDomain)) {
			continue
		}
		if id = strings.ToLower(id); gameID.MatchString(id) {
			return id
		}
	}
	if sm := subjectTag.FindStringSubmatch(m.Subject); sm != nil {
		return strings.ToLower(sm[1])
	}
	if m.Orders != nil {
		if env, ok := envelopeOf(m.Orders); ok && gameID.MatchString(env.game) {
			return env.game
		}
	}
	return ""
}

// stranger answers a message that names no game its sender plays in: the
// generic answer, at most once per AnswerEvery for each sender, else
// silence. Either way the message goes into the ledger.
func (s *Service) stranger(ref store.MailRef, m *Message, now time.Time, why string) error {
	key := bareAddress(m.From)
	answer := key != "" && s.answers.Allow(key, now)
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

// unauthenticated answers a player of game g whose message does not
// authenticate (no token, another side's, another address): the same
// generic answer a stranger gets.
func (s *Service) unauthenticated(g *store.Game, ref store.MailRef, m *Message, why string) error {
	_, err := s.db.Refuse(ref, g.ID, "refused: "+why, []store.Mail{s.genericMail(m)})
	s.log.Info("refused a message", "message_id", ref.MessageID, "game", g.ID, "why", why)
	return err
}

// genericMail is the answer that tells nothing: the same for every reason.
func (s *Service) genericMail(m *Message) store.Mail {
	var g templates.Generic
	return reply(store.Mail{MessageID: s.messageID(nil, "refused"), From: bareAddress(s.cfg.Address),
		To: []string{bareAddress(m.From)}, Subject: g.Subject(), Text: g.Text()}, m)
}

// answer records a message from an authenticated player that changes no
// game and queues the answers to it.
func (s *Service) answer(g *store.Game, ref store.MailRef, outcome string, mails ...store.Mail) error {
	_, err := s.db.Refuse(ref, g.ID, outcome, mails)
	return err
}
