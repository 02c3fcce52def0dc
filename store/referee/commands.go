package referee

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// The commands players and the umpire send by mail (DESIGN 6), and the
// umpire's from the command line (attu umpire). A command is a word in the
// subject or on the first line of the body, with its arguments after it;
// those that change the game need the sender's token on a line of its
// own ("token: ..."), outside quoted text. Every command that changes the
// game is recorded in the log (a note, a rollback or the end) and shown
// in the next reports; the others are recorded in the ledger only.

// who may give a command.
type who int

const (
	anyone who = iota
	players
	umpireOnly
)

// command is one command.
type command struct {
	name, usage, what string
	// token: the command changes the game, so the mail must carry the
	// sender's token.
	token bool
	who   who
	// over: the command still works once the game has ended.
	over bool
	run  func(c *call) error
}

// call is one command being carried out, inside its transaction.
type call struct {
	s    *Service
	t    *store.Txn
	g    store.Game
	rec  *record
	side adjudicator.Side
	args []string
	in   *Message // nil from the command line
	now  time.Time
	// answer is what the asker is told; empty for none.
	answer string
}

// refusal is a command that cannot be carried out, for the asker.
type refusal struct{ msg string }

func (r *refusal) Error() string { return r.msg }

func refuse(format string, args ...any) error { return &refusal{fmt.Sprintf(format, args...)} }

var commands []*command

func init() {
	commands = []*command{
		{name: "help", usage: "help", what: "this list", over: true, run: cmdHelp},
		{name: "status", usage: "status", what: "what the game waits for, the deadline, lateness", over: true, run: cmdStatus},
		{name: "resend", usage: "resend", what: "your last report again", over: true, run: cmdResend},
		{name: "template", usage: "template", what: "a fresh order template, when the game waits for you", run: cmdTemplate},
		{name: "log", usage: "log", what: "the record of the game as you may see it", over: true, run: cmdLog},
		{name: "concede", usage: "concede *", what: "give up the game", token: true, who: players, run: cmdConcede},
		{name: "absent", usage: "absent UNTIL *", what: "move your deadlines to count from UNTIL (2006-01-02, 2006-01-02T15:04, or 3d)", token: true, who: players, run: cmdAbsent},
		{name: "takeback", usage: "takeback *", what: "ask to undo the last step; the opponent answers agree", token: true, who: players, run: cmdTakeback},
		{name: "agree", usage: "agree *", what: "agree to the opponent's takeback", token: true, who: players, run: cmdAgree},
		{name: "go", usage: "go *", what: "apply your held orders now (settle window)", token: true, who: players, run: cmdGo},
		{name: "extend", usage: "extend DURATION *", what: "move the deadline later (48h, 2d)", token: true, who: umpireOnly, run: cmdExtend},
		{name: "pause", usage: "pause *", what: "stop the clock; no orders are taken", token: true, who: umpireOnly, run: cmdPause},
		{name: "resume", usage: "resume *", what: "restart the clock with the time that was left (at least an hour)", token: true, who: umpireOnly, run: cmdResume},
		{name: "force", usage: "force *", what: "apply the default orders of the current wait now", token: true, who: umpireOnly, run: cmdForce},
		{name: "rollback", usage: "rollback N *", what: "return the game to the position after log entry N", token: true, who: umpireOnly, run: cmdRollback},
		{name: "replace", usage: "replace SIDE ADDRESS *", what: "give a side to a new player, with a new token", token: true, who: umpireOnly, run: cmdReplace},
		{name: "end", usage: "end RESULT *", what: "end the game with the result in words", token: true, who: umpireOnly, run: cmdEnd},
		{name: "standings", usage: "standings", what: "the tournament's standings, when the game is part of one", over: true, run: cmdStandings},
		{name: "reveal", usage: "reveal *", what: "the seed, once the game is over", token: true, who: umpireOnly, over: true, run: cmdReveal},
	}
}

func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// helpFor lists the commands side may give.
func helpFor(side adjudicator.Side) []commandHelp {
	var out []commandHelp
	for _, c := range commands {
		if c.who == umpireOnly && side != adjudicator.Umpire || c.who == players && side == adjudicator.Umpire {
			continue
		}
		out = append(out, commandHelp{c.usage, c.what})
	}
	return out
}

var (
	replyPrefix = regexp.MustCompile(`(?i)^\s*((re|fwd?|aw|sv|wg)\s*:\s*)+`)
	tokenLine   = regexp.MustCompile(`(?i)^\s*token\s*:\s*(\S+)\s*$`)
)

// parseCommand finds the command of a message: the first word of the
// subject (reply prefixes and the game's tag set aside) when it names a
// command, else the first line of the body outside quoted text; and the
// token, on a line "token: ..." of the body outside quoted text.
func parseCommand(subject, text string) (name string, args []string, token string) {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(l)
		if t == "--" || strings.HasPrefix(l, "-- ") {
			break // a signature follows
		}
		if t == "" || strings.HasPrefix(t, ">") {
			continue
		}
		if m := tokenLine.FindStringSubmatch(t); m != nil {
			if token == "" {
				token = m[1]
			}
			continue
		}
		lines = append(lines, t)
	}
	subject = subjectTag.ReplaceAllString(replyPrefix.ReplaceAllString(subject, ""), " ")
	if f := strings.Fields(subject); len(f) > 0 && lookupCommand(strings.ToLower(f[0])) != nil {
		return strings.ToLower(f[0]), f[1:], token
	}
	if len(lines) > 0 {
		f := strings.Fields(lines[0])
		return strings.ToLower(f[0]), f[1:], token
	}
	return "", nil, token
}

// commandMail handles a message without orders from a player of g.
func (s *Service) commandMail(g *store.Game, ref store.MailRef, m *Message, now time.Time) error {
	name, args, token := parseCommand(m.Subject, m.Text)
	cands := sidesOf(g, m.From)
	side := cands[0]
	if token != "" {
		side = adjudicator.NoSide
		for _, c := range cands {
			if g.CheckToken(c, token) {
				side = c
				break
			}
		}
		if side == adjudicator.NoSide {
			return s.unauthenticated(g, ref, m, "wrong token in a command")
		}
	}
	cmd := lookupCommand(name)
	if cmd == nil {
		text := "attu found no orders and no command in your mail.\n\n" + helpText(g.ID, s.gameAddress(g), side)
		return s.answer(g, ref, "answered: no command", s.noticeReply(g, m, "no orders or command found", text))
	}
	if cmd.token && token == "" {
		return s.unauthenticated(g, ref, m, "command without a token")
	}
	_, err := s.run(g.ID, &ref, m, side, cmd, args, now)
	return err
}

// Umpire carries out an umpire's command given on the command line (attu
// umpire): the same commands as by mail, with the file's access standing
// for the token. It returns what the umpire is told; a command that
// cannot be carried out is an error whose text says why.
func (s *Service) Umpire(id string, args []string, now time.Time) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(args) == 0 {
		return "", refuse("name a command: %s", strings.Join(commandNames(adjudicator.Umpire), ", "))
	}
	cmd := lookupCommand(strings.ToLower(args[0]))
	if cmd == nil || cmd.who == players {
		return "", refuse("%q is not an umpire's command; the commands are %s", args[0], strings.Join(commandNames(adjudicator.Umpire), ", "))
	}
	return s.run(id, nil, nil, adjudicator.Umpire, cmd, args[1:], now.UTC())
}

func commandNames(side adjudicator.Side) []string {
	var out []string
	for _, c := range helpFor(side) {
		out = append(out, strings.Fields(c.Usage)[0])
	}
	return out
}

// run carries out cmd for side in one transaction with the mail that
// asked (ref and in, nil from the command line). A refusal writes nothing
// but the receipt and the answer.
func (s *Service) run(id string, ref *store.MailRef, in *Message, side adjudicator.Side, cmd *command, args []string, now time.Time) (string, error) {
	var answer string
	_, err := s.db.Transact(id, ref, func(t *store.Txn) error {
		g := t.Game()
		rec, err := loadRecord(g)
		if err != nil {
			return err
		}
		switch {
		case cmd.who == umpireOnly && side != adjudicator.Umpire:
			return refuse("only the umpire may %s", cmd.name)
		case cmd.who == players && side == adjudicator.Umpire:
			return refuse("%s is a player's command", cmd.name)
		case g.Status == store.Ended && !cmd.over:
			return refuse("%s", overReason)
		}
		c := &call{s: s, t: t, g: g, rec: rec, side: side, args: args, in: in, now: now}
		if err := cmd.run(c); err != nil {
			return err
		}
		if in != nil && c.answer != "" {
			t.Queue(s.noticeReply(&c.g, in, cmd.name, c.answer))
		}
		t.Outcome("command " + cmd.name)
		answer = c.answer
		return nil
	})
	var r *refusal
	if errors.As(err, &r) {
		s.log.Info("command refused", "game", id, "command", cmd.name, "why", r.msg)
		if ref != nil {
			g, gerr := s.db.Game(id)
			if gerr != nil {
				return "", gerr
			}
			_, err := s.db.Refuse(*ref, id, "refused: command "+cmd.name, []store.Mail{s.noticeReply(g, in, cmd.name+": not done", r.msg)})
			return "", err
		}
		return "", r
	}
	if err == nil {
		s.log.Info("command", "game", id, "side", side.String(), "command", cmd.name)
	}
	return answer, err
}

// note records a command in the log and in the next reports.
func (c *call) note(format string, args ...any) error {
	text := fmt.Sprintf(format, args...)
	if _, err := c.t.Note(c.side, text, c.in != nil); err != nil {
		return err
	}
	c.rec.notice("%s", text)
	return nil
}

// refresh reads the game's record again after the transaction changed it.
func (c *call) refresh() { c.g = c.t.Game() }

// tell queues a short notice to a side.
func (c *call) tell(side adjudicator.Side, subject string, lines ...string) {
	if m, ok := c.s.toSide(&c.g, side, "notice", subject, noticeText(lines...)); ok {
		c.t.Queue(m)
	}
}

func cmdHelp(c *call) error {
	c.answer = helpText(c.g.ID, c.s.gameAddress(&c.g), c.side)
	return nil
}

func cmdStatus(c *call) error {
	st, err := c.t.State()
	if err != nil {
		return err
	}
	d := templates.Status{Game: c.g.ID, Name: c.rec.Name, Scenario: c.g.Scenario, Turn: st.Turn,
		Waiting: templates.WaitPhrase(c.g.Wait), Paused: c.g.Status == store.Paused, Deadline: c.g.Deadline,
		Head: c.g.Head, Commitment: c.g.Commitment}
	if c.g.Status == store.Ended {
		d.Waiting, d.Deadline = "nothing: the game is over ("+c.rec.Result+")", time.Time{}
	}
	// When each player last had a mailed file accepted: the orders
	// entries that came by mail (default orders come by none).
	log, err := c.t.Log()
	if err != nil {
		return err
	}
	last := map[adjudicator.Side]time.Time{}
	for _, e := range log {
		if e.Kind == store.KindOrders && e.MessageID != "" {
			last[e.Side] = e.Time
		}
	}
	for _, s := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		d.Players = append(d.Players, templates.PlayerStatus{Side: s, LastOrders: last[s], Missed: c.rec.Late[s]})
	}
	var more []string
	for _, s := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		if t, ok := c.rec.Absent[s]; ok {
			more = append(more, fmt.Sprintf("The %s player is away until %s.", sideName(s), when(t)))
		}
	}
	if h := c.rec.Held; h != nil && (h.Side == c.side || c.side == adjudicator.Umpire) {
		more = append(more, fmt.Sprintf("Your orders are held; they will be applied at %s.", when(h.Due)))
	}
	if tb := c.rec.Takeback; tb != nil {
		more = append(more, fmt.Sprintf("The %s player asked to take back the last step; the request lapses at %s.", sideName(tb.By), when(tb.Expires)))
	}
	c.answer = d.Text()
	if len(more) > 0 {
		c.answer += "\n" + strings.Join(more, "\n") + "\n"
	}
	return nil
}

// cmdResend sends the side's last report again: the last one queued for
// it, to its current address; a report of the position in force when
// there was none yet.
func cmdResend(c *call) error {
	mails, err := c.t.Outbox()
	if err != nil {
		return err
	}
	prefixes := []string{
		fmt.Sprintf("<attu.%s.report-%s.", c.g.ID, c.side),
		fmt.Sprintf("<attu.%s.final-%s.", c.g.ID, c.side),
	}
	for i := len(mails) - 1; i >= 0; i-- {
		m := mails[i]
		for _, p := range prefixes {
			if strings.HasPrefix(m.MessageID, p) {
				out, ok := c.s.toSide(&c.g, c.side, "resent-"+c.side.String(), "", m.Text)
				if !ok {
					return refuse("the %s side has no player", sideName(c.side))
				}
				out.Subject = m.Subject + " (sent again)"
				out.Attachments = m.Attachments
				c.t.Queue(reply(out, c.in))
				return nil
			}
		}
	}
	st, err := c.t.State()
	if err != nil {
		return err
	}
	m, ok, err := c.s.reportMail(&c.g, c.rec, st, c.side, nil, "report-"+c.side.String(), "", "")
	if err != nil {
		return err
	}
	if ok {
		c.t.Queue(reply(m, c.in))
	}
	return nil
}

func cmdTemplate(c *call) error {
	st, err := c.t.State()
	if err != nil {
		return err
	}
	if w := c.g.Wait; !w.Open() || w.Side != c.side {
		return refuse("the game waits for %s from the %s player, not for your orders; your template comes with the report that asks for them",
			st.WaitText(), sideName(c.g.Wait.Side))
	}
	_, body, ok := c.s.sideReport(&c.g, c.rec, st, c.side, nil).OrderTemplate()
	if !ok {
		return refuse("the game waits for %s, which takes no order file", st.WaitText())
	}
	c.answer = body
	return nil
}

func cmdLog(c *call) error {
	log, err := c.t.Log()
	if err != nil {
		return err
	}
	var lines []string
	for _, e := range log {
		var line string
		switch e.Kind {
		case store.KindCreate:
			line = fmt.Sprintf("%3d  the game begins", e.Seq)
		case store.KindOrders:
			line = fmt.Sprintf("%3d  turn %d, %s orders of the %s player", e.Seq, e.Turn, e.Wait, sideName(e.Side))
		case store.KindRollback:
			line = fmt.Sprintf("%3d  back to the position after entry %d: %s", e.Seq, e.To, e.Note)
		case store.KindEnd:
			line = fmt.Sprintf("%3d  the game ends: %s", e.Seq, e.Note)
		case store.KindNote:
			line = fmt.Sprintf("%3d  %s", e.Seq, e.Note)
		}
		if e.RolledBackBy != 0 {
			line += fmt.Sprintf("  (undone by entry %d)", e.RolledBackBy)
		}
		lines = append(lines, line)
		for _, ev := range adjudicator.VisibleEvents(e.Events, c.side) {
			lines = append(lines, "       "+templates.EventText(ev))
		}
	}
	c.answer = logText(c.g.ID, lines)
	return nil
}

func cmdConcede(c *call) error {
	result := fmt.Sprintf("the %s player conceded: %s victory", sideName(c.side), sideName(c.side.Enemy()))
	if err := c.note("The %s player concedes.", sideName(c.side)); err != nil {
		return err
	}
	st, err := c.t.State()
	if err != nil {
		return err
	}
	return c.s.finish(c.t, c.rec, st, nil, result, c.now)
}

// parseUntil reads a date (2006-01-02), a time (2006-01-02T15:04, or with
// seconds and zone), or a duration from now (36h, 3d).
func parseUntil(s string, now time.Time) (time.Time, error) {
	if d, err := parseDuration(s); err == nil {
		return now.Add(d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date (2006-01-02), a time (2006-01-02T15:04) or a duration (36h, 3d)", s)
}

// parseDuration reads a Go duration or a number of days ("3d").
func parseDuration(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 {
			return 0, fmt.Errorf("%q is not a number of days", s)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}

func cmdAbsent(c *call) error {
	if len(c.args) != 1 {
		return refuse("say until when: absent 2006-01-02, absent 2006-01-02T15:04 or absent 3d")
	}
	until, err := parseUntil(c.args[0], c.now)
	if err != nil {
		return refuse("%v", err)
	}
	limit := c.rec.Absence
	if limit == 0 {
		limit = DefaultAbsence
	}
	switch {
	case !until.After(c.now):
		return refuse("%s is not in the future", when(until))
	case until.Sub(c.now) > limit:
		return refuse("the umpire allows absences of at most %s in this game; %s is further", limit, when(until))
	}
	c.rec.Absent[c.side] = until
	if err := c.note("The %s player is away until %s: that side's deadlines count from then.", sideName(c.side), when(until)); err != nil {
		return err
	}
	if w := c.g.Wait; w.Open() && w.Side == c.side && c.g.Status == store.Active {
		if d := c.rec.deadline(&c.g, w, c.now); d.After(c.g.Deadline) {
			c.t.SetDeadline(d)
			c.rec.Reminded = false
		}
	}
	c.refresh()
	c.answer = fmt.Sprintf("Recorded: away until %s.", when(until))
	if c.g.Wait.Side == c.side {
		c.answer += fmt.Sprintf(" Your current deadline: %s.", when(c.g.Deadline))
	}
	c.tell(adjudicator.Umpire, "the "+sideName(c.side)+" player is away", c.rec.Notices[len(c.rec.Notices)-1])
	return c.rec.save(c.t)
}

// lastStep returns the last orders entry in force and the entry in force
// before it, where a takeback returns to.
func lastStep(log []store.LogEntry) (last, before uint64) {
	var live []uint64
	for _, e := range log {
		if e.RolledBackBy == 0 {
			live = append(live, e.Seq)
		}
	}
	for i := len(live) - 1; i > 0; i-- {
		if log[live[i]-1].Kind == store.KindOrders {
			return live[i], live[i-1]
		}
	}
	return 0, 0
}

func cmdTakeback(c *call) error {
	if c.g.Status != store.Active {
		return refuse("the game is paused")
	}
	if tb := c.rec.Takeback; tb != nil {
		return refuse("the %s player's takeback request is open until %s", sideName(tb.By), when(tb.Expires))
	}
	log, err := c.t.Log()
	if err != nil {
		return err
	}
	last, _ := lastStep(log)
	if last == 0 {
		return refuse("no step has been played yet")
	}
	e := log[last-1]
	expires := c.now.Add(c.s.cfg.Takeback)
	c.rec.Takeback = &takeback{By: c.side, Undo: last, Expires: expires}
	if err := c.note("The %s player asks to take back entry %d (turn %d, %s orders of the %s player); the %s player may agree until %s.",
		sideName(c.side), last, e.Turn, e.Wait, sideName(e.Side), sideName(c.side.Enemy()), when(expires)); err != nil {
		return err
	}
	c.refresh()
	c.tell(c.side.Enemy(), "takeback asked",
		fmt.Sprintf("The %s player asks to take back the last step: turn %d, %s orders of the %s player (log entry %d).", sideName(c.side), e.Turn, e.Wait, sideName(e.Side), last),
		fmt.Sprintf("To agree, send \"agree\" with your token before %s; otherwise the request lapses and the game goes on.", when(expires)))
	c.tell(adjudicator.Umpire, "takeback asked", c.rec.Notices[len(c.rec.Notices)-1])
	c.answer = fmt.Sprintf("Asked. If the %s player agrees by %s, the game returns to the position before that step.", sideName(c.side.Enemy()), when(expires))
	return c.rec.save(c.t)
}

func cmdAgree(c *call) error {
	tb := c.rec.Takeback
	if tb == nil || tb.By != c.side.Enemy() || !c.now.Before(tb.Expires) {
		return refuse("there is no takeback request of your opponent to agree to")
	}
	if c.g.Status != store.Active {
		return refuse("the game is paused")
	}
	log, err := c.t.Log()
	if err != nil {
		return err
	}
	last, before := lastStep(log)
	if last != tb.Undo {
		return refuse("the request lapsed: the game moved on")
	}
	note := fmt.Sprintf("Takeback asked by the %s player and agreed by the %s player: entry %d undone.", sideName(tb.By), sideName(c.side), last)
	c.rec.Takeback = nil
	return c.rollback(before, note)
}

// rollback returns the game to entry to in the call's transaction and
// mails every side the position it returns to.
func (c *call) rollback(to uint64, note string) error {
	if _, err := c.t.Rollback(to, note); err != nil {
		if errors.Is(err, store.ErrRollback) {
			return refuse("%v", strings.TrimPrefix(err.Error(), "store: "))
		}
		return err
	}
	c.rec.notice("%s", note)
	if h := c.rec.Held; h != nil {
		if err := c.t.Amend(h.ref(), "dropped: the game was rolled back"); err != nil {
			return err
		}
		c.rec.notice("The %s player's held orders were dropped.", sideName(h.Side))
	}
	c.rec.Held, c.rec.Reminded, c.rec.NoDefault, c.rec.Takeback, c.rec.Remaining = nil, false, false, nil, 0
	c.refresh()
	c.t.SetDeadline(c.rec.deadline(&c.g, c.g.Wait, c.now))
	c.refresh()
	st, err := c.t.State()
	if err != nil {
		return err
	}
	if err := c.s.queueReports(c.t, &c.g, c.rec, st, nil, c.in); err != nil {
		return err
	}
	c.rec.Notices = nil
	return c.rec.save(c.t)
}

func cmdGo(c *call) error {
	if h := c.rec.Held; h == nil || h.Side != c.side {
		return refuse("no orders of yours are held")
	}
	if c.g.Status != store.Active {
		return refuse("the game is paused")
	}
	return c.s.applyHeld(c.t, c.rec, c.now)
}

func cmdExtend(c *call) error {
	if len(c.args) < 1 {
		return refuse("say by how much: extend 48h, extend 2d")
	}
	d, err := parseDuration(c.args[0])
	if err != nil || d <= 0 {
		return refuse("%q is not a duration (48h, 2d)", c.args[0])
	}
	if !c.g.Wait.Open() {
		return refuse("the game waits for no orders")
	}
	if c.g.Status == store.Paused {
		c.rec.Remaining += d
		if err := c.note("The umpire extended the deadline by %s (the game is paused).", d); err != nil {
			return err
		}
		c.answer = fmt.Sprintf("When the game resumes, %s will be left.", c.rec.Remaining)
		return c.rec.save(c.t)
	}
	nd := c.g.Deadline.Add(d)
	if c.g.Deadline.IsZero() {
		nd = c.now.Add(d)
	}
	c.t.SetDeadline(nd)
	if nd.Add(-reminder(&c.g)).After(c.now) {
		c.rec.Reminded = false
	}
	if err := c.note("The umpire extended the deadline of the %s player by %s, to %s.", sideName(c.g.Wait.Side), d, when(nd)); err != nil {
		return err
	}
	c.refresh()
	c.tell(c.g.Wait.Side, "deadline extended", fmt.Sprintf("The umpire extended your deadline to %s.", when(nd)))
	c.answer = fmt.Sprintf("The deadline is now %s.", when(nd))
	return c.rec.save(c.t)
}

func cmdPause(c *call) error {
	if c.g.Status != store.Active {
		return refuse("the game is not running")
	}
	if err := c.t.SetStatus(store.Paused); err != nil {
		return err
	}
	c.rec.Remaining = max(c.g.Deadline.Sub(c.now), 0)
	c.t.SetDeadline(time.Time{})
	if err := c.note("The umpire paused the game."); err != nil {
		return err
	}
	c.refresh()
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		c.tell(side, "paused", "The umpire paused the game: no orders are taken and the clock stands still until it resumes.")
	}
	c.answer = fmt.Sprintf("Paused, with %s left on the clock.", c.rec.Remaining.Round(time.Minute))
	return c.rec.save(c.t)
}

func cmdResume(c *call) error {
	if c.g.Status != store.Paused {
		return refuse("the game is not paused")
	}
	if err := c.t.SetStatus(store.Active); err != nil {
		return err
	}
	nd := c.now.Add(max(c.rec.Remaining, time.Hour))
	if !c.g.Wait.Open() {
		nd = time.Time{}
	}
	c.t.SetDeadline(nd)
	c.rec.Remaining, c.rec.Reminded = 0, false
	if err := c.note("The umpire resumed the game; the deadline is %s.", when(nd)); err != nil {
		return err
	}
	c.refresh()
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		c.tell(side, "resumed", fmt.Sprintf("The umpire resumed the game. The %s player's orders are due by %s.", sideName(c.g.Wait.Side), when(nd)))
	}
	c.answer = fmt.Sprintf("Resumed; the deadline is %s.", when(nd))
	return c.rec.save(c.t)
}

func cmdForce(c *call) error {
	if c.g.Status != store.Active {
		return refuse("the game is paused")
	}
	w := c.g.Wait
	if _, ok := waitDefaults[w.Kind]; !ok || !w.Open() {
		return refuse("there are no default orders for %s: extend the deadline or roll back", w)
	}
	if err := c.note("The umpire forced the default orders of the %s player for turn %d %s.", sideName(w.Side), w.Turn, w.Kind); err != nil {
		return err
	}
	if h := c.rec.Held; h != nil {
		c.rec.notice("The %s player's held orders were dropped.", sideName(h.Side))
	}
	if err := c.s.applyDefault(c.t, c.rec, c.now); err != nil {
		return err
	}
	c.answer = fmt.Sprintf("The default orders (%s) were applied.", waitDefaults[w.Kind].what)
	return nil
}

func cmdRollback(c *call) error {
	if len(c.args) < 1 {
		return refuse("name the log entry to return to: rollback 7 (the log command lists them)")
	}
	to, err := strconv.ParseUint(c.args[0], 10, 64)
	if err != nil {
		return refuse("%q is not a log entry number", c.args[0])
	}
	note := fmt.Sprintf("The umpire rolled the game back to entry %d.", to)
	if len(c.args) > 1 {
		note += " " + strings.Join(c.args[1:], " ")
	}
	if err := c.rollback(to, note); err != nil {
		return err
	}
	c.answer = fmt.Sprintf("Rolled back to entry %d; the game waits for %s, due by %s.", to, c.g.Wait, when(c.g.Deadline))
	return nil
}

func cmdReplace(c *call) error {
	if len(c.args) != 2 {
		return refuse("say which side and the new address: replace us new@example.org")
	}
	side, err := adjudicator.ParseSide(strings.ToLower(c.args[0]))
	if err != nil || (side != adjudicator.US && side != adjudicator.JP) {
		return refuse("%q is not a player's side: us or jp", c.args[0])
	}
	addr := bareAddress(c.args[1])
	if !strings.Contains(addr, "@") {
		return refuse("%q is not a mail address", c.args[1])
	}
	token, err := store.NewToken()
	if err != nil {
		return err
	}
	old, _ := c.g.Player(side)
	c.t.SetPlayer(side, addr, token)
	if err := c.note("The umpire gave the %s side to a new player.", sideName(side)); err != nil {
		return err
	}
	c.refresh()
	st, err := c.t.State()
	if err != nil {
		return err
	}
	m, _, err := c.s.reportMail(&c.g, c.rec, st, side, nil, "welcome-"+side.String(), "welcome: you play the "+sideName(side)+" side",
		c.s.welcomeText(&c.g, c.rec.Name, side, token, c.rec.Settle))
	if err != nil {
		return err
	}
	c.t.Queue(m)
	if old.Address != "" && !sameAddress(old.Address, addr) {
		c.t.Queue(c.s.newMail(&c.g, "notice", old.Address, "you have been replaced", replacedText(side)))
	}
	c.answer = fmt.Sprintf("The %s side is now played from %s; its new token was mailed there, and the old one no longer works.", sideName(side), addr)
	return c.rec.save(c.t)
}

func cmdEnd(c *call) error {
	result := "ended by the umpire"
	if len(c.args) > 0 {
		result += ": " + strings.Join(c.args, " ")
	}
	st, err := c.t.State()
	if err != nil {
		return err
	}
	if err := c.note("The umpire ends the game."); err != nil {
		return err
	}
	if err := c.s.finish(c.t, c.rec, st, nil, result, c.now); err != nil {
		return err
	}
	c.answer = "The game is over: " + result + ". Every side has the final report."
	return nil
}

func cmdReveal(c *call) error {
	if c.g.Status != store.Ended {
		return refuse("the seed stays secret until the game is over")
	}
	if err := c.note("The umpire asked for the seed."); err != nil {
		return err
	}
	c.answer = fmt.Sprintf("Seed: %x\nCommitment: %s (SHA-256 of the seed)", c.g.Seed, c.g.Commitment)
	return c.rec.save(c.t)
}
