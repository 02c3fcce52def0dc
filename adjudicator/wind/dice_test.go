package wind

import "testing"

// HitNeed agrees with IsHit for every modifier: the faces from Need up hit,
// the faces below it miss.
func TestHitNeed(t *testing.T) {
	for drm := -12; drm <= 12; drm++ {
		need := HitNeed(drm)
		for face := 1; face <= 10; face++ {
			if IsHit(face, drm) != (face >= need) {
				t.Errorf("modifier %+d: need %d, but face %d hits is %v", drm, need, face, IsHit(face, drm))
			}
		}
	}
}
