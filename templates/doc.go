/*
Package templates is the frame of what attu mails, the same for every game
system: the replies to orders and commands ([Welcome], [Accepted],
[Refused], [Help], [Status], [Reminder], [DeadlinePassed], [UmpireNotice],
[Final] and the answers to commands), a tournament's mails ([Standings],
[Digest], [RoundMail]), and the tools a system's words are written with:
text wrapped to [MaxWidth] columns ([Wrap], [WrapLines]), aligned tables
([Columns]), plurals, deadlines in the reader's zone, and the functions
every template may call ([Funcs], [Execute]). [PackedPage] is the frame
of the HTML pages a system mails (an order sheet, a replay page): their
markup, style sheet and script compressed inside one self-contained file
the browser unpacks, under a policy that runs nothing else; [Unpack]
reads them back. Every replay page's script runs after [ReplayScript]'s
checks: the one copy in the browser of the dice derivation and of the
checks of the seed, the commitment and the hash chain; every order
sheet is packed by [SheetPage], which runs the one script that mails,
downloads and copies the file a sheet writes before the system's own
([CompactScript] trims a script before it is packed).

# Basics

The replies are plain structs with a Text method, each ending by saying
what to do next. What only a system can word comes in as strings it made:
what the game waits for ("the U.S. decision of turn 3 (May 13)"), a turn's
date, what an accepted file held. Only the welcome carries a secret, the
player's token: an order file quoted back in a refusal has its token's
value blanked, and no reply names the seed of a game that has not ended.

Texts come from the text/template files embedded from tmpl/.

# Where to start for a new system

A system's words live in templates/NAME (War in the Wind's in
templates/wind): its reports, order templates and maps, written with
[Funcs] and [Execute] so that they read like the frame's, and the strings
the frame's replies take.
*/
package templates
