package adjudicator

// yamasaki carries out Colonel Yamasaki's activation (rule 11.3).
func (s *State) yamasaki(y *Yamasaki, side Side, d Dice) ([]Event, []Problem) {
	return nil, []Problem{{Step: -1, Msg: "Colonel Yamasaki is not yet supported"}}
}
