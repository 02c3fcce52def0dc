package wind_test

import (
	"github.com/attu-pbem/attu/adjudicator/wind"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// The package's own tests read events in the words of the reports.
func init() { wind.SetEventText(windsys.EventText) }
