package testcluster

import (
	"fmt"
	"os"
	"path/filepath"
)

// Version is the folder 'make testenv' builds the control-plane binaries into,
// keyed by the versions it pins.
const Version = "k8s-v1.37.2_etcd-v3.7.3_kwok-v0.8.0"

// EnvVar names the environment variable that points at the bin folder.
const EnvVar = "DRIFTBOARD_TESTENV"

var requiredBinaries = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubectl", "kwok"}

// findBinDir returns the folder holding every control-plane binary: $DRIFTBOARD_TESTENV,
// else .testenv/<Version>/bin in the working directory or one of its parents.
func findBinDir() (string, error) { return FindBinDir(EnvVar, Version, requiredBinaries...) }

// FindBinDir returns the folder 'make testenv' built names into: $envVar,
// else .testenv/<version>/bin in the working directory or one of its
// parents; the error says which binary is missing or not executable.
func FindBinDir(envVar, version string, names ...string) (string, error) {
	if dir := os.Getenv(envVar); dir != "" {
		return dir, checkBinaries(dir, names)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	rel := filepath.Join(".testenv", version, "bin")
	for dir := wd; ; dir = filepath.Dir(dir) {
		candidate := filepath.Join(dir, rel)
		if _, err := os.Stat(candidate); err == nil {
			return candidate, checkBinaries(candidate, names)
		}
		if filepath.Dir(dir) == dir {
			return filepath.Join(wd, rel), fmt.Errorf("no %s in %s or any parent", rel, wd)
		}
	}
}

func checkBinaries(dir string, names []string) error {
	for _, name := range names {
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

// stagesDir is where build.sh copies kwok's stage definitions: beside bin/.
func stagesDir(binDir string) string {
	return filepath.Join(filepath.Dir(binDir), "stages")
}
