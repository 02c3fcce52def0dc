/*
Package wind is War in the Wind as a system the host plays: its rules as
the store applies and audits them ([Rules], over adjudicator/wind and
orders/wind), and its words, which turn what a side may see into what
players read by mail: turn reports, order templates, order sheets, the
picture of the map, the JSON report and the ASCII maps. The replies to
orders and commands, and a tournament's mails, are the host's frame
(package wind), which these words fill.

# Basics

A [Report] holds everything one side's report is made of, already filtered
for that side: the side's [adjudicator.View] and [adjudicator.Outlook], the
events it may read since its last report, and the game's record ([Game]: id,
deadline, chain head, dice commitment). The caller builds it from a position
with the side's own queries and nothing else:

	rep := &wind.Report{
		Game:    wind.Game{ID: "g1", Deadline: dl, Head: head, Commitment: c},
		Map:     s.Map(),
		View:    s.View(side),
		Outlook: s.Outlook(side),
		Events:  adjudicator.VisibleEvents(events, side),
	}
	body := rep.Text()                       // the mail, within 100 columns
	name, yaml, ok := rep.OrderTemplate()    // orders-3-us-actions.yaml, for the side awaited
	pic, err := rep.PNG()                    // the map as the side sees it
	doc, err := rep.JSON()                   // report.json
	all, err := rep.RenderWords()            // text, template and JSON at once
	name, page, ok := rep.OrderSheet(addr)   // orders-3-us-actions.html, for the side awaited

The package never sees a game position, so it cannot leak what the fog of
war hides: a U.S. report built from positions that differ only in what the
U.S. may not see is the same to the byte, text, template, picture and JSON
(the tests prove it over thousands of generated turns).

The order template is a commented YAML file that orders.Parse accepts as it
stands and that adjudicator.CheckOrders accepts unchanged: it does nothing,
or, at the setup waits where the rules want every unit placed, it is the
default orders the game would apply at the deadline. There is one for each
kind of orders the rules play ([Report.OrderTemplate]), listing every
choice the reader has (the hexes a unit can reach, melee, fire at, set up
or land in; what a refit may do), each ready to become an order by deleting
a "#" or changing a hex or zone. Its token line holds [TokenPlaceholder],
never the token.

The order sheet ([Report.OrderSheet]) is the order template's choices on
a map: one self-contained HTML page (ordersheet/: its page, style sheet
and script, the island drawn as the replay page draws it) carrying the
reader's View and Outlook as JSON, whose script lets the player click
orders and writes the order file. Like the template it is made from the
reader's view alone. It and the replay page are packed
(templates.PackedPage): compressed inside the page, a third of their size
in a mail, and unpacked by the browser.

Texts come from the text/template files embedded from tmpl/ (the report, the
order templates, the map legends), with the frame's functions
(templates.Funcs): the files word the sentences, each wrapped to
templates.MaxWidth by their "wrap" function, and lay out what the Go code
prepares (steps, maps, aligned tables, lists of choices).

# Events

[EventText] words one event in one line, from events.tmpl: one template
per adjudicator.EventKind, named as the kind, and a few functions for the
grammar (counts, "a and b", hex routes, dice and modifiers). It words the
event it is given: redact it for the reader first (adjudicator.Redact),
and what the reader may not know is not there to be worded. Every report,
the rules cases and the game service's log word events this way, so the
wording lives in one renderer; testdata/events.golden shows every kind as
each reader reads it. Events carry no step of their own: a report groups
them into steps by their kinds (a weather roll, an activation, a melee,
the end of a turn).

# The JSON report

[Report.JSON] writes report.json, the same content as the text for
programs: [ReportJSON] lists its fields, [ReportFormat] names its version.
Hexes are four-digit strings ("2717"), sides "us", "jp", "umpire".

# The picture

The picture is a paletted image drawn with the fixed 7x13 font of
golang.org/x/image (and digits of its own, three pixels by five, for the id
at the top of every land hex) and written by image/png; its map layer is
drawn once per map and reused: a report copies it and adds its title, the
hexes fought over and the units.
*/
package wind
