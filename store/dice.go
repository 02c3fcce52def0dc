package store

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/attu-pbem/attu/adjudicator"
)

// SeedSize is the length in bytes of a game's secret seed.
const SeedSize = 32

// NewSeed draws a game's secret seed from crypto/rand.
func NewSeed() ([]byte, error) {
	seed := make([]byte, SeedSize)
	if _, err := rand.Read(seed); err != nil {
		return nil, fmt.Errorf("store: drawing a seed: %w", err)
	}
	return seed, nil
}

// Commitment returns SHA-256(seed) in lower-case hex: what the players
// receive when the game is created.
func Commitment(seed []byte) string {
	sum := sha256.Sum256(seed)
	return hex.EncodeToString(sum[:])
}

// Derive returns die number seq of the game with the given seed, as the
// package documentation spells it out: the face, 1 to 10, and the bytes
// read (every rejected byte, then the byte used).
func Derive(seed []byte, seq uint64) (face int, raw []byte) {
	for block := uint64(0); ; block++ {
		mac := hmac.New(sha256.New, seed)
		msg := binary.BigEndian.AppendUint64(nil, seq)
		if block > 0 {
			msg = binary.BigEndian.AppendUint64(msg, block)
		}
		mac.Write(msg)
		for _, b := range mac.Sum(nil) {
			raw = append(raw, b)
			if b < 250 { // 250 = 25 × 10: every face keeps exactly 25 byte values
				face = int(b % 10)
				if face == 0 {
					face = 10 // rule 1.2: a 0 reads as 10
				}
				return face, raw
			}
		}
	}
}

// Roll is one die in a game's dice log: where it was rolled, what the rules
// asked for (its Die, written inline) and how it fell.
type Roll struct {
	Seq   uint64               `json:"seq"`   // the die's sequence number, from 1
	Entry uint64               `json:"entry"` // the log entry whose step rolled it
	Turn  int                  `json:"turn"`  // the turn and wait the game was in
	Wait  adjudicator.WaitKind `json:"wait"`
	adjudicator.Die
	Raw  []int `json:"raw"`  // the bytes read (see Derive)
	Face int   `json:"face"` // 1 to 10
}

// Dice is a game's dice source: every die comes from the secret seed and its
// sequence number and is written down. It implements adjudicator.Dice.
type Dice struct {
	seed  []byte
	next  uint64
	entry uint64
	turn  int
	wait  adjudicator.WaitKind
	rolls []Roll
}

// NewDice returns a source whose first die is number next, logged as rolled
// by log entry entry during the given turn and wait.
func NewDice(seed []byte, next, entry uint64, turn int, wait adjudicator.WaitKind) *Dice {
	return &Dice{seed: seed, next: next, entry: entry, turn: turn, wait: wait}
}

// Roll derives the next die and logs it.
func (d *Dice) Roll(die adjudicator.Die) int {
	face, raw := Derive(d.seed, d.next)
	d.rolls = append(d.rolls, Roll{Seq: d.next, Entry: d.entry, Turn: d.turn, Wait: d.wait, Die: die, Raw: ints(raw), Face: face})
	d.next++
	return face
}

// Rolls returns the dice rolled so far.
func (d *Dice) Rolls() []Roll { return d.rolls }

// Next returns the sequence number of the next die.
func (d *Dice) Next() uint64 { return d.next }
