/*
Package store keeps attu's games in one bbolt file: each game's record, its
append-only hash-chained log, a snapshot of the position after every
resolved step, its dice, and — shared by all games — the ledger of processed
mails and the outbox of mails to send. It also exports a finished game as one
JSON document and audits such a document.

The store knows no game system. Each game names its system (Game.System),
and a system's rules come in as a value the caller passes (Rules): the
store keeps the system's positions, orders and events as the canonical JSON
of the system's own values, never looks inside them, and asks the rules to
read them back, to resolve a step, and to replay one in the audit.

# Basics

Open the file once per process; a second process waits on the file lock for
Options.Timeout and then fails with ErrLocked. Options.ReadOnly opens an
existing file for looking only: never created, never migrated, shared with
other readers.

	db, err := store.Open("attu.db", nil)
	g, err := db.Create(store.NewGame{ID: "g1", Rules: rules, Start: start, Players: ps, Outbox: welcome})

Create runs Start with the game's own dice, so the opening comes from the
committed seed like every later die; its dice and events belong to log
entry 1.

Everything that changes a game is one transaction: Transact runs whatever
one incoming mail or one deadline does to a game as one Txn — orders, notes,
a rollback, the end, the mails to send and the mail's receipt — and writes
all of it, or nothing. Txn.Apply takes a step — one side's orders (redacted
by orders.Redact, its orders decoded once by the system) and what the
caller adds that is not rules — and the Rules, the same value Audit
replays the game with; it resolves the orders
and everything the server does by itself after them with the game's dice:

	_, err := db.Transact("g1", &ref, func(tx *store.Txn) error {
		out, err := tx.Apply(store.Step{Orders: o, Raw: orders.Redact(file), Received: t, Mail: &ref}, rules)
		if err != nil {
			return err
		}
		tx.SetDeadline(t.Add(72 * time.Hour))
		tx.Queue(reportsOf(out.State, tx.Game().Head)...) // the new chain head
		return nil
	})
	var refused *store.RefusedError
	if errors.As(err, &refused) {
		// For the player: refused.Problems, each at line:col of the file.
	}

A mail already in the ledger — by its Message-ID, whatever its content — is
refused with ErrProcessed, so a crash between the commit and marking the
mail as read applies nothing twice. Refuse records mails that change no
game; the mail sender takes Pending mails and reports MarkSentAll or Retry.

Every position is checked with the rules' Validate when it is stored and
whenever Apply reads a snapshot (ErrUnsound); a reader of Position or
PositionAt decodes the JSON with its system, which judges it the same way.
Check verifies a whole file, each game's snapshots with its own system's
rules.

# Dice

At creation the game gets a 32-byte seed from crypto/rand; the players are
told its commitment, the lower-case hex SHA-256 of the seed. Die number n
(n = 1, 2, 3... over the whole game; the counter never goes back, not even
on a rollback) is rolled as a die of f faces, the die the game's rules roll
(Rules.Faces: a d10 in War in the Wind), and derived as follows:

 1. Compute B0 = HMAC-SHA256(key = seed, message = n as 8 bytes, big-endian).
 2. Read the 32 bytes of B0 in order. A byte b of 256 − (256 mod f) or more
    is rejected; the first byte b below gives the face b mod f, where 0
    reads as f (rule 1.2: on a d10, 0 reads as 10). A d10 rejects 250 to
    255, a d6 252 to 255.
 3. If all 32 bytes are rejected (odds about 1 in 10^52 for a d10),
    continue with Bk = HMAC-SHA256(seed, n as 8 bytes big-endian ‖ k as 8
    bytes big-endian) for k = 1, 2, ... the same way.

What is left after the rejection is a multiple of f byte values, as many
for each face (25 for a d10, 42 for a d6), so every face has probability
exactly 1/f. For example, with the seed 00 01 02 ... 1f (commitment
630dcd29...d710dd) dice 1 to 10 are, as d10s, 6 9 10 8 9 3 1 5 10 4 (die 8
reads the bytes 250, rejected, and 55), and as d6s 4 3 6 2 5 1 5 4 4 6 (die
8's byte 250 is a face; die 49 reads 254, rejected, and 101: a 5). The dice
log records each die as a Roll, with its number of faces unless it is a
d10, which names none.

# Log

Each game's log is a sequence of entries numbered from 1: create, orders,
rollback, end, note (see Kind); a note records a command or a missed
deadline and changes no position. An entry is stored as canonical JSON —
no insignificant white space, object keys sorted byte-wise, numbers as
written, strings escaped as Go's encoding/json does with HTML escaping off
(in Python: json.dumps(v, sort_keys=True, separators=(",", ":"),
ensure_ascii=False)) — and its hash is the lower-case hex SHA-256 of those
bytes. Each entry's "prev" is the previous entry's hash ("" for entry 1);
the game's head is the last entry's hash. Entries are never changed: a
rollback appends an entry naming the entry returned to, and the entries it
undoes are marked beside the log. An orders entry holds the decoded orders
and the SHA-256 of the order file as received with its token redacted (its
top-level token's value replaced by RedactedToken, every line and column
of the rest kept); the file is kept too, so an audit decodes it again and
line:col still point where the player wrote.

Every entry also carries "secret": 26 characters of RFC 4648 base32 (130
random bits, crypto/rand.Text) hashed with the rest of it. Players see
hashes (every report quotes the chain head) long before they may read the
entries, and without the secret an entry with little hidden entropy — a
campaign's creation hides little more than the two Komandorski chits and
the second it was made — could be found by trying every candidate. The
secret is never in what a player is sent before the end. Entries older
than secrets have none; once begun in a log, secrets go on (Audit checks).

# Schema

Schema version 12. Keys written "u64" are 8-byte big-endian integers, so a
cursor walks them in the order they were appended. Values are JSON unless
said otherwise.

	meta
	    version                  u64 schema version (SchemaVersion)
	games
	    <game id>/               one bucket per game
	        game                 Game: system, scenario, options, players' addresses and
	                             hashed tokens, seed, commitment, status, wait,
	                             deadline, due time, head, counters, the
	                             game service's record (opaque to the
	                             store)
	        log/       u64 seq → Entry (hash-chained)
	        marks/     u64 seq → u64 seq of the rollback that undid it
	        orders/    u64 seq → the order file as received, token redacted
	        snapshots/ u64 seq → the position after that entry: 'z' and
	                             its JSON DEFLATE-compressed, or 'j' and
	                             the JSON as is
	        dice/      u64 n   → Roll
	ledger           u64 seq → Receipt (Message-ID, content hash, game,
	                           outcome, the entry and mails it produced)
	ledger-index     SHA-256 of the Message-ID, content hash → u64
	                           ledger seq
	due              u64 unix nanoseconds, game id → empty: each game
	                           whose Game.Due is set, at it (DB.Due)
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
	quotas           key     → the times a Quota was spent within its
	                           window (made on first use)
	aside/                    shelves kept beside the games by the store's
	    <shelf>/   key → JSON clients (a tournament's record; see Shelf),
	                          created when first written

Open creates the buckets of an empty file and migrates an older file one
version at a time (the migrations slice in db.go says what each version
changed); a file of a newer version is refused with ErrSchema. Where a
hashed entry would have to change (versions 1, 2 and 4), the migration
refuses the game, naming it: finish or export it with the release that
wrote it.

# Outbox and attachments

The outbox is the record of what each side was told, and what the mail
sender reads: a mail is queued in the transaction that caused it, with a
Message-ID fixed then, sent at least once (MarkSentAll after the SMTP server
accepted it; after a crash in between it goes again under the same
Message-ID) and kept after it is sent, for "resend" and for Check, which
ties every mail to the entry or receipt that queued it. A report is some
120 KB as mailed, so the file would soon be mostly mails. Instead, bodies
are stored once each under their SHA-256, counted by the mails holding
them and DEFLATE-compressed on their own (a PNG as it is); and a map
picture, which can be drawn again from the log (Attachment.Redrawable), is
queued without its body and drawn when sent, or dropped once sent, its
hash and size kept. "resend" draws it again from Txn.StateAt and Txn.Entry
with the same code, so the player gets the same picture. A 20-turn game
leaves a file of 4 MB where the mails alone would take 22 MB
(TestTwentyTurnGameSize). Exports never hold mails.

# Export and audit

Export gathers a game into one JSON document (see Export). Audit checks
such a document without the database: the seed against the commitment, every die against the seed,
every order file against its entry, the chain up to the head; it checks the
opening against its dice (Rules.Opening) and replays every order from it,
following rollbacks, through the code Apply ran, comparing every die as the
rules asked for it, every event, every position (each must pass the
rules' Validate) and every next wait; it refuses rules of another system
than the export's (Export.System). The first mismatch is
reported with its entry (and die). The report ends with a dice-luck
summary (see Luck).

# Caveats

Transact runs its function, and Txn.Apply the rules, inside a bbolt write
transaction: they must be quick and must not call the DB (bbolt would
deadlock). Values read from bbolt are copied before they leave a
transaction; nothing returned by the store aliases the file's memory.

The commitment proves the host did not change the dice after the fact; a host
who is also a player could read the seed and foresee rolls, so tournament
games are hosted by the umpire.

Sent mails stay in the outbox and receipts in the ledger: they are the
record Check relies on. The file only grows, apart from the dropped
pictures.
*/
package store
