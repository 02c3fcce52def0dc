package wind

import (
	"encoding/json"
	"github.com/attu-pbem/attu/templates"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
)

// A replay page carries what it is given as text, never as markup or
// script: a note that tries to close the data block and a game name with
// markup reach the page's script intact through its JSON block and the
// heading escaped, and the data holds one step per entry, the opening's
// units in every view, and the note in every reader's words. The page's
// policy runs its own script alone (checkPolicy).
func TestReplayPageEscapes(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	s, _ := wind.NewGame(nil, nil, testDice{rng})
	autoplay.Deploy(s, rng.Intn)
	note := `</script><script>alert("x")</script> & <!--`
	r := &Replay{Game: `g<b>1</b>`, Name: "Friday <i>club</i>", Commitment: "c", Head: "h", LuckText: "luck <b>",
		Entries: []ReplayEntry{
			{JSON: `{"seq":1}`, Hash: "h1", Entry: templates.Entry{Kind: "create"}, Position: s},
			{JSON: `{"seq":2,"note":"</script>"}`, Hash: "h", Entry: templates.Entry{Kind: "note", Note: note}, Position: s},
		}}
	page, err := ReplayPage(r)
	if err != nil {
		t.Fatal(err)
	}
	checkPolicy(t, "the replay page", page)
	_, markup, _, err := templates.Unpack(page)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(markup), "<script"); n != 1 {
		t.Errorf("the page's markup has %d script elements, want the data alone", n)
	}
	if strings.Contains(string(page), "<b>") || strings.Contains(string(markup), "<b>") || !strings.Contains(string(markup), "<h1>attu game g&lt;b&gt;1&lt;/b&gt; (Friday &lt;i&gt;club&lt;/i&gt;): ") ||
		!strings.Contains(string(page), "<title>Friday &lt;i&gt;club&lt;/i&gt; — attu game") {
		t.Error("the game's id and name are not both in the title and heading, escaped")
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="data">(.*?)</script>`).FindSubmatch(markup)
	if m == nil {
		t.Fatal("the page holds no data block")
	}
	var d struct {
		Game     string `json:"game"`
		LuckText string `json:"luck_text"`
		Texts    []string
		Entries  []struct{ JSON string }
		Views    []struct{ Units []int }
		Steps    []struct {
			View   [3]int
			Events [3][]int
		}
	}
	if err := json.Unmarshal(m[1], &d); err != nil {
		t.Fatalf("the data block does not parse: %v", err)
	}
	if d.Game != r.Game || d.LuckText != r.LuckText || len(d.Entries) != 2 || d.Entries[1].JSON != r.Entries[1].JSON || len(d.Steps) != 2 {
		t.Fatalf("the data reads %+v", d)
	}
	for k := range replaySides {
		if ev := d.Steps[1].Events[k]; len(ev) != 1 || d.Texts[ev[0]] != note {
			t.Errorf("reader %d reads %v of the note", k, ev)
		}
		if len(d.Views[d.Steps[0].View[k]].Units) == 0 {
			t.Errorf("reader %d sees no unit at the opening", k)
		}
	}
}
