package wind

// Ambushes (rule 13.3) and night infiltration (rule 13.5) of a solitaire
// game.

// soloAmbush checks the U.S. unit u, which has just spent its whole
// allowance moving into its hex from the hex came, for an ambush (rule
// 13.3; RULINGS.md R73). An Unknown unit is drawn from those off the map
// (every Unknown unit of the game when none is off it) and a die rolled on
// its table; two less than what the table gives is how many infantry
// units, drawn from the pool, appear in u's hex (at most three, 4.2). They
// fight u at once, striking first as defenders do; hits beyond u's steps
// fall on the other U.S. units of the hex (8.2.1.1), and those left alone
// with the ambushers go as 8.2 says (every U.S. unit of the hex fought in
// edition 0). After each round the U.S. melee retreat standing instruction for
// the hex (8.2.1.3) says whether the U.S. units withdraw; they withdraw to
// came, or to their retreat hex when came has no room, and the ambushers
// stay. Once MaxMeleeRounds rounds are fought the U.S. units withdraw;
// should some find no hex to go to, or the game end in the ambush (3.8.2),
// the ambushers go back to the pool after at most twice as many rounds.
func (s *State) soloAmbush(u *Unit, came Hex, d Dice) []Event {
	h := u.Hex
	var drawn []*Unit
	for _, o := range s.Units {
		if o.Kind() == Unknown && o.Box == BoxOffMap {
			drawn = append(drawn, o)
		}
	}
	if len(drawn) == 0 {
		for _, o := range s.Units {
			if o.Kind() == Unknown && o.Box != BoxUnused {
				drawn = append(drawn, o)
			}
		}
	}
	if len(drawn) == 0 {
		return nil
	}
	table := drawn[drawWith(len(drawn), d, Die{Purpose: DieSoloDraw, Side: JP, Hex: h, Seen: AudienceJP})]
	die := d.Roll(Die{Purpose: DieAmbush, Side: JP, Hex: h, Seen: AudienceJP})
	n := table.Counter().Table[die-1] - 2
	priv := &Private{Table: table.ID, Die: die, Yield: max(n, 0)}
	if n < 1 {
		priv.Reason = ReasonNoAmbush
		return []Event{{Kind: EventAmbush, Seen: OnlyTo(JP), Side: JP, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{h}, Target: h, Private: priv}}
	}
	var ambushers []*Unit
	for range min(n, jpStackLimit) {
		pool := s.pool()
		if len(pool) == 0 {
			break
		}
		a := pool[drawIndex(len(pool), d, h)]
		a.Hex, a.Box, a.FaceDown = h, "", false
		ambushers = append(ambushers, a)
	}
	defenders := []*Unit{u} // rule 13.3: the moving unit is engaged
	if s.Edition < EditionRule13 {
		// Edition 0 engaged every U.S. unit of the hex.
		defenders = nil
		for _, o := range s.UnitsAt(h) {
			if o.Side() == US {
				defenders = append(defenders, o)
			}
		}
	}
	evs := []Event{{Kind: EventAmbush, Seen: Visibility{US: SightAnonymous, JP: SightFull}, Side: JP,
		Units: unitRefs(defenders), Others: unitRefs(ambushers), Hexes: []Hex{h}, Target: h, Private: priv}}
	if len(ambushers) == 0 {
		return evs
	}
	return append(evs, s.ambushFight(h, came, defenders, d)...)
}

// ambushFight fights the melee of an ambush in h (rule 13.3): the U.S.
// units are the attackers of a melee fought in their own hex, the
// Japanese fire first.
func (s *State) ambushFight(h, came Hex, us []*Unit, d Dice) []Event {
	mt := s.newMelee(US, h, us, d)
	mt.ambush = true
	inSupply := s.supplyCheck()
	for _, u := range us {
		mt.from[u] = h
		mt.before[u] = u.Steps
		mt.outside[u] = !inSupply(u)
	}
	for mt.round = 1; ; mt.round++ {
		mt.usLost, mt.jpLost = 0, 0
		mt.defensiveFire()
		if s.Over() && s.Edition >= EditionRule13 {
			break // rule 3.8.2: the game ends at the loss that decides it
		}
		if len(mt.standing()) > 0 {
			mt.offensiveFire()
		}
		if len(mt.standing()) == 0 || len(mt.defenders()) == 0 || s.Over() || mt.round >= 2*MaxMeleeRounds {
			break
		}
		policy, withdraw := s.ambushWithdraw(mt)
		if withdraw || mt.round >= MaxMeleeRounds {
			why := ReasonAmbushStanding
			if !withdraw {
				why = ReasonAmbushRoundLimit
			}
			mt.withdrawTo(came, why, policy)
			if len(mt.standing()) == 0 {
				break
			}
		}
	}
	if s.Edition >= EditionRule13 {
		mt.ambushLeftAlone(came)
	}
	outcome := ReasonBothStand
	switch {
	case len(mt.defenders()) == 0:
		outcome = ReasonAttackersTake
	case len(mt.standing()) == 0:
		outcome = ReasonDefendersHold
	}
	mt.say(Event{Kind: EventMeleeEnds, Round: mt.round, Reason: outcome})
	if len(mt.defenders()) > 0 && (len(mt.standing()) > 0 || s.holdsSide(h, US)) {
		// The game ended mid-ambush (3.8.2), or a U.S. unit could go
		// nowhere: the ambushers melt back into the pool, so that no hex
		// holds both sides.
		gone := mt.defenders()
		mt.say(Event{Kind: EventAmbushWithdraw, Side: JP, Others: unitRefs(gone), Hexes: []Hex{h}, Reason: ReasonAmbushMelt})
		for _, u := range gone {
			s.removeFromMap(u, BoxPool)
		}
	}
	return append(mt.events, s.updateCleared()...)
}

// ambushLeftAlone moves the U.S. units of the ambush hex that the ambush
// did not engage, once the engaged unit is gone from it (eliminated or
// withdrawn), out of the ambushers' hex: they are left alone with them
// (rule 8.2) and go where a withdrawal goes (13.3), to came or else to
// their retreat hex; one that can go nowhere stays, and the ambushers then
// melt away.
func (mt *meleeFight) ambushLeftAlone(came Hex) {
	if len(mt.standing()) > 0 || len(mt.defenders()) == 0 {
		return
	}
	engaged := mt.attackers
	mt.attackers = nil
	for _, u := range mt.s.UnitsAt(mt.target) {
		if u.Side() == US {
			mt.attackers = append(mt.attackers, u)
			mt.from[u] = mt.target
		}
	}
	mt.withdrawTo(came, ReasonLeftAlone, "")
	mt.attackers = engaged
}

// ambushWithdraw reads the U.S. melee retreat standing instruction for
// the ambush hex (rule 8.2.1.3 as 13.3 uses it): whether the U.S. units
// withdraw after this round.
func (s *State) ambushWithdraw(mt *meleeFight) (string, bool) {
	st := s.Standing(US)
	policy := st.Retreat
	if p, ok := st.RetreatAt[mt.target]; ok {
		policy = p
	}
	switch {
	case policy == RetreatAlways:
		return policy, true
	case policy == RetreatIfLosing:
		return policy, mt.usLost > mt.jpLost
	case len(policy) > len(RetreatBelowPrefix) && policy[:len(RetreatBelowPrefix)] == RetreatBelowPrefix:
		n := 0
		for _, c := range policy[len(RetreatBelowPrefix):] {
			if c < '0' || c > '9' {
				return policy, false
			}
			n = n*10 + int(c-'0')
		}
		return policy, steps(mt.standing()) < n
	}
	return policy, false
}

// withdrawTo moves the U.S. units of an ambush to came, the hex the moving
// unit came from, as far as stacking allows there, the others to their
// retreat hex (8.2.1.3); a unit with neither stays and fights on.
func (mt *meleeFight) withdrawTo(came Hex, why Reason, policy string) {
	s := mt.s
	for _, u := range mt.standing() {
		from := u.Hex
		to := came
		if came == 0 || s.holdsSide(came, JP) || s.StackingProblemWith(came, u, u.Steps) != "" {
			var ok bool
			if to, ok = s.retreatHex(u); !ok {
				mt.say(Event{Kind: EventCannotRetreat, Side: US, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{from}, Reason: ReasonStanding, Instruction: policy})
				continue
			}
		}
		u.Hex = to
		mt.say(Event{Kind: EventAmbushWithdraw, Side: US, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{from, to}, Reason: why, Instruction: policy})
	}
}

// soloInfiltrate rolls for U.S. unit u leaving an enemy zone of control at
// night (rule 13.5; RULINGS.md R75): the die reads 0 to 9 (a 10 is a 0),
// plus 1 in fog or 2 in a williwaw; 0 to 4 keeps the unit where it is. It
// reports whether the unit may leave.
func (s *State) soloInfiltrate(u *Unit, d Dice) (bool, Event) {
	v := d.Roll(Die{Purpose: DieInfiltration, Side: US, Unit: u.ID, Hex: u.Hex, Seen: AudienceBoth})
	drm := 0
	switch s.Weather {
	case Fog:
		drm = 1
	case Williwaw:
		drm = 2
	}
	ok := v%10+drm > 4
	ev := Event{Kind: EventInfiltration, Seen: Public, Side: US, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{u.Hex},
		Dice: []EventDie{{Face: v}}, DRM: drm, Reason: ReasonHeldInZOC}
	if ok {
		ev.Reason = ReasonInfiltrated
	}
	return ok, ev
}

// soloMove carries out a legal move plan, in a solitaire game with the
// U.S. rolls of rules 13.5 (before a night exit from an enemy zone of
// control) and 13.3 (after a move that spent the whole allowance). Without
// dice, as when a file is only judged, neither roll is made.
func (s *State) soloMove(p movePlan, side Side, d Dice) []Event {
	if !s.IsSolitaire() || side != US || d == nil {
		return s.applyMove(p, side)
	}
	u := p.unit
	if p.nightExit {
		ok, ev := s.soloInfiltrate(u, d)
		if !ok {
			u.Acted = true
			return []Event{ev}
		}
		evs := append([]Event{ev}, s.applyMove(p, side)...)
		return append(evs, s.ambushAfter(p, d)...)
	}
	return append(s.applyMove(p, side), s.ambushAfter(p, d)...)
}

// ambushAfter checks a move just made for an ambush (rule 13.3).
func (s *State) ambushAfter(p movePlan, d Dice) []Event {
	u := p.unit
	if p.mp < s.Allowance(u) || len(p.hexes) < 2 || !u.OnMap() {
		return nil
	}
	evs := s.soloAmbush(u, p.hexes[len(p.hexes)-2], d)
	return append(evs, s.checkSuddenVictory()...)
}
