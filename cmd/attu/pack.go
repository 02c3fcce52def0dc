package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/attu-pbem/attu/store"
)

// The daemon compresses the bodies of the mails it has sent (the store's
// PackSent) when it has nothing else to do: compressing a step's reports
// against their dictionaries costs about as much as drawing them, and on
// a machine of few cores the next player's report would wait for it.
// Under a steady stream of orders the bodies wait, whole, until the
// stream pauses, or until packBacklog mails wait.
const (
	packQuiet   = 300 * time.Millisecond
	packBacklog = 300
)

// sentPacker gathers the sent mails whose bodies are still to compress.
type sentPacker struct {
	db   *store.DB
	log  *slog.Logger
	busy chan struct{} // something happened: the quiet begins again

	mu  sync.Mutex
	ids []uint64
}

func newSentPacker(db *store.DB, log *slog.Logger) *sentPacker {
	return &sentPacker{db: db, log: log, busy: make(chan struct{}, 1)}
}

// sent notes mails just recorded as sent.
func (p *sentPacker) sent(ids []uint64) {
	p.mu.Lock()
	p.ids = append(p.ids, ids...)
	p.mu.Unlock()
	p.touch()
}

// touch says the daemon is at work.
func (p *sentPacker) touch() {
	select {
	case p.busy <- struct{}{}:
	default:
	}
}

// run packs after each quiet spell until ctx ends, then packs what is
// left.
func (p *sentPacker) run(ctx context.Context) {
	t := time.NewTimer(packQuiet)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			p.pack()
			return
		case <-p.busy:
			p.mu.Lock()
			full := len(p.ids) >= packBacklog
			p.mu.Unlock()
			if full {
				p.pack()
			}
			t.Reset(packQuiet)
		case <-t.C:
			p.pack()
		}
	}
}

func (p *sentPacker) pack() {
	p.mu.Lock()
	ids := p.ids
	p.ids = nil
	p.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	if err := p.db.PackSent(ids); err != nil {
		// The bodies stay whole, only larger.
		p.log.Warn("compressing sent mails", "mails", len(ids), "err", err)
	}
}
