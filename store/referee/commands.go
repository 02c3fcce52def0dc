package referee

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// The commands players and the umpire send by mail, and the umpire's from
// the command line (attu umpire): a word in the subject or on the first
// line of the body, with its arguments after it. One that changes the game
// needs the sender's token on a line of its own ("token: ..."), outside
// quoted text, and is recorded in the log: as a note (or a rollback, or the
// end) every side reads in its next report, or, when it changes nothing, as
// a note only its sender and the umpire read; a private setting (json,
// copies) is kept beside the log, out of the chain. One that mails a
// report or a file (resend, template, digest) needs the token too, though
// it changes nothing. One that needs no token (help, status, log,
// standings) and a refused one leave only their receipt in the ledger:
// anybody can send them from a player's address, and the chained log
// keeps nothing a forger can repeat at will. Their answers are short,
// carry no attachment, repeat none of the mail's words, and are few
// (Config.Answers).

// who may give a command.
type who int

const (
	anyone who = iota
	players
	umpireOnly
)

// command is one command.
type command struct {
	name  string
	token bool // it changes the game, so the mail must carry the token
	sends bool // its answer carries a report or a file, so the mail must carry the token
	who   who
	over  bool // it still works once the game has ended
	// setting: it changes only what its sender is sent (json, copies), so it is
	// kept in the game's service record beside the log and never enters
	// the chain, whose head the other side reads.
	setting bool
	run     func(c *call) error
}

// call is one command being carried out, inside its transaction.
type call struct {
	s    *Service
	sys  System // the game's
	t    *store.Txn
	g    store.Game
	rec  *record
	side adjudicator.Side
	args []string
	in   *Message // nil from the command line
	now  time.Time
	// says is what the asker is told the command did; text, when set,
	// is the whole answer instead (help, status, log, template), with
	// attach its files.
	says   []templates.Notice
	text   string
	attach []store.Attachment
	noted  bool // the command is in the log already
}

// refusal is a command that cannot be carried out, for the asker.
type refusal struct{ why templates.Notice }

func (r *refusal) Error() string { return r.why.Text() }

// refuse refuses a command for the reason of kind k ("why-" k in
// templates), with n's fields for its sentence.
func refuse(k string, n templates.Notice) error {
	n.Kind = "why-" + k
	return &refusal{n}
}

var commands []*command

func init() {
	commands = []*command{
		{name: "help", over: true, run: cmdHelp},
		{name: "status", over: true, run: cmdStatus},
		{name: "resend", sends: true, over: true, run: cmdResend},
		{name: "template", sends: true, run: cmdTemplate},
		{name: "log", over: true, run: cmdLog},
		{name: "concede", token: true, who: players, run: cmdConcede},
		{name: "absent", token: true, who: players, run: cmdAbsent},
		{name: "takeback", token: true, who: players, run: cmdTakeback},
		{name: "agree", token: true, who: players, run: cmdAgree},
		{name: "go", token: true, who: players, run: cmdGo},
		{name: "extend", token: true, who: umpireOnly, run: cmdExtend},
		{name: "pause", token: true, who: umpireOnly, run: cmdPause},
		{name: "resume", token: true, who: umpireOnly, run: cmdResume},
		{name: "force", token: true, who: umpireOnly, run: cmdForce},
		{name: "rollback", token: true, who: umpireOnly, run: cmdRollback},
		{name: "replace", token: true, who: umpireOnly, run: cmdReplace},
		{name: "end", token: true, who: umpireOnly, run: cmdEnd},
		{name: "standings", over: true, run: cmdStandings},
		{name: "digest", sends: true, who: umpireOnly, over: true, run: cmdDigest},
		{name: "next", token: true, who: umpireOnly, over: true, run: cmdNext},
		{name: "reveal", token: true, who: umpireOnly, over: true, run: cmdReveal},
		{name: "json", token: true, setting: true, run: cmdJSON},
		{name: "sheet", token: true, who: players, setting: true, run: cmdSheet},
		{name: "copies", token: true, who: umpireOnly, setting: true, run: cmdCopies},
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

// commandMail handles a message without orders from a player of g. One
// without the side's token gets at most a short answer, within the
// quotas on such answers (budget).
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
	proven := token != ""
	cmd := lookupCommand(name)
	if cmd == nil {
		h := s.help(g, side)
		h.Puzzled = true
		for _, p := range m.Skipped {
			h.Skipped = append(h.Skipped, templates.SkippedPart{Part: p.Part, Type: p.Type, Name: p.Name, Undecoded: p.Undecoded, Unproven: !proven})
		}
		a := s.answerMail(g, m, "answer", "no orders or command found", h.Text())
		if !proven {
			return s.unproven(g, ref, m, "answered: no command", a)
		}
		return s.answer(g, ref, "answered: no command", a)
	}
	if (cmd.token || cmd.sends) && !proven {
		return s.unauthenticated(g, ref, m, "command without a token")
	}
	ok, note, err := s.budget(s.db.Spend, g, m.From, proven)
	if err != nil {
		return err
	}
	if !ok {
		if !proven {
			// Past the quotas a command anybody may send from the
			// address is neither carried out nor answered.
			_, err := s.db.Refuse(ref, g.ID, "refused: command "+cmd.name+" (not answered: too many mails)", nil)
			return err
		}
		// One with the side's token is, so that a forger flooding the
		// address cannot stop the player: only its answer is left out,
		// or is the note to slow down.
		quiet := *m
		quiet.over = &note
		m = &quiet
	}
	in := *m
	in.proven = proven
	_, err = s.run(g.ID, &ref, &in, side, cmd, args, now)
	return err
}

// Umpire carries out an umpire's command given on the command line (attu
// umpire), the file's access standing for the token, and returns what the
// umpire is told, or an error saying why it cannot be carried out.
func (s *Service) Umpire(id string, args []string, now time.Time) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(args) == 0 {
		return "", fmt.Errorf("name a command: %s", strings.Join(commandNames(adjudicator.Umpire), ", "))
	}
	cmd := lookupCommand(strings.ToLower(args[0]))
	if cmd == nil || cmd.who == players {
		return "", fmt.Errorf("%q is not an umpire's command; the commands are %s", args[0], strings.Join(commandNames(adjudicator.Umpire), ", "))
	}
	return s.run(id, nil, nil, adjudicator.Umpire, cmd, args[1:], now.UTC())
}

// commandNames are the commands side may give.
func commandNames(side adjudicator.Side) []string {
	var out []string
	for _, c := range commands {
		if c.who == umpireOnly && side != adjudicator.Umpire || c.who == players && side == adjudicator.Umpire {
			continue
		}
		out = append(out, c.name)
	}
	return out
}

// run carries out cmd for side in one transaction with the mail that
// asked (nil from the command line); a refusal writes only the receipt
// and the answer.
func (s *Service) run(id string, ref *store.MailRef, in *Message, side adjudicator.Side, cmd *command, args []string, now time.Time) (string, error) {
	var answer string
	_, err := s.transact(id, ref, func(t *store.Txn) error {
		g := t.Game()
		rec, err := loadRecord(g)
		if err != nil {
			return err
		}
		sys, err := s.SystemOf(&g)
		if err != nil {
			s.log.Warn("command for a game of a system not hosted", "game", id, "system", g.SystemName(), "err", err)
			return refuse("unhosted", templates.Notice{Note: g.SystemName()})
		}
		switch {
		case cmd.who == umpireOnly && side != adjudicator.Umpire:
			return refuse("only-umpire", templates.Notice{Command: cmd.name})
		case cmd.who == players && side == adjudicator.Umpire:
			return refuse("players-only", templates.Notice{Command: cmd.name})
		case g.Status == store.Ended && !cmd.over:
			return refuse("over", templates.Notice{})
		}
		c := &call{s: s, sys: sys, t: t, g: g, rec: rec, side: side, args: args, in: in, now: now}
		if err := cmd.run(c); err != nil {
			return err
		}
		if !c.noted && cmd.token && !cmd.setting {
			// On the record even when it changes nothing (see above), for
			// its sender and the umpire.
			n := templates.Notice{Kind: "asked", Side: side, Command: cmd.name}.Text()
			if _, err := t.Aside(side, n, in != nil); err != nil {
				return err
			}
			c.rec.Notices = append(c.rec.Notices, notice{Text: n, For: side})
			if err := c.rec.save(t); err != nil {
				return err
			}
		}
		text := c.text
		if text == "" && len(c.says) > 0 {
			a := templates.Answer{Game: c.g.ID, Command: cmd.name, Says: c.says, Reader: side}
			if g := t.Game(); g.Status == store.Active && g.Wait.Open() {
				a.Next, a.Deadline, a.Awaited = c.sys.Waiting(g.Wait, side), g.Deadline, g.Wait.Side
			}
			text = a.Text()
			answer = a.Short()
		} else {
			answer = text
		}
		if in != nil && text != "" {
			m := s.answerMail(&c.g, in, "answer", cmd.name, text)
			m.Attachments = c.attach
			t.Queue(in.answers(m)...)
		}
		t.Outcome("command " + cmd.name)
		return nil
	})
	var r *refusal
	if errors.As(err, &r) {
		s.log.Info("command refused", "game", id, "command", cmd.name, "why", r.Error())
		if ref != nil {
			g, gerr := s.db.Game(id)
			if gerr != nil {
				return "", gerr
			}
			nd := templates.NotDone{Game: g.ID, Command: cmd.name, Why: r.why}
			_, err := s.db.Refuse(*ref, id, "refused: command "+cmd.name, in.answers(s.answerMail(g, in, "answer", nd.Subject(), nd.Text())))
			return "", err
		}
		return "", r
	}
	if err == nil {
		s.log.Info("command", "game", id, "side", side.String(), "command", cmd.name)
	}
	return answer, err
}

// note records a command that changes the game in the log and in the
// next reports of every side, and reads the game's record again.
func (c *call) note(n templates.Notice) error {
	if _, err := c.t.Note(c.side, n.Text(), c.in != nil && !c.noted); err != nil {
		return err
	}
	c.rec.notice(n)
	c.noted = true
	c.refresh()
	return nil
}

// say adds a sentence to the asker's answer.
func (c *call) say(kind string, n templates.Notice) {
	n.Kind = kind
	c.says = append(c.says, n)
}

func (c *call) refresh() { c.g = c.t.Game() }

// tell queues a notice to a side of what another did.
func (c *call) tell(side adjudicator.Side, n templates.Notice, deadline time.Time) {
	c.s.notify(c.t, &c.g, side, templates.PlayerNotice{Game: c.g.ID, Reader: side, Notice: n, Deadline: deadline})
}

// umpireNotice is the notice to the players of an umpire's decision.
func (c *call) umpireNotice(action string, n templates.Notice) templates.UmpireNotice {
	u := templates.UmpireNotice{Game: c.g.ID, Action: action, Detail: n.Text(), Head: c.g.Head}
	if c.g.Status == store.Active && c.g.Wait.Open() {
		u.Next, u.Deadline = c.sys.Waiting(c.g.Wait, adjudicator.NoSide), c.g.Deadline
	}
	return u
}

// tellPlayers mails both players the umpire's decision.
func (c *call) tellPlayers(action string, n templates.Notice) {
	u := c.umpireNotice(action, n)
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		if u.Next != "" {
			u.Next, u.Reader, u.Awaited = c.sys.Waiting(c.g.Wait, side), side, c.g.Wait.Side
		}
		c.s.notify(c.t, &c.g, side, u)
	}
}

func cmdHelp(c *call) error {
	c.text = c.s.help(&c.g, c.side).Text()
	return nil
}

func cmdStatus(c *call) error {
	st, err := c.s.positionIn(c.t)
	if err != nil {
		return err
	}
	d := templates.Status{Game: c.g.ID, Name: c.rec.Name, Scenario: c.g.Scenario, Turn: st.Wait().Turn, Date: c.sys.Date(st.Wait().Turn),
		Waiting: c.sys.Waiting(c.g.Wait, c.side), Paused: c.g.Status == store.Paused, Deadline: c.g.Deadline,
		Head: c.g.Head, Commitment: c.g.Commitment, Umpire: c.side == adjudicator.Umpire}
	if c.g.Status == store.Ended {
		d.Result, d.Deadline = c.rec.Result, time.Time{}
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
		d.Players = append(d.Players, templates.PlayerStatus{Side: s, LastOrders: last[s], Missed: c.rec.Late[s], Away: c.rec.Absent[s]})
	}
	if h := c.rec.Held; h != nil && (h.Side == c.side || c.side == adjudicator.Umpire) {
		d.Held, d.HeldBy = h.Due, h.Side
	}
	if tb := c.rec.Takeback; tb != nil {
		d.TakebackBy, d.TakebackUntil = tb.By, tb.Expires
	}
	c.text = d.Text()
	return nil
}

// cmdResend sends the side's last report again, to its current address,
// or a report of the position in force when there was none yet.
func cmdResend(c *call) error {
	mails, err := c.t.Outbox()
	if err != nil {
		return err
	}
	for _, m := range slices.Backward(mails) {
		// The kind of mail its Message-ID names (messageID).
		kind, _, _ := strings.Cut(strings.TrimPrefix(m.MessageID, "<attu."+c.g.ID+"."), ".")
		if kind != "report-"+c.side.String() && kind != "final-"+c.side.String() {
			continue
		}
		out, ok := c.s.toSide(&c.g, c.side, "resent-"+c.side.String(), "", m.Text)
		if !ok {
			return refuse("no-player", templates.Notice{Side: c.side})
		}
		out.Subject, out.Class = templates.Resend{Subject: m.Subject}.Title(), store.ClassAnswer
		if out.Attachments, err = c.redrawn(m); err != nil {
			return err
		}
		c.t.Queue(c.in.answers(reply(out, c.in))...)
		return nil
	}
	st, err := c.s.positionIn(c.t)
	if err != nil {
		return err
	}
	log, err := c.t.Log()
	if err != nil {
		return err
	}
	m, ok, err := c.s.reportMail(&c.g, c.rec, st, c.side, eventsSince(log, c.rec.Reported[c.side]), "report-"+c.side.String(), "", "")
	if err != nil {
		return err
	}
	if ok {
		m.Class = store.ClassAnswer
		c.t.Queue(c.in.answers(reply(m, c.in))...)
	}
	return c.rec.save(c.t)
}

// redrawn returns the attachments of m, a report to the call's side,
// with the map picture the store no longer keeps drawn again from what it
// records (drawAgain), so the same pixels the player was sent.
func (c *call) redrawn(m store.Mail) ([]store.Attachment, error) {
	out := slices.Clone(m.Attachments)
	for i := range out {
		a := &out[i]
		if !a.Dropped || !a.Redrawable || a.DrawnAt == 0 || a.Name != "map.png" {
			continue
		}
		pic, err := drawAgain(c.sys, c.g.ID, *a, c.side, txLog{c.t})
		if err != nil {
			return nil, err
		}
		if sum := sha256.Sum256(pic); a.SHA256 != "" && hex.EncodeToString(sum[:]) != a.SHA256 {
			// Still the same position and events, drawn by a release
			// whose drawing changed since.
			c.s.log.Warn("resend: the map drawn again differs from the one sent", "game", c.g.ID, "mail", m.ID, "entry", a.DrawnAt)
		}
		a.Data, a.Dropped = pic, false
	}
	return out, nil
}

func cmdTemplate(c *call) error {
	if w := c.g.Wait; !w.Open() || w.Side != c.side {
		return refuse("not-awaited", templates.Notice{Note: c.sys.Waiting(w, c.side), Other: w.Side})
	}
	st, err := c.s.positionIn(c.t)
	if err != nil {
		return err
	}
	name, body, ok := c.sys.Template(c.s.reportFor(&c.g, c.rec, st, c.side, nil))
	if !ok {
		return refuse("no-file", templates.Notice{Note: c.sys.Waiting(c.g.Wait, adjudicator.NoSide)})
	}
	c.text = templates.TemplateAnswer{Game: c.g.ID, Waiting: c.sys.Waiting(c.g.Wait, adjudicator.NoSide), Name: name, Body: body}.Text()
	c.attach = []store.Attachment{{Name: name, Type: "application/yaml", Data: []byte(body)}}
	return nil
}

// visible reports whether side may read the log entry e: a private note
// is its sender's and the umpire's.
func visible(e *store.Entry, side adjudicator.Side) bool {
	return !e.Private || side == adjudicator.Umpire || e.Side == side
}

// cmdLog answers the log as the asker may read it (logLines): by mail the
// newest entries that fit, or with "log N" those from entry N on; on the
// command line the whole record, or from entry N.
func cmdLog(c *call) error {
	log, err := c.t.Log()
	if err != nil {
		return err
	}
	lines, err := logLines(c.sys, log, c.side, c.g.Wait)
	if err != nil {
		return err
	}
	from := 0
	if len(c.args) > 0 {
		n, err := strconv.Atoi(c.args[0])
		if err != nil || n < 1 {
			n := templates.Notice{}
			if c.in == nil || c.in.proven {
				n.Note = c.args[0] // the sender's words, repeated to a sender who proved to be the player
			}
			return refuse("not-entry", n)
		}
		from = min(n-1, len(lines))
	}
	l := templates.Log{Game: c.g.ID, Side: c.side}
	if c.in == nil {
		// On the umpire's command line, the whole record asked for.
		l.Entries, l.Earlier = lines[from:], from
		c.text = l.Text()
		return nil
	}
	c.text = fitLog(l, lines, from, len(c.args) > 0)
	return nil
}

// logLines are the entries side may read, numbered from 1 as it reads
// them, references renumbered alike (a private note it cannot read stands
// for the entry before it, of the same position), shaped by the system
// sys for side while the game waits for w (System.LogParts).
func logLines(sys System, log []store.LogEntry, side adjudicator.Side, w adjudicator.Wait) ([]templates.LogLine, error) {
	var items []templates.LogItem
	bySeq := make(map[uint64]*store.LogEntry, len(log))
	for i := range log {
		e := &log[i]
		if visible(e.Entry, side) {
			items = append(items, templates.LogItem{Seq: e.Seq, Entry: entryOf(e.Entry, 0, 0), Events: splitEvents(e.Events)})
			bySeq[e.Seq] = e
		}
	}
	parts, err := sys.LogParts(items, side, w)
	if err != nil {
		return nil, err
	}
	// An entry's number is that of its last part read; an entry not read
	// stands for the one before it.
	shown := make(map[uint64]uint64, len(log))
	for i, p := range parts {
		shown[p.Seq] = uint64(i + 1)
	}
	var n uint64
	for _, e := range log {
		n = max(n, shown[e.Seq])
		shown[e.Seq] = n
	}
	out := make([]templates.LogLine, 0, len(parts))
	for i, p := range parts {
		line := templates.LogLine{Seq: uint64(i + 1), Events: p.Events}
		if p.Made != nil {
			line.Entry = *p.Made
		} else if e := bySeq[p.Seq]; e != nil {
			line.Entry = entryOf(e.Entry, shown[e.To], shown[e.RolledBackBy])
		}
		out = append(out, line)
	}
	return out, nil
}

// entryOf is what e says, for the log answer and the replay page, with
// the entries it names numbered as its reader counts them.
func entryOf(e *store.Entry, to, undoneBy uint64) templates.Entry {
	return templates.Entry{Kind: string(e.Kind), Turn: e.Turn, Wait: e.Wait, Side: e.Side, To: to, Note: e.Note, UndoneBy: undoneBy}
}

// fitLog renders as many entries as fit the reply budget: from index
// from on when forward, else the newest.
func fitLog(l templates.Log, lines []templates.LogLine, from int, forward bool) string {
	render := func(lo, hi int) string {
		l.Entries, l.Earlier, l.Next = lines[lo:hi], lo, 0
		if hi < len(lines) {
			l.Next = uint64(hi + 1)
		}
		return l.Text()
	}
	limit := templates.MaxReply - 2<<10 // the subject and the mail's own lines
	if forward {
		// The most entries from from on that fit.
		n := sort.Search(len(lines)-from, func(n int) bool { return len(render(from, from+n+1)) > limit })
		return render(from, from+n)
	}
	n := sort.Search(len(lines), func(n int) bool { return len(render(len(lines)-n-1, len(lines))) > limit })
	return render(len(lines)-n, len(lines))
}

func cmdConcede(c *call) error {
	result := templates.Notice{Kind: "result-concede", Side: c.side}.Text()
	if err := c.note(templates.Notice{Kind: "concede", Side: c.side}); err != nil {
		return err
	}
	st, err := c.s.positionIn(c.t)
	if err != nil {
		return err
	}
	return c.s.finish(c.t, c.rec, st, nil, result, c.in, nil)
}

// parseUntil reads a date (2006-01-02), a time (2006-01-02T15:04, or with
// seconds and zone), or a duration from now (36h, 3d).
func parseUntil(s string, now time.Time) (time.Time, bool) {
	if d, err := parseDuration(s); err == nil {
		return now.Add(d), true
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
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
		return refuse("absent-how", templates.Notice{})
	}
	until, ok := parseUntil(c.args[0], c.now)
	if !ok {
		return refuse("absent-bad", templates.Notice{Note: c.args[0]})
	}
	limit := cmp.Or(c.rec.Absence, DefaultAbsence)
	switch {
	case !until.After(c.now):
		return refuse("absent-past", templates.Notice{At: until})
	case until.Sub(c.now) > limit:
		return refuse("absent-long", templates.Notice{At: until, Duration: limit})
	}
	c.rec.Absent[c.side] = until
	n := templates.Notice{Kind: "absent", Side: c.side, At: until}
	if err := c.note(n); err != nil {
		return err
	}
	if w := c.g.Wait; w.Open() && w.Side == c.side && c.g.Status == store.Active {
		if d := c.rec.deadline(&c.g, w, c.now); d.After(c.g.Deadline) {
			c.t.SetDeadline(d)
			c.rec.Reminded = false
		}
	}
	c.refresh()
	c.say("you-absent", templates.Notice{At: until})
	if c.g.Wait.Side == c.side {
		c.say("you-deadline", templates.Notice{At: c.g.Deadline})
	}
	c.tell(adjudicator.Umpire, n, time.Time{})
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
		return refuse("paused", templates.Notice{})
	}
	if tb := c.rec.Takeback; tb != nil {
		return refuse("takeback-open", templates.Notice{Side: tb.By, At: tb.Expires})
	}
	log, err := c.t.Log()
	if err != nil {
		return err
	}
	last, _ := lastStep(log)
	if last == 0 {
		return refuse("no-step", templates.Notice{})
	}
	e := log[last-1]
	expires := c.now.Add(c.s.cfg.Takeback)
	c.rec.Takeback = &takeback{By: c.side, Undo: last, Expires: expires}
	n := templates.Notice{Kind: "takeback-asked", Side: c.side, Other: e.Side, Turn: e.Turn, Wait: e.Wait, Entry: last, At: expires}
	if err := c.note(n); err != nil {
		return err
	}
	c.tell(c.side.Enemy(), n, expires)
	c.tell(adjudicator.Umpire, n, expires)
	c.say("you-takeback", n)
	return c.rec.save(c.t)
}

func cmdAgree(c *call) error {
	tb := c.rec.Takeback
	if tb == nil || tb.By != c.side.Enemy() || !c.now.Before(tb.Expires) {
		return refuse("no-request", templates.Notice{})
	}
	if c.g.Status != store.Active {
		return refuse("paused", templates.Notice{})
	}
	log, err := c.t.Log()
	if err != nil {
		return err
	}
	last, before := lastStep(log)
	if last != tb.Undo {
		return refuse("request-lapsed", templates.Notice{})
	}
	// The rollback's own entry records the agreement.
	c.rec.Takeback = nil
	return c.rollback(before, templates.Notice{Kind: "takeback-agreed", Side: c.side, Other: tb.By, Entry: last}, nil)
}

// rollback returns the game to entry to with n as its note and mails
// every side the position, the players' reports headed by u when set.
func (c *call) rollback(to uint64, n templates.Notice, u *templates.UmpireNotice) error {
	if _, err := c.t.Rollback(to, n.Text()); err != nil {
		if errors.Is(err, store.ErrRollback) {
			return refuse("rollback", templates.Notice{Note: strings.TrimPrefix(err.Error(), "store: ")})
		}
		return err
	}
	c.noted = true
	c.rec.notice(n)
	if h := c.rec.Held; h != nil {
		if err := c.t.Amend(h.ref(), "dropped: the game was rolled back"); err != nil {
			return err
		}
		c.rec.notice(templates.Notice{Kind: "held-dropped", Side: h.Side})
	}
	c.rec.Held, c.rec.Reminded, c.rec.NoDefault, c.rec.Takeback, c.rec.Remaining = nil, false, false, nil, 0
	c.refresh()
	c.t.SetDeadline(c.rec.deadline(&c.g, c.g.Wait, c.now))
	c.refresh()
	st, err := c.s.positionIn(c.t)
	if err != nil {
		return err
	}
	var heads head
	if u != nil {
		heads = playerHeads(c.sys, *u)
	}
	if err := c.s.queueReports(c.t, &c.g, c.rec, st, nil, c.in, heads, nil); err != nil {
		return err
	}
	c.rec.Notices = nil
	return c.rec.save(c.t)
}

// playerHeads sets the umpire's notice u above both players' reports,
// saying what the game waits for after the decision.
func playerHeads(sys System, u templates.UmpireNotice) head {
	return func(side adjudicator.Side, g *store.Game) string {
		if side != adjudicator.US && side != adjudicator.JP {
			return ""
		}
		u.Head, u.Next, u.Deadline = g.Head, "", time.Time{}
		if g.Status == store.Active && g.Wait.Open() {
			u.Next, u.Deadline = sys.Waiting(g.Wait, side), g.Deadline
		}
		return u.Text()
	}
}

func cmdGo(c *call) error {
	if h := c.rec.Held; h == nil || h.Side != c.side {
		return refuse("no-held", templates.Notice{})
	}
	if c.g.Status != store.Active {
		return refuse("paused", templates.Notice{})
	}
	if err := c.note(templates.Notice{Kind: "go", Side: c.side}); err != nil {
		return err
	}
	return c.s.applyHeld(c.t, c.rec, c.now)
}

func cmdExtend(c *call) error {
	if len(c.args) < 1 {
		return refuse("extend-how", templates.Notice{})
	}
	d, err := parseDuration(c.args[0])
	if err != nil || d <= 0 {
		return refuse("not-duration", templates.Notice{Note: c.args[0]})
	}
	if !c.g.Wait.Open() {
		return refuse("no-wait", templates.Notice{})
	}
	if c.g.Status == store.Paused {
		c.rec.Remaining += d
		if err := c.note(templates.Notice{Kind: "extend-paused", Duration: d}); err != nil {
			return err
		}
		c.say("you-extend-paused", templates.Notice{Duration: c.rec.Remaining})
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
	if err := c.note(templates.Notice{Kind: "extend", Other: c.g.Wait.Side, Duration: d, At: nd}); err != nil {
		return err
	}
	c.s.notify(c.t, &c.g, c.g.Wait.Side, c.umpireNotice("extend", templates.Notice{Kind: "extended-you", At: nd}))
	c.say("you-extend", templates.Notice{At: nd})
	return c.rec.save(c.t)
}

func cmdPause(c *call) error {
	if c.g.Status != store.Active {
		return refuse("not-running", templates.Notice{})
	}
	if err := c.t.SetStatus(store.Paused); err != nil {
		return err
	}
	c.rec.Remaining = max(c.g.Deadline.Sub(c.now), 0)
	c.t.SetDeadline(time.Time{})
	if err := c.note(templates.Notice{Kind: "pause"}); err != nil {
		return err
	}
	c.tellPlayers("pause", templates.Notice{Kind: "paused-you"})
	c.say("you-pause", templates.Notice{Duration: c.rec.Remaining.Round(time.Minute)})
	return c.rec.save(c.t)
}

func cmdResume(c *call) error {
	if c.g.Status != store.Paused {
		return refuse("not-paused", templates.Notice{})
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
	if err := c.note(templates.Notice{Kind: "resume", At: nd}); err != nil {
		return err
	}
	c.tellPlayers("resume", templates.Notice{Kind: "resumed-you", Other: c.g.Wait.Side, At: nd})
	c.say("you-resume", templates.Notice{At: nd})
	return c.rec.save(c.t)
}

func cmdForce(c *call) error {
	if c.g.Status != store.Active {
		return refuse("paused", templates.Notice{})
	}
	w := c.g.Wait
	what, ok := c.sys.Defaults(w.Kind)
	if !ok || !w.Open() {
		return refuse("no-default", templates.Notice{Note: c.sys.Waiting(w, adjudicator.NoSide)})
	}
	n := templates.Notice{Kind: "force", Other: w.Side, Turn: w.Turn, Wait: w.Kind}
	if err := c.note(n); err != nil {
		return err
	}
	if h := c.rec.Held; h != nil {
		c.rec.notice(templates.Notice{Kind: "held-dropped", Side: h.Side})
	}
	u := c.umpireNotice("force", templates.Notice{Kind: "force-detail", Other: w.Side, Turn: w.Turn, Wait: w.Kind, Applied: what})
	if err := c.s.applyDefault(c.t, c.rec, c.now, playerHeads(c.sys, u)); err != nil {
		return err
	}
	c.say("you-force", templates.Notice{Applied: what})
	return nil
}

func cmdRollback(c *call) error {
	if len(c.args) < 1 {
		return refuse("rollback-how", templates.Notice{})
	}
	to, err := strconv.ParseUint(c.args[0], 10, 64)
	if err != nil {
		return refuse("not-entry", templates.Notice{Note: c.args[0]})
	}
	n := templates.Notice{Kind: "rollback", To: to, Note: strings.Join(c.args[1:], " ")}
	u := c.umpireNotice("rollback", templates.Notice{Kind: "rollback-detail", To: to})
	u.Reason = n.Note
	if err := c.rollback(to, n, &u); err != nil {
		return err
	}
	c.say("you-rollback", templates.Notice{To: to, Note: c.sys.Waiting(c.g.Wait, adjudicator.NoSide), At: c.g.Deadline})
	return nil
}

func cmdReplace(c *call) error {
	if len(c.args) != 2 {
		return refuse("replace-how", templates.Notice{})
	}
	side, err := adjudicator.ParseSide(strings.ToLower(c.args[0]))
	if err != nil || (side != adjudicator.US && side != adjudicator.JP) {
		return refuse("not-side", templates.Notice{Note: c.args[0]})
	}
	if IsBot(c.args[1]) {
		return c.replaceBot(side)
	}
	addr := bareAddress(c.args[1])
	if !strings.Contains(addr, "@") {
		return refuse("not-address", templates.Notice{Note: c.args[1]})
	}
	token, err := store.NewToken()
	if err != nil {
		return err
	}
	old, _ := c.g.Player(side)
	// A side handed back from the stand-in gets what it saw meanwhile.
	var seen []json.RawMessage
	if c.rec.isBot(side) {
		log, err := logSince(c.t, c.rec, side)
		if err != nil {
			return err
		}
		seen = eventsSince(log, c.rec.Reported[side])
	}
	c.t.SetPlayer(side, addr, token)
	c.rec.setBot(side, false)
	n := templates.Notice{Kind: "replace", Other: side}
	if err := c.note(n); err != nil {
		return err
	}
	st, err := c.s.positionIn(c.t)
	if err != nil {
		return err
	}
	m, err := c.s.welcomeMail(&c.g, c.rec, st, side, token, seen)
	if err != nil {
		return err
	}
	c.t.Queue(m)
	c.handedOver(side, old.Address, addr, n)
	c.say("you-replace", templates.Notice{Other: side, Note: addr})
	return c.rec.save(c.t)
}

// handedOver tells the former player of side, at old, that they no
// longer play it, and the opponent that the side changed hands (not to
// whom: addr is the new address, empty for the stand-in).
func (c *call) handedOver(side adjudicator.Side, old, addr string, n templates.Notice) {
	if old != "" && !sameAddress(old, addr) {
		f := templates.Farewell{Game: c.g.ID, Side: side, StandIn: addr == ""}
		c.t.Queue(c.s.newMail(&c.g, "notice", old, f.Subject(), f.Text()))
	}
	c.s.notify(c.t, &c.g, side.Enemy(), c.umpireNotice("replace", n))
}

func cmdEnd(c *call) error {
	result := templates.Notice{Kind: "result-end", Note: strings.Join(c.args, " ")}.Text()
	st, err := c.s.positionIn(c.t)
	if err != nil {
		return err
	}
	if err := c.note(templates.Notice{Kind: "end"}); err != nil {
		return err
	}
	if err := c.s.finish(c.t, c.rec, st, nil, result, nil, nil); err != nil {
		return err
	}
	c.say("you-end", templates.Notice{Note: result})
	return nil
}

func cmdReveal(c *call) error {
	if c.g.Status != store.Ended {
		return refuse("secret", templates.Notice{})
	}
	if err := c.note(templates.Notice{Kind: "reveal"}); err != nil {
		return err
	}
	c.say("you-reveal", templates.Notice{Seed: hex.EncodeToString(c.g.Seed), Commitment: c.g.Commitment})
	return c.rec.save(c.t)
}
