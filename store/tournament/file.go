package tournament

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // players' time zones wherever attu runs

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/orders"
	"github.com/attu-pbem/attu/store"
	"go.yaml.in/yaml/v3"
)

// MaxFileSize caps a tournament file.
const MaxFileSize = 64 << 10

// Pairings, sides and how rounds advance (File.Pairing, File.Sides,
// File.Advance; examples/tournament.yaml explains each).
const (
	RoundRobin    = "round-robin"
	Swiss         = "swiss"
	SidesBoth     = "both"
	SidesDrawn    = "drawn"
	AdvanceAuto   = "auto"
	AdvanceUmpire = "umpire"
)

// Tie-breaks (File.TieBreaks), applied in the order the file gives them
// to players level on points; TieBreaks says what each means.
const (
	HeadToHead      = "head-to-head"
	Wins            = "wins"
	Buchholz        = "buchholz"
	SonnebornBerger = "sonneborn-berger"
	Lateness        = "lateness"
)

// TieBreaks are the tie-breaks a file may name, with what each means.
var TieBreaks = map[string]string{
	HeadToHead:      "points scored in the games between the players level on points",
	Wins:            "games won",
	Buchholz:        "the sum of the points of every opponent met",
	SonnebornBerger: "the points of every opponent beaten, and half those of every opponent drawn with",
	Lateness:        "fewer deadlines missed in the games scored (ended, and not void) ranks higher",
}

// DefaultTieBreaks are used when the file names none.
var DefaultTieBreaks = []string{HeadToHead, Wins, Buchholz, Lateness}

// File is a tournament file (examples/tournament.yaml documents every
// field).
type File struct {
	// System names the game system every game is played by (empty:
	// store.SystemBefore, War in the Wind), one of those the parse was
	// given.
	System    string       `yaml:"system" json:"system,omitempty"`
	ID        string       `yaml:"id" json:"id"`
	Name      string       `yaml:"name" json:"name"`
	Umpire    Person       `yaml:"umpire" json:"umpire"`
	Players   []Person     `yaml:"players" json:"players"`
	Pairing   string       `yaml:"pairing" json:"pairing"`
	Sides     string       `yaml:"sides" json:"sides"`
	Advance   string       `yaml:"advance" json:"advance"`
	Rounds    []RoundFile  `yaml:"rounds" json:"rounds"`
	Deadlines DeadlineFile `yaml:"deadlines" json:"deadlines"`
	Rules     RulesFile    `yaml:"rules" json:"rules"`
	Digest    string       `yaml:"digest" json:"digest"`
	Scoring   Scoring      `yaml:"scoring" json:"scoring"`
	TieBreaks []string     `yaml:"tie-breaks" json:"tie_breaks"`

	Pos  orders.Pos            `yaml:"-" json:"-"`
	keys map[string]orders.Pos // where the top-level keys' values are written
}

// at is where the top-level key's value is written, or the file's start.
func (f *File) at(key string) orders.Pos {
	if p, ok := f.keys[key]; ok {
		return p
	}
	return f.Pos
}

// Person is the umpire or a player.
type Person struct {
	Name     string `yaml:"name" json:"name"`
	Address  string `yaml:"address" json:"address"`
	TimeZone string `yaml:"time-zone" json:"time_zone,omitempty"`

	Pos orders.Pos `yaml:"-" json:"-"`
}

// RoundFile is one round: its scenario and setups.
type RoundFile struct {
	Scenario string `yaml:"scenario" json:"scenario"`
	JPSetup  string `yaml:"jp-setup" json:"jp_setup,omitempty"`
	USSetup  string `yaml:"us-setup" json:"us_setup,omitempty"`

	Pos orders.Pos `yaml:"-" json:"-"`
}

// DeadlineFile is the deadline policy of every game (referee.NewGame's
// Deadline, Reminder, Deadlines and Absence).
type DeadlineFile struct {
	Each     string            `yaml:"each" json:"each,omitempty"`
	Reminder string            `yaml:"reminder" json:"reminder,omitempty"`
	Waits    map[string]string `yaml:"waits" json:"waits,omitempty"`
	Absence  string            `yaml:"absence" json:"absence,omitempty"`

	Pos orders.Pos `yaml:"-" json:"-"`
}

// RulesFile are the optional rules of every game: how long each orders
// file is held before it is applied (Settle, the host's), and the game
// system's own choices, each key and value as the file writes them
// (Words; War in the Wind's is vp-chits: off, drawn or placed), which
// the system reads (Games.Option); in every system a word whose value is
// off sets nothing.
type RulesFile struct {
	Settle string            `json:"settle,omitempty"`
	Words  map[string]string `json:"words,omitempty"`

	Pos orders.Pos `json:"-"`
}

// UnmarshalYAML reads the rules: mapping: settle, and every other key
// with its single value for the system to judge.
func (r *RulesFile) UnmarshalYAML(n *yaml.Node) error {
	r.Pos = orders.Pos{Line: n.Line, Col: n.Column}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("want a mapping (key: value lines), got %s", orders.Describe(n))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: want key: value, each a single word", k.Line)
		}
		if _, dup := r.Words[k.Value]; dup || k.Value == "settle" && r.Settle != "" {
			return fmt.Errorf("%q is given twice; keep one", k.Value)
		}
		if k.Value == "settle" {
			r.Settle = v.Value
			continue
		}
		if r.Words == nil {
			r.Words = map[string]string{}
		}
		r.Words[k.Value] = v.Value
	}
	return nil
}

// UnmarshalJSON reads the rules as a tournament's record keeps them, and
// as records kept them before the system's words were generic: the
// victory point chits of War in the Wind under vp_chits.
func (r *RulesFile) UnmarshalJSON(b []byte) error {
	var v struct {
		Settle  string            `json:"settle"`
		Words   map[string]string `json:"words"`
		VPChits string            `json:"vp_chits"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	r.Settle, r.Words = v.Settle, v.Words
	if v.VPChits != "" {
		if r.Words == nil {
			r.Words = map[string]string{}
		}
		r.Words["vp-chits"] = v.VPChits
	}
	return nil
}

// any reports whether the words set any optional rule: a word is off when
// its value is off or empty, in every system's words.
func (r *RulesFile) any() bool {
	for _, v := range r.Words {
		if v != "" && v != "off" {
			return true
		}
	}
	return false
}

// options are the optional rules of a game of scenario that the file's
// words stand for (Games.Option), or why the words do not fit it; an
// empty scenario judges the words alone.
func (r *RulesFile) options(games Games, scenario string) ([]string, []error) {
	var out []string
	var errs []error
	for _, k := range slices.Sorted(maps.Keys(r.Words)) {
		on, err := games.Option(k, r.Words[k], scenario)
		if err != nil {
			errs = append(errs, err)
		}
		out = append(out, on...)
	}
	return out, errs
}

// Scoring is the points a game is worth; Major, Minor and Marginal the
// winner's and loser's for each grade of a level of victory (War in the
// Wind's victory point chits, an Island War scenario's conditions).
type Scoring struct {
	Win      *int    `yaml:"win" json:"win,omitempty"`
	Draw     *int    `yaml:"draw" json:"draw,omitempty"`
	Loss     *int    `yaml:"loss" json:"loss,omitempty"`
	Bye      *int    `yaml:"bye" json:"bye,omitempty"`
	Major    *[2]int `yaml:"major" json:"major,omitempty"`
	Minor    *[2]int `yaml:"minor" json:"minor,omitempty"`
	Marginal *[2]int `yaml:"marginal" json:"marginal,omitempty"`

	Pos orders.Pos `yaml:"-" json:"-"`
}

// Points are the points of each result, defaults filled in.
type Points struct {
	Win, Draw, Loss, Bye   int
	Major, Minor, Marginal [2]int
}

// Points returns the scoring with the defaults: a win 3, a draw 1, a loss
// 0, a bye as a win; victories 3-0, 3-1 and 2-1.
func (s Scoring) Points() Points {
	p := Points{Win: or(s.Win, 3), Draw: or(s.Draw, 1), Loss: or(s.Loss, 0),
		Major: or(s.Major, [2]int{3, 0}), Minor: or(s.Minor, [2]int{3, 1}), Marginal: or(s.Marginal, [2]int{2, 1})}
	p.Bye = or(s.Bye, p.Win)
	return p
}

// or is *v, or def when v is nil.
func or[T any](v *T, def T) T {
	if v == nil {
		return def
	}
	return *v
}

var (
	idPattern   = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,23}$`)
	clockFormat = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
)

// Parse reads a tournament file strictly: unknown keys, keys given twice
// and values of the wrong kind are errors, and so is anything the
// tournament cannot be run with; every mistake is reported with its line
// and column (orders.Errors). The file's games are judged by the one of
// hosted its system: line names (War in the Wind's when it names none);
// one that names a system not hosted is refused with the list of those
// that are.
func Parse(data []byte, hosted ...Games) (*File, error) {
	n, errs := orders.ParseDocument(data, MaxFileSize)
	if errs != nil {
		return nil, errs
	}
	f := new(File)
	if errs := orders.DecodeStrict(n, f); errs != nil {
		return nil, errs
	}
	// Where each top-level key's value is written, for the errors.
	f.keys = map[string]orders.Pos{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		v := n.Content[i+1]
		f.keys[n.Content[i].Value] = orders.Pos{Line: v.Line, Col: v.Column}
	}
	games, err := gamesNamed(hosted, f.System)
	if err != nil {
		p := f.at("system")
		return nil, orders.Errors{&orders.Error{Line: max(p.Line, 1), Col: max(p.Col, 1), Msg: "system: " + err.Error()}}
	}
	if errs := f.check(games); errs != nil {
		errs.Sort()
		return nil, errs
	}
	return f, nil
}

// gamesNamed is the one of hosted whose system is name (empty:
// store.SystemBefore).
func gamesNamed(hosted []Games, name string) (Games, error) {
	name = cmp.Or(name, store.SystemBefore)
	var names []string
	for _, g := range hosted {
		if g.System() == name {
			return g, nil
		}
		names = append(names, g.System())
	}
	return nil, fmt.Errorf("%q is not a game system this server hosts; use %s", name, strings.Join(names, ", "))
}

// check fills the defaults in and judges the file.
func (f *File) check(games Games) orders.Errors {
	var errs orders.Errors
	bad := func(p orders.Pos, format string, args ...any) {
		errs = append(errs, &orders.Error{Line: max(p.Line, 1), Col: max(p.Col, 1), Msg: fmt.Sprintf(format, args...)})
	}
	if !idPattern.MatchString(f.ID) {
		bad(f.at("id"), "id: give the tournament a short id of up to 24 lower-case letters, digits and dashes, like spring43; its games are named after it")
	}
	if strings.TrimSpace(f.Name) == "" {
		bad(f.at("name"), "name: give the tournament a name")
	}
	f.checkPlayers(bad)
	// Each choice: its key, its default, the other value, the advice.
	for _, c := range []struct {
		v                  *string
		key, def, alt, use string
	}{
		{&f.Pairing, "pairing", RoundRobin, Swiss, "use round-robin or swiss"},
		{&f.Sides, "sides", SidesDrawn, SidesBoth, "use both (each pairing played twice, once from each side) or drawn"},
		{&f.Advance, "advance", AdvanceAuto, AdvanceUmpire, "use auto (the next round starts when a round is over) or umpire"},
	} {
		if *c.v == "" {
			*c.v = c.def
		}
		if *c.v != c.def && *c.v != c.alt {
			bad(f.at(c.key), "%s: %q: %s", c.key, *c.v, c.use)
		}
	}
	f.checkRounds(games, bad)
	d := &f.Deadlines
	for _, x := range []struct {
		what, v string
		at      orders.Pos
	}{{"deadlines: each", d.Each, d.Pos}, {"deadlines: reminder", d.Reminder, d.Pos}, {"deadlines: absence", d.Absence, d.Pos},
		{"rules: settle", f.Rules.Settle, f.Rules.Pos}} {
		if _, err := ParseDuration(x.v); x.v != "" && err != nil {
			bad(x.at, "%s: %v", x.what, err)
		}
	}
	for k, v := range d.Waits {
		if !slices.Contains(games.Kinds(), adjudicator.WaitKind(k)) || !(adjudicator.Wait{Kind: adjudicator.WaitKind(k)}).Open() {
			bad(d.Pos, "deadlines: waits: %q is not a kind of wait (%s)", k, waitKindNames(games))
		}
		if _, err := ParseDuration(v); err != nil {
			bad(d.Pos, "deadlines: waits: %s: %v", k, err)
		}
	}
	f.Digest = cmp.Or(f.Digest, "07:00")
	if !clockFormat.MatchString(f.Digest) {
		bad(f.at("digest"), "digest: %q: give the time of day of the umpire's digest as HH:MM, like 07:00", f.Digest)
	}
	if len(f.TieBreaks) == 0 {
		f.TieBreaks = slices.Clone(DefaultTieBreaks)
	}
	seen := map[string]bool{}
	for _, tb := range f.TieBreaks {
		if _, ok := TieBreaks[tb]; !ok {
			bad(f.at("tie-breaks"), "tie-breaks: %q: use %s", tb, strings.Join(slices.Sorted(maps.Keys(TieBreaks)), ", "))
		}
		if seen[tb] {
			bad(f.at("tie-breaks"), "tie-breaks: %s is named twice", tb)
		}
		seen[tb] = true
	}
	return errs
}

// checkPlayers judges the umpire and the players.
func (f *File) checkPlayers(bad func(p orders.Pos, format string, args ...any)) {
	person := func(p *Person, what string) {
		if strings.TrimSpace(p.Name) == "" {
			bad(p.Pos, "%s: name is missing", what)
		}
		if !strings.Contains(p.Address, "@") || strings.ContainsAny(p.Address, " <>") {
			bad(p.Pos, "%s: address %q is not a plain mail address like alice@example.org", what, p.Address)
		}
		if p.TimeZone != "" {
			if _, err := time.LoadLocation(p.TimeZone); err != nil {
				bad(p.Pos, "%s: time-zone %q is not a zone of the tz database, like Europe/Paris or UTC", what, p.TimeZone)
			}
		}
	}
	person(&f.Umpire, "umpire")
	names, addrs := map[string]bool{}, map[string]bool{strings.ToLower(f.Umpire.Address): true}
	for i := range f.Players {
		p := &f.Players[i]
		person(p, fmt.Sprintf("players[%d] (%s)", i+1, p.Name))
		if names[strings.ToLower(p.Name)] {
			bad(p.Pos, "players: %s is named twice", p.Name)
		}
		if addrs[strings.ToLower(p.Address)] {
			bad(p.Pos, "players: the address %s is given twice (or is the umpire's)", p.Address)
		}
		names[strings.ToLower(p.Name)], addrs[strings.ToLower(p.Address)] = true, true
	}
	if len(f.Players) < 2 {
		bad(f.at("players"), "players: a tournament needs at least two players")
	}
}

// checkRounds judges the rounds and the optional rules they are played by.
func (f *File) checkRounds(games Games, bad func(p orders.Pos, format string, args ...any)) {
	if len(f.Rounds) == 0 {
		bad(f.at("rounds"), "rounds: give at least one round, like - {scenario: up-the-hogs-back}")
	}
	slots := len(f.Players) + len(f.Players)%2 // a bye makes the number even
	if f.Pairing == RoundRobin && len(f.Rounds) > slots-1 {
		bad(f.at("rounds"), "rounds: a round robin of %d players has at most %d rounds, not %d", len(f.Players), slots-1, len(f.Rounds))
	}
	_, errs := f.Rules.options(games, "")
	for _, err := range errs {
		bad(f.Rules.Pos, "rules: %v", err)
	}
	words := len(errs) == 0 // the words are judged for each round only when they read
	for i := range f.Rounds {
		r := &f.Rounds[i]
		if !slices.Contains(games.Scenarios(), r.Scenario) {
			bad(r.Pos, "rounds[%d]: scenario %q: use one of %s (rule 15)", i+1, r.Scenario, strings.Join(games.Scenarios(), ", "))
		}
		for _, s := range []string{r.JPSetup, r.USSetup} {
			if s != "" && !slices.Contains(games.RuleSetups(), s) {
				bad(r.Pos, "rounds[%d]: setup %q: use %s (rule 12)", i+1, s, strings.Join(games.RuleSetups(), " or "))
			}
		}
		if !words || !slices.Contains(games.Scenarios(), r.Scenario) {
			continue
		}
		if _, errs := f.Rules.options(games, r.Scenario); len(errs) > 0 {
			bad(r.Pos, "rounds[%d]: %v", i+1, errors.Join(errs...))
		}
	}
}

func waitKindNames(games Games) string {
	var out []string
	for _, k := range games.Kinds() {
		if (adjudicator.Wait{Kind: k}).Open() {
			out = append(out, string(k))
		}
	}
	return strings.Join(out, ", ")
}

// ParseDuration reads a Go duration (36h, 90m) or a number of days (3d).
func ParseDuration(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days <= 0 {
			return 0, fmt.Errorf("%q is not a number of days like 3d", s)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a duration like 72h or 3d", s)
	}
	return d, nil
}

// duration reads a duration the file was checked to hold; zero when empty.
func duration(s string) time.Duration {
	d, _ := ParseDuration(s)
	return d
}

// zone returns a time zone the file was checked to name; UTC when none.
func zone(name string) *time.Location {
	loc, err := time.LoadLocation(name) // "" is UTC
	if err != nil {
		return time.UTC
	}
	return loc
}

// player returns the player named name.
func (f *File) player(name string) (Person, bool) {
	for _, p := range f.Players {
		if p.Name == name {
			return p, true
		}
	}
	return Person{}, false
}
