package demo

// moveFloatingTags pushes one new build under every other floating tag
// after the pods pulled it, as CI does between restarts: those Apps open
// with "running digest ≠ tag digest" in the detail, the drift a tag
// comparison cannot see, while the others show digests that agree.
func (s *sim) moveFloatingTags() {
	seen := map[string]bool{}
	n := 0
	for _, a := range s.plan.apps {
		ref := a.repo + ":" + a.running
		if a.sc != scFloating || a.repo == "" || seen[ref] {
			continue
		}
		seen[ref] = true
		if n%2 == 0 {
			s.reg.push(a.repo, a.running)
		}
		n++
	}
}
