package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/mail/loopback"
	windorders "github.com/attu-pbem/attu/orders/wind"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates"
	"github.com/attu-pbem/attu/templates/island"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

func init() {
	registerFunc("demo", "play a scripted game by mail through an embedded mail server, then audit it", runDemo)
}

const demoUsage = `Usage: attu demo [-system NAME] [-turns N] [-seed HEX] [-keep DIR] [-servers loopback|real|FILE]

Plays a whole game by mail on this machine, with nothing to configure: it
starts a small IMAP and SMTP server on 127.0.0.1, opens a game database,
starts the mail daemon (the same loop as attu serve) and creates a game
with the historic setup, two players and an umpire. Two scripted players
then read their mail over IMAP, take the order template from each report,
decide with a random legal player from their own side's position, put
their secret token in and answer by SMTP. After N turns the umpire ends
the game; the demo prints the reports each side received, exports the
game and audits it.

The same seed plays the same game: the dice come from it, and so do the
players' choices.

With -servers real the same game goes through Dovecot and Postfix started
by scripts/mailservers.sh (their mailboxes are emptied first): the players
send to Postfix, which delivers into Dovecot by LMTP; attu reads Dovecot
over IMAP with STARTTLS and sends through Postfix submission with a
password.

With -system island-war the game is Island War's Ridge 42, played to
its end (8 Game-Turns, unless -turns says fewer): each player mails the
file attu's stand-in writes for the wait, and the Japanese standing
instructions ask to see the U.S. attacks (defence waits). The demo
prints how many mails each player received per Game-Turn.

Examples:
  attu demo
  attu demo -system island-war
  attu demo -turns 3 -seed 1943 -keep /tmp/attu-demo
  ATTU_MAILSERVERS=$(scripts/mailservers.sh start) attu demo -servers real

Flags:
`

// defaultDemoSeed plays a game whose first five turns have a night turn,
// a melee and a refit turn.
const defaultDemoSeed = "06"

func runDemo(s *session) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	turns := fs.Int("turns", 5, "how many turns to play before the umpire ends the game")
	seedHex := fs.String("seed", defaultDemoSeed, "the seed of the dice and of the players' choices, in hex")
	keep := fs.String("keep", "", "write the database, the log and the mails here (default: a new temporary directory)")
	timeout := fs.Duration("timeout", 55*time.Second, "give up after this long")
	system := fs.String("system", systemNames()[0], "the game system to play: "+strings.Join(systemNames(), ", "))
	servers := fs.String("servers", "loopback", "the mail servers: loopback (the demo's own), real (Dovecot and Postfix of scripts/mailservers.sh, found through $ATTU_MAILSERVERS), or the path of that script's environment file")
	argv, err := s.parse(fs, demoUsage)
	if err != nil {
		return err
	}
	if len(argv) != 0 || *turns < 1 {
		return usageErr("takes only flags, and -turns must be at least 1 (attu demo -h)")
	}
	if _, err := shippedOnly().named(*system); err != nil {
		return usageErr("-system: %v (attu demo -h)", err)
	}
	if *system == island.Name && !flagSet(fs, "turns") {
		*turns = islandDemoTurns
	}
	seedBytes, err := hex.DecodeString(strings.TrimPrefix(*seedHex, "0x"))
	if err != nil || len(seedBytes) == 0 {
		return usageErr("-seed %q: want hex digits, like -seed 06", *seedHex)
	}
	dir := *keep
	if dir == "" {
		dir, err = os.MkdirTemp("", "attu-demo-")
	} else {
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	ctx, stop := rootContext()
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if err := demo(ctx, s.stdout, dir, *turns, seedBytes, *servers, *system); err != nil {
		return fmt.Errorf("%v\n(the log is in %s)", err, filepath.Join(dir, "attu.log"))
	}
	return nil
}

// demo plays the game; everything it writes goes to dir.
func demo(ctx context.Context, out io.Writer, dir string, turns int, seed []byte, servers, system string) error {
	start := time.Now()
	// The log, the export and the mails hold the players' tokens and
	// every hidden fact: the operator's eyes only.
	logf, err := createPrivate(filepath.Join(dir, "attu.log"))
	if err != nil {
		return err
	}
	defer logf.Close()
	lg := newLogger(logf, slog.LevelInfo)

	sys, err := openMailSystem(servers)
	if err != nil {
		return err
	}
	defer sys.Close()

	dbPath := filepath.Join(dir, "attu.db")
	os.Remove(dbPath) // a kept directory from an earlier run
	db, err := store.Open(dbPath, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	gameSeed := sha256.Sum256(append([]byte("attu demo dice\x00"), seed...))
	game := referee.NewGame{ID: "demo", Name: "Attu demo", Setup: "historic", Seed: gameSeed[:]}
	if system == island.Name {
		game = referee.NewGame{System: island.Name, ID: "demo", Name: "Island War demo", Scenario: island.DefaultScenario, Seed: gameSeed[:]}
	}
	pg, err := playByMail(ctx, mailPlay{
		Sys: sys, DB: db, DBPath: dbPath, Log: lg, Out: out, Turns: turns, Seed: seed,
		Game:  game,
		Ahead: true,
	})
	if err != nil {
		return err
	}
	id, players := pg.ID, pg.Players

	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		players[side].print(out)
	}

	x, err := db.Export(id, false)
	if err != nil {
		return err
	}
	exportPath := filepath.Join(dir, id+".json")
	var buf bytes.Buffer
	if err := x.WriteJSON(&buf); err != nil {
		return err
	}
	if err := replaceFile(exportPath, buf.Bytes(), 0o600); err != nil {
		return err
	}
	x, err = store.ReadExport(bytes.NewReader(buf.Bytes()))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "==== The audit of the export (attu audit %s) ====\n\n", exportPath)
	rules, err := shippedOnly().named(x.SystemName())
	if err != nil {
		return err
	}
	rep := store.Audit(x, rules)
	rep.WriteText(out)

	mailDir := filepath.Join(dir, "mail")
	ds, err := sys.Mails()
	if err != nil {
		return err
	}
	n, err := writeDeliveries(mailDir, ds)
	if err != nil {
		return err
	}
	us, jp := players[adjudicator.US], players[adjudicator.JP]
	fmt.Fprintf(out, "\n==== Where everything is ====\n\n")
	fmt.Fprintf(out, "  database   %s   (attu status -db %s; attu show -db %s %s)\n", dbPath, dbPath, dbPath, id)
	fmt.Fprintf(out, "  export     %s\n", exportPath)
	fmt.Fprintf(out, "  mails      %s   (%d mails, one .eml file each)\n", mailDir, n)
	fmt.Fprintf(out, "  log        %s\n", filepath.Join(dir, "attu.log"))
	if system == island.Name {
		played := min(turns, islandDemoTurns)
		printMailCounts(out, countMails(ds, "alice", "bob", "carol"), played)
		fmt.Fprintf(out, "\nPlayed %s by mail (%d U.S., %d Japanese), %s answered; %s.\n",
			templates.Plural(us.files+jp.files, "order file"), us.files, jp.files, templates.Plural(us.defences+jp.defences, "defence wait"),
			time.Since(start).Round(100*time.Millisecond))
		if !rep.OK() {
			return errors.New("the audit failed")
		}
		return nil
	}
	fmt.Fprintf(out, "\nPlayed %s by mail (%d U.S., %d Japanese): %s, %s, %s declared; %s.\n",
		templates.Plural(us.files+jp.files, "order file"), us.files, jp.files, templates.Plural(us.nights, "night turn"),
		templates.Plural(us.refits, "refit turn"), templates.Plural(us.melees+jp.melees, "melee"), time.Since(start).Round(100*time.Millisecond))
	if !rep.OK() {
		return errors.New("the audit failed")
	}
	return nil
}

// orderFile writes orders as a player would mail them (windorders.Write),
// saying who wrote them.
func orderFile(game, token string, o wind.Orders) ([]byte, error) {
	b, err := windorders.Write(game, token, o)
	if err != nil {
		return nil, err
	}
	return append([]byte("# orders written by the demo's random player\n"), b...), nil
}

func randomPassword() string {
	var b [9]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// writeDeliveries writes each delivered mail to dir as NNN-to-USER.eml,
// mode 0600 (they carry the players' tokens), and returns how many.
func writeDeliveries(dir string, ds []loopback.Delivery) (int, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	for i, d := range ds {
		name := fmt.Sprintf("%03d-to-%s.eml", i+1, d.User)
		if err := replaceFile(filepath.Join(dir, name), d.Data, 0o600); err != nil {
			return 0, err
		}
	}
	return len(ds), nil
}

// demoPlayer is a scripted player: it reads its mail over IMAP, answers
// each report that carries its order template with random legal orders
// (autoplay) and its token, by SMTP.
type demoPlayer struct {
	side  adjudicator.Side
	addr  string
	db    *store.DB
	turns int
	pick  func(int) int
	// steer, when set, overrides the U.S. decision of the turns it
	// answers for (the end-to-end tests use it to reach every wait).
	steer func(turn int) *wind.Decision
	// ahead, for the U.S., gives each next turn's decision in advance
	// with its last file of a turn (standing: decision:), as a player
	// who does not want to be asked each turn would.
	ahead bool
	inbox *mail.Inbox
	smtp  string // host:port of the SMTP server
	log   *slog.Logger

	mu       sync.Mutex
	token    string
	received []*mail.Message
	sizes    []int // of each mail received, as delivered
	answered map[string]bool
	over     bool
	// island: the game is Island War's, answered with the stand-in's
	// files (answerIsland).
	island bool
	// What the player's files asked for, for the summary.
	files, nights, refits, melees, defences int
}

// send answers the game's mail msg with the orders attached as a file
// called name, as a person's mail program would: multipart/mixed, a
// short text and the attachment, no Auto-Submitted (mail.Sender marks
// everything it sends as automatic, which attu rightly never answers).
func (p *demoPlayer) send(ctx context.Context, msg *mail.Message, name string, orders []byte) error {
	var b bytes.Buffer
	hdr := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	hdr("From", "<"+p.addr+">")
	hdr("To", "<"+msg.From+">")
	hdr("Subject", mime.QEncoding.Encode("utf-8", "Re: "+msg.Subject))
	hdr("Date", time.Now().Format(time.RFC1123Z))
	hdr("Message-ID", daemon.NewMessageID(p.addr))
	if msg.MessageID != "" {
		hdr("In-Reply-To", "<"+msg.MessageID+">")
		hdr("References", "<"+msg.MessageID+">")
	}
	const boundary = "attu-demo-orders"
	hdr("MIME-Version", "1.0")
	hdr("Content-Type", `multipart/mixed; boundary="`+boundary+`"`)
	b.WriteString("\r\n--" + boundary + "\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMy orders are attached.\r\n")
	b.WriteString("--" + boundary + "\r\nContent-Type: application/yaml; charset=utf-8\r\n")
	b.WriteString(`Content-Disposition: attachment; filename="` + name + "\"\r\n\r\n")
	b.WriteString(strings.ReplaceAll(strings.TrimRight(string(orders), "\n"), "\n", "\r\n"))
	b.WriteString("\r\n--" + boundary + "--\r\n")

	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := new(net.Dialer).DialContext(dctx, "tcp", p.smtp)
	if err != nil {
		return err
	}
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	c := smtp.NewClient(conn)
	defer c.Close()
	if err := c.SendMail(p.addr, []string{msg.From}, &b); err != nil {
		return err
	}
	return c.Quit()
}

// isOver tells whether the player received the game's final report.
func (p *demoPlayer) isOver() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.over
}

// handle reads one mail from the game.
func (p *demoPlayer) handle(ctx context.Context, in *mail.Incoming) error {
	raw, err := in.Fetch(ctx)
	if err != nil {
		return err
	}
	msg, err := mail.Extract(bytes.NewReader(raw), mail.Limits{})
	if err != nil {
		p.log.Warn("unreadable mail", "err", err)
		return nil
	}
	p.mu.Lock()
	p.received, p.sizes = append(p.received, msg), append(p.sizes, len(raw))
	if tok := tokenIn(msg.Text); tok != "" {
		p.token = tok
	}
	if strings.Contains(msg.Subject, "the game is over") {
		p.over = true
	}
	p.mu.Unlock()
	if p.island {
		return p.answerIsland(ctx, msg)
	}
	tmpl := templateIn(msg)
	if tmpl == nil && strings.Contains(msg.Text, ": your orders.") {
		// The setup waits of rule 12 come with no order template: the
		// player writes the file itself (orders/doc.go) for the wait its
		// report names.
		tmpl, err = p.setupEnvelope()
		if err != nil {
			return err
		}
	}
	if tmpl == nil {
		return nil
	}
	return p.answer(ctx, msg, tmpl)
}

// setupEnvelope returns the head of an orders file for the setup wait
// that awaits the player, nil when none does.
func (p *demoPlayer) setupEnvelope() ([]byte, error) {
	ids, err := p.db.Games()
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		g, err := p.db.Game(id)
		if err != nil {
			return nil, err
		}
		if w := g.Wait; w.Side == p.side && (w.Kind == wind.WaitJPSetup || w.Kind == wind.WaitUSLanding) {
			return fmt.Appendf(nil, "game: %s\nside: %s\nturn: %d\nwait: %s\n", id, p.side, w.Turn, w.Kind), nil
		}
	}
	return nil, nil
}

// tokenIn finds the secret token in the welcome mail.
func tokenIn(text string) string {
	const marker = "\n  token: "
	i := strings.Index(text, marker)
	if i < 0 {
		return ""
	}
	tok, _, _ := strings.Cut(text[i+len(marker):], "\n")
	return strings.TrimSpace(tok)
}

// templateIn returns the order template a report carries: the text after
// "Your order template" in the report, or the attached template.
func templateIn(msg *mail.Message) []byte {
	if i := strings.Index(msg.Text, "Your order template"); i >= 0 {
		if _, rest, ok := strings.Cut(msg.Text[i:], "\n"); ok {
			return []byte(rest)
		}
	}
	if msg.OrdersFile != "" && msg.Orders != "" {
		return []byte(msg.Orders)
	}
	return nil
}

// answer mails orders for the wait the template names, unless the game
// has moved on or the demo's turns are played.
func (p *demoPlayer) answer(ctx context.Context, msg *mail.Message, tmpl []byte) error {
	var env struct {
		Game string `yaml:"game"`
		Side string `yaml:"side"`
		Turn int    `yaml:"turn"`
		Wait string `yaml:"wait"`
	}
	if err := yaml.Unmarshal(tmpl, &env); err != nil || env.Game == "" {
		p.log.Warn("a template without its envelope", "err", err)
		return nil
	}
	key := fmt.Sprintf("%d-%s", env.Turn, env.Wait)
	if env.Side != p.side.String() || env.Turn > p.turns || p.answered[key] {
		return nil
	}
	g, err := p.db.Game(env.Game)
	if err != nil {
		return err
	}
	if w := g.Wait; w.Side != p.side || w.Turn != env.Turn || string(w.Kind) != env.Wait {
		return nil // an older report: the game has moved on
	}
	// The player decides from the game's position; autoplay looks only at
	// what this side may see of it (its doc's Caveats).
	st, err := windsys.State(p.db.Position(env.Game))
	if err != nil {
		return err
	}
	o := autoplay.Orders(st, p.pick)
	if p.steer != nil && env.Wait == string(wind.WaitUSDecision) {
		if dec := p.steer(env.Turn); dec != nil {
			o = st.DefaultOrders()
			o.Decision = dec
		}
	}
	next := ""
	if p.ahead && p.side == adjudicator.US && (o.Wait == wind.WaitActions || o.Wait == wind.WaitUSRefit) {
		next = autoplay.StandingDecision(st, p.pick)
		if o.Standing == nil {
			o.Standing = &wind.Standing{}
		}
		o.Standing.Decision = next
	}
	raw, err := orderFile(env.Game, p.token, o) // handle, on this goroutine, set it
	if err != nil {
		return err
	}
	name := windsys.OrderTemplateName(env.Turn, p.side, adjudicator.WaitKind(env.Wait))
	if err := p.send(ctx, msg, name, raw); err != nil {
		return err
	}
	p.answered[key] = true
	p.mu.Lock()
	p.files++
	if d := o.Decision; d != nil {
		if d.Night {
			p.nights++
		}
		if d.Refit {
			p.refits++
		}
	}
	switch {
	case env.Turn >= p.turns: // a decision ahead for a turn the demo does not play
	case next == wind.DecisionNight:
		p.nights++
	case next == wind.DecisionRefit:
		p.refits++
	}
	for _, a := range o.Actions {
		if a.Melee != nil {
			p.melees++
		}
	}
	p.mu.Unlock()
	p.log.Info("orders sent", "turn", env.Turn, "wait", env.Wait)
	return nil
}

// print writes the reports the player received: the first and the last
// in full, the others one line each.
func (p *demoPlayer) print(out io.Writer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(out, "==== The %s player (%s) received %d mails ====\n\n", sideTitle(p.side), p.addr, len(p.received))
	for i, m := range p.received {
		if i == 0 || i == len(p.received)-1 {
			fmt.Fprintf(out, "---- %d. %s ----\n%s\n", i+1, m.Subject, strings.TrimRight(m.Text, "\n"))
			fmt.Fprintf(out, "---- end of mail %d ----\n\n", i+1)
			continue
		}
		fmt.Fprintf(out, "  %d. %s%s\n", i+1, m.Subject, eventCount(m.Text))
		if i == len(p.received)-2 {
			fmt.Fprintln(out)
		}
	}
}

// eventCount summarises a report's "What happened" list.
func eventCount(text string) string {
	_, rest, ok := strings.Cut(text, "\nWhat happened:\n")
	if !ok {
		return ""
	}
	n := 0
	for _, l := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(l, "  - ") {
			break
		}
		n++
	}
	return fmt.Sprintf("  [%d events]", n)
}

func sideTitle(s adjudicator.Side) string {
	if s == adjudicator.US {
		return "U.S."
	}
	return "Japanese"
}
