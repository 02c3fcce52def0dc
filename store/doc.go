/*
Package store keeps attu's games in one bbolt file: each game's record, its
append-only hash-chained log, a snapshot of the position after every
resolved step, its dice, and — shared by all games — the ledger of processed
mails and the outbox of mails to send. It also exports a finished game as one
JSON document and audits such a document.

# Basics

Open the file once per process; a second process waits on the file lock for
Options.Timeout and then fails with ErrLocked. Options.ReadOnly opens an
existing file for looking only: never created, never migrated, shared with
other readers.

	db, err := store.Open("attu.db", nil)
	g, err := db.Create(store.NewGame{ID: "g1", Start: referee.Start("campaign", adjudicator.Options{}), Players: ps, Outbox: welcome})

Create runs Start with the game's own dice, so the opening position — the
state adjudicator.NewGameFrom creates (the markers, the Komandorski chits,
the historic Japanese setup, waiting for the setup orders of rule 12) —
comes from the committed seed like every later die. Its dice and events belong to log entry 1, and
the game waits for what that position waits for (adjudicator.State.Wait).

Everything that changes a game is one transaction. Apply takes a step —
one side's orders and what the caller adds that is not rules — and the
Engine, the same value Audit replays the game with: it checks that the
orders answer what the game waits for (adjudicator.State.CheckWait),
resolves them with the engine and the game's dice (a *Dice, derived from
the seed), records the new position's Wait as what the game waits for
next, and writes the ledger receipt, the log entry with its events, the
dice, the snapshot and the mails of the step's Reply together — or, when
anything fails, nothing. The rules resolve everything the server does by
itself after the orders (weather, airpower, melee, victory, turn advance)
inside the same step. The order file is stored and exported, so its token
must be redacted first (orders.Redact); Apply refuses a file that still
carries one:

	e, err := db.Apply(store.Step{Game: "g1", Orders: o, Raw: orders.Redact(file), Received: t, Mail: &ref,
		Reply: func(out *store.Outcome) (store.Reply, error) {
			// One report per side from out.State, out.Entry.Events and
			// out.Dice, quoting out.Game.Head; the next deadline.
			return store.Reply{Deadline: t.Add(72 * time.Hour), Outbox: reports}, nil
		}}, referee.Engine())
	var refused *store.RefusedError
	if errors.As(err, &refused) {
		// For the player: refused.Problems, each at line:col of the file.
	}

Orders the game does not take come back as a *RefusedError, for the
player; every other error is internal (see the var block of errors). A
mail already in the ledger is refused with ErrProcessed, so a crash between
the commit and marking the mail as read applies nothing twice. Refuse records
mails that change no game. The mail sender takes Pending mails and reports
MarkSent or Retry.

Transact runs whatever one incoming mail or one deadline does to a game in
one transaction (a Txn): orders applied (Txn.Apply, what Apply does), notes
in the log, a rollback, the end, the game service's own record of the game
(Game.Service, which the store keeps without reading), the mails to send
and the mail's receipt in the ledger. A transaction that only answers —
queues mails and records its receipt — leaves the game's buckets exactly as
they were. The ledger knows a mail by its Message-ID and content, and a
second mail under a Message-ID already seen is a copy (ErrProcessed).

Every position is checked with adjudicator.State.Validate when it is
stored (Create, Apply) and whenever a snapshot is read: a position no game
reaches is never written, and a stored one found unsound (an altered file,
or a bug) is refused with ErrUnsound naming the game and the entry, rather
than played on.

Rollback returns a game to the position after an earlier entry; End ends it.
Export and Audit are described below; Check verifies a whole file, every
snapshot's position included.

# Dice

At creation the game gets a 32-byte seed from crypto/rand; the players are
told its commitment, the lower-case hex SHA-256 of the seed. Die number n
(n = 1, 2, 3... over the whole game; the counter never goes back, not even
on a rollback) is derived as follows:

 1. Compute B0 = HMAC-SHA256(key = seed, message = n as 8 bytes, big-endian).
 2. Read the 32 bytes of B0 in order. A byte b of 250 or more is rejected;
    the first byte b below 250 gives the face b mod 10, where 0 reads as 10
    (rule 1.2).
 3. If all 32 bytes are rejected (odds about 1 in 10^52), continue with
    Bk = HMAC-SHA256(seed, n as 8 bytes big-endian ‖ k as 8 bytes
    big-endian) for k = 1, 2, ... the same way.

Rejecting 250..255 leaves 250 byte values, 25 for each face, so every face
has probability exactly 1/10. For example, with the seed 00 01 02 ... 1f
(commitment 630dcd29...d710dd) dice 1 to 10 are 6 9 10 8 9 3 1 5 10 4; die 8
reads the bytes 250 (rejected) and 55. The dice log records for each die its number,
the log entry that rolled it, the turn and wait, what the rules asked for
(adjudicator.Die: its typed purpose, the side that rolled it, the unit and
hex, the face a to-hit die needed, and who may see it before the game
ends), every byte read (the "raw" values) and the face.

# Log

Each game's log is a sequence of entries numbered from 1: create, orders,
rollback, end, note (see Kind). A note changes no position: it records a
command or a missed deadline, with the position and wait in force. An entry is stored as canonical JSON —
no insignificant white space, object keys sorted byte-wise, numbers as
written, strings escaped as Go's encoding/json does with HTML escaping off
(in Python: json.dumps(v, sort_keys=True, separators=(",", ":"),
ensure_ascii=False)) — and its hash is the lower-case hex SHA-256 of those
bytes; each entry's
"prev" is the previous entry's hash ("" for entry 1) and the game's head is
the last entry's hash. Entries are never changed: a rollback appends an entry
naming the entry returned to, and the entries it undoes are marked beside the
log (outside the hashed bytes). An orders entry holds the decoded orders and
the SHA-256 of the order file as received with its token redacted (the value
of its top-level token key replaced by RedactedToken, every line and the
columns of everything else kept); that file is kept too, so an audit can
decode it again and line:col in it still point where the player wrote. Every entry carries "state", the SHA-256 of the
JSON of the position after it, and "next", what the game then waits for
(adjudicator.Wait: turn, side and kind; kind "ended" once it is over). The
creation answers no wait: its turn is 0.

Every entry also carries "secret": 26 characters of RFC 4648 base32 (130
random bits, crypto/rand.Text), drawn when the entry is written and hashed
with the rest of it. The players are shown hashes long before they may
read the entries they hash: every report quotes the chain head, and the
players may ask for it with "status". Without the secret an entry whose
hidden content has little entropy could be recovered from its hash by
trying every candidate — the creation of a campaign whose Japanese set up
freely hides little more than the two Komandorski chits and the second it
was made. The secret is in the database, in the umpire's export and in
the final export the last reports attach; nothing a player is sent before
the end holds it (reports, the "log" and "status" answers word entries
without their JSON). Entries written before secrets existed have none:
Audit accepts them, but requires that a secret once begun in a game's log
goes on in every later entry, each of 26 base32 characters or more.

# Schema

Schema version 10. Keys written "u64" are 8-byte big-endian integers, so a
cursor walks them in the order they were appended. Values are JSON unless
said otherwise.

	meta
	    version                  u64 schema version (SchemaVersion)
	games
	    <game id>/               one bucket per game
	        game                 Game: scenario, options, players' addresses and
	                             hashed tokens, seed, commitment, status, wait,
	                             deadline, head, counters, the game
	                             service's record (opaque to the store)
	        log/       u64 seq → Entry (hash-chained)
	        marks/     u64 seq → u64 seq of the rollback that undid it
	        orders/    u64 seq → the order file as received, token redacted
	        snapshots/ u64 seq → adjudicator.State after that entry: 'z' and
	                             its JSON DEFLATE-compressed, or 'j' and
	                             the JSON as is
	        dice/      u64 n   → Roll
	ledger           u64 seq → Receipt (Message-ID, content hash, game,
	                           outcome, the entry and mails it produced)
	ledger-index     SHA-256 of the Message-ID, content hash → u64
	                           ledger seq
	outbox           u64 id  → 'j' and the Mail's JSON (queued, attempts,
	                           sent; the hashes of its text and attachment
	                           bodies, not the bodies)
	outbox-pending   u64 id  → empty: the mails not sent yet
	blobs            SHA-256 → a text or attachment body: 'j' and the
	                           bytes, or 'z' and their DEFLATE
	blob-refs        SHA-256 → u64 how many texts and attachments hold it
	mailboxes        mailbox name → u32 UIDVALIDITY, u32 last UID read
	                           (MailboxPosition; made on first use)
	failed-mail      u64 seq → FailedMail: an incoming mail the daemon gave
	                           up on after its handling failed every
	                           time (made on first use)
	aside/                    shelves kept beside the games by the store's
	    <shelf>/   key → JSON clients (a tournament's record; see Shelf),
	                          created when first written

Open creates the buckets of an empty file and migrates an older file one
version at a time (the migrations slice in db.go; version 0 is the empty
file). A file of a newer version is refused with ErrSchema.

Version 1 had entries of kind "procedure" (weather and airpower run as
steps of their own, before the rules resolved a whole turn) and kept order
files with their tokens. Version 2 has neither; since hashed entries cannot
be rewritten, migrating a version 1 file that holds either fails, naming
the game. Version 2 wrote each die's purpose in words and left out who saw
it when both sides did; version 3 types every die (adjudicator.Die) and
always writes "seen". Words cannot become types without guessing, so
migrating a version 2 file that holds a game with dice fails, naming the
game: finish or export it with the release that wrote it. Exports changed
with it: Audit reads format attu-export/2 only. Version 4 adds notes to
the log and the game service's record to a game's; a version 3 file is
read as it is.
Version 5 stores events as data (adjudicator.Event: a kind, how much of
it each player sees, its facts; package templates words them); version 4
stored each as a sentence with the side that could read it, and migrating
a file that holds such events fails as for version 1, naming the game.
Exports change with it: Audit reads format attu-export/3 only.
Version 6 keeps the outbox's texts and attachment bodies in the blobs
bucket (see below); version 5 kept them inside each mail's JSON, the
attachments in base64. The migration moves every body there, keeps every
one of them (no mail of version 5 marks a picture as redrawable) and
indexes the unsent mails; nothing of a game changes.
Version 7 keeps no map picture once its mail is sent: each records the
log entry it was drawn from (Attachment.DrawnAt), and the game service
draws it again when it is wanted. Version 6 kept the last picture sent to
each address and indexed it in a bucket outbox-latest; the migration
deletes that bucket, and the pictures version 6 kept, which record
nothing to draw them from, stay as they are.
Version 8 compresses every body on its own. Versions 6 and 7 compressed
the later texts and attachments of one kind to one address in one game
against the first as a preset dictionary ('d' in the blobs bucket),
indexed in a bucket blob-dicts; the migration decompresses each such
body, checks it against its hash, stores it as version 8 does, and
deletes that bucket.
Version 9 gives every new log entry its secret (see Log); the entries of
a version 8 file keep none, since hashed entries are never rewritten, and
the file is otherwise read as it is.
Version 10 keys the ledger index by the SHA-256 of the Message-ID, whose
length has no limit, where version 9 used the Message-ID itself and a
mail whose Message-ID was longer than a bbolt key (32 KiB) could never be
recorded, and came back at every scan. The migration rekeys every entry,
so mail processed before is still recognised.

# Outbox and attachments

The outbox is the record of what each side was told, and what the mail
sender reads: a mail is queued in the transaction that caused it, with a
Message-ID fixed then, sent at least once (MarkSent after the SMTP server
accepted it; a crash in between sends it again, under the same
Message-ID, which the receiving side deduplicates), and kept after it is
sent, so that "resend" works after a restart and Check can tie every
mail to the entry or receipt that queued it. A report is about 120 KB as
mailed (text, order template, map picture, JSON), so a 20-turn game sends
some 20 MB; kept as such, the file would hold that much. Instead:

  - Bodies are stored apart from the mails, once each, under their
    SHA-256 (the blobs bucket), with a count of the mails holding them:
    a report sent again, or the same order template to two addresses,
    costs nothing more. Raw bytes, not base64.
  - Texts and attachments other than pictures are kept exactly as sent,
    each DEFLATE-compressed on its own (compress/flate, at the level of
    the snapshots) in the transaction that queues it; a body compressed
    already (a PNG) is kept as it is. Check decodes every one against
    its hash.
  - The map picture (a PNG of some 70 KB, compressed already) is drawn
    from a stored position and can be drawn again: the game service marks
    it Attachment.Redrawable and records the log entry whose position
    (and, with Attachment.DrawnEvents, whose events) it shows, and for
    whom (Attachment.DrawnFor). A report's picture is queued without its
    body (Attachment.ToDraw): the game service draws it from the log
    when the outbox sends the mail, after the transaction committed; a
    picture queued with its body (a resend) has it dropped once its mail
    is sent (MarkSent, MarkSentAll), its hash and size
    kept (Attachment.Dropped). The game service's "resend" draws the
    picture again from Txn.StateAt and Txn.Entry, with the same drawing
    code, so the player gets the bytes first sent. Keeping even the last
    picture to each address would make a file of many games mostly
    pictures, and bbolt, rewriting the leaves around what a commit
    changes, would keep touching them: a daemon's resident memory grows
    with the pages of the file it touches.

A mail's own record is then a few hundred bytes, rewritten cheaply when
it is sent or retried; the unsent mails are indexed, so the sender's
Pending reads only them however long the outbox grows. A 20-turn game
through the game service, with its reports as mailed, leaves a file of
4 MB (3.9 MB in use) where the mails alone would take 22 MB
(TestTwentyTurnGameSize). Exports never held mails and are unchanged: a
finished game's export, which its final report attaches, is complete on
its own.

# Export and audit

Export gathers a game into one JSON document: scenario, options, the
commitment, the seed (only once the game has ended, unless the umpire
forces it), the opening position (entry 1's: the state after NewGame and the
setup), every accepted order file (token redacted) with its receipt
time, the log entries as stored (their secrets included) with their
hashes and rollback marks, the dice log and the head. Audit checks such a document without the database:
the seed against the commitment, every die against the seed, every order file
against the hash in its entry, the chain of hashes up to the head; it checks
the opening against its dice (Engine.Opening) and replays every accepted
order through the engine from the opening position, following rollbacks,
with the same code Apply ran (the wait check, the engine, the new
position's Wait), comparing every die as the rules asked for it (purpose,
side, unit, hex, need, audience), every event, every resulting position
and what the game then waited for; the opening and every replayed position
must also pass adjudicator.State.Validate. The first mismatch
is reported with the entry (and die) where it happens. The report ends with
a dice-luck summary (see Luck): each to-hit die is judged against the face
it needed, which the dice log records.

# Caveats

Apply runs the engine and the step's Reply inside a bbolt write
transaction: they must be quick and must not call the store (bbolt would
deadlock). The engine receives its own copy of the position.

Values read from bbolt are copied before they leave a transaction; nothing
returned by the store aliases the file's memory.

The commitment proves the host did not change the dice after the fact; a host
who is also a player could read the seed and foresee rolls, so tournament
games are hosted by the umpire.

Sent mails stay in the outbox (marked sent) and receipts stay in the ledger:
they are the record Check relies on. The file only grows, apart from the
superseded pictures; 20 turns of the real rules with their reports stay
within 8 MB (TestTwentyTurnGameSize).
*/
package store
