package orders

import "go.yaml.in/yaml/v3"

// Envelope is what every system's orders file opens with, read leniently
// (no key is required, none refused) so that a file is authenticated before
// anything else of it is judged, and only an authenticated player learns
// what is wrong with the rest: the game, the side, the token, and the wait
// and turn it answers, with where those two are written. Doc is the file
// as parsed, for the system to decode without reading it again.
type Envelope struct {
	Game, Side, Token, Wait, Turn string
	WaitAt, TurnAt                Pos
	Doc                           *yaml.Node
}

// ReadEnvelope parses data once (ParseDocument) and reads the envelope's
// top-level keys; false when data is not a YAML mapping at all.
func ReadEnvelope(data []byte) (Envelope, bool) {
	root, errs := ParseDocument(data, MaxSize)
	if len(errs) > 0 {
		return Envelope{}, false
	}
	env := Envelope{Doc: root}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			continue
		}
		switch k.Value {
		case "game":
			env.Game = v.Value
		case "side":
			env.Side = v.Value
		case "token":
			env.Token = v.Value
		case "wait":
			env.Wait, env.WaitAt = v.Value, Pos{Line: v.Line, Col: v.Column}
		case "turn":
			env.Turn, env.TurnAt = v.Value, Pos{Line: v.Line, Col: v.Column}
		}
	}
	return env, true
}
