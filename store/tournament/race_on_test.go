//go:build race

package tournament

// raceDetector is true when the tests run under the race detector.
const raceDetector = true
