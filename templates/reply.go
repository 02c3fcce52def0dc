package templates

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/attu-pbem/attu/adjudicator"
)

// Welcome is the mail each player gets when a game is created: the
// player's side and secret token, the dice commitment, and how to play.
type Welcome struct {
	Game       string
	Name       string
	Scenario   string
	Side       adjudicator.Side
	Address    string // where orders go, e.g. attu+g1@example.org
	Umpire     string // the umpire's address, when there is one
	Token      string // the side's secret: the one secret a reply carries
	Commitment string
	Deadline   time.Duration   // the time allowed for each wait
	Reminder   time.Duration   // how long before the deadline a reminder comes
	Settle     time.Duration   // how long each orders file is held before it is applied
	Players    []PlayerAddress // the players' addresses, told to the umpire only
	// Copies is how the umpire is mailed: "every" report, one a "turn",
	// or a daily "digest" (also when empty); told to the umpire only.
	Copies string
	// Waiting is what the game waits for (in the system's words), and Awaited true
	// when it waits for this side, whose report below the welcome asks.
	Waiting string
	Awaited bool
	// StandIn lists the sides attu's stand-in plays; a person plays the
	// others, except RulesSide, which the system's own rules play, as
	// RulesPlay says in its words (NoSide and nothing: none).
	StandIn   []adjudicator.Side
	RulesSide adjudicator.Side
	RulesPlay string
	Words     Words // the game system's
}

// Words are what a system says of itself in the frame's mails: its
// title, and its default orders in brief, for the welcome (Defaults: "a
// day turn without refit, or no activations") and for a reminder, wait
// by wait (EachDefault: "for a decision, …; for actions, …").
type Words struct {
	Title       string
	Defaults    string
	EachDefault string
}

// Seats says who plays each side, for the welcome: "you", "a person",
// "the rules" (the system's own, as RulesPlay says) or "the stand-in".
func (w Welcome) Seats() []Seat {
	var out []Seat
	for _, s := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		who := "a person"
		switch {
		case s == w.Side:
			who = "you"
		case s == w.RulesSide && w.RulesPlay != "":
			who = "the rules"
		case slices.Contains(w.StandIn, s):
			who = "the stand-in"
		}
		out = append(out, Seat{Side: s, Who: who})
	}
	return out
}

// Seat is a side and who plays it.
type Seat struct {
	Side adjudicator.Side
	Who  string
}

// PlayerAddress is a side and the address it plays from.
type PlayerAddress struct {
	Side    adjudicator.Side
	Address string
}

// Accepted is the reply to an order file that was applied.
type Accepted struct {
	Game string
	Side adjudicator.Side
	// Turn and Wait are what the file answered; Date names the turn as
	// the system does ("May 11").
	Turn int
	Wait adjudicator.WaitKind
	Date string
	// Held says in the system's words what the file held, to follow the
	// sentence (", 3 activations"), empty for nothing to say.
	Held     string
	Standing bool // the file changed standing instructions
	// Next says what the game waits for now (in the system's words); Awaited is true
	// when that is this player again (the report with the next template
	// follows).
	Next    string
	Awaited bool
	Over    bool   // the file ended the game: the final report follows
	Head    string // the chain head after the orders were applied
	// Alone is true when no report follows in the same mail: what the
	// orders did rides in the player's next report.
	Alone bool
}

// Subject is the subject of an acceptance mailed on its own.
func (a Accepted) Subject() string {
	return fmt.Sprintf("accepted: your %s for %s", a.what(), TurnWords(a.Turn, a.Date))
}

// what names what the file answered: its wait's orders without the
// side the subject already addresses ("decision orders" for the wait
// us-decision), or just "orders" for a wait named so.
func (a Accepted) what() string {
	w := strings.TrimPrefix(strings.TrimPrefix(string(a.Wait), "us-"), "jp-")
	if w == "orders" {
		return w
	}
	return w + " orders"
}

// Refused is the reply to an order file or a mail that was not applied.
type Refused struct {
	Game    string
	Subject string // of the mail refused, to help the player find it
	// Reason is one sentence for a refusal of the whole mail (wrong
	// token, not a player of the game, no orders found); empty when
	// Errors says what is wrong.
	Reason string
	Errors []LineError // the mistakes in the file, each at its line and column
	// File is the order file as received, to quote the lines at fault;
	// the value of its token is never quoted.
	File    []byte
	Waiting string // what the game waits for now, when the file did not answer it
	// Ref is the reference of an internal error, matching the server's
	// log line; empty for a player's mistake.
	Ref string
	// Why is the kind of the Notice that gave the Reason ("why-over",
	// "why-file-paused", ...), for what the reply says to do.
	Why string
	// Stopped: the checker stopped collecting mistakes at a limit
	// (orders.MaxErrors), so the file may hold more than Errors.
	Stopped bool
}

// LineError is one mistake in a file.
type LineError struct {
	Line, Col int
	Msg       string
}

// Help is the reply to "help": the commands a player (and the umpire)
// may mail.
type Help struct {
	Game    string
	Address string
	Umpire  bool // list the umpire's commands instead of the players'
	Puzzled bool // the mail held neither orders nor a command
	// Tokenless is how many mails without the token attu answers from
	// one address in a day (the rest go unanswered); zero leaves it unsaid.
	Tokenless int
	// Skipped are the parts of a puzzling mail that attu did not read,
	// each named with what to send instead.
	Skipped []SkippedPart
}

// Status is the reply to "status": where the game stands.
type Status struct {
	Game          string
	Name          string
	Scenario      string
	Turn          int
	Date          string // the turn's, as the system names it
	Waiting       string // what the game waits for (in the system's words)
	Paused        bool   // the umpire has stopped the clock
	Deadline      time.Time
	Zone          *time.Location
	Head          string
	Commitment    string         // the dice commitment (the seed stays secret until the end)
	Players       []PlayerStatus // the sides and when each last sent accepted orders
	Umpire        bool           // the umpire asked: what to do is the umpire's
	Result        string         // how the game ended, empty while it runs
	Held          time.Time      // when the orders of HeldBy held for the settle window will be applied (zero: none held)
	HeldBy        adjudicator.Side
	TakebackBy    adjudicator.Side // asked to take back the last step (NoSide: no request)
	TakebackUntil time.Time        // when that request lapses
}

// PlayerStatus is one player in a status reply.
type PlayerStatus struct {
	Side       adjudicator.Side
	LastOrders time.Time // zero when none yet
	Missed     int       // deadlines missed
	Away       time.Time // until when the player declared an absence (zero: none)
}

// Reminder warns a player that a deadline is near.
type Reminder struct {
	Game     string
	Side     adjudicator.Side
	Waiting  string // what the game waits for (in the system's words)
	Deadline time.Time
	Zone     *time.Location
	Left     time.Duration // how long remains
	Template string        // the order template attached to the last report
	Words    Words         // the game system's
}

// DeadlinePassed tells the players and the umpire that a side missed a
// deadline and its default orders were applied.
type DeadlinePassed struct {
	Game     string
	Side     adjudicator.Side // who missed it
	Waiting  string           // the wait that ran out (in the system's words)
	Deadline time.Time
	Zone     *time.Location
	Applied  string // what the default orders did, e.g. "no activations"
	Next     string // what the game waits for now
	Missed   int    // how many deadlines that side has now missed
}

// UmpireNotice tells the players of an umpire's decision: extend, pause,
// resume, force, rollback, replace or end.
type UmpireNotice struct {
	Game     string
	Action   string
	Detail   string // what changed: "the deadline moves to ...", "the game returns to ..."
	Reason   string // the umpire's note
	Deadline time.Time
	Zone     *time.Location
	Next     string
	Reader   adjudicator.Side // the player told
	Awaited  adjudicator.Side // whose orders Next is, NoSide when not told
	Head     string
}

// Final is the last report: who won, the revealed seed and how to audit
// the game.
type Final struct {
	Game       string
	Name       string
	Winner     adjudicator.Side // NoSide when the game ended without one
	Victory    string           // why
	Turn       int
	Date       string // the turn's, as the system names it
	Seed       string // the dice seed, hex, revealed now
	Commitment string // published at the start: SHA-256 of the seed
	Head       string
	Export     string // the file name of the exported game attached, for "attu audit"
	Luck       string // the game's dice luck, as attu audit writes it (store.Luck.WriteText)
}

// Text renders the welcome mail.
func (w Welcome) Text() string { return execute("reply-welcome.tmpl", w) }

// Text renders the acceptance.
func (a Accepted) Text() string { return execute("reply-accepted.tmpl", a) }

// Text renders the refusal, quoting each line at fault with its token value
// blanked: the first MaxListed mistakes, and how many more there are.
func (r Refused) Text() string {
	type quoted struct {
		Where string
		Msg   []string
		Line  string
		Caret string
	}
	lines := strings.Split(strings.ReplaceAll(string(r.File), "\r\n", "\n"), "\n")
	errs := slices.Clone(r.Errors)
	slices.SortStableFunc(errs, func(a, b LineError) int { return cmp.Or(a.Line-b.Line, a.Col-b.Col) })
	more := max(len(errs)-MaxListed, 0)
	errs = errs[:len(errs)-more]
	var qs []quoted
	for _, e := range errs {
		q := quoted{Where: fmt.Sprintf("line %d, column %d", e.Line, e.Col)}
		q.Msg = WrapLines(quote(e.Msg), "  ", "  ")
		if e.Line >= 1 && e.Line <= len(lines) && r.File != nil {
			l := quoteLine(lines[e.Line-1])
			q.Line = fmt.Sprintf("  %4d | %s", e.Line, l)
			if e.Col >= 1 && e.Col <= utf8.RuneCountInString(l)+1 {
				q.Caret = "       | " + strings.Repeat(" ", e.Col-1) + "^"
			}
		}
		qs = append(qs, q)
	}
	r.Subject = quote(r.Subject)
	if len(r.Reason) > 4*maxQuoted {
		r.Reason = strings.ToValidUTF8(r.Reason[:4*maxQuoted], "") + "..."
	}
	return execute("reply-refused.tmpl", struct {
		Refused
		Quoted []quoted
		Found  int
		More   int
	}{r, qs, len(qs) + more, more})
}

// tokenValue finds a token's value in a line of an order file, wherever
// the player wrote it, to keep it out of replies.
var tokenValue = regexp.MustCompile(`(?i)(token\s*:\s*)("[^"]*"|'[^']*'|[^\s,}\]#]+)`)

// quoteLine prepares a line of a player's file for quoting: any token's
// value blanked, tabs shown as spaces, cut to fit.
func quoteLine(l string) string {
	l = tokenValue.ReplaceAllString(l, "${1}(your token, not repeated here)")
	l = strings.ReplaceAll(l, "\t", " ")
	if utf8.RuneCountInString(l) > MaxWidth-9 {
		r := []rune(l)
		l = string(r[:MaxWidth-12]) + "..."
	}
	return l
}

// Text renders the help.
func (h Help) Text() string {
	return execute("reply-help.tmpl", struct {
		Help
		SkippedLines []string
	}{h, skippedLines(h.Skipped)})
}

// Text renders the status.
func (s Status) Text() string { return execute("reply-status.tmpl", s) }

// Text renders the reminder.
func (r Reminder) Text() string { return execute("reply-reminder.tmpl", r) }

// Text renders the notice of a missed deadline.
func (d DeadlinePassed) Text() string { return execute("reply-deadline.tmpl", d) }

// Text renders the umpire's notice.
func (u UmpireNotice) Text() string { return execute("reply-umpire.tmpl", u) }

// Text renders the final report. A game one side conceded reads as the
// other side's victory, for that is what the concession gives.
func (f Final) Text() string { return execute("reply-final.tmpl", f.conceded()) }

// conceded reads a concession as the winner's victory.
func (f Final) conceded() Final {
	if f.Winner == adjudicator.NoSide {
		for _, s := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
			if f.Victory == (Notice{Kind: "result-concede", Side: s}).Text() {
				f.Winner, f.Victory = s.Enemy(), Notice{Kind: "conceded", Side: s}.Text()
			}
		}
	}
	return f
}

// hours writes a duration in words, to the minute: "2 days", "31 hours",
// "5 hours 20 minutes", "20 minutes".
func hours(d time.Duration) string {
	m := int(d.Round(time.Minute) / time.Minute)
	h, m := m/60, m%60
	switch {
	case m == 0 && h%24 == 0 && h >= 48:
		return fmt.Sprintf("%d days", h/24)
	case m == 0:
		return Plural(h, "hour")
	case h == 0:
		return Plural(m, "minute")
	}
	return Plural(h, "hour") + " " + Plural(m, "minute")
}

// umpireCopies says, in a sentence to the umpire, what its copies mode
// (Welcome.Copies) mails it.
func umpireCopies(mode string) string {
	switch mode {
	case "every":
		return "you get a copy of every report of both sides, with everything that happened outside the rules (commands, missed deadlines) above it."
	case "turn":
		return "you get one report a turn, with everything that happened since your last one, outside the rules too (commands, missed deadlines)."
	}
	return "you get a digest once a day when something happened: a report of everything since your last one, outside the rules too (commands, missed deadlines)."
}

// nextWho says to reader what the orders the game waits for, those of
// awaited, ask of it; change adds that the template may have changed with
// the decision just told.
func nextWho(reader, awaited adjudicator.Side, change bool) string {
	again := "mail resend to get it again"
	if change {
		again += ", with any change this brings"
	}
	switch {
	case reader == adjudicator.Umpire:
		return "The players' reports carry their templates; nothing is needed from you."
	case awaited == adjudicator.NoSide:
		return "If that is you, send your orders from the template of your last report (" + again + ")."
	case reader == awaited:
		return "They are yours: send them from the template of your last report (" + again + ")."
	}
	return "They are the " + SideTitle(awaited) + " player's: nothing is needed from you now."
}

// TurnWords names a game-turn with the date its system gives it ("turn 3
// (May 13)"), or by its number alone when the system gives none.
func TurnWords(turn int, date string) string {
	if date == "" {
		return fmt.Sprintf("turn %d", turn)
	}
	return fmt.Sprintf("turn %d (%s)", turn, date)
}

// replyFuncs are the helpers reply templates use.
var replyFuncs = map[string]any{
	"nextWho": nextWho,
	"side":    SideTitle,
	"turn":    TurnWords,
	"when":    DeadlineText,
	"hours":   hours,
	"plural":  Plural,
	"copies":  umpireCopies,
	"ago": func(t time.Time) string {
		if t.IsZero() {
			return "none yet"
		}
		return t.UTC().Format("Mon 2 Jan 2006 15:04 MST")
	},
	"lower": strings.ToLower,
	"enemy": adjudicator.Side.Enemy,
	"trim":  strings.TrimSpace,
	// sidesOf names the sides an address plays: "the U.S. side", "the
	// U.S. side and the umpire's".
	"sidesOf": func(ss []adjudicator.Side) string {
		var names []string
		for _, s := range ss {
			if s == adjudicator.Umpire {
				names = append(names, "the umpire's")
			} else {
				names = append(names, "the "+SideTitle(s)+" side")
			}
		}
		return strings.Join(names, " and ")
	},
}
