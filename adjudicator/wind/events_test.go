package wind

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// secretEvent is an event full of things only the Japanese may know: a
// face-down unit, an Unknown unit and its table, the Komandorski chits.
func secretEvent(kind EventKind, seen Visibility) Event {
	return Event{
		Kind: kind, Seen: seen, Side: JP,
		Units:   []EventUnit{{ID: "U07", Side: JP, Kind: Unknown, Hex: 2717, Steps: 1}, {ID: "J05", Side: JP, Kind: Infantry, Hex: 2717, Steps: 1, Known: true}},
		Others:  []EventUnit{{ID: "J44", Side: JP, Kind: Infantry, Hex: 2717, Steps: 1}},
		Hexes:   []Hex{2717},
		Private: &Private{MP: 3, Table: "U07", Die: 4, Yield: 2, Reason: ReasonPoolEmpty, Effect: 27, Delay: 3},
	}
}

// An event whose emitter decided nothing about who sees it reaches the
// umpire alone: a kind added without a decision, or any kind left at the
// zero Visibility, is read by neither player (nor by anyone else).
func TestRedactFailsClosed(t *testing.T) {
	kinds := append(EventKinds(), "a-kind-added-later", "")
	for _, k := range kinds {
		for _, ev := range []Event{{Kind: k}, secretEvent(k, Visibility{})} {
			for _, side := range []Side{US, JP, NoSide, Side(9)} {
				if got, ok := Redact(ev, side); ok || !reflect.DeepEqual(got, Event{}) {
					t.Errorf("%q with no visibility: %s reads %+v", k, side, got)
				}
			}
			if got, ok := Redact(ev, Umpire); !ok || !reflect.DeepEqual(got, ev) {
				t.Errorf("%q: the umpire reads %+v, want it whole", k, got)
			}
		}
	}
	// A sight the code does not know is no sight at all.
	ev := secretEvent(EventMoved, Visibility{US: Sight(7), JP: Sight(3)})
	for _, side := range []Side{US, JP} {
		if _, ok := Redact(ev, side); ok {
			t.Errorf("%s reads an event with an unknown sight", side)
		}
	}
}

// Reading an event anonymously withholds every identity not marked Known
// and all of Private, keeps the counters (side and hex) so that they can
// be counted, and changes nothing in the original.
func TestRedactAnonymous(t *testing.T) {
	ev := secretEvent(EventConverted, Visibility{US: SightAnonymous, JP: SightFull})
	before, _ := json.Marshal(ev)

	us, ok := Redact(ev, US)
	if !ok {
		t.Fatal("the U.S. reads nothing")
	}
	if us.Private != nil {
		t.Errorf("the U.S. reads Private %+v", us.Private)
	}
	want := []EventUnit{{Side: JP, Hex: 2717}, {ID: "J05", Side: JP, Kind: Infantry, Hex: 2717, Steps: 1, Known: true}}
	if !reflect.DeepEqual(us.Units, want) {
		t.Errorf("units %+v, want %+v", us.Units, want)
	}
	if !reflect.DeepEqual(us.Others, []EventUnit{{Side: JP, Hex: 2717}}) {
		t.Errorf("others %+v", us.Others)
	}
	b, _ := json.Marshal(us)
	for _, secret := range []string{"U07", "J44", "unknown", `"effect"`, `"delay"`, `"table"`, "pool", `"mp"`} {
		if strings.Contains(strings.ToLower(string(b)), strings.ToLower(secret)) {
			t.Errorf("the U.S. version holds %s: %s", secret, b)
		}
	}
	if after, _ := json.Marshal(ev); string(after) != string(before) {
		t.Errorf("Redact changed the event:\n%s\n%s", before, after)
	}

	jp, ok := Redact(ev, JP)
	if !ok || !reflect.DeepEqual(jp, ev) {
		t.Errorf("the Japanese read %+v, want it whole", jp)
	}
	// Full sight for one side is no sight for the other.
	if _, ok := Redact(secretEvent(EventKomandorskiDrawn, OnlyTo(JP)), US); ok {
		t.Error("the U.S. reads the Komandorski draw")
	}
}

// Visibility, Sight, dice and modifiers round-trip through JSON, as the
// record keeps them, in their short forms.
func TestVisibilityJSON(t *testing.T) {
	ev := Event{Kind: EventMoved, Seen: Visibility{US: SightAnonymous, JP: SightFull}}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"kind":"moved","seen":"us:anonymous,jp:full"}` {
		t.Errorf("JSON %s", b)
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, ev) {
		t.Errorf("back %+v, %v", back, err)
	}
	if b, _ := json.Marshal(Event{Kind: EventMoved}); string(b) != `{"kind":"moved"}` {
		t.Errorf("an event no player sees marshals as %s", b)
	}
	pub := Event{Kind: EventFired, Seen: Public, Dice: []EventDie{{Face: 10, Need: 7}, {Face: 3}},
		Mods: []Modifier{{Value: -1, Line: ModFog}, {Value: 1, Line: ModSurrounded5}}}
	b, _ = json.Marshal(pub)
	if string(b) != `{"kind":"fired","seen":"public","dice":["10/7","3"],"mods":["-1 fog","+1 surrounded-5"]}` {
		t.Errorf("JSON %s", b)
	}
	back = Event{}
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, pub) {
		t.Errorf("back %+v, %v", back, err)
	}
	for _, bad := range []string{`{"seen":"us:full"}`, `{"seen":"everyone"}`, `{"dice":["x"]}`, `{"dice":["5/"]}`, `{"mods":["fog"]}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s reads as %+v", bad, back)
		}
	}
}
