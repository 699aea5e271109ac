package karmadatest

import (
	"fmt"
	"os"
	"path/filepath"
)

// Version is the folder 'make testenv' builds Karmada's servers into.
const Version = "karmada-v1.18.2"

// EnvVar names the environment variable that points at that bin folder.
const EnvVar = "DRIFTBOARD_KARMADA"

var requiredBinaries = []string{"karmada-search", "karmada-aggregated-apiserver"}

// findBinDir returns the folder holding Karmada's binaries: $DRIFTBOARD_KARMADA,
// else .testenv/<Version>/bin in the working directory or one of its parents.
func findBinDir() (string, error) {
	if dir := os.Getenv(EnvVar); dir != "" {
		return dir, checkBinaries(dir)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	rel := filepath.Join(".testenv", Version, "bin")
	for dir := wd; ; dir = filepath.Dir(dir) {
		candidate := filepath.Join(dir, rel)
		if _, err := os.Stat(candidate); err == nil {
			return candidate, checkBinaries(candidate)
		}
		if filepath.Dir(dir) == dir {
			return filepath.Join(wd, rel), fmt.Errorf("no %s in %s or any parent", rel, wd)
		}
	}
}

func checkBinaries(dir string) error {
	for _, name := range requiredBinaries {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if info.IsDir() || info.Mode()&0o111 == 0 {
			return fmt.Errorf("%s is not an executable file", filepath.Join(dir, name))
		}
	}
	return nil
}
