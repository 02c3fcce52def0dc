/*
Package mail is attu's connection to one ordinary mailbox: an
IMAP inbox watched with IDLE (RFC 2177) or polled, the extraction of
orders and commands from incoming mail (RFC 5322, MIME per RFC 2045-2049),
loop and abuse protection (RFC 3834 automatic mail, a per-sender answer
limit, size caps), sender authentication (Authentication-Results of a
trusted receiving server per RFC 8601, DKIM per RFC 6376), and SMTP
sending from the store's outbox with retries.

It imports nothing else of attu: cmd/attu/daemon wires it to the store and
the game service. Sub-package loopback is a small in-memory IMAP and SMTP
system on 127.0.0.1 for the demo and for tests.

# Basics

The inbox hands each new mail to a handler, which fetches it, extracts it
and commits its effects; only then is the mail marked on the server.

	in, err := mail.NewInbox(mail.InboxConfig{
		Addr: "imap.example.org:993", Security: mail.TLS,
		Username: user, Password: pass, Processed: "attu-done",
		OnPosition: savePosition, // keep UIDVALIDITY and the last UID in the store
	}, func(ctx context.Context, m *mail.Incoming) error {
		raw, err := m.Fetch(ctx) // only the header when m.Oversized
		if err != nil {
			return err
		}
		msg, err := mail.Extract(bytes.NewReader(raw), mail.Limits{})
		var limit *mail.LimitError
		switch {
		case errors.As(err, &limit):
			// answer msg.From (if not automatic) with limit.Error()
		case err != nil:
			return nil // nothing to answer: not even a sender
		}
		if auto, _ := mail.IsAutomatic(msg, own); auto {
			return nil // never answer a robot (RFC 3834)
		}
		if v := mail.Authenticate(msg, raw, authConfig); !v.Trusted {
			// a stranger's mail, whatever its From says (v.Why)
		}
		// msg.Orders (a .yaml file or YAML in the body), else msg.Command,
		// else msg.HTMLOnly: explain how to send plain text.
		return commit(msg, raw) // nil once committed; an error retries
	})
	go in.Run(ctx, savedPosition)

Outgoing mail waits in the store; the outbox worker, one goroutine, sends
it once the transaction that queued it has committed.

	s, err := mail.NewSender(mail.SMTPConfig{Addr: "smtp.example.org:587", From: own, Username: user, Password: pass})
	out := mail.NewOutbox(queue, s, mail.OutboxConfig{}) // queue adapts store.DB
	go out.Run(ctx)
	out.Kick() // after queueing mail
	// InboxConfig.OnConnect: out.Wake, so that a network back sends at once

A mail the server could not take for now (unreachable, 4yz) is tried again
within seconds, then less and less often up to a few minutes, its next
attempt kept in the queue: a kick, a Wake or a restart never brings an
attempt forward or counts as one. While the server cannot be reached, the
worker connects to it, offering no mail, every eighth of the time it has
been down (at least RetryMin apart, at most RetryMax), and at each Wake;
once the server answers or takes a mail again, every mail waiting so goes
at once. One refused for good (5yz) waits a minute, doubled up to an hour.

# Caveats

Both directions are at least once. A mail can be offered to the handler
again (the connection broke before it was marked, UIDVALIDITY changed), so
the handler must recognise it — attu's ledger keys on Message-ID and content
hash. A sent mail can be sent again (the store did not record it as sent),
always with the same Message-ID, so the receiving side can recognise it.

Without MOVE and UIDPLUS the inbox cannot remove one mail without risking
others (a plain EXPUNGE removes everything flagged \Deleted), so handled
mail then stays, flagged \Seen. Reading a mailbox from the start (a first
run, or a new UIDVALIDITY) skips mail already \Seen when handled mail stays
in the mailbox; above the saved position \Seen is not trusted, since a
person may read the mailbox too.

A provider that takes no password is signed in to with OAuth (the configs'
OAuth): a command prints an access token before each login; none is kept.
Plaintext (Security Plain) is refused for anything but a loopback address.
No raw IMAP or SMTP traffic is logged: it would carry the password.
*/
package mail
