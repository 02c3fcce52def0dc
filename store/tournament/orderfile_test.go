package tournament

// The order files the tests' players send, written as a player would.

import (
	"github.com/attu-pbem/attu/adjudicator/wind"
	windorders "github.com/attu-pbem/attu/orders/wind"
)

// orderFile writes orders the way a player would (windorders.Write), under a
// comment line as a player's file often starts.
func orderFile(game, token string, o wind.Orders) []byte {
	b, err := windorders.Write(game, token, o)
	if err != nil {
		panic(err)
	}
	return append([]byte("# orders\n"), b...)
}
