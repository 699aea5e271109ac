package model

import (
	"strings"
	"testing"
)

// Digests are compared with the declared tag's only when the pods run that
// tag: pods on another tag, or maybe on two while a rollout is under way,
// differ from it as their tags do, which is no registry drift.
func TestDigestCheckComparesLikeWithLike(t *testing.T) {
	t.Parallel()
	a, b := "sha256:"+strings.Repeat("a", 64), "sha256:"+strings.Repeat("b", 64)
	for _, tc := range []struct {
		name              string
		running           string
		rollout           RolloutState
		digests           []string
		note, notCompared string // substrings; "" = empty
	}{
		{"same tag, moved", "v1.3.0", RolloutComplete, []string{a}, "running digest ≠ tag digest", ""},
		{"same tag, agrees", "v1.3.0", RolloutComplete, []string{b}, "", ""},
		{"same tag, mixed", "v1.3.0", RolloutComplete, []string{a, b}, "running digest ≠ tag digest", ""},
		{"another tag", "v1.2.0", RolloutComplete, []string{a}, "", "the tag digest is the declared v1.3.0's, the pods run v1.2.0"},
		{"another tag, same image", "v1.2.0", RolloutComplete, []string{b}, "", ""},
		{"another tag, mixed", "v1.2.0", RolloutComplete, []string{a, b}, "pods run 2 different digests under one tag", "the pods run v1.2.0"},
		{"rolling", "v1.3.0", RolloutProgressing, []string{a, b}, "", "while a rollout is under way"},
		{"stuck", "v1.3.0", RolloutStuck, []string{a}, "", "while a rollout is under way"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := &AppView{DeclaredTag: "v1.3.0", RunningTag: tc.running, Release: Release{TagDigest: b},
				Workload: WorkloadView{Found: true, Rollout: tc.rollout}}
			c := v.DigestCheck(tc.digests)
			for what, got := range map[string][2]string{"Note": {c.Note(), tc.note}, "NotCompared": {c.NotCompared(), tc.notCompared}} {
				if got[1] == "" && got[0] != "" || !strings.Contains(got[0], got[1]) {
					t.Errorf("%s = %q, want %q", what, got[0], got[1])
				}
			}
		})
	}
}
