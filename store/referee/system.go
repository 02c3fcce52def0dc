package referee

import (
	"encoding/json"
	"fmt"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/store"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// Engine returns the rules as the store applies and audits them.
func Engine() store.Rules { return windsys.Rules{} }

// StateOf reads the position b a store read returned (with its error), as
// the rules hold it; a position the rules cannot reach is never played on
// (store.ErrUnsound).
func StateOf(b []byte, err error) (*wind.State, error) {
	if err != nil {
		return nil, err
	}
	p, err := windsys.Rules{}.Position(b)
	if err != nil {
		return nil, fmt.Errorf("referee: %w", err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", store.ErrUnsound, err)
	}
	return p.(*wind.State), nil
}

// EventsOf returns the events a log entry records. They were written by
// the rules' own encoding, so a list that does not read back is a broken
// file, which store.DB.Check reports; it reads as no events here.
func EventsOf(b json.RawMessage) []wind.Event {
	evs, err := windsys.Events(b)
	if err != nil {
		return nil
	}
	return evs
}

// EntryOrders returns the orders a log entry records, nil for none.
func EntryOrders(b json.RawMessage) (*wind.Orders, error) {
	if len(b) == 0 {
		return nil, nil
	}
	o := new(wind.Orders)
	if err := json.Unmarshal(b, o); err != nil {
		return nil, fmt.Errorf("referee: decoding orders: %w", err)
	}
	return o, nil
}
