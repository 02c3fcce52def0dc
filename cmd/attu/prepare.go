package main

import (
	"context"
	"slices"
	"time"

	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
)

// defaultConnections is daemonConfig.Connections unless configured: the
// most mails of one transaction the preparer sends, one connection each;
// a larger batch is left to the outbox worker. A step queues three
// reports, or four with a notice.
const defaultConnections = 4

// preparer is the store's Preparer while the daemon runs: the reports a
// transaction queues go to the SMTP server while it commits, all but the
// end of their data (mail.Sender.Prepare), and are ended once it has
// committed, or dropped. The outbox worker leaves them alone meanwhile
// (mail.Outbox.Hold); what the server accepted is marked sent, as the
// worker would, and the rest is the worker's again. So a report reaches
// the server as soon as its step is durable, and never before.
func (d *daemon) preparer(ctx context.Context) store.Preparer {
	return func(ms []store.Mail) func(bool) {
		notReady := slices.ContainsFunc(ms, func(m store.Mail) bool { return !preparable(m) })
		if len(ms) == 0 || len(ms) > d.cfg.Connections || d.cfg.Connections < 2 || notReady ||
			!distinctRecipients(ms) || !d.outbox.Idle() {
			// Mail to one address goes out in the order it was
			// queued: the worker sends what it has first, and the
			// whole of a transaction that has a mail it must send.
			return nil
		}
		ids := make([]uint64, len(ms))
		for i, m := range ms {
			ids[i] = m.ID
		}
		d.outbox.Hold(ids...)
		d.sending.Add(1)
		// The batches end in the order their transactions queued them.
		d.prepMu.Lock()
		prev, mine := d.prepLast, make(chan struct{})
		d.prepLast = mine
		d.prepMu.Unlock()
		ready := make(chan *mail.Prepared, 1)
		go func() {
			var send []*mail.Outgoing
			for i := range ms {
				m := &ms[i]
				if !d.svc.DrawFresh(m) {
					// Its picture is not at hand: the worker draws it
					// and sends the mail once the step is durable.
					d.outbox.Release(m.ID)
					ids[i] = 0
					continue
				}
				o := outgoing(*m)
				send = append(send, &o)
			}
			ready <- d.sender.Prepare(ctx, send)
		}()
		return func(committed bool) {
			go func() {
				defer d.sending.Done()
				defer close(mine)
				p := <-ready
				if prev != nil {
					<-prev
				}
				errs := p.Finish(committed)
				var sent []uint64
				k := 0
				for i, id := range ids {
					if id == 0 {
						continue
					}
					if err := errs[k]; err == nil && committed {
						sent = append(sent, id)
						d.log.Info("outbox: sent", "id", id, "message_id", ms[i].MessageID, "to", ms[i].To)
					} else if committed {
						d.log.Warn("outbox: sending failed, the worker will retry", "id", id, "message_id", ms[i].MessageID, "err", err)
					}
					k++
				}
				if len(sent) > 0 {
					if err := d.db.MarkSentAll(sent, time.Now()); err != nil {
						// Sent but not recorded: the worker sends them
						// again, with the same Message-IDs.
						d.log.Error("outbox: recording sent mails", "ids", sent, "err", err)
					}
				}
				d.outbox.Release(ids...)
			}()
		}
	}
}

// preparable says m can be sent from what the transaction gave: every
// attachment has its body, or is a picture the game service drew for it.
func preparable(m store.Mail) bool {
	for _, a := range m.Attachments {
		if a.Data == nil && !a.ToDraw() {
			return false
		}
	}
	return true
}

// distinctRecipients says no two of ms go to one address.
func distinctRecipients(ms []store.Mail) bool {
	seen := map[string]bool{}
	for _, m := range ms {
		for _, to := range m.To {
			if seen[to] {
				return false
			}
			seen[to] = true
		}
	}
	return true
}
