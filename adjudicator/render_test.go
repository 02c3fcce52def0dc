package adjudicator_test

import (
	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/templates"
)

// The package's own tests read events in the words of the reports.
func init() { adjudicator.SetEventText(templates.EventText) }
