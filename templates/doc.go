/*
Package templates turns what a side may see into what players read by mail:
turn reports, order templates, the picture of the map, the JSON report, the
replies to orders and commands, and the ASCII maps.

# Basics

A [Report] holds everything one side's report is made of, already filtered
for that side: the side's [adjudicator.View] and [adjudicator.Outlook], the
events it may read since its last report, and the game's record ([Game]: id,
deadline, chain head, dice commitment). The caller builds it from a position
with the side's own queries and nothing else:

	rep := &templates.Report{
		Game:    templates.Game{ID: "g1", Deadline: dl, Head: head, Commitment: c},
		Map:     s.Map(),
		View:    s.View(side),
		Outlook: s.Outlook(side),
		Events:  adjudicator.VisibleEvents(events, side),
	}
	body := rep.Text()                       // the mail, within 100 columns
	name, yaml, ok := rep.OrderTemplate()    // orders-3-actions.yaml, for the side awaited
	pic, err := rep.PNG()                    // the map as the side sees it
	doc, err := rep.JSON()                   // report.json
	all, err := rep.Render()                 // all four at once
	name, page, ok := rep.OrderSheet(addr)   // orders-3-us-actions.html, for the side awaited

The package never sees a game position, so it cannot leak what the fog of
war hides: a U.S. report built from positions that differ only in what the
U.S. may not see is the same to the byte, text, template, picture and JSON
(the tests prove it over thousands of generated turns).

The order template is a commented YAML file that orders.Parse accepts as it
stands and that adjudicator.CheckOrders accepts unchanged: it does nothing,
or, at the setup waits where the rules want every unit placed, it is the
default orders the game would apply at the deadline. There is one for each
kind of orders the rules play: the Japanese setup (the hexes each group of
units may set up in, the hexes covering each landing zone, the value chits
to place), the U.S. landing (the zones open to each unit, the delay), the
U.S. decision, the actions (for each unit the hexes it can reach with their
cost, the hexes it may declare melee against and those it may fire at) and
each side's refit orders (what may be restored, landed, created, hidden,
moved or swapped), each choice ready to become an order by deleting a "#"
or changing a hex or zone. Its token line holds [TokenPlaceholder], never
the token.

The order sheet ([Report.OrderSheet]) is the order template's choices on
a map: one self-contained HTML page (ordersheet/: its page, style sheet
and script, the island drawn as the replay page draws it) carrying the
reader's View and Outlook as JSON, whose script lets the player click
orders and writes the order file. Like the template it is made from the
reader's view alone.

The replies ([Welcome], [Accepted], [Refused], [Help], [Status],
[Reminder], [DeadlinePassed], [UmpireNotice], [Final]) are plain structs
with a Text method. Only the welcome carries a secret: the player's token.

Texts come from the text/template files embedded from tmpl/; the Go code
prepares their lines (wrapped to [MaxWidth], tables aligned) and the files
lay them out.

# Events

[EventText] words one event in one line, from events.tmpl: one template
per adjudicator.EventKind, named as the kind, and a few functions for the
grammar (counts, "a and b", hex routes, dice and modifiers). It words the
event it is given: redact it for the reader first (adjudicator.Redact),
and what the reader may not know is not there
to be worded. Every report, the rules cases and the game service's log
word events this way; testdata/events.golden shows every kind as each
reader reads it.

# The JSON report

[Report.JSON] writes report.json, one object (see [ReportJSON]):

	format          "attu-report/1" (ReportFormat); a new version for any
	                change that could break a reader
	game            {id, name, deadline (RFC 3339 UTC), time_zone, chain_head,
	                commitment}; empty fields are left out
	side            "us", "jp" or "umpire": the reader
	turn, date      the turn and its day ("May 13")
	night, weather  night or day, the weather (while the U.S. decides: as the
	                previous turn left them)
	wait            {turn, side, kind}: what the game waits for; kind is
	                "jp-setup", "us-landing", "us-decision", "us-refit",
	                "jp-refit", "actions", "ended",
	                or absent before the game begins
	wait_text       the same in words
	awaited         true when the game waits for the reader
	steps           [{title, events: [{kind, text, side, hexes}]}]: what
	                happened since the reader's last report, grouped by step;
	                kind is an adjudicator.EventKind, text its words
	fought          hexes where the events tell of fighting
	close_ups       centres of the close-ups (radius 3) the text draws
	view            the reader's adjudicator.View (its JSON form)
	outlook         the reader's adjudicator.Outlook: wait, winner, heroes,
	                standing instructions, the state of each unit on the map
	                and, for the side awaited, what it may order: in actions
	                each unit's options (moves {to, mp, path}, melee [hexes],
	                fire {target, distance, los, sees, spotters,
	                target_units}); in a refit turn the refit options
	                (restore, land, independents, depots; hide, moves, swaps);
	                at a setup wait the setup options (setup; place [{class,
	                units, hexes}], cover [{zone, hex, hexes}], per_front,
	                vp_hexes, vp_values, jp_setup; fixed, land [{unit,
	                zones}], all_land, may_delay, landing)
	order_template  the name of the order template, when the reader is awaited

Hexes are four-digit strings ("2717"), sides "us", "jp", "umpire".

# Caveats

Events carry no step of their own; the report groups them by their kinds
(a weather roll, an activation, a melee, the end of a turn). The words of
each event come from one function, eventText ([EventText]), so that the
wording lives in one renderer.

The picture is a paletted image drawn with the fixed 7x13 font of
golang.org/x/image (and digits of its own, three pixels by five, for the id
at the top of every land hex) and written by image/png; its map layer is
drawn once per map and reused.
*/
package templates
