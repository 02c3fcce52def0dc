package referee

// The glue between the service and package templates, which words every
// mail: each function here fills a templates struct from the game's
// record. A report is built only from what its side may see: the side's
// View and Outlook and the events Redact keeps for it, never the position
// itself (DESIGN 4). The few texts left here are answers templates has
// no reply for: the generic refusal, the held file, a notice.

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// timeLayout is how mails write times: in UTC, to the minute.
const timeLayout = "Mon 2 Jan 2006 15:04 UTC"

func when(t time.Time) string {
	if t.IsZero() {
		return "none"
	}
	return t.UTC().Format(timeLayout)
}

// genericText is the one answer to a message that names no game its
// sender plays in, or does not authenticate. It is the same whatever the
// reason, so it tells nothing about any game.
func genericText() (subject, text string) {
	return "attu: your message was not accepted", `attu did not accept your message.

If you play a game here, check that:
  - you sent it from the address you registered for your side,
  - it goes to the game's own address (like attu+GAME@...) or carries the
    game's tag in the subject (like [attu GAME]),
  - your orders file carries your side's token from the welcome mail
    (token: ...), and so does a command that changes the game, on a line
    of its own outside any quoted text.

Send "help" to your game's address for the list of commands.

This answer is the same whatever the reason.
`
}

// heldText tells a player that their file is held for the settle window.
func heldText(due time.Time, replaced bool) string {
	var b strings.Builder
	if replaced {
		b.WriteString("These orders replace the ones you sent before, which will not be applied.\n\n")
	}
	fmt.Fprintf(&b, "Your orders are legal and will be applied at %s.\n\n", when(due))
	b.WriteString("Until then you may send a corrected file, which replaces this one, or send \"go\"\n" +
		"(with your token) to apply it at once. A file with \"now: true\" in its envelope is\n" +
		"applied at once as well.\n")
	return b.String()
}

// replacedText tells a player that the umpire gave their side to someone
// else.
func replacedText(side adjudicator.Side) string {
	return fmt.Sprintf("The umpire has given the %s side to another player. Your token no longer works.\n"+
		"Thank you for playing.\n", sideName(side))
}

// noticeText is a short notice about the game.
func noticeText(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// logText is the answer to "log": the record, a line an entry.
func logText(game string, lines []string) string {
	return fmt.Sprintf("The record of game %s as you may see it:\n\n%s\n", game, strings.Join(lines, "\n"))
}

// sideReport is side's report of the position st after the events evs,
// made only of what that side may see: its View and Outlook, and its
// version of each event it reads (adjudicator.Redact).
func (s *Service) sideReport(g *store.Game, rec *record, st *adjudicator.State, side adjudicator.Side, evs []adjudicator.Event) *templates.Report {
	o := st.Outlook(side)
	if g.Status == store.Ended {
		// A game ended by a concession or by the umpire awaits nothing,
		// whatever the position's last wait.
		o.Wait = adjudicator.Wait{Turn: o.Wait.Turn, Kind: adjudicator.WaitEnded}
	}
	return &templates.Report{
		Game: templates.Game{ID: g.ID, Name: rec.Name, Deadline: g.Deadline, Head: g.Head, Commitment: g.Commitment},
		Map:  st.Map(), View: st.View(side), Outlook: o,
		Events: adjudicator.VisibleEvents(evs, side),
	}
}

// reportSubject names a report by its turn and what the game waits for.
func reportSubject(r *templates.Report) string {
	return fmt.Sprintf("turn %d (%s): %s", r.View.Turn, adjudicator.TurnDate(r.View.Turn), templates.WaitPhrase(r.Outlook.Wait))
}

// noticesText is what happened besides the rules since the last report
// (the umpire's decisions, missed deadlines, takebacks), set above the
// report, which has no place for them.
func noticesText(g *store.Game, notices []string) string {
	var b strings.Builder
	if g.Status == store.Paused {
		notices = append([]string{"The game is paused by the umpire: no deadline runs until it resumes."}, notices...)
	}
	if len(notices) == 0 {
		return ""
	}
	b.WriteString("NOTICES\n")
	for _, n := range notices {
		fmt.Fprintf(&b, "  - %s\n", n)
	}
	b.WriteString("\n")
	return b.String()
}

// reportAttachments are the files of a report: the order template for
// the side awaited, the map as a picture, and the report for programs.
func reportAttachments(a *templates.Artefacts) []store.Attachment {
	var out []store.Attachment
	if a.TemplateName != "" {
		out = append(out, store.Attachment{Name: a.TemplateName, Type: "application/yaml", Data: []byte(a.Template)})
	}
	return append(out,
		store.Attachment{Name: "map.png", Type: "image/png", Data: a.PNG, Redrawable: true},
		store.Attachment{Name: "report.json", Type: "application/json", Data: a.JSON})
}

// reportMail is side's report as a mail of the given kind, with text as
// what comes before the report (a welcome, a final result); false when
// the side has no player.
func (s *Service) reportMail(g *store.Game, rec *record, st *adjudicator.State, side adjudicator.Side, evs []adjudicator.Event,
	kind, subject, before string) (store.Mail, bool, error) {
	if p, ok := g.Player(side); !ok || p.Address == "" {
		return store.Mail{}, false, nil
	}
	r := s.sideReport(g, rec, st, side, evs)
	a, err := r.Render()
	if err != nil {
		return store.Mail{}, false, err
	}
	if subject == "" {
		subject = reportSubject(r)
	}
	m, ok := s.toSide(g, side, kind, subject, before+noticesText(g, rec.Notices)+a.Text)
	m.Attachments = reportAttachments(a)
	return m, ok, nil
}

// welcomeText is the mail that carries a side's secret token, once; the
// side's first report follows it in the same mail.
func (s *Service) welcomeText(g *store.Game, name string, side adjudicator.Side, token string, settle time.Duration) string {
	w := templates.Welcome{Game: g.ID, Name: name, Scenario: g.Scenario, Side: side, Address: s.gameAddress(g),
		Token: token, Commitment: g.Commitment, Deadline: g.Options.Deadline, Reminder: g.Options.Reminder}
	if p, ok := g.Player(adjudicator.Umpire); ok && side != adjudicator.Umpire {
		w.Umpire = p.Address
	}
	text := w.Text()
	if settle > 0 {
		text += fmt.Sprintf("\nThis game holds each orders file for %s before applying it, so that you may send a corrected one in the meantime.\n", settle)
	}
	if side == adjudicator.Umpire {
		text += "\nPLAYERS\n"
		for _, p := range g.Players {
			if p.Side != adjudicator.Umpire {
				text += fmt.Sprintf("  %-8s %s\n", sideName(p.Side), p.Address)
			}
		}
	}
	return text + "\n"
}

// refused is the refusal of an authenticated player's file: each problem
// at its line and column, and those that lie at no line as the reason.
// The file's lines are not quoted back: a line may name hexes, and a
// refusal says nothing of the position beyond the mistake itself.
func refused(game, subject string, reason string, ps []store.Problem) templates.Refused {
	r := templates.Refused{Game: game, Subject: subject}
	reasons := []string{}
	if reason != "" {
		reasons = append(reasons, reason)
	}
	for _, p := range ps {
		if p.Line == 0 {
			reasons = append(reasons, p.Msg)
			continue
		}
		// The message keeps the line:col: prefix players and their tools
		// search for, besides the template's own words for the place.
		r.Errors = append(r.Errors, templates.LineError{Line: p.Line, Col: max(p.Col, 1), Msg: p.String()})
	}
	r.Reason = strings.Join(reasons, "; ")
	if r.Reason != "" && !strings.HasSuffix(r.Reason, ".") {
		r.Reason += "."
	}
	return r
}

// commandHelp is one command as the help lists it.
type commandHelp struct{ Usage, What string }

// helpText is the answer to "help": the commands every game takes, then
// every command side may give in this one.
func helpText(game, address string, side adjudicator.Side) string {
	var b strings.Builder
	b.WriteString(templates.Help{Game: game, Address: address, Umpire: side == adjudicator.Umpire}.Text())
	b.WriteString("\nEVERY COMMAND YOU MAY GIVE (* changes the game: put your token below it)\n")
	for _, c := range helpFor(side) {
		fmt.Fprintf(&b, "  %-22s %s\n", c.Usage, c.What)
	}
	return b.String()
}

// finalText is the last report's head: the result, the seed revealed, how
// to check every die, and the luck of the dice; the side's report
// follows it.
func finalText(g *store.Game, name string, o *adjudicator.Outlook, turn int, result, export string, luck *store.Luck) string {
	f := templates.Final{Game: g.ID, Name: name, Winner: o.Winner, Victory: o.Victory, Turn: turn,
		Seed: hex.EncodeToString(g.Seed), Commitment: g.Commitment, Head: g.Head, Export: export}
	if f.Victory == "" || f.Winner == adjudicator.NoSide {
		f.Victory = result
	}
	var buf bytes.Buffer
	luck.WriteText(&buf)
	return f.Text() + "\nDICE LUCK OVER THE WHOLE GAME\n" + buf.String() + "\n"
}

// overReason answers orders sent to a game that has ended.
const overReason = "This game is over and takes no more orders. The final report, with the seed and the file to audit every die, was mailed to every player."

// dropped tells a player that held orders could not be applied once the
// settle window closed.
func dropped(g *store.Game, ps []store.Problem) string {
	r := refused(g.ID, "", "The orders attu was holding for you were not applied, because the game changed while they waited", ps)
	r.Waiting = templates.WaitPhrase(g.Wait)
	return r.Text()
}

// whom names a side's player.
func whom(s adjudicator.Side) string {
	if s == adjudicator.Umpire {
		return "umpire"
	}
	return sideName(s) + " player"
}
