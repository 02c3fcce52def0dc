package tournament

import "github.com/attu-pbem/attu/store/referee"

// pair is two players to meet in a round; b is empty for a bye.
type pair struct{ a, b string }

// roundRobin pairs the players for round n (from 1) by the circle method:
// the first player stays, the others turn one place each round, and the
// players across the circle meet; with an odd number the empty seat gives
// a bye.
func roundRobin(players []string, n int) []pair {
	seats := append([]string(nil), players...)
	if len(seats)%2 == 1 {
		seats = append(seats, "")
	}
	k := len(seats) - 1
	turned := make([]string, 0, len(seats))
	turned = append(turned, seats[0])
	for i := range k {
		turned = append(turned, seats[1+(i+k-(n-1)%k)%k])
	}
	var out []pair
	for i := 0; i < len(turned)/2; i++ {
		a, b := turned[i], turned[len(turned)-1-i]
		if a == "" {
			a, b = b, a
		}
		out = append(out, pair{a, b})
	}
	return out
}

// swiss pairs the players ranked best first, each with the next best not
// met yet, backing up when the rest cannot be paired, rematches only when
// nothing else works; with an odd number the lowest-ranked player without
// a bye has one. met says who has met whom; byes who had a bye.
func swiss(ranked []string, met map[[2]string]bool, byes map[string]bool) []pair {
	players := append([]string(nil), ranked...)
	var out []pair
	if len(players)%2 == 1 {
		bye := len(players) - 1
		for i := len(players) - 1; i >= 0; i-- {
			if !byes[players[i]] {
				bye = i
				break
			}
		}
		out = append(out, pair{players[bye], ""})
		players = append(players[:bye:bye], players[bye+1:]...)
	}
	if ps, ok := swissPairs(players, met, false); ok {
		return append(ps, out...)
	}
	ps, _ := swissPairs(players, met, true)
	return append(ps, out...)
}

func swissPairs(players []string, met map[[2]string]bool, rematches bool) ([]pair, bool) {
	if len(players) == 0 {
		return nil, true
	}
	a := players[0]
	for i := 1; i < len(players); i++ {
		b := players[i]
		if !rematches && (met[[2]string{a, b}] || met[[2]string{b, a}]) {
			continue
		}
		rest := make([]string, 0, len(players)-2)
		rest = append(rest, players[1:i]...)
		rest = append(rest, players[i+1:]...)
		if ps, ok := swissPairs(rest, met, rematches); ok {
			return append([]pair{{a, b}}, ps...), true
		}
	}
	return nil, false
}

// drawSides orders pair p for game id: the player whose name sorts first
// (byte by byte) plays the U.S. when referee.SeedDraw(seed, "sides "+id,
// 0) is even, the Japanese when it is odd.
func drawSides(seed []byte, id string, p pair) (us, jp string) {
	a, b := min(p.a, p.b), max(p.a, p.b)
	if referee.SeedDraw(seed, "sides "+id, 0)%2 == 1 {
		return b, a
	}
	return a, b
}
