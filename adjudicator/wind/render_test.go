package wind_test

import (
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/templates"
)

// The package's own tests read events in the words of the reports.
func init() { wind.SetEventText(templates.EventText) }
