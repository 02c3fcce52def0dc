package main

import (
	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/orders"
)

// orderFile writes orders as a player would mail them (orders.Write),
// saying who wrote them. The demo's players use it.
func orderFile(game, token string, o adjudicator.Orders) ([]byte, error) {
	b, err := orders.Write(game, token, o)
	if err != nil {
		return nil, err
	}
	return append([]byte("# orders written by the demo's random player\n"), b...), nil
}
