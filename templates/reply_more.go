package templates

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
)

// The replies of the game service besides reports, welcome, refusal and
// final report: its answers to commands, the notices it sends when
// something happens outside the rules, and the one sentence each thing
// that happens is recorded in the game's log with (Notice). Every word
// the service mails is here or in tmpl/reply-*.tmpl.

// Generic is the one answer to mail that names no game its sender plays
// in or does not authenticate: the same text whatever the reason, so it
// tells nothing about any game, not even whether it exists.
type Generic struct {
	Example string // the address a game named GAME is played at, like attu+GAME@example.org
}

// Held tells a player that a legal orders file waits out the game's
// settle window before it is applied.
type Held struct {
	Game     string
	Waiting  string // what the file answers (in the system's words)
	Due      time.Time
	Zone     *time.Location
	Replaced bool // true when the file replaces one held before
}

// Farewell tells a player that the umpire gave their side to someone
// else: their token no longer works.
type Farewell struct {
	Game    string
	Side    adjudicator.Side
	StandIn bool // the side went to attu's stand-in, not to a person
}

// Log is the answer to "log": the game's record as the asker may read
// it, one entry a line, each with the events of that entry below it.
type Log struct {
	Game    string
	Side    adjudicator.Side
	Entries []LogLine
	// Earlier and Next are left out to keep the answer short.
	Earlier int    // how many of the reader's entries come before the first shown
	Next    uint64 // the first entry after the last shown (0: none)
}

// Entry is what one entry of a game's log says, as the log answer and the
// replay page show it.
type Entry struct {
	Kind string // create, orders, rollback, end or note (store.Kind)
	// Turn, Wait and Side: the wait an orders entry answered; Side is who
	// wrote a note.
	Turn     int
	Wait     adjudicator.WaitKind
	Side     adjudicator.Side
	To       uint64 // the entry a rollback returned to
	UndoneBy uint64 // the rollback that undid the entry, 0 while in force
	Note     string // the words of a note, a rollback or the end
}

// LogItem is one log entry a side may read, as the game service hands it
// to a system to shape (its events each the JSON of one).
type LogItem struct {
	Seq    uint64
	Entry  Entry
	Events []json.RawMessage
}

// LogPart is one entry of the log as a system shapes it for its reader:
// the entry Seq itself (Made nil), or the part of it that a filed order
// would have made an entry of its own, titled Made; its events in words.
type LogPart struct {
	Seq    uint64
	Made   *Entry
	Events []string
}

// LogLine is one entry of the log as the log answer shows it.
type LogLine struct {
	// Seq is the entry's number as its reader counts: the umpire reads
	// every entry, a player not the other side's private notes; Entry's
	// references are numbered alike.
	Seq uint64
	Entry
	Events []string // the entry's events this side sees, each in words (EventText)
}

// TemplateAnswer is the answer to "template": a fresh order template for
// what the game waits for, attached and repeated in the body.
type TemplateAnswer struct {
	Game    string
	Waiting string
	Name    string
	Body    string
}

// Answer is the answer to a command that was carried out: what was done,
// in the sentences of Notice, and what the game waits for now.
type Answer struct {
	Game     string
	Command  string
	Says     []Notice
	Next     string           // what the game waits for now (in the system's words), empty for nothing
	Reader   adjudicator.Side // who the answer goes to: a player or the umpire
	Awaited  adjudicator.Side // whose orders Next is, NoSide when not told
	Deadline time.Time
	Zone     *time.Location
}

// NotDone is the answer to a command that was not carried out: why, in
// the sentence of Notice Why; nothing in the game changed.
type NotDone struct {
	Game    string
	Command string
	Why     Notice
}

// notNow are the refusals of a command that is right but comes when the
// game cannot carry it out: nothing in it is to be corrected.
var notNow = map[string]bool{
	"why-paused": true, "why-not-paused": true, "why-not-running": true, "why-no-wait": true,
	"why-no-step": true, "why-no-request": true, "why-request-lapsed": true, "why-no-held": true,
	"why-takeback-open": true, "why-over": true, "why-secret": true, "why-no-file": true,
}

// NotNow reports whether the command was refused for when it came, not for
// what it said.
func (n NotDone) NotNow() bool { return notNow[n.Why.Kind] }

// PlayerNotice tells a player or the umpire of something another player did
// that concerns them: a takeback asked or lapsed, an absence, a concession.
type PlayerNotice struct {
	Game     string
	Reader   adjudicator.Side // the side the notice goes to
	Notice   Notice
	Deadline time.Time // when an answer is due (a takeback's "agree")
	Zone     *time.Location
}

// Notices are what happened outside the rules since a side's last
// report, set above it: the umpire's decisions, commands, missed
// deadlines. Paused adds that the clock stands still.
type Notices struct {
	Paused bool
	Lines  []string
}

// Resend is a report mailed again at its player's request: only its
// subject differs from the report's.
type Resend struct{ Subject string }

// Notice is one thing that happens outside the rules, as one sentence:
// the log records it (store.KindNote), the next reports show it, and the
// answers and notices of the service say it. Kind selects the sentence,
// one of the "notice-KIND" templates of tmpl/reply-notices.tmpl; the
// other fields are what the sentence may need.
type Notice struct {
	Kind string
	// Side is who did it; Other the side it concerns (the opponent asked
	// to agree, the side given to a new player, the awaited side).
	Side, Other adjudicator.Side
	// Turn and Wait name a wait, Entry and To entries of the log.
	Turn     int
	Wait     adjudicator.WaitKind
	Entry    uint64
	To       uint64
	At       time.Time     // the time the sentence names (until, expiry, deadline)
	Duration time.Duration // a length of time
	Applied  string        // what default orders did
	Missed   int           // deadlines missed
	Note     string        // free words: the umpire's, a result, a reason
	Command  string        // a command's name
	// Seed and Commitment, for the umpire's "reveal" once the game is over.
	Seed, Commitment string
}

// Text renders the notice as one sentence (or a few), unwrapped.
func (n Notice) Text() string {
	return strings.Join(strings.Fields(execute("notice-"+n.Kind, n)), " ")
}

// Text renders the generic answer.
func (g Generic) Text() string { return execute("reply-generic.tmpl", g) }

// Subject is the generic answer's subject: it names no game.
func (Generic) Subject() string { return "attu: your message was not accepted" }

// Text renders the held notice.
func (h Held) Text() string { return execute("reply-held.tmpl", h) }

// Subject is the held notice's subject.
func (h Held) Subject() string { return "orders received, applied at " + DeadlineText(h.Due, nil) }

// Text renders the farewell.
func (f Farewell) Text() string { return execute("reply-farewell.tmpl", f) }

// Subject is the farewell's subject.
func (Farewell) Subject() string { return "you have been replaced" }

// Text renders the log.
func (l Log) Text() string { return execute("reply-log.tmpl", l) }

// Text renders the template answer.
func (a TemplateAnswer) Text() string { return execute("reply-template.tmpl", a) }

// Text renders the answer to a command.
func (a Answer) Text() string { return execute("reply-answer.tmpl", a) }

// Short is the answer's sentences alone, for the command line.
func (a Answer) Short() string {
	var says []string
	for _, n := range a.Says {
		says = append(says, n.Text())
	}
	return strings.Join(says, "\n")
}

// Text renders the refusal of a command.
func (n NotDone) Text() string { return execute("reply-notdone.tmpl", n) }

// Attached says, at the end of a report, what needs saying of its
// attachments: that the picture was left out because the reader's map
// has not changed, and what report.json is, when the reader asked for it.
type Attached struct{ Picture, JSON bool }

// Text words it; empty when the picture is there and report.json is not.
func (a Attached) Text() string { return execute("report-attached.tmpl", a) }

// DigestSubject is the subject of the umpire's daily digest of a game in
// turn turn (date names it), waiting for waiting (a system's words).
func DigestSubject(turn int, date, waiting string) string {
	return fmt.Sprintf("digest: %s, waiting for %s", TurnWords(turn, date), waiting)
}

// Subject is the welcome's subject.
func (w Welcome) Subject() string {
	if w.Side == adjudicator.Umpire {
		return "welcome: you umpire this game"
	}
	return "welcome: you play the " + SideTitle(w.Side) + " side"
}

// Subject is the final report's subject: how the game ended, in the
// words of the report's second line.
func (f Final) Subject() string {
	f = f.conceded()
	if f.Winner == adjudicator.NoSide {
		return "the game is over, without a winner: " + cmp.Or(f.Victory, "ended by the umpire")
	}
	return "the game is over: " + SideTitle(f.Winner) + " victory: " + f.Victory
}

// Subjects of the refusals of an orders file.
const (
	RefusedSubject     = "your orders were not applied"      // the subject of a refused file
	HeldRefusedSubject = "your held orders were not applied" // the subject of held orders dropped
	OverSubject        = "this game is over"                 // the subject of orders sent to a game that ended
)

// Subject is the subject of the refusal of a command.
func (n NotDone) Subject() string { return n.Command + ": not done" }

// Text renders the notice.
func (p PlayerNotice) Text() string { return execute("reply-notice.tmpl", p) }

// Subject is the notice's subject.
func (p PlayerNotice) Subject() string {
	return strings.TrimSpace(execute("subject-"+p.Notice.Kind, p.Notice))
}

// Text renders the notices above a report; empty when there are none.
func (n Notices) Text() string {
	if !n.Paused && len(n.Lines) == 0 {
		return ""
	}
	return execute("reply-notices.tmpl", n)
}

// Title is the subject of a report mailed again.
func (r Resend) Title() string { return r.Subject + " (sent again)" }

// Subject is the umpire notice's subject.
func (u UmpireNotice) Subject() string { return "the umpire: " + u.Action }

// Subject is the reminder's subject.
func (r Reminder) Subject() string {
	return "reminder: your orders are due by " + DeadlineText(r.Deadline, nil)
}

// Subject is the subject of the notice of a missed deadline.
func (d DeadlinePassed) Subject() string { return "deadline passed: default orders applied" }
