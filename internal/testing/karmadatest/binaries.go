package karmadatest

import "github.com/hanzoai/driftboard/internal/testing/testcluster"

// Version is the folder 'make testenv' builds Karmada's servers into.
const Version = "karmada-v1.18.2"

// EnvVar names the environment variable that points at that bin folder.
const EnvVar = "DRIFTBOARD_KARMADA"

var requiredBinaries = []string{"karmada-search", "karmada-aggregated-apiserver"}

// findBinDir returns the folder holding Karmada's binaries: $DRIFTBOARD_KARMADA,
// else .testenv/<Version>/bin in the working directory or one of its parents.
func findBinDir() (string, error) {
	return testcluster.FindBinDir(EnvVar, Version, requiredBinaries...)
}
