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

// D10 is the die a roll that names no number of faces was rolled as: the
// ten-sided die of War in the Wind (rule 1.2), the only one before rolls
// recorded their faces.
const D10 = 10

// MaxFaces is the largest die Derive can roll: one byte of the stream
// gives one face.
const MaxFaces = 256

// checkFaces returns an error unless n names a die Derive rolls: 2 to
// MaxFaces faces, or 0 for a d10.
func checkFaces(n int) error {
	if n != 0 && (n < 2 || n > MaxFaces) {
		return fmt.Errorf("store: a die of %d faces (want 2 to %d)", n, MaxFaces)
	}
	return nil
}

// Derive returns die number seq of the game with the given seed, rolled
// as a die of faces faces (2 to MaxFaces), as the package documentation
// spells it out: the face, 1 to faces, and the bytes read (every rejected
// byte, then the byte used). A d10 rejects the bytes 250 to 255, as every
// die did before dice of other sizes. Derive panics on any other number of
// faces: the rules choose their die, and Audit checks a recorded one
// before it derives.
func Derive(seed []byte, seq uint64, faces int) (face int, raw []byte) {
	if faces < 2 || faces > MaxFaces {
		panic(fmt.Sprintf("store: a die of %d faces", faces))
	}
	// Below limit each face keeps exactly limit/faces byte values (25
	// for a d10, 42 for a d6); the rest of the byte values are rejected.
	limit := 256 - 256%faces
	for block := uint64(0); ; block++ {
		mac := hmac.New(sha256.New, seed)
		msg := binary.BigEndian.AppendUint64(nil, seq)
		if block > 0 {
			msg = binary.BigEndian.AppendUint64(msg, block)
		}
		mac.Write(msg)
		for _, b := range mac.Sum(nil) {
			raw = append(raw, b)
			if int(b) < limit {
				face = int(b) % faces
				if face == 0 {
					face = faces // rule 1.2: a 0 reads as 10, and on any die as its highest face
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
	// Faces is the number of faces of the die, 0 (absent) for a d10: the
	// dice of every game before other dice keep their bytes.
	Faces int   `json:"faces,omitempty"`
	Raw   []int `json:"raw"`  // the bytes read (see Derive)
	Face  int   `json:"face"` // 1 to the die's faces
}

// Sides is the number of faces the die was rolled with: Faces, or D10 when
// the roll names none.
func (r Roll) Sides() int {
	if r.Faces == 0 {
		return D10
	}
	return r.Faces
}

// Dice is a game's dice source: every die comes from the secret seed and its
// sequence number and is written down. It implements adjudicator.Dice.
type Dice struct {
	seed  []byte
	faces int // 0 for a d10
	next  uint64
	entry uint64
	turn  int
	wait  adjudicator.WaitKind
	rolls []Roll
}

// NewDice returns a source of d10s whose first die is number next, logged
// as rolled by log entry entry during the given turn and wait.
func NewDice(seed []byte, next, entry uint64, turn int, wait adjudicator.WaitKind) *Dice {
	return &Dice{seed: seed, next: next, entry: entry, turn: turn, wait: wait}
}

// WithFaces makes d roll dice of n faces (2 to MaxFaces) in place of
// d10s; 0 keeps the d10. It returns d.
func (d *Dice) WithFaces(n int) *Dice {
	if n == D10 {
		n = 0 // a d10 is written as it always was: faces absent
	}
	d.faces = n
	return d
}

// Roll derives the next die and logs it.
func (d *Dice) Roll(die adjudicator.Die) int {
	r := Roll{Seq: d.next, Entry: d.entry, Turn: d.turn, Wait: d.wait, Die: die, Faces: d.faces}
	face, raw := Derive(d.seed, d.next, r.Sides())
	r.Raw, r.Face = ints(raw), face
	d.rolls = append(d.rolls, r)
	d.next++
	return face
}

// Rolls returns the dice rolled so far.
func (d *Dice) Rolls() []Roll { return d.rolls }

// Next returns the sequence number of the next die.
func (d *Dice) Next() uint64 { return d.next }
